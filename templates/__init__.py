"""Jinja templates and static files of the published site (shipped inside the package)."""

"""The web app (``keizer serve``)."""

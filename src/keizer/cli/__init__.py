"""The ``keizer`` command: thin click commands over the operations, store and formats.

``commands`` holds the group and the everyday commands; the other modules are
command groups imported only when used (``keizer trf``, ``keizer team`` …).
"""

from keizer.cli.commands import cli, main

__all__ = ["cli", "main"]

"""The ``keizer`` command: thin click commands over the operations, store and formats.

``commands`` holds the group, which registers the everyday commands of the topic
modules (``members``, ``competitions``, ``rounds``, ``standings``, ``events``, ``io``;
their shared helpers are in ``base``); the other modules are command groups
imported only when used (``keizer trf``, ``keizer team`` …).
"""

from keizer.cli.commands import cli, main

__all__ = ["cli", "main"]

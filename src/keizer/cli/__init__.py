"""The ``keizer`` command: thin click commands over the operations, store and formats.

``commands`` holds the group, which registers the everyday commands of the topic
modules (``members``, ``competitions``, ``rounds``, ``standings``, ``events``, ``io``;
their shared helpers are in ``base``); the other modules are command groups
imported only when used (``keizer trf``, ``keizer team`` …).  ``keizer trf pair``
with plain arguments runs without click (:mod:`keizer.cli.trf_pair`): a pairing
program starts it once per round.
"""

from __future__ import annotations

import gc
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from keizer.cli.commands import cli

__all__ = ["cli", "main"]


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; user errors become one line on stderr and exit status 1."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:2] == ["trf", "pair"]:
        from keizer.cli.trf_pair import pair_quickly

        if pair_quickly(args[2:]):
            return
    from keizer.cli.commands import main as run

    try:
        run(args)
    finally:
        if argv is None:  # the command's own process, about to end
            # The collector's last passes would walk every object the command made, for nothing:
            # 0.8 s of CPU after a publish at 600 players × 52 rounds (the standings and careers).
            gc.freeze()


def __getattr__(name: str) -> Any:
    """``cli``, the click group, imported when first asked for (not by ``keizer trf pair``)."""
    if name == "cli":
        from keizer.cli import commands

        return commands.cli
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

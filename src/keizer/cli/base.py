"""What every ``keizer`` command module shares: the :class:`Context` (the database and
the competition given on the command line), ``pass_ctx``, ``writing`` (one logged
transaction) and the ``--format`` option.

The group itself is in :mod:`keizer.cli.commands`; the command modules import from
here, not from there, so that no module-level import circle arises.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from typing import Callable, TypeVar

import click

from keizer.output import FORMATS
from keizer.refusals import Message

if TYPE_CHECKING:  # the store is imported when a command opens it: 'keizer trf …' never does
    from keizer.store import Store


class Context:
    def __init__(self, db: str, competition: str | None):
        self.db = Path(db)
        self.competition_ref = competition
        self._store: Store | None = None
        #: The command made the file (it did not exist): a command that fails removes it again.
        self.created = False
        self.writing = False  # inside writing(): the competition a command fetches is the one it writes

    def store(self, create: bool = False, replace_empty: bool = False) -> Store:
        from keizer.store import Store

        if self._store is None:
            # A new file's schema stays uncommitted like an upgrade (defer_upgrade): it is
            # committed with the command's change, in one transaction, when the command succeeds.
            self._store = Store.open(self.db, create=create, defer_upgrade=True, replace_empty=replace_empty)
            # made by this command, not by another that made it while this one waited for the file
            self.created = self._store.made
        return self._store

    def comp(self, store: Store) -> dict[str, Any]:
        row = store.competition(self.competition_ref)
        if self.writing:  # every command writes its competition through here: a closed one is refused
            from keizer.operations.seasons import refuse_closed

            refuse_closed(row)
            store.subject = row["name"]  # the log says which competition the change is about
        return row


pass_ctx = click.make_pass_decorator(Context)
format_option = click.option(
    "--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True, help="Output format."
)

_F = TypeVar("_F", bound=Callable[..., Any])


def leave_fide_options(command: _F) -> _F:
    """``--leave-fide-rules`` and ``--yes``: a change that takes a competition in FIDE mode out of
    the FIDE rules is refused without the first, and asked about unless the second is given."""
    command = click.option("-y", "--yes", is_flag=True, help="With --leave-fide-rules: do not ask.")(command)
    return click.option("--leave-fide-rules", is_flag=True,
                        help="Confirm a change that leaves the FIDE rules (a competition in FIDE mode leaves "
                             "them for good; logged, and said in its TRF file).")(command)


def confirm_leaving(leave: bool, yes: bool) -> None:
    """The second confirmation of leaving the FIDE rules: asked before anything is opened."""
    if leave and not yes:
        click.confirm("A competition in FIDE mode leaves the FIDE rules for good with this change. Go on?",
                      abort=True)


@contextmanager
def writing(ctx: Context, command: str, summary: str | Message, create: bool = False) -> Iterator[Store]:
    store = ctx.store(create=create)
    # The log's summary quotes the arguments: the store makes bytes that are not UTF-8 (a file name) '?'.
    ctx.writing = True
    try:
        with store.change(command, summary):
            yield store
    finally:
        ctx.writing = False


class DryRun(Exception):
    """Raised inside the transaction so that a dry run writes nothing."""

"""The season database: the only package that speaks SQL.

One SQLite file holds members, competitions, players, rounds, attendance and
games.  Every write goes through :meth:`Store.change`, one transaction that
also records what changed: triggers log the SQL that reverts each row change
(the technique of sqlite.org's "Automatic Undo/Redo Using SQLite"), so
``keizer undo`` can revert the last command exactly.

:class:`Store` is made of one part per concern, each a module here: the file
and the connection (database), the schema and opening a file (schema), the
change log (changes), and the data: members, competitions with their players,
rounds, teams, and what the web app keeps (web).

>>> store = Store.memory()
>>> with store.change("member add", "add Anna"):
...     anna = store.add_member("Anna de Vries", rating=1850)
>>> store.member(anna)["name"]
'Anna de Vries'
>>> store.undo()
'add Anna'
>>> store.members()
[]
"""

from __future__ import annotations

from keizer.model import Season
from keizer.store.backups import backup, kept_before_restore, restore
from keizer.store.changes import Changes
from keizer.store.competitions import SYSTEMS
from keizer.store.database import StoreError, explain, explained, generation
from keizer.store.names import pick_by_name
from keizer.store.rounds import Rounds
from keizer.store.schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION, Schema
from keizer.store.teams import Teams

#: What the rest of keizer imports from the store.
__all__ = ["APPLICATION_ID", "MIGRATIONS", "SCHEMA_VERSION", "SYSTEMS", "Store", "StoreError", "backup", "explain",
           "explained", "generation", "kept_before_restore", "pick_by_name", "restore"]


class Store(Schema, Rounds, Teams, Changes):
    """A season database."""

    def load_season(self, comp_id: int) -> Season:
        """The competition as the engines see it, read once per state of the file.

        An operation, a page or a command that asks again (the pairing page for its list
        and its standing, ``keizer pair`` for the attendance and then the pairing) gets the
        same frozen :class:`Season` while nothing changed: no row written by this connection
        (``total_changes``), no commit of another (``PRAGMA data_version``), and no write
        rolled back — a rollback leaves ``total_changes`` as it was, but removes the undo
        entries of what it reverted, so the last undo entry's id is part of the state.

        >>> store = Store.memory()
        >>> with store.change("competition create", "create"):
        ...     cid = store.create_competition("Interne", "classic", {})
        >>> store.load_season(cid) is store.load_season(cid)
        True
        """
        state = self.file_state()
        kept = self._seasons.get(comp_id)
        if kept is not None and kept[0] == state:
            return kept[1]
        season = super().load_season(comp_id)
        self._seasons[comp_id] = (state, season)
        return season

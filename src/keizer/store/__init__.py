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

from keizer.store.backups import backup
from keizer.store.changes import Changes
from keizer.store.competitions import SYSTEMS
from keizer.store.database import StoreError, explain, generation
from keizer.store.names import pick_by_name
from keizer.store.rounds import Rounds
from keizer.store.schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION, Schema
from keizer.store.teams import Teams

#: What the rest of keizer imports from the store.
__all__ = ["APPLICATION_ID", "MIGRATIONS", "SCHEMA_VERSION", "SYSTEMS", "Store", "StoreError", "backup", "explain",
           "generation", "pick_by_name"]


class Store(Schema, Rounds, Teams, Changes):
    """A season database."""

"""The teams of a team event: their players by board, and the matches of each round."""

from __future__ import annotations

from typing import Any

from keizer.store.competitions import _PLAYER_RATING
from keizer.store.database import Database, StoreError, _rowid
from keizer.store.names import _clean_name


class Teams(Database):
    """Teams, their line-ups and their matches."""

    def add_team(self, comp_id: int, name: str) -> int:
        name = _clean_name(name)
        if self._row("SELECT id FROM teams WHERE competition_id = ? AND name = ?", (comp_id, name)):
            raise StoreError("a team named %(name)s exists already in this competition", name=repr(name))
        start_no = self.conn.execute(
            "SELECT coalesce(max(start_no), 0) + 1 FROM teams WHERE competition_id = ?", (comp_id,)).fetchone()[0]
        cur = self.conn.execute("INSERT INTO teams (competition_id, name, start_no) VALUES (?, ?, ?)",
                                (comp_id, name, start_no))
        return _rowid(cur)

    def set_team_members(self, team_id: int, members: list[tuple[int, int, bool]]) -> None:
        """The team's players as (player id, board, reserve), replacing earlier ones."""
        self.conn.execute("DELETE FROM team_members WHERE team_id = ?", (team_id,))
        for player_id, board, reserve in members:
            self.conn.execute("INSERT INTO team_members (team_id, player_id, board, reserve) VALUES (?, ?, ?, ?)",
                              (team_id, player_id, board, int(reserve)))

    def teams(self, comp_id: int) -> list[dict[str, Any]]:
        """Teams in start order, each with ``members``: rows of player key, name, board, reserve."""
        teams = self._rows("SELECT id, name, start_no FROM teams WHERE competition_id = ? ORDER BY start_no",
                           (comp_id,))
        for team in teams:
            team["members"] = self._rows(
                f"SELECT p.id AS player_id, p.key, m.name, {_PLAYER_RATING} AS rating, t.board, t.reserve "
                "FROM team_members t JOIN players p ON p.id = t.player_id JOIN members m ON m.id = p.member_id "
                "JOIN competitions c ON c.id = p.competition_id "
                "WHERE t.team_id = ? ORDER BY t.reserve, t.board", (team["id"],))
        return teams

    def add_team_match(self, comp_id: int, number: int, match: int, first: int, second: int | None) -> None:
        self.conn.execute(
            "INSERT INTO team_matches (competition_id, round, number, first_team, second_team) VALUES (?, ?, ?, ?, ?)",
            (comp_id, number, match, first, second))

    def team_matches(self, comp_id: int) -> list[dict[str, Any]]:
        return self._rows(
            "SELECT round, number, first_team, second_team FROM team_matches WHERE competition_id = ? "
            "ORDER BY round, number", (comp_id,))

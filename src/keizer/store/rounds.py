"""The rounds of a competition: their dates, the players' attendance and the games."""

from __future__ import annotations

from typing import Any, Mapping

from keizer.store.competitions import Competitions
from keizer.store.database import StoreError
from keizer.store.web import WebApp


class Rounds(Competitions, WebApp):
    """Rounds, attendance and games; built on the competitions (the first game starts one)
    and on the web app's boards (a board's link dies with its game)."""

    def round_numbers(self, comp_id: int) -> list[int]:
        return [r[0] for r in self.conn.execute(
            "SELECT number FROM rounds WHERE competition_id = ? ORDER BY number", (comp_id,))]

    def ensure_round(self, comp_id: int, number: int, date: str | None = None) -> None:
        existing = self._row("SELECT date FROM rounds WHERE competition_id = ? AND number = ?", (comp_id, number))
        if existing is None:
            rounds = self.round_numbers(comp_id)
            if number != (rounds[-1] + 1 if rounds else 1):
                raise StoreError("round %(n)s cannot be created: the next round is %(next)s", n=number,
                                 next=len(rounds) + 1)
            self.conn.execute("INSERT INTO rounds (competition_id, number, date) VALUES (?, ?, ?)",
                              (comp_id, number, date))
        elif date is not None and existing["date"] != date:
            self.conn.execute("UPDATE rounds SET date = ? WHERE competition_id = ? AND number = ?",
                              (date, comp_id, number))

    def delete_round(self, comp_id: int, number: int) -> None:
        """Remove a round with its games and attendance."""
        for table in ("games", "attendance", "team_matches"):
            self.conn.execute(f"DELETE FROM {table} WHERE competition_id = ? AND round = ?", (comp_id, number))
        self.conn.execute("DELETE FROM rounds WHERE competition_id = ? AND number = ?", (comp_id, number))

    def round_date(self, comp_id: int, number: int) -> str | None:
        row = self._row("SELECT date FROM rounds WHERE competition_id = ? AND number = ?", (comp_id, number))
        return row["date"] if row else None

    def round_dates(self) -> list[str]:
        """Every date a round of any competition is played on, in order."""
        return [r[0] for r in self.conn.execute("SELECT DISTINCT date FROM rounds WHERE date IS NOT NULL ORDER BY date")]

    def set_attendance(self, comp_id: int, number: int, player_id: int, status: str | None,
                       external_result: str | None = None) -> None:
        """Record (or with ``status=None`` clear) one player's attendance in a round."""
        self.conn.execute("DELETE FROM attendance WHERE competition_id = ? AND round = ? AND player_id = ?",
                          (comp_id, number, player_id))
        if status is not None:
            self.conn.execute(
                "INSERT INTO attendance (competition_id, round, player_id, status, external_result) VALUES (?, ?, ?, ?, ?)",
                (comp_id, number, player_id, status, external_result))

    def set_round_attendance(self, comp_id: int, number: int, marks: Mapping[int, tuple[str, str | None]]) -> None:
        """Record many players' attendance in a round at once, as (status, external result)
        by player id: two statements for the lot (an import of a large season)."""
        self.conn.executemany("DELETE FROM attendance WHERE competition_id = ? AND round = ? AND player_id = ?",
                              [(comp_id, number, pid) for pid in marks])
        self.conn.executemany(
            "INSERT INTO attendance (competition_id, round, player_id, status, external_result) VALUES (?, ?, ?, ?, ?)",
            [(comp_id, number, pid, status, ext) for pid, (status, ext) in marks.items()])

    def attendance(self, comp_id: int, number: int) -> dict[int, tuple[str, str | None]]:
        return {
            r[0]: (r[1], r[2])
            for r in self.conn.execute(
                "SELECT player_id, status, external_result FROM attendance WHERE competition_id = ? AND round = ?",
                (comp_id, number))
        }

    def games(self, comp_id: int, number: int) -> list[dict[str, Any]]:
        return self._rows(
            "SELECT board, white, black, result, match, stage FROM games WHERE competition_id = ? AND round = ? "
            "ORDER BY board", (comp_id, number))

    def add_game(self, comp_id: int, number: int, board: int, white: int, black: int,
                 result: str | None = None, match: int | None = None, stage: str | None = None) -> None:
        self.start(comp_id)  # the first game freezes ratings and the initial order
        self.conn.execute(
            "INSERT INTO games (competition_id, round, board, white, black, result, match, stage) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (comp_id, number, board, white, black, result, match, stage))

    def set_result(self, comp_id: int, number: int, board: int, result: str | None) -> None:
        self.conn.execute("UPDATE games SET result = ? WHERE competition_id = ? AND round = ? AND board = ?",
                          (result, comp_id, number, board))

    def delete_games(self, comp_id: int, number: int, boards: list[int] | None = None) -> None:
        if boards is None:
            self.conn.execute("DELETE FROM games WHERE competition_id = ? AND round = ?", (comp_id, number))
        else:
            for board in boards:
                self.conn.execute("DELETE FROM games WHERE competition_id = ? AND round = ? AND board = ?",
                                  (comp_id, number, board))
        self.forget_boards(comp_id, number, boards)  # the links printed for those boards die with them

    def update_game(self, comp_id: int, number: int, board: int, white: int, black: int) -> None:
        self.conn.execute(
            "UPDATE games SET white = ?, black = ? WHERE competition_id = ? AND round = ? AND board = ?",
            (white, black, comp_id, number, board))
        self.forget_boards(comp_id, number, [board])  # its printed slip names other players now

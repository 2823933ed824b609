"""What the web app keeps: its accounts, the members' personal links and their notices of
absence, and the boards' result links with the results the players report."""

from __future__ import annotations

from typing import Any

from keizer.limits import name_order
from keizer.store.database import Database, StoreError, _rowid
from keizer.store.names import _clean_name


class WebApp(Database):
    """Accounts, links, notices and reports of the web app."""

    # -- members' personal links and absence notices ---------------------------

    def add_member_link(self, member_id: int, token_hash: str, mail: bool = False) -> int:
        """A member's personal link (only the SHA-256 of its token is stored); ``mail``: made
        for the week's mail."""
        cur = self.conn.execute("INSERT INTO member_links (member_id, token_hash, created) VALUES (?, ?, ?)",
                                (member_id, token_hash, self.clock()))
        if mail:
            self.conn.execute("INSERT INTO mail_links (link_id) VALUES (?)", (_rowid(cur),))
        return _rowid(cur)

    def revoke_member_links(self, member_id: int, mail_only: bool = False) -> int:
        """Revoke the member's links that are still in force (only those made for a mail);
        returns how many."""
        only = " AND id IN (SELECT link_id FROM mail_links)" if mail_only else ""
        return self.conn.execute("UPDATE member_links SET revoked = ? WHERE member_id = ? AND revoked IS NULL" + only,
                                 (self.clock(), member_id)).rowcount

    def member_link(self, token_hash: str) -> dict[str, Any] | None:
        return self._row("SELECT l.id, l.member_id, l.created, l.revoked, m.name FROM member_links l "
                         "JOIN members m ON m.id = l.member_id WHERE l.token_hash = ?", (token_hash,))

    def member_links(self) -> list[dict[str, Any]]:
        """The links the officer made that are in force (not revoked), one row per link, with the
        member's name (a link made for a mail is the mail's)."""
        rows = self._rows("SELECT l.id, l.member_id, l.created, m.name FROM member_links l "
                          "JOIN members m ON m.id = l.member_id WHERE l.revoked IS NULL "
                          "AND l.id NOT IN (SELECT link_id FROM mail_links) ORDER BY l.id")
        return sorted(rows, key=lambda r: name_order(r["name"]))

    # -- members' e-mail, check-ins and the mail log ----------------------------

    def member_mail(self, member_id: int | None = None) -> dict[int, dict[str, Any]]:
        """Member id → its e-mail address (or None) and whether it opted out of the week's mail
        (of every member, or of ``member_id`` alone)."""
        only = "" if member_id is None else " WHERE m.id = ?"
        return {r["id"]: r for r in self._rows("SELECT m.id, d.address AS email, coalesce(d.opt_out, 0) AS opt_out "
                                                "FROM members m LEFT JOIN member_mail d ON d.member_id = m.id" + only,
                                                () if member_id is None else (member_id,))}

    def set_member_mail(self, member_id: int, email: str | None, opt_out: bool) -> bool:
        """A member's e-mail address and opt-out; False when both were so already."""
        return self.conn.execute("INSERT INTO member_mail (member_id, address, opt_out) VALUES (?, ?, ?) "
                                 "ON CONFLICT (member_id) DO UPDATE SET address = excluded.address, "
                                 "opt_out = excluded.opt_out WHERE address IS NOT excluded.address "
                                 "OR opt_out IS NOT excluded.opt_out", (member_id, email, int(opt_out))).rowcount > 0

    def add_checkin(self, comp_id: int, number: int, player_id: int) -> bool:
        """A player checked in for a round; False when they had already (the first time stays)."""
        return self.conn.execute("INSERT INTO checkins (competition_id, round, player_id, at) VALUES (?, ?, ?, ?) "
                                 "ON CONFLICT DO NOTHING", (comp_id, number, player_id, self.clock())).rowcount > 0

    def checkins(self, comp_id: int, number: int) -> dict[int, str]:
        """Player id → when the player checked in for the round."""
        return {r[0]: r[1] for r in self.conn.execute(
            "SELECT player_id, at FROM checkins WHERE competition_id = ? AND round = ?", (comp_id, number))}

    def app_secret(self, name: str) -> str:
        """A random key the file was given when it was made or upgraded (schema 11)."""
        row = self.conn.execute("SELECT value FROM app_secrets WHERE name = ?", (name,)).fetchone()
        if row is None:
            raise StoreError("this file has no %(name)s key; upgrade it with this keizer", name=name)
        return str(row[0])

    def log_mail(self, comp_id: int, number: int, member_id: int | None, name: str, address: str, subject: str,
                 status: str, reason: str | None = None) -> None:
        """One mail sent (or not: ``status`` 'failed' with the reason) to a member."""
        self.conn.execute("INSERT INTO mail_log (at, competition_id, round, member_id, name, address, subject, status, "
                          "reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                          (self.clock(), comp_id, number, member_id, name, address, subject, status, reason))

    def mail_log(self, comp_id: int, limit: int = 200) -> list[dict[str, Any]]:
        """The mails of a competition, the latest first."""
        return self._rows("SELECT at, round, name, address, subject, status, reason FROM mail_log "
                          "WHERE competition_id = ? ORDER BY id DESC LIMIT ?", (comp_id, limit))

    def add_notice(self, member_id: int, date: str, via: str) -> bool:
        """Record a member's notice of absence on ``date``; False when it was there already
        (the first notice keeps its time, which decides whether it came in time)."""
        cur = self.conn.execute("INSERT INTO notices (member_id, date, sent, via) VALUES (?, ?, ?, ?) "
                                "ON CONFLICT (member_id, date) DO NOTHING", (member_id, date, self.clock(), via))
        return cur.rowcount > 0

    def remove_notice(self, member_id: int, date: str) -> bool:
        return self.conn.execute("DELETE FROM notices WHERE member_id = ? AND date = ?",
                                 (member_id, date)).rowcount > 0

    def notices(self, member_id: int | None = None, date: str | None = None,
                since: str | None = None) -> list[dict[str, Any]]:
        """Notices of absence (of one member, on one date, from a date on), by date and name."""
        where, params = [], []
        for clause, value in (("n.member_id = ?", member_id), ("n.date = ?", date), ("n.date >= ?", since)):
            if value is not None:
                where.append(clause)
                params.append(value)
        return self._rows("SELECT n.id, n.member_id, m.name, n.date, n.sent, n.via FROM notices n "
                          "JOIN members m ON m.id = n.member_id "
                          f"{'WHERE ' + ' AND '.join(where) if where else ''} "
                          "ORDER BY n.date, m.name COLLATE NOCASE", tuple(params))

    # -- boards' result links and the players' reports -------------------------

    def add_board_link(self, comp_id: int, number: int, board: int, code_hash: str) -> None:
        """A board's result link (only the SHA-256 of its code is stored), replacing its earlier one."""
        self.conn.execute("DELETE FROM board_links WHERE competition_id = ? AND round = ? AND board = ?",
                          (comp_id, number, board))
        self.conn.execute("INSERT INTO board_links (competition_id, round, board, code_hash) VALUES (?, ?, ?, ?)",
                          (comp_id, number, board, code_hash))

    def board_link(self, code_hash: str) -> dict[str, Any] | None:
        """The board a link's code hash leads to: competition_id, round, board."""
        return self._row("SELECT competition_id, round, board FROM board_links WHERE code_hash = ?", (code_hash,))

    def board_links(self, comp_id: int, number: int) -> list[int]:
        """The boards of a round that have a result link."""
        return [r[0] for r in self.conn.execute(
            "SELECT board FROM board_links WHERE competition_id = ? AND round = ? ORDER BY board", (comp_id, number))]

    def set_board_report(self, comp_id: int, number: int, board: int, side: str, result: str,
                         reporter: str | None = None) -> None:
        """One player's report of a board's result (``reporter``: which phone sent it); a second
        one from the same side replaces it."""
        self.conn.execute(
            "INSERT INTO board_reports (competition_id, round, board, side, result, at, reporter) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (competition_id, round, board, side) "
            "DO UPDATE SET result = excluded.result, at = excluded.at, reporter = excluded.reporter",
            (comp_id, number, board, side, result, self.clock(), reporter))

    def board_reports(self, comp_id: int, number: int) -> list[dict[str, Any]]:
        """The players' reports of a round: board, side, result, at, reporter."""
        return self._rows("SELECT board, side, result, at, reporter FROM board_reports WHERE competition_id = ? AND round = ? "
                          "ORDER BY board, side DESC", (comp_id, number))

    def forget_boards(self, comp_id: int, number: int, boards: list[int] | None = None) -> None:
        """A board whose pairing is removed or changed loses its link and its players' reports."""
        for table in ("board_links", "board_reports"):
            if boards is None:
                self.conn.execute(f"DELETE FROM {table} WHERE competition_id = ? AND round = ?", (comp_id, number))
            else:
                self.conn.executemany(f"DELETE FROM {table} WHERE competition_id = ? AND round = ? AND board = ?",
                                      [(comp_id, number, board) for board in boards])

    # -- web accounts ---------------------------------------------------------

    def add_user(self, name: str, role: str, password_hash: str) -> int:
        name = _clean_name(name)
        if self.user(name) is not None:
            raise StoreError("there is already a user %(user)s; choose another name or change the password",
                             hint="store_user_password", user=repr(name), name=name)
        cur = self.conn.execute("INSERT INTO users (name, role, password_hash, created) VALUES (?, ?, ?, ?)",
                                (name, role, password_hash, self.clock()))
        return _rowid(cur)

    def user(self, name: str) -> dict[str, Any] | None:
        return self._row("SELECT id, name, role, password_hash, created FROM users WHERE name = ?", (name,))

    def users(self) -> list[dict[str, Any]]:
        return self._rows("SELECT id, name, role, created FROM users ORDER BY name COLLATE NOCASE")

    def update_user(self, user_id: int, **fields: Any) -> None:
        sets = ", ".join(f"{k} = ?" for k in fields)
        self.conn.execute(f"UPDATE users SET {sets} WHERE id = ?", (*fields.values(), user_id))

    def remove_user(self, user_id: int) -> None:
        self.conn.execute("DELETE FROM users WHERE id = ?", (user_id,))

    def end_logins(self, name: str, at: float) -> None:
        """Every login of the account ``name`` that began before ``at`` has ended (part of the
        change being made, but never undone with it)."""
        self.conn.execute("INSERT INTO logins_ended (name, at) VALUES (?, ?) "
                          "ON CONFLICT (name) DO UPDATE SET at = max(at, excluded.at)", (name, at))

    def logins_ended(self, name: str) -> float | None:
        """When the logins of the account ``name`` last ended (None: never)."""
        row = self.conn.execute("SELECT at FROM logins_ended WHERE name = ?", (name,)).fetchone()
        return None if row is None else float(row[0])

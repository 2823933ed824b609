"""The pages of a knock-out cup: the bracket, round by round, and every game."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from keizer.limits import name_order
from keizer.publish.plan import CompetitionData, Page, Person, _Competition, _result_text
from keizer.store import Store


class CupPages(_Competition):
    """A knock-out cup: one page with the bracket and the games of every match.

    ``comp.extra["states"]`` holds the bracket engine's match states.
    """

    system = "knockout"

    @cached_property
    def summary(self) -> dict[str, Any]:
        states = self.comp.extra["states"]
        final = states[-1] if states else None
        return {"name": self.comp.name, "link": f"{self.folder}/index.html", "folder": self.folder,
                "system": self.system, "winner": self._name(final.winner) if final else None,
                "open": [{"top": self._name(m.top), "bottom": self._name(m.bottom), "how": m.how.to_json()}
                         for m in states if m.top and m.bottom and m.winner is None]}

    def _name(self, pid: str | None) -> str | None:
        return self.players[pid].name if pid else None

    def rounds_list(self) -> list[dict[str, Any]]:
        return []  # a cup's rounds are played when the two players agree: no dates for the feeds

    def people(self) -> list[Person]:
        """The cup's entrants A–Z, linked to their pages of the season (a cup has no player pages)."""
        return sorted(({"name": p.name, "link": self.member_pages.get(p.id)} for p in self.season.players),
                      key=lambda p: (name_order(p["name"]), p["link"] or ""))

    def member_lines(self) -> dict[int, dict[str, Any]]:
        """How far each entrant came: the last round they played in, and whether they won it all
        or are still in."""
        states = self.comp.extra["states"]
        last = max((m.round for m in states), default=0)
        lines = {}
        for pid, member in self.comp.members.items():
            mine = [m for m in states if pid in (m.top, m.bottom)]
            reached = max((m.round for m in mine), default=0)
            kind = {last: "final", last - 1: "semi", last - 2: "quarter"}.get(reached, "round")
            lost = any(m.winner is not None and m.winner != pid for m in mine)
            champion = bool(mine) and reached == last and any(m.winner == pid for m in mine if m.round == last)
            lines[member] = {"competition": self.comp.name, "system": self.system, "link": None,
                             "competition_link": f"{self.folder}/index.html", "reached": reached,
                             "kind": kind, "out": lost, "winner": champion}
        return lines

    def pages(self) -> list[Page]:
        states = self.comp.extra["states"]
        last = max((m.round for m in states), default=0)
        rounds = []
        for r in range(1, last + 1):
            games = [g for rnd in self.season.rounds if rnd.number == r for g in rnd.games]
            rounds.append({
                "number": r, "kind": {last: "final", last - 1: "semi", last - 2: "quarter"}.get(r, "round"),
                "matches": [{"top": self._name(m.top), "bottom": self._name(m.bottom),
                             "winner": self._name(m.winner), "how": m.how, "bye": m.how == "bye",
                             "score": None, "top_link": self.member_pages.get(m.top or ""),
                             "bottom_link": self.member_pages.get(m.bottom or "")}
                            for m in states if m.round == r],
                "games": [{"board": g.board, "stage": (g.stage or "regular").split(":")[0],
                           "white": self._name(g.white), "black": self._name(g.black),
                           "result": _result_text(g.result)} for g in games],
            })
        final = states[-1] if states else None
        return [Page(f"{self.folder}/index.html", "cup.html", {
            **self.base, "title": self.comp.name, "rounds": rounds, "tab": "bracket", "people": self.people(),
            "winner": self._name(final.winner) if final else None})]


def cup_competition_data(store: Store, row: dict[str, Any]) -> CompetitionData:
    """The cup's match states (none before the draw)."""
    from keizer.operations import cup

    if not store.system_settings(row["id"]).get("seeds"):
        return CompetitionData(row["name"], store.load_season(row["id"]), system="knockout", extra={"states": ()})
    _, states, season = cup.cup_state(store, row["id"])
    return CompetitionData(row["name"], season, system="knockout", extra={"states": states})

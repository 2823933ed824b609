"""The pages of a team event: the team standing, every round's matches with their
board results, a team-by-team crosstable of match scores, and one page per team.

``team_competition_data`` reads the event (:mod:`keizer.operations.teams_read`) into
``CompetitionData.extra``; :class:`TeamPages` only selects and arranges.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cached_property
from typing import Any, Sequence

from keizer.model import Game
from keizer.publish.plan import CompetitionData, Page, _Competition, _result_text
from keizer.publish.slugs import unique_slugs
from keizer.store import Store
from keizer.operations.teams_read import (TeamEvent, TeamMatch, crosstable, knockout_rows, load_event, standing,
                              tiebreak_labels)


def team_competition_data(store: Store, row: dict[str, Any]) -> CompetitionData:
    """The event with its standing after every round (0…played) and the crosstable.

    ``extra``: ``event`` (a :class:`~keizer.operations.teams_read.TeamEvent`), ``standings``
    (rows of :func:`~keizer.operations.teams_read.standing` per round) and ``crosstable``.
    """
    event = load_event(store, row["id"])
    if event.rules.schedule == "knockout":
        # A knock-out's standing is its bracket (none before the schedule).
        bracket = knockout_rows(event) if event.seeds and event.season.rounds else []
        return CompetitionData(row["name"], event.season, system="team", tiebreaks=(),
                               extra={"event": event, "standings": (), "crosstable": {}, "bracket": bracket})
    standings = tuple(tuple(standing(event, r)) for r in range(event.played + 1))
    return CompetitionData(row["name"], event.season, system="team", tiebreaks=tiebreak_labels(event),
                           extra={"event": event, "standings": standings, "crosstable": crosstable(event)})


class TeamPages(_Competition):
    """A team event's pages; players are shown on their team's page."""

    system = "team"

    def __init__(self, comp: CompetitionData, folder: str, base: dict[str, Any]):
        super().__init__(comp, folder, base)
        self.event: TeamEvent = comp.extra["event"]
        self.standings: Sequence[Sequence[dict[str, Any]]] = comp.extra["standings"]
        names = [t["name"] for t in self.event.teams]
        self.team_slugs = dict(zip(names, unique_slugs(names)))
        self.team_of = self.event.team_of()
        self.knockout = self.event.rules.schedule == "knockout"

    # -- a knock-out event: one page, the bracket with every match's boards ------

    def _knockout_summary(self) -> dict[str, Any]:
        bracket = self.comp.extra["bracket"]
        last, next_round = self.played, self._open_round()
        return {
            "name": self.comp.name, "link": f"{self.folder}/index.html", "folder": self.folder,
            "system": self.system, "knockout": True, "winner": bracket[-1]["winner"] if bracket else None,
            "last_round": last, "last_link": f"{self.folder}/index.html" if last else None,
            "last_matches": self.matches(last) if last else [],
            "next_round": next_round, "next_link": f"{self.folder}/index.html" if next_round else None,
            "next_matches": self.matches(next_round) if next_round else [],
        }

    def _knockout_pages(self) -> list[Page]:
        bracket = self.comp.extra["bracket"]
        last = max((m["round"] for m in bracket), default=0)
        stored = {(r, m["number"]): m for r in range(1, last + 1) if r <= len(self.season.rounds)
                  for m in self.matches(r)}
        rounds = []
        for r in range(1, last + 1):
            rows = [m for m in bracket if m["round"] == r]
            rounds.append({
                "number": r, "kind": {last: "final", last - 1: "semi", last - 2: "quarter"}.get(r, "round"),
                "matches": [{**m, "bye": m["how"] == "bye"} for m in rows],
                "played": [stored[(r, m["match"])] for m in rows
                           if (r, m["match"]) in stored and m["bottom"] is not None],
            })
        return [Page(f"{self.folder}/index.html", "team_bracket.html", {
            **self.base, "decimals": self.decimals, "title": self.comp.name, "rounds": rounds,
            "winner": bracket[-1]["winner"] if bracket else None})]

    # -- links and rows ------------------------------------------------------

    def team_link(self, name: str) -> str:
        if self.knockout:  # no team pages: the bracket shows every team's matches
            return f"{self.folder}/index.html"
        return f"{self.folder}/teams/{self.team_slugs[name]}.html"

    def player_link(self, pid: str) -> str:
        return self.team_link(self.team_of[pid])

    def tiebreak_codes(self) -> list[str]:
        return list(self.comp.tiebreaks)

    def member_lines(self) -> dict[int, dict[str, Any]]:
        """Each member's team, linked to the team's page."""
        return {member: {"competition": self.comp.name, "system": self.system, "link": self.player_link(pid),
                         "competition_link": f"{self.folder}/index.html", "team": self.team_of[pid]}
                for pid, member in self.comp.members.items() if pid in self.team_of}

    def standing_after(self, r: int) -> list[dict[str, Any]]:
        before = {row["team"]: row["rank"] for row in self.standings[r - 1]} if r > 1 else {}
        return [{**row, "link": self.team_link(row["team"]),
                 "tiebreaks": [row["tiebreaks"][code] for code in self.comp.tiebreaks],
                 "move": before[row["team"]] - row["rank"] if row["team"] in before else None}
                for row in self.standings[r]]

    def matches(self, r: int) -> list[dict[str, Any]]:
        """Round r's matches: the teams, the score once complete, the boards."""
        out = []
        for m in self.event.round_matches(r):
            score = m.score()
            out.append({
                "number": m.number, "first": m.first, "first_link": self.team_link(m.first),
                "second": m.second, "second_link": self.team_link(m.second) if m.second else None,
                "score": list(score) if score else None, "boards": [self._board(g) for g in m.games],
            })
        return out

    def _board(self, g: Game) -> dict[str, Any]:
        return {"board": g.board, "white": self.players[g.white].name, "white_team": self.team_of[g.white],
                "black": self.players[g.black].name, "black_team": self.team_of[g.black],
                "result": _result_text(g.result), "forfeit": g.is_forfeit,
                "stage": (g.stage or "regular").split(":")[0]}

    # -- pages ---------------------------------------------------------------

    @cached_property
    def summary(self) -> dict[str, Any]:
        if self.knockout:
            return self._knockout_summary()
        last, next_round = self.played, self._open_round()
        return {
            "name": self.comp.name, "link": f"{self.folder}/index.html", "folder": self.folder,
            "system": self.system, "standing_round": last, "standing": self.standing_after(last),
            "tiebreaks": self.tiebreak_codes(),
            "last_round": last, "last_link": self.round_link(last) if last else None,
            "last_matches": self.matches(last) if last else [],
            "next_round": next_round, "next_link": self.round_link(next_round) if next_round else None,
            "next_matches": self.matches(next_round) if next_round else [],
        }

    def pages(self) -> list[Page]:
        if self.knockout:
            return self._knockout_pages()
        ctx = {**self.base, "decimals": self.decimals}
        rounds: list[dict[str, Any]] = [{"number": r.number, "date": r.date, "link": self.round_link(r.number),
                   "complete": r.number <= self.played, "time_control": r.time_control}
                  for r in self.season.rounds]
        teams = [{"name": t["name"], "link": self.team_link(t["name"]), "start_no": t["start_no"]}
                 for t in self.event.teams]
        pages = [Page(f"{self.folder}/index.html", "team_competition.html", {
            **ctx, "title": self.comp.name, "summary": self.summary, "rounds": rounds, "teams": teams})]
        numbers = [r["number"] for r in rounds]
        for k, info in enumerate(rounds):
            r = info["number"]
            pages.append(Page(self.round_link(r), "team_round.html", {
                **ctx, "title": self.comp.name, "round": r, "date": info["date"], "complete": info["complete"],
                "time_control": info["time_control"], "matches": self.matches(r),
                "standing": self.standing_after(r) if info["complete"] else None,
                "tiebreaks": self.tiebreak_codes(),
                "previous": self.round_link(numbers[k - 1]) if k > 0 else None,
                "next": self.round_link(numbers[k + 1]) if k + 1 < len(numbers) else None,
            }))
        pages.append(Page(f"{self.folder}/crosstable.html", "team_crosstable.html",
                          {**ctx, "title": self.comp.name, **self._matrix()}))
        pages.extend(self._team_page(t, ctx) for t in self.event.teams)
        return pages

    def _matrix(self) -> dict[str, Any]:
        """Match scores team against team (row team's game points first), start order."""
        cells: dict[tuple[str, str], list[tuple[Fraction, Fraction]]] = self.comp.extra["crosstable"]
        final = {row["team"]: row for row in self.standings[self.played]}
        names = [t["name"] for t in self.event.teams]
        rows = [{"start_no": t["start_no"], "name": t["name"], "link": self.team_link(t["name"]),
                 "cells": [None if t["name"] == other else cells.get((t["name"], other), []) for other in names],
                 "match_points": final[t["name"]]["match_points"], "game_points": final[t["name"]]["game_points"],
                 "rank": final[t["name"]]["rank"]} for t in self.event.teams]
        return {"numbers": [t["start_no"] for t in self.event.teams], "rows": rows, "standing_round": self.played}

    def _team_page(self, team: dict[str, Any], ctx: dict[str, Any]) -> Page:
        name = team["name"]
        rounds = []
        for rnd in self.season.rounds:
            mine = [m for m in self.event.round_matches(rnd.number) if name in (m.first, m.second)]
            rounds.append({"number": rnd.number, "date": rnd.date, "link": self.round_link(rnd.number),
                           "matches": [self._own_match(m, name) for m in mine if m.second is not None],
                           "bye": any(m.second is None for m in mine)})
        row = next(r for r in self.standing_after(self.played) if r["team"] == name)
        return Page(self.team_link(name), "team_team.html", {
            **ctx, "title": name, "team": {"name": name, "start_no": team["start_no"]},
            "members": [{"board": m["board"], "name": m["name"], "rating": m["rating"],
                         "reserve": bool(m["reserve"])} for m in team["members"]],
            "entry": row, "standing_round": self.played, "rounds": rounds,
        })

    def _own_match(self, m: TeamMatch, name: str) -> dict[str, Any]:
        """A match from one team's side: the opponent, its score and each board."""
        other = m.second if m.first == name else m.first
        assert other is not None  # a bye is no match of the team's page
        score = m.score()
        if score and m.first != name:
            score = (score[1], score[0])
        boards = []
        for g in m.games:
            me = g.white if self.team_of[g.white] == name else g.black
            colour = g.colour_of(me)
            boards.append({"board": g.board, "player": self.players[me].name, "colour": colour.value,
                           "opponent": self.players[g.opponent_of(me)].name,
                           "result": g.result.symbol(colour) if g.result else ""})
        return {"opponent": other, "link": self.team_link(other), "score": list(score) if score else None,
                "boards": boards}

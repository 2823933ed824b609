"""The pages of a round-robin group and of a Swiss tournament: points and tie-breaks,
a player-by-player crosstable (round-robin) or a crosstable by round (Swiss)."""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from typing import Any

from keizer.publish.charts import line_chart
from keizer.publish.plan import CompetitionData, Page, _Competition
from keizer.rating.fide import OnRecord
from keizer.readmodel import fide_changes, meetings, no_game, tie_notes


class RoundRobinPages(_Competition):
    """A round-robin group: points and tie-breaks, a player-by-player crosstable."""

    system = "roundrobin"
    crosstable_template = "rr_crosstable.html"

    def __init__(self, comp: CompetitionData, folder: str, base: dict[str, Any]):
        super().__init__(comp, folder, base)
        self.points_of = [{e.player: e.points for e in entries} for entries in comp.points]  # per round

    board_extra = "points"

    def tiebreak_codes(self) -> list[str]:
        return list(self.comp.tiebreaks)

    def _before(self, r: int, pid: str, side: str) -> dict[str, Any]:
        """A player's pairing number, rating and points before round ``r`` (a Swiss pairing list)."""
        p = self.players[pid]
        points = self.points_of[min(r - 1, len(self.points_of) - 1)].get(pid)
        return {f"{side}_no": p.start_no, f"{side}_rating": p.rating, f"{side}_points": points}

    def member_lines(self) -> dict[int, dict[str, Any]]:
        final = {e.player: e for e in self.comp.points[self.played]}
        return {member: {"competition": self.comp.name, "system": self.system, "link": self.player_link(pid),
                         "competition_link": f"{self.folder}/index.html", "rank": final[pid].rank,
                         "score": final[pid].points, "round": self.played, "decimals": 2,
                         "next": self.next_for(pid)}
                for pid, member in self.comp.members.items()}

    def ranking(self, r: int) -> list[tuple[str, Fraction]]:
        return [(e.player, e.points) for e in self.comp.points[r]]

    def standing_after(self, r: int) -> list[dict[str, Any]]:
        previous = {e.player: e.rank for e in self.comp.points[r - 1]} if r > 1 else {}
        entries = self.comp.points[r]
        notes = tie_notes([(e.points, e.rank, [(code, e.tiebreaks.get(code)) for code in self.comp.tiebreaks])
                           for e in entries], "lot")
        return [{
            "rank": e.rank, "name": self.players[e.player].name, "link": self.player_link(e.player),
            "start_no": self.players[e.player].start_no, "points": e.points, "games": e.games,
            "wins": e.wins, "draws": e.draws, "losses": e.losses, "category": self.players[e.player].category,
            "tiebreaks": [e.tiebreaks.get(code) for code in self.comp.tiebreaks], "withdrawn": False,
            "move": (previous[e.player] - e.rank) if e.player in previous else None, "tie": note,
        } for e, note in zip(entries, notes)]

    def pages(self) -> list[Page]:
        ctx = {**self.base, "decimals": self.decimals, "rules": self.comp.rules}
        rounds = self.rounds_list()
        pages = [Page(f"{self.folder}/index.html", "competition.html", {
            **ctx, "title": self.comp.name, "summary": self.summary, "rounds": rounds, "categories": [],
            "tab": "standings", "people": self.people(),
        })]
        pages.extend(self._round_page(info["number"], rounds, ctx) for info in rounds)
        pages.append(Page(f"{self.folder}/crosstable.html", self.crosstable_template,
                          partial(self._with, ctx, "crosstable", self._matrix)))
        pages.append(Page(f"{self.folder}/report.html", "report.html",
                          partial(self._with, ctx, "report", self._report)))
        pages.append(self._embed_page(ctx))
        pages.extend(self._games_page(pid, ctx) for pid in self.slugs)
        return pages

    def _matrix(self) -> dict[str, Any]:
        """Who scored what against whom: rows and columns in start-number order."""
        order = sorted(self.season.players, key=lambda p: p.start_no)
        cells = meetings(self.season.rounds[:self.played])
        final = {e.player: e for e in self.comp.points[self.played]}
        rows = [{"start_no": p.start_no, "name": p.name, "link": self.player_link(p.id),
                 "cells": [None if p.id == q.id else " ".join(cells.get((p.id, q.id), [])) for q in order],
                 "points": final[p.id].points, "rank": final[p.id].rank} for p in order]
        return {"numbers": [p.start_no for p in order], "rows": rows, "standing_round": self.played}

    def _games_page(self, pid: str, ctx: dict[str, Any]) -> Page:
        return Page(self.player_link(pid), "rr_player.html", partial(self._games_context, pid, ctx))

    def _games_context(self, pid: str, ctx: dict[str, Any]) -> dict[str, Any]:
        player = self.players[pid]
        lines = []
        for rnd, games in zip(self.season.rounds, self.game_of):
            game = games.get(pid)
            if game is None:
                lines.append({"round": rnd.number, "date": rnd.date, "kind": no_game(rnd, player),
                              "opponent": None, "points": self._round_points(pid, rnd.number)})
                continue
            opp = game.opponent_of(pid)
            lines.append({"round": rnd.number, "date": rnd.date, "kind": "game",
                          "opponent": self.players[opp].name, "link": self.player_link(opp),
                          "colour": game.colour_of(pid).value,
                          "result": game.result.symbol(game.colour_of(pid)) if game.result else ""})
        places = [{e.player: e for e in self.comp.points[r]} for r in range(self.played + 1)]
        charts: dict[str, Any] = {}
        if self.played:
            charts["score"] = line_chart([(player.name, [(r, places[r][pid].points) for r in range(1, self.played + 1)])],
                                         self.played, 0, max(max((e.points for e in places[-1].values()), default=1), 1))
            charts["rank"] = line_chart([(player.name, [(r, places[r][pid].rank) for r in range(1, self.played + 1)])],
                                        self.played, 1, max(len(self.season.players), 2), invert=True)
        entry = places[-1][pid]
        return {
            **ctx, "title": player.name, "player": {"name": player.name, "rating": player.rating,
                                                    "start_no": player.start_no},
            "entry": {"rank": entry.rank, "points": entry.points}, "lines": lines, "charts": charts,
            "standing_round": self.played, "member_link": self.member_pages.get(pid),
            "fide": fide_changes(self.season, self.comp.fide, pid, self.comp.fide_k.get(pid, OnRecord())),
            "dwz": self.comp.dwz.get(pid), "ecf": self.comp.ecf.get(pid), "next": self.next_for(pid),
        }


    def _round_points(self, pid: str, r: int) -> Fraction | None:
        """What a round without a game earned (a bye's point, a requested bye's half), once complete."""
        if r > self.played:
            return None
        return self.points_of[r][pid] - self.points_of[r - 1][pid]


class SwissPages(RoundRobinPages):
    """A Swiss tournament: as a round-robin group, but the crosstable runs by round (rank
    order; per round the opponent's number, the colour and the result), as Swiss wall
    charts do, instead of player by player."""

    system = "swiss"
    crosstable_template = "swiss_crosstable.html"

    def _matrix(self) -> dict[str, Any]:
        final = self.comp.points[self.played]
        rounds = self.season.rounds[:self.played]
        rows = []
        for e in final:
            player = self.players[e.player]
            cells = []
            for rnd, games in zip(rounds, self.game_of):
                game = games.get(e.player)
                if game is not None and game.result is not None:
                    colour = game.colour_of(e.player)
                    cells.append({"kind": "game", "opponent": self.players[game.opponent_of(e.player)].start_no,
                                  "colour": colour.value, "result": game.result.symbol(colour)})
                else:  # no game: the pairing-allocated bye, a requested bye, absent, not entered
                    cells.append({"kind": no_game(rnd, player), "points": self._round_points(e.player, rnd.number)})
            rows.append({"start_no": player.start_no, "name": player.name, "link": self.player_link(e.player),
                         "cells": cells, "points": e.points, "rank": e.rank})
        return {"numbers": [r.number for r in rounds], "rows": rows, "standing_round": self.played}

"""The page plan: which pages the site has, and the data each one shows.

Pure: it takes the club's settings and the competitions as model values
(seasons and their standings) and returns :class:`Page` values; rendering and
writing are done by :mod:`keizer.publish`.  Every number on a page comes from
the engines (``compute_standings``, ``round_scores``); nothing is recomputed
here, only selected and arranged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, partial
from typing import Any, Callable, Iterable, Mapping, Sequence, TypedDict

from keizer.limits import name_order
from keizer.model import Absence, Result, Season
from keizer.refusals import Message
from keizer.publish.charts import line_chart
from keizer.publish.slugs import unique_slugs
from keizer.rating.fide import OnRecord
from keizer.readmodel import (absence_cell, cell_legend, fide_changes, game_cell, games_by_player, history_line,
                               next_game, player_round, tie_notes)
from keizer.scoring import Standing, all_round_scores, tiebreak_values
from keizer.tiebreaks import labels, parse_list
from keizer.points import PointsEntry
from keizer.publish.keys import settled_digest
from keizer.publish.report import season_report


@dataclass(frozen=True)
class Club:
    name: str = "Chess club"
    colour: str = "#1f4e79"
    accent: str = "#c8102e"
    language: str = "en"
    logo: str | None = None  # file name of the logo in static/, if any


@dataclass(frozen=True)
class CompetitionData:
    """One competition as the site shows it: a Keizer competition with its
    ``standings``, or a round-robin with its ``points`` standings (after rounds
    0…played) and their tie-break columns."""

    name: str
    season: Season
    standings: tuple[Standing, ...] = ()
    system: str = "keizer"
    points: tuple[tuple[PointsEntry, ...], ...] = ()
    tiebreaks: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)  # what other systems' pages need
    members: Mapping[str, int] = field(default_factory=dict)  # player → club member (one page per member)
    fide: Mapping[str, int | None] = field(default_factory=dict)  # player → FIDE rating (the rating changes)
    fide_k: Mapping[str, OnRecord] = field(default_factory=dict)  # player → what K depends on (list K, birth year)
    dwz: Mapping[str, Any] = field(default_factory=dict)  # player → DWZ change (when the club shows it)
    ecf: Mapping[str, Any] = field(default_factory=dict)  # player → ECF rating change (when the club shows it)
    finished: bool = False  # closed, or every planned round played (the app's evening view says so)
    provisional: Standing | None = None  # a Keizer standing with the results in so far of the round being played
    notices: frozenset[str] = frozenset()  # players who sent notice of absence for the next round's date
    rules: Message | None = None  # FIDE mode: "FIDE rules", or since when not (None: a competition without a mode)
    #: A Keizer standing of ``standings`` and the rounds as items behind it, kept (its players'
    #: histories are taken from them, not worked out again from the season).
    items: tuple[Standing, Mapping[str, Sequence[Any]]] | None = None


@dataclass(frozen=True)
class Page:
    """One page of the site: its path (relative to the output folder, with forward slashes),
    its template and its data — or, for the many pages of a large site (rounds, players), the
    function that makes its data, called when the page is rendered (on a worker's core)."""

    path: str
    template: str
    context: dict[str, Any] | Callable[[], dict[str, Any]] = field(default_factory=dict)
    #: What the context is made of, where that is cheaper to make than the context: equal
    #: inputs give an equal context, so a page whose inputs did not change is not made again.
    inputs: Callable[[], Any] | None = None

    def values(self) -> dict[str, Any]:
        return self.context() if callable(self.context) else self.context


#: The season's folder of member pages, and of each member's own calendar and results feed
#: (no competition gets them).
MEMBERS, FEEDS = "members", "feeds"


@dataclass(frozen=True)
class SeasonPlan:
    """One season's part of the site."""

    pages: list[Page]
    summaries: list[dict[str, Any]]  # per competition: what the front pages show
    people: list[dict[str, str]]  # the season's players A–Z: name, link to their page
    rounds: list[dict[str, Any]]  # every round that has a pairing (competition, number, date, link…): the feeds
    members: list[dict[str, Any]] = field(default_factory=list)  # per member: page, name, rounds (own feeds)


def plan_season(
    club: Club, season_name: str, competitions: Sequence[CompetitionData], season_slug: str,
    careers: Mapping[int, str] = {},
) -> SeasonPlan:
    """Every page of one season, under ``<season_slug>/``, and what the front page and the
    feeds need of it; ``careers``: each member's career page, if published."""
    pages: list[Page] = []
    comp_slugs = unique_slugs([c.name for c in competitions], taken={MEMBERS, FEEDS})
    member_names: dict[int, str] = {}
    for comp in competitions:
        names = {p.id: p.name for p in comp.season.players}
        for pid, member in comp.members.items():
            member_names.setdefault(member, names[pid])
    ordered = sorted(member_names)
    member_links = {m: f"{season_slug}/{MEMBERS}/{slug}.html"
                    for m, slug in zip(ordered, unique_slugs([member_names[m] for m in ordered]))}
    base = {"club": club, "season_name": season_name, "season_slug": season_slug, "member_links": member_links}
    summaries = []
    rounds: list[dict[str, Any]] = []
    lines: dict[int, list[dict[str, Any]]] = {}
    own_rounds: dict[int, list[dict[str, Any]]] = {}
    for comp, slug in zip(competitions, comp_slugs):
        builder = BUILDERS[comp.system](comp, f"{season_slug}/{slug}", base)
        pages.extend(builder.pages())
        summaries.append(builder.summary)
        rounds.extend({**r, "competition": comp.name, "folder": builder.folder} for r in builder.rounds_list())
        for member, line in builder.member_lines().items():
            lines.setdefault(member, []).append(line)
        if comp.system in _OWN_FEEDS:
            for member, played in builder.member_rounds().items():
                own_rounds.setdefault(member, []).extend(played)
    for member in ordered:
        pages.append(Page(member_links[member], "member.html", {
            **base, "title": member_names[member], "name": member_names[member], "lines": lines.get(member, []),
            "coming": [line["next"] for line in lines.get(member, []) if line.get("next")],
            "career": careers.get(member),
            "feeds": f"{season_slug}/{FEEDS}/{member_links[member].rsplit('/', 1)[1][:-5]}" if member in own_rounds else None}))
    people = sorted(({"name": member_names[m], "link": member_links[m]} for m in ordered),
                    key=lambda p: (name_order(p["name"]), p["link"]))
    pages.append(Page(f"{season_slug}/index.html", "season.html",
                      {**base, "competitions": summaries, "title": season_name, "people": people}))
    members = [{"name": member_names[m], "link": member_links[m], "rounds": own_rounds[m]}
               for m in ordered if m in own_rounds]
    return SeasonPlan(pages, summaries, people, rounds, members)


#: The systems whose rounds go into a member's own calendar and results feed (a player's games by round).
_OWN_FEEDS = ("keizer", "swiss", "roundrobin")


def plan_front(club: Club, seasons: Sequence[dict[str, str]], current: dict[str, str] | None,
               summaries: Sequence[dict[str, Any]], people: Sequence[dict[str, str]] = ()) -> list[Page]:
    """The front page — where each competition of the current season stands (the next club
    evening and its pairing, the first places), finding a player, every published season —
    and the current season's players A–Z on a page of their own."""
    ordered = sorted(seasons, key=lambda s: s["name"], reverse=True)
    front = {"club": club, "seasons": ordered, "title": club.name, "current": current,
             "competitions": list(summaries), "people": list(people)}
    return [Page("index.html", "archive.html", front), Page(PEOPLE_PAGE, "people.html", front)]


#: The page of the current season's players A–Z (the front page's search leads there).
PEOPLE_PAGE = "players.html"


class Person(TypedDict):
    """A player in a competition's A–Z list, with his page (a cup's entrant may have none)."""

    name: str
    link: str | None


class _Competition:
    """A Keizer competition's pages; subclasses show other systems."""

    system = "keizer"

    def __init__(self, comp: CompetitionData, folder: str, base: dict[str, Any]):
        self.comp = comp
        self.season = comp.season
        self.folder = folder
        self.base = {**base, "competition": comp.name, "comp_folder": folder, "system": self.system}
        self.players = {p.id: p for p in self.season.players}
        links = base.get("member_links", {})
        self.member_pages = {pid: links[m] for pid, m in comp.members.items() if m in links}  # player → page
        ordered = sorted(self.season.players, key=lambda p: p.start_no)
        self.slugs = dict(zip([p.id for p in ordered], unique_slugs([p.name for p in ordered])))
        self.played = self.season.completed_rounds()
        self.decimals = self.season.settings.decimals
        # Per round: each player's game (the crosstable and attendance grid ask for every cell).
        self.game_of = games_by_player(self.season.rounds)
        if comp.standings:
            self.final = comp.standings[self.played]
            self.values = [st.values for st in comp.standings]  # per standing: player → value
            self.entries = [{e.player: e for e in st.entries} for st in comp.standings]

    @cached_property
    def settled(self) -> Callable[..., tuple[Any, ...]] | None:
        """The inputs of a page that shows only complete rounds (and the ``extra`` it names), or
        None: this builder's pages are keyed by their context (another system's pages)."""
        if type(self) is not _Competition or not self.comp.standings:
            return None
        digest = settled_digest(self.base, self.comp, self.played, self.slugs, self.member_pages)
        return None if digest is None else lambda *extra: (digest, *extra)

    # -- links and rows ------------------------------------------------------

    def player_link(self, pid: str) -> str:
        return f"{self.folder}/players/{self.slugs[pid]}.html"

    def round_link(self, r: int) -> str:
        return f"{self.folder}/round-{r}.html"

    def standing_rows(self, standing: Standing) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        previous = self.comp.standings[standing.round - 1] if standing.round else None
        before = {e.player: e.rank for e in previous.entries} if previous else {}
        codes = self.tiebreak_codes()
        values = tiebreak_values(self.season, standing) if codes else {}
        for e in standing.entries:
            p = self.players[e.player]
            rows.append({
                "rank": e.rank, "name": p.name, "link": self.player_link(e.player), "rating": p.rating,
                "value": e.value, "score": e.score, "games": e.games, "wins": e.wins, "draws": e.draws,
                "losses": e.losses, "percentage": e.percentage, "category": p.category,
                "withdrawn": p.withdrawn_after is not None and p.withdrawn_after < standing.round,
                "move": (before[e.player] - e.rank) if e.player in before else None,
                "tiebreaks": [values[e.player].get(code) for code in codes] if values else [],
            })
        simple = self.season.settings.tiebreaks if not codes else ()
        criteria: list[list[tuple[str, Any]]] = [
            [(tb, row[_SIMPLE_TIEBREAKS[tb]]) for tb in simple] + list(zip(codes, row["tiebreaks"])) for row in rows]
        notes = tie_notes([(r["score"], r["rank"], c) for r, c in zip(rows, criteria)], "start order")
        for row, note in zip(rows, notes):
            row["tie"] = note
        return rows

    def standing_after(self, r: int) -> list[dict[str, Any]]:
        return self.standing_rows(self.comp.standings[r])

    def tiebreak_codes(self) -> list[str]:
        """Tie-break columns of the standing tables: the FIDE tie-breaks the settings list
        (a Keizer standing shows value and score, and these only when listed)."""
        codes = self.season.settings.fide_tiebreaks()
        return list(labels(parse_list(",".join(codes)))) if codes else []

    def ranking(self, r: int) -> list[tuple[str, Fraction]]:
        """(player, score) best first after round r."""
        return [(e.player, e.score) for e in self.comp.standings[r].entries]

    #: What a round's boards show beside each name (macros.html boards_table).
    board_extra = "keizer"

    def boards(self, r: int) -> list[dict[str, Any]]:
        """A round's boards: the players, the result, and beside each player what a member
        wants to know of them before the round (Keizer: rank and value)."""
        rnd = self.season.rounds[r - 1]
        rows = [{
            "board": g.board, "white": self.players[g.white].name, "white_link": self.player_link(g.white),
            "black": self.players[g.black].name, "black_link": self.player_link(g.black),
            "result": _result_text(g.result), "forfeit": g.is_forfeit,
        } for g in rnd.games]
        for row, g in zip(rows, rnd.games):
            row.update(self._before(r, g.white, "white"))
            row.update(self._before(r, g.black, "black"))
        return rows

    def _before(self, r: int, pid: str, side: str) -> dict[str, Any]:
        """A player's rank and value in the standing before round ``r``."""
        before = r - 1 if r - 1 < len(self.entries) else len(self.entries) - 1
        e = self.entries[before].get(pid)
        return {f"{side}_rank": e.rank if e else None, f"{side}_value": e.value if e else None}

    def next_for(self, pid: str) -> dict[str, Any] | None:
        """A player's next round (:func:`keizer.readmodel.next_game`), with names and links."""
        found = next_game(self.season, pid, self.played, self.players[pid])  # (not looked for among 600 per page)
        if found is None:
            return None
        if found["kind"] == "not_paired" and pid in self.comp.notices:  # sent through the member's link
            found["kind"] = "notice"
        opponent = found.pop("opponent_id", None)
        rnd = self.season.rounds[found["round"] - 1] if found["round"] <= len(self.season.rounds) else None
        return {**found, "competition": self.comp.name, "competition_link": f"{self.folder}/index.html",
                "round_link": self.round_link(found["round"]) if rnd and (rnd.games or rnd.byes) else None,
                "opponent": self.players[opponent].name if opponent else None,
                "opponent_link": self.player_link(opponent) if opponent else None}

    def names(self, ids: Iterable[str]) -> list[dict[str, str]]:
        return [{"name": self.players[p].name, "link": self.player_link(p)}
                for p in sorted(ids, key=lambda p: self.players[p].start_no)]

    # -- pages ---------------------------------------------------------------

    @cached_property
    def summary(self) -> dict[str, Any]:
        """Where the competition stands (its page, its embed page and the season's pages show it)."""
        last = self.played
        open_round = self._open_round()
        return {
            "name": self.comp.name, "link": f"{self.folder}/index.html", "folder": self.folder,
            "system": self.system,
            "standing_round": last, "standing": self.standing_after(last), "tiebreaks": self.tiebreak_codes(),
            "last_round": last, "last_boards": self.boards(last) if last else [],
            "last_link": self.round_link(last) if last else None,
            "last_date": self.season.rounds[last - 1].date if last else None,
            "next_round": open_round, "next_boards": self.boards(open_round) if open_round else [],
            "next_bye": self.names(self.season.rounds[open_round - 1].byes) if open_round else [],
            "next_link": self.round_link(open_round) if open_round else None,
            "next_date": self.season.rounds[open_round - 1].date if open_round else None,
            "coming_round": last + 1 if not self.comp.finished else None,
            "coming_date": self.season.rounds[last].date if len(self.season.rounds) > last else None,
            "finished": self.comp.finished, "decimals": self.decimals, "live": self.live(open_round) if open_round else None,
        }

    def people(self) -> list[Person]:
        """The competition's players A–Z, with their pages."""
        return sorted(({"name": p.name, "link": self.player_link(p.id)} for p in self.season.players),
                      key=lambda p: (name_order(p["name"]), p["link"]))

    def member_lines(self) -> dict[int, dict[str, Any]]:
        """What each member's page of the season says of this competition: the rank and score
        in its standing, with a link to the player's page here."""
        final = {e.player: e for e in self.final.entries} if self.comp.standings else {}
        lines = {}
        for pid, member in self.comp.members.items():
            e = final.get(pid)
            lines[member] = {"competition": self.comp.name, "system": self.system,
                             "link": self.player_link(pid), "competition_link": f"{self.folder}/index.html",
                             "rank": e.rank if e else None, "score": e.score if e else None,
                             "round": self.played, "decimals": self.decimals, "next": self.next_for(pid)}
        return lines

    def member_rounds(self) -> dict[int, list[dict[str, Any]]]:
        """Per member: each dated round the member takes part in (:func:`keizer.readmodel.player_round`),
        with the opponent's name and the round's page, for the member's own calendar and results feed."""
        found: dict[int, list[dict[str, Any]]] = {}
        for pid, member in self.comp.members.items():
            rows = found.setdefault(member, [])
            for rnd in self.season.rounds:
                if not rnd.date or not self.players[pid].active_in(rnd.number):
                    continue
                row = player_round(rnd, pid)
                opponent = row.pop("opponent_id", None)
                rows.append({**row, "competition": self.comp.name, "complete": rnd.number <= self.played,
                             "opponent": self.players[opponent].name if opponent else None,
                             "time_control": rnd.time_control,
                             "link": self.round_link(rnd.number) if rnd.games or rnd.byes else f"{self.folder}/index.html"})
        return found

    def live(self, r: int) -> dict[str, int] | None:
        """Round ``r`` being played (:meth:`Season.round_in_progress`) with some result in: how many
        of its boards have one ("provisional, 7 of 15 results in")."""
        if r != self.season.round_in_progress():
            return None
        games = self.season.rounds[r - 1].games
        done = sum(1 for g in games if g.result is not None)
        return {"done": done, "boards": len(games)} if done else None

    def _open_round(self) -> int | None:
        """The round after the last complete one, when it has been paired."""
        if len(self.season.rounds) > self.played:
            rnd = self.season.rounds[self.played]
            if rnd.games:
                return rnd.number
        return None

    def rounds_list(self) -> list[dict[str, Any]]:
        """The rounds that have a pairing, with their links."""
        return [{"number": r.number, "date": r.date, "link": self.round_link(r.number),
                 "complete": r.number <= self.played, "time_control": r.time_control}
                for r in self.season.rounds if r.games or r.byes]

    def pages(self) -> list[Page]:
        ctx = {**self.base, "decimals": self.decimals}
        rounds = self.rounds_list()
        pages = [Page(f"{self.folder}/index.html", "competition.html", {
            **ctx, "title": self.comp.name, "summary": self.summary, "rounds": rounds, "tab": "standings",
            "categories": sorted({p.category for p in self.season.players if p.category}), "people": self.people(),
        })]
        for info in rounds:
            pages.append(self._round_page(info["number"], rounds, ctx))
        settled = self.settled
        pages.append(Page(f"{self.folder}/crosstable.html", "crosstable.html",
                          partial(self._with, ctx, "crosstable", self._crosstable),
                          partial(settled, "crosstable") if settled else None))
        pages.append(Page(f"{self.folder}/attendance.html", "attendance.html",
                          partial(self._with, ctx, "attendance", self._attendance),
                          partial(self._attendance_inputs, settled) if settled else None))
        pages.append(Page(f"{self.folder}/report.html", "report.html",
                          partial(self._with, ctx, "report", self._report), partial(settled, "report") if settled else None))
        pages.append(self._embed_page(ctx))
        for pid in self.slugs:
            pages.append(self._player_page(pid, ctx))
        return pages

    def _with(self, ctx: dict[str, Any], tab: str, make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """A tab's page data, made when the page is rendered."""
        return {**ctx, "title": self.comp.name, "tab": tab, **make()}

    def _embed_page(self, ctx: dict[str, Any], shown: int = 10) -> Page:
        """The first places of the standing alone, for a club's own website (an iframe)."""
        return Page(f"{self.folder}/embed.html", "embed.html",
                    {**ctx, "title": self.comp.name, "summary": self.summary, "shown": shown})

    def _round_page(self, r: int, rounds: list[dict[str, Any]], ctx: dict[str, Any]) -> Page:
        settled = self.settled if r <= self.played and self.live(r) is None else None
        return Page(self.round_link(r), "round.html", partial(self._round_context, r, rounds, ctx),
                    partial(settled, "round", r, [x["number"] for x in rounds]) if settled else None)

    def _round_context(self, r: int, rounds: list[dict[str, Any]], ctx: dict[str, Any]) -> dict[str, Any]:
        rnd = self.season.rounds[r - 1]
        absent: dict[str, list[dict[str, str]]] = {}
        for kind in (Absence.EXCUSED, Absence.UNEXCUSED, Absence.CLUB):
            ids = [p for p, why in rnd.absent.items() if why is kind]
            if ids:
                absent[kind.value] = self.names(ids)
        complete = r <= self.played
        live = self.live(r)
        standing = self.standing_after(r) if complete else None
        if live and self.comp.provisional is not None:
            standing = self.standing_rows(self.comp.provisional)
        numbers = [x["number"] for x in rounds]
        k = numbers.index(r)
        return {
            **ctx, "title": self.comp.name, "round": r, "date": rnd.date, "complete": complete,
            "time_control": rnd.time_control,
            "boards": self.boards(r), "board_extra": self.board_extra, "bye": self.names(rnd.byes), "absent": absent,
            "external": [{**n, "result": rnd.external[pid].value}
                         for pid, n in zip(sorted(rnd.external, key=lambda p: self.players[p].start_no),
                                           self.names(rnd.external))],
            "standing": standing, "live": live, "tiebreaks": self.tiebreak_codes(),
            "previous": self.round_link(numbers[k - 1]) if k > 0 else None,
            "next": self.round_link(numbers[k + 1]) if k + 1 < len(numbers) else None,
        }

    def _cell(self, pid: str, r: int, rank_of: dict[str, int]) -> dict[str, Any]:
        """One crosstable cell: what the player did in round r."""
        g = self.game_of[r - 1].get(pid)
        if g is None:
            return self._no_game(pid, r)
        cell = game_cell(g, pid, rank_of)
        opp = cell.pop("opponent_id")
        return {"kind": "game", "code": "G", "opponent": self.players[opp].name, **cell, "link": self.player_link(opp)}

    def _no_game(self, pid: str, r: int) -> dict[str, Any]:
        """Why a player had no game in round r, as the attendance grid's code."""
        return absence_cell(self.season.rounds[r - 1], self.players[pid])

    def _rounds_shown(self) -> list[int]:
        return [r.number for r in self.season.rounds if r.number <= self.played]

    def _crosstable(self) -> dict[str, Any]:
        rank_of = {e.player: e.rank for e in self.final.entries}
        shown = self._rounds_shown()
        rows = []
        every: list[dict[str, Any]] = []
        for e in self.final.entries:
            cells = []
            for r in shown:
                cell = self._cell(e.player, r, rank_of)
                cell["value_before"] = self.values[r - 1].get(e.player)
                cells.append(cell)
            every += cells
            rows.append({"rank": e.rank, "name": self.players[e.player].name,
                         "link": self.player_link(e.player), "cells": cells, "score": e.score,
                         "value_before": e.value_before, "value": e.value})
        return {"rounds": shown, "rows": rows, "standing_round": self.played, "parts": print_parts(len(shown)),
                "legend": cell_legend(every)}

    def _attendance_inputs(self, settled: Callable[..., tuple[Any, ...]]) -> tuple[Any, ...]:
        """The attendance grid shows the complete rounds (in ``settled``) and of each round after
        them who has a game (not its result) and why the others have none."""
        return settled("attendance", [(sorted(self.game_of[r.number - 1]), r.absent, r.external, r.present)
                                      for r in self.season.rounds[self.played:]])

    def _attendance(self) -> dict[str, Any]:
        shown = [r.number for r in self.season.rounds]
        rows = []
        every: list[dict[str, Any]] = []
        for p in sorted(self.season.players, key=lambda p: p.start_no):
            cells = [_GAME_CELL if p.id in self.game_of[r - 1] else self._no_game(p.id, r) for r in shown]
            every += cells
            counts: dict[str, int] = {}
            for c in cells:
                counts[c["kind"]] = counts.get(c["kind"], 0) + 1
            rows.append({"start_no": p.start_no, "name": p.name, "link": self.player_link(p.id), "cells": cells,
                         "counts": counts})
        dates = {r.number: r.date for r in self.season.rounds}
        return {"rounds": [{"number": r, "date": dates[r]} for r in shown], "rows": rows, "legend": cell_legend(every)}

    def _player_page(self, pid: str, ctx: dict[str, Any]) -> Page:
        settled = self.settled
        return Page(self.player_link(pid), "player.html", partial(self._player_context, pid, ctx),
                    partial(self._player_inputs, settled, pid) if settled else None)

    def _player_inputs(self, settled: Callable[..., tuple[Any, ...]], pid: str) -> tuple[Any, ...]:
        """A player's page shows the complete rounds, his next game, and the FIDE rating change of
        each of his games (the round being played's too) with the K his member's record gives,
        and his DWZ and ECF changes where the club shows them: of his games those of the
        complete rounds are in ``settled`` already, the others are written here."""
        comp = self.comp
        return settled("player", pid, self.next_for(pid), [g.get(pid) for g in self.game_of[self.played:]],
                       comp.fide_k.get(pid), comp.dwz.get(pid), comp.ecf.get(pid))

    def _player_context(self, pid: str, ctx: dict[str, Any]) -> dict[str, Any]:
        player = self.players[pid]
        on_ladder = pid not in self.final.off_ladder
        entry = self.final.entry(pid) if on_ladder else None
        lines: list[dict[str, Any]] = []
        if on_ladder:
            dates = {r.number: r.date for r in self.season.rounds}
            names = {p: q.name for p, q in self.players.items()}
            kept = self.comp.items[1] if self.comp.items is not None and self.comp.items[0] is self.final else None
            # for one page (a page not made again costs nothing), from the kept items where there are
            for line in all_round_scores(self.season, self.final, (pid,), kept)[pid]:
                row = history_line(line, names)
                lines.append({**row, "date": dates.get(line.round),
                              "link": self.player_link(line.opponent) if line.opponent else None})
        history = [(st.round, self.entries[st.round].get(pid)) for st in self.comp.standings[1:self.played + 1]]
        n = len(self.final.entries)
        charts = {}
        if history:
            scores = [(r, e.score if e else None) for r, e in history]
            top = max((s for _, s in scores if s is not None), default=1)
            charts["score"] = line_chart([(player.name, scores)], self.played, 0, top or 1)
            charts["rank"] = line_chart([(player.name, [(r, e.rank if e else None) for r, e in history])],
                                        self.played, 1, max(n, 2), invert=True)
        counts: dict[str, int] = {}
        for row in lines:
            counts[row["kind"]] = counts.get(row["kind"], 0) + 1
        return {
            **ctx, "title": player.name, "player": {"name": player.name, "rating": player.rating,
                                                    "category": player.category, "joined": player.joined,
                                                    "withdrawn_after": player.withdrawn_after},
            "entry": entry, "own_value": self.final.own_pricing.get(pid) if on_ladder else None,
            "lines": lines, "counts": counts, "charts": charts, "standing_round": self.played,
            "member_link": self.member_pages.get(pid), "dwz": self.comp.dwz.get(pid),
            "ecf": self.comp.ecf.get(pid), "next": self.next_for(pid),
            "fide": fide_changes(self.season, self.comp.fide, pid, self.comp.fide_k.get(pid, OnRecord())),
        }

    def _report(self) -> dict[str, Any]:
        final = self.ranking(self.played)
        report = season_report(self.season, final)
        links = {pid: self.player_link(pid) for pid in self.players}
        places = [{pid: k for k, (pid, _) in enumerate(self.ranking(r), 1)} for r in range(self.played + 1)]
        progress = [(self.players[pid].name, [(r, places[r].get(pid)) for r in range(1, self.played + 1)])
                    for pid, _ in final[:5]]
        chart = line_chart(progress, self.played, 1, max(len(final), 2), invert=True) if self.played else None
        return {"report": report, "links": links, "names": {p: self.players[p].name for p in self.players},
                "progress": chart, "standing_round": self.played, "tiebreaks": self.tiebreak_codes(),
                "finished": self.comp.finished,
                "groups": self._category_groups()}

    def _category_groups(self) -> list[dict[str, Any]]:
        rows = self.standing_after(self.played)
        categories = sorted({r["category"] for r in rows if r["category"]})
        if not categories:
            return [{"category": None, "rows": rows}]
        return [{"category": c, "rows": [r for r in rows if r["category"] == c]} for c in categories]


#: The page builder of each competition system (other modules add theirs).
BUILDERS: dict[str, type[_Competition]] = {"keizer": _Competition}


#: The Keizer ranking's simple tie-breaks (settings.KEIZER_TIEBREAKS): the standing row's field of each.
_SIMPLE_TIEBREAKS = {"rating": "rating", "wins": "wins", "games": "games", "draws": "draws"}

#: A game in the attendance grid (which shows only that there was one).
_GAME_CELL = {"kind": "game", "code": "G"}

#: At most this many rounds side by side when a crosstable is printed (A4 landscape).
PRINT_ROUNDS = 16


def print_parts(rounds: int, most: int = PRINT_ROUNDS) -> list[tuple[int, int]]:
    """The crosstable's columns of rounds, as printed: (first, last) indexes into its rounds,
    in parts of equal size of at most ``most``, so that no printed page cuts a round off.

    >>> print_parts(30), print_parts(12), print_parts(0)
    ([(0, 15), (15, 30)], [(0, 12)], [(0, 0)])
    """
    parts = max(1, -(-rounds // most))
    size = -(-rounds // parts) if rounds else 0
    return [(k * size, min(rounds, (k + 1) * size)) for k in range(parts)]


def _result_text(result: Result | None) -> str:
    if result is None:
        return ""
    return {"1-0": "1–0", "0-1": "0–1", "1/2-1/2": "½–½", "+-": "+/−", "-+": "−/+", "--": "−/−"}[result.value]


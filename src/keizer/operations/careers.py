"""Ratings and careers across seasons: the FIDE ratings a competition's games are rated with,
the club rating over every game of every season, a member's career and two members' meetings.

Read-only: nothing here writes. Every function reads the club's file once per competition
and hands the games to the pure engines (:mod:`keizer.rating.club`,
:func:`keizer.readmodel.fide_changes`); the views word what comes back. A member is followed
across seasons by the member's id (a competition's player ids are its own).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Literal

from keizer import systems
from keizer.model import Season
from keizer.rating import club
from keizer.rating.glicko2 import Rating
from keizer.readmodel import chapter_of
from keizer.operations.standings import kept_standing, standing_view
from keizer.store import Store, StoreError

Start = Literal["national", "fide", "fixed"]
PeriodKind = Literal["round", "evening", "month"]
#: The choices of the club rating, each a catalog word.
STARTS: tuple[Start, ...] = ("national", "fide", "fixed")
PERIODS: tuple[PeriodKind, ...] = ("round", "evening", "month")
CHAPTERS = ("standard", "rapid", "blitz")


# -- every game of every season ------------------------------------------------------------


@dataclass(frozen=True)
class PlayedGame:
    """A game of the club between two members, as careers and the club rating read it."""

    season: str
    competition: str
    comp_id: int
    round: int
    date: str | None
    chapter: str
    white: int
    black: int
    #: White's score: 1, 1/2 or 0 (forfeits and unplayed games are not games).
    score: Fraction

    def score_of(self, member: int) -> Fraction:
        return self.score if member == self.white else 1 - self.score


@dataclass(frozen=True)
class ClubFile:
    """Every competition of the club read once: its row, the season and player → member."""

    rows: tuple[dict[str, Any], ...]
    seasons: dict[int, Season]
    members: dict[int, dict[str, int]]


def read_club(store: Store) -> ClubFile:
    rows = tuple(store.competitions())
    seasons = {r["id"]: store.load_season(r["id"]) for r in rows}
    members = {r["id"]: {p["key"]: p["member_id"] for p in store.players(r["id"]) if p["member_id"] is not None}
               for r in rows}
    return ClubFile(rows, seasons, members)


def played_games(data: ClubFile) -> list[PlayedGame]:
    """Every game played on the board between two members, in playing order: by the round's
    date (a round without one takes the competition's creation date), then by competition
    (the order they were created in) and round. The same file gives the same order."""
    found: list[tuple[tuple[str, int, int, int], PlayedGame]] = []
    for index, row in enumerate(data.rows):
        season, member_of = data.seasons[row["id"]], data.members[row["id"]]
        for rnd in season.rounds:
            day = rnd.date or str(row["created"])[:10]
            chapter = chapter_of(rnd.time_control)
            for game in rnd.games:
                if not game.played_on_board or game.white not in member_of or game.black not in member_of:
                    continue
                found.append(((day, index, rnd.number, game.board), PlayedGame(
                    str(row["season"] or ""), row["name"], row["id"], rnd.number, rnd.date, chapter,
                    member_of[game.white], member_of[game.black], game.points_of(game.white))))
    found.sort(key=lambda kg: kg[0])
    return [g for _, g in found]


# -- the club rating -----------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """Which games the club rating counts and how it starts: ``competitions`` (names; empty:
    all), ``chapter`` (standard, rapid or blitz by each round's time control; None: all games
    in one rating), ``start`` (national, fide or fixed: the member's rating on record, else
    ``fixed``) and ``period`` (one rating period per round, per club evening or per month)."""

    competitions: tuple[str, ...] = ()
    chapter: str | None = None
    start: Start = "national"
    fixed: int = 1500
    period: PeriodKind = "round"


def check_choice(store: Store, choice: Choice) -> Choice:
    """The choice with each competition by its name (given by name or id); a competition the
    file does not hold is refused before anything is computed."""
    return replace(choice, competitions=tuple(store.competition(ref)["name"] for ref in choice.competitions))


def _period_key(g: PlayedGame, kind: PeriodKind) -> str:
    day = g.date or ""
    if kind == "evening" and day:
        return day
    if kind == "month" and day:
        return day[:7]
    return f"{day} {g.competition} {g.round}".strip()


def rating_periods(games: Iterable[PlayedGame], choice: Choice) -> tuple[club.Period, ...]:
    """The chosen games grouped into rating periods, in playing order."""
    wanted = set(choice.competitions)
    return club.periods((_period_key(g, choice.period), club.ClubGame(str(g.white), str(g.black), g.score))
                        for g in games if (not wanted or g.competition in wanted)
                        and (choice.chapter is None or g.chapter == choice.chapter))


def start_options(store: Store, choice: Choice, members: Sequence[dict[str, Any]] | None = None) -> club.Options:
    """Where the club rating starts from; ``members``: the members as read already."""
    if choice.start == "fixed":
        return club.Options(default_start=choice.fixed)
    column = "rating" if choice.start == "national" else "fide_rating"
    return club.Options(start={str(m["id"]): m[column] for m in (store.members() if members is None else members)
                               if m[column]},
                        default_start=choice.fixed)


@dataclass(frozen=True)
class ClubRow:
    member: int
    name: str
    rating: Rating
    games: int
    last: str

    @property
    def interval(self) -> tuple[int, int]:
        return club.interval(self.rating)


@dataclass(frozen=True)
class ClubRating:
    """The club rating after every chosen game: one row per member, best first."""

    rows: tuple[ClubRow, ...]
    periods: int
    games: int


def club_rating(store: Store, choice: Choice, data: ClubFile | None = None) -> ClubRating:
    """The club rating of every member who played a chosen game (provisional, not official)."""
    choice = check_choice(store, choice)
    games = played_games(data or read_club(store))
    all_periods = rating_periods(games, choice)
    final = club.club_ratings(all_periods, start_options(store, choice))
    names = {str(m["id"]): m["name"] for m in store.members()}
    counts: dict[str, int] = {}
    last: dict[str, str] = {}
    for period in all_periods:
        for g in period.games:
            for side in (g.white, g.black):
                counts[side] = counts.get(side, 0) + 1
                last[side] = period.label
    rows = sorted((ClubRow(int(m), names.get(m, m), r, counts.get(m, 0), last.get(m, ""))
                   for m, r in final.ratings.items()), key=lambda row: (-row.rating.rating, row.name, row.member))
    return ClubRating(tuple(rows), final.periods, sum(len(p.games) for p in all_periods))


# -- careers and head-to-head ------------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    """Games, wins, draws and losses (from one member's side) and the last meeting."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    last: str | None = None

    def add(self, score: Fraction, day: str | None) -> Record:
        return Record(self.games + 1, self.wins + (score == 1), self.draws + (score == Fraction(1, 2)),
                      self.losses + (score == 0), max(filter(None, (self.last, day)), default=None))

    @property
    def score(self) -> Fraction:
        return self.wins + Fraction(self.draws, 2)


def record(games: Iterable[PlayedGame], member: int) -> Record:
    found = Record()
    for g in games:
        found = found.add(g.score_of(member), g.date)
    return found


@dataclass(frozen=True)
class HeadToHead:
    first: dict[str, Any]
    second: dict[str, Any]
    record: Record
    games: tuple[PlayedGame, ...]


def head_to_head(store: Store, first_ref: str, second_ref: str) -> HeadToHead:
    """Every game two members played against each other, in every season (from the first's side)."""
    first, second = store.find_member(first_ref), store.find_member(second_ref)
    if first["id"] == second["id"]:
        raise StoreError("%(name)s cannot meet themself; name two members", name=first["name"])
    pair = {first["id"], second["id"]}
    games = tuple(g for g in played_games(read_club(store)) if {g.white, g.black} == pair)
    return HeadToHead(first, second, record(games, first["id"]), games)


@dataclass(frozen=True)
class CareerLine:
    """One competition of a member: its season, rank and score (None where the system has no
    ranking of players), and the games played."""

    season: str
    competition: str
    comp_id: int
    rank: int | None
    score: Fraction | None
    record: Record


@dataclass(frozen=True)
class Opponent:
    member: int
    name: str
    record: Record


@dataclass(frozen=True)
class RatingPoint:
    """The club rating after one rating period: the period's first game's date, competition
    and round (the label of an evening or a month is its date), and whether the member played."""

    label: str
    date: str | None
    competition: str
    round: int
    rating: Rating
    played: bool


@dataclass(frozen=True)
class Career:
    member: dict[str, Any]
    lines: tuple[CareerLine, ...]
    total: Record
    opponents: tuple[Opponent, ...]
    #: The club rating after every rating period the member was in the pool (label, rating, played).
    rating: tuple[RatingPoint, ...]


def career(store: Store, ref: str, choice: Choice = Choice()) -> Career:
    """A member's every competition, the record against every opponent and the club rating
    over time (every game, one period per round unless ``choice`` says otherwise)."""
    member = store.find_member(ref)
    data = read_club(store)
    games = played_games(data)
    mine = [g for g in games if member["id"] in (g.white, g.black)]
    lines: list[CareerLine] = []
    for row in data.rows:
        keys = [k for k, m in data.members[row["id"]].items() if m == member["id"]]
        if not keys:
            continue
        rank, score = None, None
        if systems.of(row["system"]).standing_kind == "ladder":  # the kept standing, not a page's rows
            season = data.seasons[row["id"]]
            found = next((e for e in kept_standing(store, row["id"], season, season.completed_rounds()).entries
                          if e.player == keys[0]), None)
            if found is not None:
                rank, score = found.rank, found.score
        elif systems.of(row["system"]).player_table:
            shown = standing_view(store, row["id"])
            entry = next((r for r in shown["rows"] if r.get("id") == keys[0]), None)
            if entry is not None:
                rank, score = entry["rank"], entry.get("score", entry.get("points"))
        lines.append(CareerLine(str(row["season"] or ""), row["name"], row["id"], rank, score,
                                record((g for g in mine if g.comp_id == row["id"]), member["id"])))
    members = store.members()  # read once: the opponents' names and the ratings the club rating starts from
    names = {m["id"]: m["name"] for m in members}
    against: dict[int, list[PlayedGame]] = {}
    for g in mine:
        against.setdefault(g.black if g.white == member["id"] else g.white, []).append(g)
    opponents = sorted((Opponent(o, names.get(o, str(o)), record(gs, member["id"])) for o, gs in against.items()),
                       key=lambda o: (-o.record.games, o.name, o.member))
    choice = check_choice(store, choice)
    first: dict[str, PlayedGame] = {}
    for g in games:
        first.setdefault(_period_key(g, choice.period), g)
    points = tuple(RatingPoint(p.label, first[p.label].date, first[p.label].competition, first[p.label].round,
                               p.rating, p.played)
                   for p in club.history(rating_periods(games, choice), start_options(store, choice, members))
                   .get(str(member["id"]), ()))
    return Career(member, tuple(lines), record(mine, member["id"]), tuple(opponents), points)


def rating_table(points: Sequence[RatingPoint], limit: int = 0) -> list[RatingPoint]:
    """The club rating over time as a text table shows it: the periods the member played
    (the last ``limit`` of them; 0: all)."""
    played = [p for p in points if p.played]
    return played[-limit:] if limit else played

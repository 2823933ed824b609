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
from typing import Any

from keizer import systems
from keizer.model import Season
from keizer.rating import club
from keizer.rating.club import PeriodKind, Start
from keizer.rating.glicko2 import Rating
from keizer.readmodel import chapter_of
from keizer.rating.fide import performance_rating
from keizer.operations.standings import kept_standing, standing_view
from keizer.store import Store, StoreError


# -- every game of every season ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
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
    #: Each player's rating in the competition (frozen when it started; None: unrated).
    white_rating: int | None = None
    black_rating: int | None = None

    def score_of(self, member: int) -> Fraction:
        return self.score if member == self.white else 1 - self.score

    def opponent_of(self, member: int) -> int:
        return self.black if member == self.white else self.white

    def rating_of(self, member: int) -> int | None:
        return self.white_rating if member == self.white else self.black_rating


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


#: Games of the rounds read before (competition → what its games were read with, and each
#: round → the round object and its games): a round read again only when its stamp changed is
#: the same object (:mod:`keizer.store.rounds_read`), and keeps its games' objects too.
RoundsMemo = dict[int, tuple[tuple[Any, ...], dict[int, tuple[Any, list[tuple[tuple[str, int, int, int], "PlayedGame"]]]]]]


def played_games(data: ClubFile, memo: RoundsMemo | None = None) -> list[PlayedGame]:
    """Every game played on the board between two members, in playing order: by the round's
    date (a round without one takes the competition's creation date), then by competition
    (the order they were created in) and round. The same file gives the same order.
    ``memo``: the games of the rounds read before, taken over where the round is the same
    object (and updated)."""
    found: list[tuple[tuple[str, int, int, int], PlayedGame]] = []
    for index, row in enumerate(data.rows):
        season, member_of = data.seasons[row["id"]], data.members[row["id"]]
        rating = {p.id: p.rating or None for p in season.players}
        sign = (index, row["season"], row["name"], row["created"], member_of, rating)
        before = memo.get(row["id"]) if memo is not None else None
        known = before[1] if before is not None and before[0] == sign else {}
        now: dict[int, tuple[Any, list[tuple[tuple[str, int, int, int], PlayedGame]]]] = {}
        for rnd in season.rounds:
            had = known.get(rnd.number)
            items = had[1] if had is not None and had[0] is rnd else _round_games(index, row, member_of, rating, rnd)
            now[rnd.number] = (rnd, items)
            found.extend(items)
        if memo is not None:
            memo[row["id"]] = (sign, now)
    if memo is not None:
        for gone in set(memo) - {row["id"] for row in data.rows}:
            del memo[gone]
    found.sort(key=lambda kg: kg[0])
    return [g for _, g in found]


def _round_games(index: int, row: dict[str, Any], member_of: dict[str, int], rating: dict[str, int | None],
                 rnd: Any) -> list[tuple[tuple[str, int, int, int], PlayedGame]]:
    day = rnd.date or str(row["created"])[:10]
    chapter = chapter_of(rnd.time_control)
    return [((day, index, rnd.number, game.board), PlayedGame(
        str(row["season"] or ""), row["name"], row["id"], rnd.number, rnd.date, chapter,
        member_of[game.white], member_of[game.black], game.points_of(game.white),
        rating.get(game.white), rating.get(game.black)))
        for game in rnd.games
        if game.played_on_board and game.white in member_of and game.black in member_of]


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


def rating_periods(games: Iterable[PlayedGame], choice: Choice,
                   memo: dict[int, tuple[PlayedGame, club.ClubGame]] | None = None) -> tuple[club.Period, ...]:
    """The chosen games grouped into rating periods, in playing order; ``memo``: the rating's
    game of each game met before (by the game object; updated)."""
    wanted = set(choice.competitions)
    return club.periods((_period_key(g, choice.period), _club_game(g, memo))
                        for g in games if (not wanted or g.competition in wanted)
                        and (choice.chapter is None or g.chapter == choice.chapter))


def _club_game(g: PlayedGame, memo: dict[int, tuple[PlayedGame, club.ClubGame]] | None) -> club.ClubGame:
    if memo is None:
        return club.ClubGame(str(g.white), str(g.black), g.score)
    known = memo.get(id(g))
    if known is None or known[0] is not g:
        known = memo[id(g)] = (g, club.ClubGame(str(g.white), str(g.black), g.score))
    return known[1]


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


def club_rating(store: Store, choice: Choice) -> ClubRating:
    """The club rating of every member who played a chosen game (provisional, not official)."""
    choice = check_choice(store, choice)
    games = played_games(read_club(store))
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
    """The games, wins, draws, losses and last meeting of ``member`` in ``games`` (what
    :meth:`Record.add` gives one game at a time, counted in one pass: a site counts a hundred
    thousand games)."""
    played = wins = draws = 0
    last: str | None = None
    for g in games:
        played += 1
        if g.score == _HALF:
            draws += 1
        elif (g.score == 1) == (member == g.white):
            wins += 1
        if g.date is not None and (last is None or g.date > last):
            last = g.date
    return Record(played, wins, draws, played - wins - draws, last)


_HALF = Fraction(1, 2)


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


#: A performance counts among the best results with at least this many games against rated opponents.
BEST_PERFORMANCE_GAMES = 5


@dataclass(frozen=True)
class Run:
    """The longest run of games without a loss: how many, and the first and last of them."""

    games: int
    first: PlayedGame
    last: PlayedGame


@dataclass(frozen=True)
class Scalp:
    """The win against the highest-rated opponent (the opponent's rating in that competition)."""

    opponent: int
    name: str
    rating: int
    game: PlayedGame


@dataclass(frozen=True)
class Performance:
    """The best performance rating of one competition (FIDE's 8.1.1, over the games against
    opponents with a rating in that competition)."""

    rating: int
    line: CareerLine
    games: int


@dataclass(frozen=True)
class Best:
    """A member's best results (None where there is none): the best rank in a competition that
    ranks players, the best performance rating of a competition, the longest unbeaten run and
    the biggest scalp."""

    rank: CareerLine | None = None
    performance: Performance | None = None
    unbeaten: Run | None = None
    scalp: Scalp | None = None


def best_results(lines: Sequence[CareerLine], games: Sequence[PlayedGame], member: int,
                 names: dict[int, str]) -> Best:
    """The best results of a career (pure): the best rank (lowest; between equal ranks the one
    with more games, then the latest), the best performance (at least
    :data:`BEST_PERFORMANCE_GAMES` games against rated opponents in one competition; equal
    ones: the latest), the longest run of games without a loss across competitions and
    seasons in playing order (equal runs: the first), and the win against the opponent with
    the highest rating (equal ratings: the latest)."""
    scores = {id(g): g.score_of(member) for g in games}
    ranked = [(n, line) for n, line in enumerate(lines) if line.rank is not None]
    rank = min(ranked, key=lambda nl: (nl[1].rank, -nl[1].record.games, -nl[0]))[1] if ranked else None
    performance: Performance | None = None
    for line in lines:
        rated = [(g.rating_of(g.opponent_of(member)), scores[id(g)]) for g in games if g.comp_id == line.comp_id]
        counted = [(r, s) for r, s in rated if r]
        if len(counted) >= BEST_PERFORMANCE_GAMES:
            tpr = performance_rating([r for r, _ in counted if r], sum((s for _, s in counted), Fraction(0)))
            if performance is None or tpr >= performance.rating:
                performance = Performance(tpr, line, len(counted))
    unbeaten: Run | None = None
    start = 0
    for n, g in enumerate(games):
        if scores[id(g)] == 0:
            start = n + 1
        elif unbeaten is None or n + 1 - start > unbeaten.games:
            unbeaten = Run(n + 1 - start, games[start], g)
    scalp: Scalp | None = None
    for g in games:
        theirs = g.rating_of(g.opponent_of(member))
        if scores[id(g)] == 1 and theirs and (scalp is None or theirs >= scalp.rating):
            other = g.opponent_of(member)
            scalp = Scalp(other, names.get(other, str(other)), theirs, g)
    return Best(rank, performance, unbeaten, scalp)


@dataclass(frozen=True)
class Career:
    member: dict[str, Any]
    lines: tuple[CareerLine, ...]
    total: Record
    opponents: tuple[Opponent, ...]
    #: The club rating after every rating period the member was in the pool (label, rating, played).
    rating: tuple[RatingPoint, ...]
    #: The member's games in playing order (head-to-head per opponent, the best results).
    games: tuple[PlayedGame, ...] = ()
    best: Best = Best()


def career(store: Store, ref: str, choice: Choice = Choice()) -> Career:
    """A member's every competition, the record against every opponent, the best results and
    the club rating over time (every game, one period per round unless ``choice`` says otherwise)."""
    member = store.find_member(ref)
    return careers(store, (member["id"],), choice)[member["id"]]


def careers(store: Store, wanted: Iterable[int] | None = None, choice: Choice = Choice()) -> dict[int, Career]:
    """The careers of the ``wanted`` members (None: every member who played in a competition),
    with the file read once, each competition's standing computed once and the club rating
    computed once: what the published site's career pages need."""
    read = read_careers(store, wanted)
    choice = check_choice(store, choice)
    first = first_games(read.games, choice)
    history = club.history(rating_periods(read.games, choice), start_options(store, choice, list(read.every.values())))
    mine = games_of(read.games, read.chosen)
    return {m: career_of(read, m, mine[m], tuple(rating_point(p.label, first, p.rating, p.played)
                                                 for p in history.get(str(m), ())))
            for m in read.chosen}


@dataclass(frozen=True)
class CareersRead:
    """What the careers are made of, read once: every competition, every game in playing
    order, every member (id → row) and their names, each competition's members (member →
    player key), the members whose careers are wanted and each ranked competition's ranks and
    scores (competition → player key → rank, score)."""

    data: ClubFile
    games: list[PlayedGame]
    every: dict[int, dict[str, Any]]
    names: dict[int, str]
    in_comp: dict[int, dict[int, str]]
    chosen: list[int]
    standings: dict[int, dict[str, tuple[int | None, Any]]]


def read_careers(store: Store, wanted: Iterable[int] | None = None, memo: RoundsMemo | None = None) -> CareersRead:
    """The club's file as the careers of ``wanted`` (None: every member who played) read it
    (``memo``: see :func:`played_games`)."""
    data = read_club(store)
    games = played_games(data, memo)
    every = {m["id"]: m for m in store.members()}
    names = {i: m["name"] for i, m in every.items()}
    in_comp: dict[int, dict[int, str]] = {}  # competition → member → the member's player key in it
    for row in data.rows:
        for player, m in data.members[row["id"]].items():
            in_comp.setdefault(row["id"], {}).setdefault(m, player)
        in_comp.setdefault(row["id"], {})
    chosen = sorted({m for keys in in_comp.values() for m in keys} if wanted is None else set(wanted))
    standings: dict[int, dict[str, tuple[int | None, Any]]] = {}  # competition → player key → rank, score
    for row in data.rows:
        kind = systems.of(row["system"])
        if not any(m in in_comp[row["id"]] for m in chosen):
            continue
        if kind.standing_kind == "ladder":  # the kept standing, not a page's rows
            season = data.seasons[row["id"]]
            standings[row["id"]] = {e.player: (e.rank, e.score) for e in
                                    kept_standing(store, row["id"], season, season.completed_rounds()).entries}
        elif kind.player_table:
            standings[row["id"]] = {r["id"]: (r["rank"], r.get("score", r.get("points")))
                                    for r in standing_view(store, row["id"])["rows"] if r.get("id")}
    return CareersRead(data, games, every, names, in_comp, chosen, standings)


def first_games(games: Iterable[PlayedGame], choice: Choice) -> dict[str, PlayedGame]:
    """Each rating period's first game (period label → game)."""
    first: dict[str, PlayedGame] = {}
    for g in games:
        first.setdefault(_period_key(g, choice.period), g)
    return first


def rating_point(label: str, first: dict[str, PlayedGame], rating: Rating, played: bool) -> RatingPoint:
    return RatingPoint(label, first[label].date, first[label].competition, first[label].round, rating, played)


def games_of(games: Iterable[PlayedGame], chosen: Iterable[int]) -> dict[int, tuple[PlayedGame, ...]]:
    """Each chosen member's games, in playing order."""
    mine: dict[int, list[PlayedGame]] = {m: [] for m in chosen}
    for g in games:
        for side in (g.white, g.black):
            if side in mine:
                mine[side].append(g)
    return {m: tuple(gs) for m, gs in mine.items()}


def lines_of(read: CareersRead, m: int, mine: Sequence[PlayedGame]) -> tuple[CareerLine, ...]:
    """A member's competitions: rank, score and record in each."""
    lines: list[CareerLine] = []
    by_comp: dict[int, list[PlayedGame]] = {}
    for g in mine:
        by_comp.setdefault(g.comp_id, []).append(g)
    for row in read.data.rows:
        own = read.in_comp[row["id"]].get(m)
        if own is None:
            continue
        rank, score = read.standings.get(row["id"], {}).get(own, (None, None))
        lines.append(CareerLine(str(row["season"] or ""), row["name"], row["id"], rank, score,
                                record(by_comp.get(row["id"], ()), m)))
    return tuple(lines)


def career_of(read: CareersRead, m: int, mine: tuple[PlayedGame, ...], points: tuple[RatingPoint, ...],
              lines: tuple[CareerLine, ...] | None = None) -> Career:
    """One member's career from what was read, the member's games and club rating over time."""
    lines = lines_of(read, m, mine) if lines is None else lines
    against: dict[int, list[PlayedGame]] = {}
    for g in mine:
        against.setdefault(g.opponent_of(m), []).append(g)
    opponents = sorted((Opponent(o, read.names.get(o, str(o)), record(gs, m)) for o, gs in against.items()),
                       key=lambda o: (-o.record.games, o.name, o.member))
    return Career(read.every[m], lines, record(mine, m), tuple(opponents), points, mine,
                  best_results(lines, mine, m, read.names))


def rating_table(points: Sequence[RatingPoint], limit: int = 0) -> list[RatingPoint]:
    """The club rating over time as a text table shows it: the periods the member played
    (the last ``limit`` of them; 0: all)."""
    played = [p for p in points if p.played]
    return played[-limit:] if limit else played

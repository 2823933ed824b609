"""Every member's career kept from one publishing to the next, not recomputed.

A result changes two players' games and the club rating of the rating period it falls in
and of every period after it; the careers of everyone else stay as they were.  A
:class:`CareersKept` holds the rating periods it last rated, the club rating after each of
them and every member's career; given the club's file again, it rates again from the first
period that differs (the club rating is computed period by period: the state after a period
depends on the periods before it only), gives each member the rating points of the periods
rated again, and makes a member's career again only when the member, the member's games,
competitions (rank, score) or the names of the club differ.  A career that did not change
is the same object as before, so the site's keys of its page are taken once
(:func:`keizer.publish.career_pages.plan_careers`).

The kept careers are the careers computed from scratch (:func:`keizer.operations.careers.careers`;
the property test in ``tests/test_kept_careers.py`` checks it after any sequence of edits).
The process-wide memory, by database, is :func:`kept_careers`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from keizer.operations.careers import (Career, Choice, PlayedGame, RatingPoint, RoundsMemo, career, career_of,
                                       check_choice, first_games, games_of,
                                       lines_of, rating_periods, rating_point, read_careers, start_options)
from keizer.operations.held import Held
from keizer.rating import club
from keizer.store import Store


@dataclass
class CareersKept:
    """The club rating after each period rated last time and every member's career."""

    choice: Choice | None = None
    options: club.Options | None = None
    periods: tuple[club.Period, ...] = ()
    states: list[club.State] = field(default_factory=list)
    #: Each player in the pool (by the rating's id): the first period the player was in it.
    entered: dict[str, int] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    found: dict[int, Career] = field(default_factory=dict)
    #: The games of each round read before, and the rating's game of each game.
    rounds: RoundsMemo = field(default_factory=dict)
    club_games: dict[int, tuple[PlayedGame, club.ClubGame]] = field(default_factory=dict)
    #: What each member's competitions were read from (its competitions, rank and score in each).
    signs: dict[int, tuple[object, ...]] = field(default_factory=dict)
    #: Each period's first game as a rating point shows it (date, competition, round), by label.
    firsts: dict[str, tuple[str | None, str, int]] = field(default_factory=dict)
    #: How many careers the last call made again (the others were kept).
    made: int = 0

    def careers(self, store: Store, choice: Choice = Choice()) -> dict[int, Career]:
        """Every member's career (as :func:`keizer.operations.careers.careers` gives it)."""
        read = read_careers(store, memo=self.rounds)
        choice = check_choice(store, choice)
        options = start_options(store, choice, list(read.every.values()))
        periods = rating_periods(read.games, choice, self.club_games)
        if len(self.club_games) > len(read.games):  # the games of this file only
            self.club_games = {id(g): self.club_games[id(g)] for g in read.games if id(g) in self.club_games}
        first = first_games(read.games, choice)
        firsts = {label: (g.date, g.competition, g.round) for label, g in first.items()}  # what a point shows of it
        same = 0 if choice != self.choice or options != self.options else same_prefix(self.periods, periods)
        same = next((k for k in range(same) if firsts[periods[k].label] != self.firsts.get(periods[k].label)), same)
        states = self.states[:same]
        state = states[-1] if states else club.State()
        for period in periods[same:]:
            state = club.rate_period(state, period, options)
            states.append(state)
        entered = {p: k for p, k in self.entered.items() if k < same}
        for k in range(same, len(periods)):
            for player in states[k].ratings:
                entered.setdefault(player, k)
        played = [_played(periods[k]) for k in range(same, len(periods))]
        mine = games_of(read.games, read.chosen)
        renamed = read.names != self.names
        found: dict[int, Career] = {}
        signs: dict[int, tuple[object, ...]] = {}
        made = 0
        for m in read.chosen:
            me = str(m)
            start = entered.get(me)
            old = self.found.get(m)
            points: tuple[RatingPoint, ...] = ()
            if start is not None:
                begin = same if old is not None and start < same else start
                points = (old.rating[:same - start] if begin == same and old is not None else ()) + tuple(
                    rating_point(periods[k].label, first, states[k].ratings[me],
                                 me in (played[k - same] if k >= same else _played(periods[k])))
                    for k in range(begin, len(periods)))
            sign = tuple((row["id"], row["season"], row["name"], read.standings.get(row["id"], {}).get(own))
                         for row in read.data.rows if (own := read.in_comp[row["id"]].get(m)) is not None)
            lines = (old.lines if old is not None and self.signs.get(m) == sign and old.games == mine[m]
                     else lines_of(read, m, mine[m]))  # a line's record counts the member's games
            signs[m] = sign
            if (old is None or renamed or old.member != read.every[m] or old.lines != lines
                    or old.games != mine[m]):
                found[m] = career_of(read, m, mine[m], points, lines)
                made += 1
            else:
                found[m] = old if old.rating == points else replace(old, rating=points)
        self.choice, self.options, self.periods, self.states = choice, options, periods, states
        self.entered, self.names, self.found, self.made, self.signs = entered, read.names, found, made, signs
        self.firsts = firsts
        return found


def _played(period: club.Period) -> set[str]:
    return {p for g in period.games for p in (g.white, g.black)}


def same_prefix(old: tuple[club.Period, ...], new: tuple[club.Period, ...]) -> int:
    """How many periods ``old`` and ``new`` share from the first."""
    for k, (a, b) in enumerate(zip(old, new)):
        if a != b:
            return k
    return min(len(old), len(new))


#: How many databases' careers a process keeps.
KEPT_CLUBS = 4
_kept: Held[str, CareersKept] = Held(KEPT_CLUBS)


def kept_careers(store: Store) -> dict[int, Career]:
    """Every member's career, kept from the last call for this database (one call at a time per
    database; the careers are those :func:`keizer.operations.careers.careers` computes)."""
    lock, kept = _kept.entry(store.place, CareersKept)
    with lock:
        try:
            return kept.careers(store)
        except BaseException:  # a half-made memory is not kept
            _kept.drop(store.place)
            raise


def kept_career(store: Store, ref: str) -> Career:
    """:func:`keizer.operations.careers.career` (the default choice) from the kept careers: the
    app's career page, asked again and again, makes a member's career again only when it
    changed, and the club rating only from the period that did (a member who played in no
    competition: computed as before)."""
    member = store.find_member(ref)
    found = kept_careers(store).get(member["id"])
    return found if found is not None else career(store, f"#{member['id']}")


def careers_kept(store: Store) -> CareersKept | None:
    """What this process keeps of ``store``'s careers (for :mod:`keizer.operations.kept_file`)."""
    return _kept.get(store.place)


def adopt_careers(store: Store, kept: CareersKept) -> bool:
    """Hold ``kept`` as ``store``'s kept careers, unless this process holds some already (True: taken)."""
    return _kept.adopt(store.place, kept)

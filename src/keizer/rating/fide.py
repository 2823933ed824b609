"""FIDE rating changes, exactly as the FIDE Rating Regulations compute them.

Sources (article numbers are the standard chapter's unless said otherwise):

* FIDE Rating Regulations effective from 1 March 2024 (FIDE Handbook B.02, approved by the
  FIDE Council on 15 December 2023, https://handbook.fide.com/chapter/B022024), with the
  amendment of 8.3.1 "effective from 1 October 2025" (players rated 2650 and above use the
  full rating difference).
* FIDE Rapid and Blitz Rating Regulations effective from 1 March 2024 (same approval,
  https://handbook.fide.com/chapter/B02RBRegulations2024): the same tables, K and rounding,
  its 7.3.1 keeps the plain 400-point rule and adds, effective from 1 December 2024, that games
  between players 600 or more points apart are not rated when one of them is rated above 2600.

What is here: the expected score PD from a rating difference (table 8.1.2 and 8.3.1's 400-point
rule), K (8.3.3, with the 700 rule), the change per game ΔR = score − PD and per tournament
or rating period ΣΔR × K (8.3.2), its rounding (8.3.4), the rating floor (7.1.2, 7.2.1), the
first rating of an unrated player (7.1.4, 8.2) and the performance rating Ra + dp (table
8.1.1). Fractions throughout: PD is a whole number of hundredths, so every change is exact.

Every figure is provisional, not official: FIDE's rating server computes the official ratings.

>>> rules = rules_on(date(2026, 1, 15))
>>> g = game_change(2000, 2092, Fraction(1, 2), rules)
>>> g.difference, g.expected, g.change, g.change * 30
(-92, Fraction(37, 100), Fraction(13, 100), Fraction(39, 10))
>>> rules_on(date(2024, 2, 29)) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Literal

from keizer.tiebreaks.fide_tables import expected, half_up, rating_difference

Chapter = Literal["standard", "rapid", "blitz"]
#: The chapters of the regulations a round is rated by (its time control decides).
CHAPTERS: tuple[Chapter, ...] = ("standard", "rapid", "blitz")

#: The scores a game can give (8.3.2 b: "the score is 1, 0.5 or 0").
SCORES = (Fraction(0), Fraction(1, 2), Fraction(1))


@dataclass(frozen=True)
class Rules:
    """One edition of the regulations for one chapter: the numbers the articles name."""

    chapter: Chapter
    effective: date
    #: 8.3.1: a difference of more than this counts as this.
    cap: int = 400
    #: 8.3.1 from 1 October 2025 (standard only): a player rated this or more uses the full difference.
    cap_exempt_from: int | None = None
    #: Rapid and blitz 7.3.1 from 1 December 2024: a game this many points apart or more is not
    #: rated if one of the players is rated above :attr:`unrated_above`.
    unrated_gap: int | None = None
    unrated_above: int | None = None
    #: 7.1.2 and 7.2.1: the lowest published rating; below it a player is shown as unrated.
    floor: int = 1400
    #: 7.1.4: games against rated opponents a first rating needs.
    first_rating_games: int = 5
    #: 8.2.2: the two hypothetical opponents' rating (each game counted as a draw).
    hypothetical_opponent: int = 1800
    #: 8.2.3: the highest first rating.
    max_initial: int = 2200
    #: 8.3.3: K × games in a rating period may not exceed this.
    k_times_games: int = 700


#: The editions in force, oldest first, per chapter. Before 1 March 2024 no edition is held.
EDITIONS: dict[Chapter, tuple[Rules, ...]] = {
    "standard": (Rules("standard", date(2024, 3, 1)),
                 Rules("standard", date(2025, 10, 1), cap_exempt_from=2650)),
    "rapid": (Rules("rapid", date(2024, 3, 1)),
              Rules("rapid", date(2024, 12, 1), unrated_gap=600, unrated_above=2600)),
    "blitz": (Rules("blitz", date(2024, 3, 1)),
              Rules("blitz", date(2024, 12, 1), unrated_gap=600, unrated_above=2600)),
}


def rules_on(day: date, chapter: Chapter = "standard") -> Rules | None:
    """The edition in force on ``day`` (a round's date), or None before 1 March 2024.

    >>> rules_on(date(2025, 10, 1)).cap_exempt_from, rules_on(date(2025, 9, 30)).cap_exempt_from
    (2650, None)
    >>> rules_on(date(2025, 1, 1), "rapid").unrated_gap
    600
    """
    found = None
    for rules in EDITIONS[chapter]:
        if rules.effective <= day:
            found = rules
    return found


def expected_score(difference: int) -> Fraction:
    """PD of table 8.1.2: the expected score of the player rated ``difference`` points higher
    (negative: lower). The table itself, no cap (see :func:`used_difference`).

    >>> expected_score(0), expected_score(3), expected_score(4), expected_score(-4)
    (Fraction(1, 2), Fraction(1, 2), Fraction(51, 100), Fraction(49, 100))
    >>> expected_score(735), expected_score(736), expected_score(-800)
    (Fraction(99, 100), Fraction(1, 1), Fraction(0, 1))
    """
    return Fraction(expected(difference), 100)


def used_difference(own: int, opponent: int, rules: Rules) -> int:
    """D of 8.3.1 for the player rated ``own``: more than 400 points counts as 400, except,
    from 1 October 2025 (standard), for a player rated 2650 or above.

    The exemption depends on the rating of the player whose change is computed: in the same
    game the 2813-rated player uses the full difference and the 2400-rated opponent sees 400.

    >>> new = rules_on(date(2025, 11, 7))
    >>> used_difference(2813, 2400, new), used_difference(2400, 2813, new)
    (413, -400)
    >>> used_difference(2813, 2400, rules_on(date(2025, 9, 30)))
    400
    """
    difference = own - opponent
    if rules.cap_exempt_from is not None and own >= rules.cap_exempt_from:
        return difference
    return max(-rules.cap, min(rules.cap, difference))


def is_rated(own: int, opponent: int, rules: Rules) -> bool:
    """Whether a game between these ratings is rated at all (rapid and blitz 7.3.1 from
    1 December 2024: not if 600 or more apart and one is rated above 2600).

    >>> blitz = rules_on(date(2025, 5, 1), "blitz")
    >>> is_rated(2601, 2001, blitz), is_rated(2601, 2002, blitz), is_rated(2600, 2000, blitz)
    (False, True, True)
    """
    if rules.unrated_gap is None or rules.unrated_above is None:
        return True
    return not (abs(own - opponent) >= rules.unrated_gap and max(own, opponent) > rules.unrated_above)


def _score(score: Fraction) -> Fraction:
    if score not in SCORES:
        raise ValueError(f"a game scores 1, 1/2 or 0, not {score}")
    return Fraction(score)


@dataclass(frozen=True)
class GameChange:
    """One game of a rated player against a rated opponent (8.3.1–8.3.2)."""

    opponent: int
    score: Fraction
    #: D as used (after 8.3.1's 400-point rule).
    difference: int
    #: PD from table 8.1.2.
    expected: Fraction
    #: ΔR = score − PD; the rating change of the game is ``change × K``.
    change: Fraction


def game_change(own: int, opponent: int, score: Fraction, rules: Rules) -> GameChange:
    """ΔR of one game (8.3.2 a–b).

    >>> rules = rules_on(date(2025, 11, 7))
    >>> game_change(2400, 2813, Fraction(0), rules).change
    Fraction(-2, 25)
    >>> game_change(2813, 1787, Fraction(1), rules).change
    Fraction(0, 1)
    """
    difference = used_difference(own, opponent, rules)
    pd = expected_score(difference)
    s = _score(score)
    return GameChange(opponent, s, difference, pd, s - pd)


@dataclass(frozen=True)
class Player:
    """What K depends on (8.3.3), as of the list in force when the games are rated."""

    rating: int
    #: Rated games in the events the player has completed before.
    games: int = 30
    #: Whether a published rating of the player has ever reached 2400.
    reached_2400: bool = False
    birth_year: int | None = None


def k_factor(player: Player, on: date) -> int:
    """K of 8.3.3 (before the 700 rule of :func:`period_k`).

    40 until the player has completed events with 30 games; 10 once a published rating has
    reached 2400, even if it drops below; 40 until the end of the year of the 18th birthday
    while the rating is under 2300; otherwise 20. Reading of the article where two lines
    could apply: the 30-games line first (it is listed first and has no rating condition),
    then the 2400 line, then the under-18 line.

    >>> k_factor(Player(1500, games=12), date(2026, 1, 1))
    40
    >>> k_factor(Player(2350, reached_2400=True), date(2026, 1, 1))
    10
    >>> k_factor(Player(2250, birth_year=2008), date(2026, 12, 31)), k_factor(Player(2250, birth_year=2008), date(2027, 1, 1))
    (40, 20)
    >>> k_factor(Player(2300, birth_year=2010), date(2026, 1, 1))
    20
    """
    if player.games < 30:
        return 40
    if player.reached_2400 or player.rating >= 2400:
        return 10
    if player.birth_year is not None and on.year <= player.birth_year + 18 and player.rating < 2300:
        return 40
    return 20


@dataclass(frozen=True)
class OnRecord:
    """What a club's file may know of a player for 8.3.3: the K printed in FIDE's list (its
    ``K``/``SK`` column: 40, 20 or 10) and the year of birth (the list's ``B-day``)."""

    list_k: int | None = None
    birth_year: int | None = None


def player_on_record(rating: int, record: OnRecord, on: date) -> Player:
    """The :class:`Player` 8.3.3 needs, from a rating and what the file knows.

    FIDE's list gives K, not the games behind it: a K of 40 for a player who is not a junior
    under 2300 on ``on`` (by the year of birth; unknown counts as not) means fewer than 30
    games; a K of 10 means a published rating has reached 2400. Without a list K the player is
    taken to have 30 games or more (K 20, or 10 from 2400), as before, with K 40 for a junior
    under 2300 by the year of birth.

    >>> day = date(2026, 5, 1)
    >>> [k_factor(player_on_record(r, OnRecord(k, y), day), day) for r, k, y in
    ...  [(1650, None, None), (1650, 40, None), (1650, 40, 2009), (1650, None, 2009), (2350, 10, None), (2350, None, 2010)]]
    [20, 40, 40, 40, 10, 20]
    >>> k_factor(player_on_record(1650, OnRecord(40, 2007), date(2026, 1, 1)), date(2026, 1, 1))  # 19 this year: K 40 is for games
    40
    """
    junior = record.birth_year is not None and on.year <= record.birth_year + 18 and rating < 2300
    return Player(rating, games=0 if record.list_k == 40 and not junior else 30, reached_2400=record.list_k == 10,
                  birth_year=record.birth_year)


def period_k(k: int, games: int, rules: Rules) -> int:
    """8.3.3's last line: if K × n (the rated games of the rating period) exceeds 700, K is
    the largest whole number with K × n ≤ 700.

    >>> rules = rules_on(date(2026, 9, 1))
    >>> period_k(20, 39, rules), period_k(20, 35, rules), period_k(40, 18, rules)
    (17, 20, 38)
    """
    if games < 0:
        raise ValueError("a negative number of games")
    if games and k * games > rules.k_times_games:
        return rules.k_times_games // games
    return k


@dataclass(frozen=True)
class Game:
    """A game as the rating sees it: the opponent's rating (None: unrated) and the score."""

    opponent: int | None
    score: Fraction


@dataclass(frozen=True)
class TournamentChange:
    """A rated player's tournament (or any group of games rated together)."""

    rating: int
    k: int
    games: tuple[GameChange, ...]
    #: ΣΔR (8.3.2 c).
    delta: Fraction
    #: ΣΔR × K (8.3.2 d), not rounded.
    change: Fraction

    @property
    def score(self) -> Fraction:
        return sum((g.score for g in self.games), Fraction(0))


def tournament_change(own: int, games: Iterable[Game], k: int, rules: Rules) -> TournamentChange:
    """The change of a rated player's tournament: the games against rated opponents (8.3.1:
    "for each game played against a rated player"), each ΔR, their sum, and the sum × K.

    >>> rules = rules_on(date(2025, 11, 7))
    >>> t = tournament_change(2813, [Game(1787, Fraction(1)), Game(2025, Fraction(1)), Game(None, Fraction(1)),
    ...                              Game(2310, Fraction(1)), Game(2400, Fraction(1)), Game(2505, Fraction(1, 2))], 10, rules)
    >>> len(t.games), t.delta, t.change, round_change(t.change)
    (5, Fraction(-1, 4), Fraction(-5, 2), -3)
    """
    rated = tuple(game_change(own, g.opponent, g.score, rules) for g in games
                  if g.opponent is not None and is_rated(own, g.opponent, rules))
    delta = sum((g.change for g in rated), Fraction(0))
    return TournamentChange(own, k, rated, delta, delta * k)


def round_change(change: Fraction) -> int:
    """8.3.4: to the nearest whole number, 0.5 away from zero (−2.50 → −3).

    >>> round_change(Fraction(5, 2)), round_change(Fraction(-5, 2)), round_change(Fraction(-249, 100))
    (3, -3, -2)
    """
    magnitude = half_up(abs(change.numerator), change.denominator)
    return magnitude if change >= 0 else -magnitude


def new_rating(rating: int, changes: Iterable[Fraction], rules: Rules) -> int | None:
    """The rating after a rating period: the old one plus the period's changes, rounded
    once (8.3.4 rounds "the Rating Change for a Rating Period"); None when it drops below
    the floor of 1400 (7.2.1: shown as unrated on the next list).

    >>> rules = rules_on(date(2026, 9, 1))
    >>> new_rating(2054, [Fraction(2448, 100), Fraction(1938, 100), Fraction(3978, 100), Fraction(1343, 100),
    ...                   Fraction(-459, 100)], rules)
    2146
    >>> new_rating(1405, [Fraction(-11, 2)], rules) is None
    True
    """
    result = rating + round_change(sum(changes, Fraction(0)))
    return result if result >= rules.floor else None


@dataclass(frozen=True)
class Period:
    """A rated player's rating period: K, its tournaments, the change and the new rating."""

    k: int
    tournaments: tuple[TournamentChange, ...]
    change: Fraction
    #: None: below the floor, shown as unrated (7.2.1).
    rating: int | None


def rating_period(player: Player, tournaments: Sequence[Sequence[Game]], on: date, rules: Rules) -> Period:
    """Every tournament of a rated player's rating period, with one K for the period (8.3.3,
    the 700 rule counting the period's rated games) and the period's change rounded once.

    >>> rules = rules_on(date(2026, 9, 1))
    >>> p = rating_period(Player(2000), [[Game(2000, Fraction(1))] * 20, [Game(2100, Fraction(0))] * 20], date(2026, 9, 1), rules)
    >>> p.k, [t.change for t in p.tournaments], p.change, p.rating
    (17, [Fraction(170, 1), Fraction(-612, 5)], Fraction(238, 5), 2048)
    """
    own = player.rating
    counted = sum(1 for t in tournaments for g in t if g.opponent is not None and is_rated(own, g.opponent, rules))
    k = period_k(k_factor(player, on), counted, rules)
    changes = tuple(tournament_change(own, t, k, rules) for t in tournaments)
    total = sum((t.change for t in changes), Fraction(0))
    return Period(k, changes, total, new_rating(own, [total], rules))


def _percent(points: Fraction, games: int) -> int:
    """The fractional score p to two decimals, as tables 8.1.1 and 8.1.2 print it (half up)."""
    share = points / games
    return half_up(share.numerator * 100, share.denominator)


@dataclass(frozen=True)
class FirstRating:
    """An unrated player's first rating (8.2) and how it was reached."""

    #: Games against rated opponents counted (7.1.4).
    games: int
    points: Fraction
    #: Ra: the average of the rated opponents and the two hypothetical 1800s (8.2.2).
    average: Fraction
    #: p in hundredths, the two hypothetical draws included.
    percent: int
    dp: int
    #: Ru, rounded and capped at 2200 (8.2.3); None when it is not published (fewer than 5
    #: games, or below 1400: 7.1.4).
    rating: int | None


def first_rating(events: Sequence[Sequence[Game]], rules: Rules) -> FirstRating:
    """Ru of 8.2 from an unrated player's events in order (pooled over at most 26 months,
    7.1.4: the caller chooses the events). A zero score in the first event is disregarded
    (8.2.1); games against unrated opponents do not count. Ra includes two hypothetical
    opponents rated 1800 counted as draws (8.2.2); Ru = Ra + dp, dp from table 8.1.1 for p
    with those two draws, rounded to the nearest whole number, at most 2200 (8.2.3).

    FIDE's first published rating of a player in the 1st Annual Washington Dulles Open
    (November 2025; FIDE's published calculation for the December 2025 list):

    >>> rules = rules_on(date(2025, 11, 7))
    >>> r = first_rating([[Game(1902, Fraction(1, 2)), Game(1877, Fraction(1, 2)), Game(1884, Fraction(1)),
    ...                    Game(2012, Fraction(0)), Game(1832, Fraction(1))]], rules)
    >>> r.average, r.percent, r.dp, r.rating
    (Fraction(13107, 7), 57, 50, 1922)
    """
    kept = list(events)
    if kept and sum((g.score for g in kept[0]), Fraction(0)) == 0:
        kept = kept[1:]
    rated = [(g.opponent, _score(g.score)) for e in kept for g in e if g.opponent is not None]
    n = len(rated)
    points = sum((s for _, s in rated), Fraction(0))
    average = Fraction(sum(r for r, _ in rated) + 2 * rules.hypothetical_opponent, n + 2)
    percent = _percent(points + 1, n + 2)
    dp = rating_difference(percent)
    ru = min(half_up((average + dp).numerator, (average + dp).denominator), rules.max_initial)
    published = n >= rules.first_rating_games and ru >= rules.floor
    return FirstRating(n, points, average, percent, dp, ru if published else None)


def performance_rating(opponents: Sequence[int], points: Fraction) -> int:
    """The performance rating Rp = Ra + dp: Ra the opponents' average rounded half up, dp from
    table 8.1.1 for p = points / games to two decimals (the rounding of the tie-break TPR,
    FIDE C.07 10.2, which :mod:`keizer.tiebreaks` implements the same way).

    >>> performance_rating([2406, 1908, 2220, 2216, 2204, 2189, 2223, 2221], Fraction(4))
    2198
    >>> performance_rating([2000, 2000], Fraction(2)), performance_rating([2000, 2000], Fraction(0))
    (2800, 1200)
    """
    if not opponents:
        raise ValueError("a performance rating needs at least one rated opponent")
    n = len(opponents)
    return half_up(sum(opponents), n) + rating_difference(_percent(points, n))

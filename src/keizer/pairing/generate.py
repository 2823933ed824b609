"""Random Swiss tournaments, paired by keizer's Dutch engine: the "random tournament generator".

FIDE's endorsement rules for pairing programs (Handbook C.04.A, A.5) ask for a
freely available tool that, from a command prompt, generates many simulated
tournaments, each as a full TRF file, so that another program's pairings
checker can replay them.  :func:`generate` is that tool's engine: a pure
function from a :class:`TournamentPlan` (field size, rounds, seed, rates) to a
:class:`~keizer.tiebreaks.Tournament`; ``keizer trf generate`` writes it as TRF.

How a tournament is made, all drawn from one seeded ``random.Random`` (the
same plan gives the same tournament, value for value):

* **Players.** Ratings uniform in ``lowest_rating…highest_rating``, numbered
  by rating, highest first (the initial ranking list, C.04.2).
* **Who plays a round.** A late entrant (``late_entries``: the chance per
  player) joins in a round drawn from 2…R and is absent (``Z``) before it; a
  withdrawal (``withdrawals``: per player) leaves from a round drawn among the
  later ones and is absent from then on.  Every other player asks for a
  half-point bye (``byes``: the chance per player and round, never in the
  last round, as tournament regulations usually have it) or is absent for one
  round (``absences``) — byes asked before the round is paired, written ``H``
  and ``Z``.  A draw that would leave fewer than two players in a round is
  not applied.
* **Pairing.** Every round is paired by the system of ``options.system`` (one of
  :data:`keizer.pairing.swiss.SYSTEMS`, by :func:`keizer.pairing.swiss.pair_swiss`) among the
  players present, with the pairing-allocated bye (``U``) it gives, the virtual
  points of ``acceleration`` (``baku``, written as ``XXA``) and ``options.forbidden``
  pairs of players drawn at random who may not meet (written as ``XXP``).  The
  initial colour is drawn by lot unless given.
* **Results.** A game is forfeited with the chance ``forfeits`` (the absent
  side drawn 50/50: ``+``/``-``, a meeting that did not take place), by both
  players with the chance ``options.double_forfeits`` (``-`` on both sides).  Otherwise
  White's expected score E is FIDE's rating table (B.02 8.1.2, as
  :func:`keizer.tiebreaks.fide_tables.expected` has it); the game is drawn with
  the chance 2·D·min(E, 1 − E), where D is ``draw_rate`` (the share of draws
  between equal ratings), and won by White with E minus half of that, so the
  expected score stays E.
* **Standing.** With ``options.tiebreaks`` the list is the file's record 202 and
  every player's rank (001 columns 86–89) is keizer's by it; the totals are
  always written, so ``keizer trf check`` can check both.

>>> t = generate(TournamentPlan(players=6, rounds=3, seed=1))
>>> len(t.players), t.rounds, [len(p.results) for p in t.players]
(6, 3, [3, 3, 3, 3, 3, 3])
>>> generate(TournamentPlan(players=6, rounds=3, seed=1)) == t
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from fractions import Fraction

from keizer.limits import MAX_PLAYERS, MAX_ROUNDS
from keizer.model import Colour
from keizer.pairing.swiss import SYSTEMS, SwissError, pair_swiss, system_lines
from keizer.pairing.swiss.acceleration import METHODS, baku, baku_group_a, xxa_lines
from keizer.pairing.swiss.forbidden import xxp_lines
from keizer.refusals import Refusal
from keizer.tiebreaks import Code, Player, RoundResult, TieBreakError, Tournament, parse_list
from keizer.tiebreaks.fide_tables import expected

class GenerationError(Refusal, ValueError):
    """A plan that cannot be generated; the message says which setting and why."""


@dataclass(frozen=True)
class Options:
    """What FIDE's checklist asks of a generator beyond the rates of a :class:`TournamentPlan`."""

    system: str = "dutch"  # one of keizer.pairing.swiss.SYSTEMS, written as record 192 where TRF-2026 has a code
    forbidden: int = 0  # pairs of players drawn at random who may not meet (written as XXP records)
    double_forfeits: Fraction = Fraction(0)  # chance per game that neither player came (- on both sides)
    tiebreaks: tuple[str, ...] = ()  # the tie-break list: written as record 202, the ranks by it


@dataclass(frozen=True)
class TournamentPlan:
    """What to generate.  Rates are chances from 0 to 1 (see the module for what each counts)."""

    players: int
    rounds: int
    seed: int
    byes: Fraction = Fraction(0)
    absences: Fraction = Fraction(0)
    forfeits: Fraction = Fraction(0)
    withdrawals: Fraction = Fraction(0)
    late_entries: Fraction = Fraction(0)
    draw_rate: Fraction = Fraction(3, 10)
    initial_colour: Colour | None = None  # None: drawn by lot
    highest_rating: int = 2600
    lowest_rating: int = 1200
    name: str = ""
    acceleration: str = "none"  # or "baku": accelerated pairings (C.04.7), written as XXA records
    options: Options = Options()

    def check(self) -> None:
        """Raise :class:`GenerationError` for a plan no tournament fits."""
        if not 2 <= self.players <= MAX_PLAYERS:
            raise GenerationError("players: %(players)s is not from 2 to %(most)s", players=self.players, most=MAX_PLAYERS)
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise GenerationError("rounds: %(rounds)s is not from 1 to %(most)s", rounds=self.rounds, most=MAX_ROUNDS)
        if self.rounds >= self.players:
            raise GenerationError("rounds: %(players)s players can play at most %(most)s rounds without meeting twice; "
                                  "ask for fewer rounds or more players", players=self.players, most=self.players - 1)
        if self.acceleration not in METHODS or self.options.system not in SYSTEMS:  # the views offer these only
            raise ValueError(f"unknown acceleration method {self.acceleration!r} or system {self.options.system!r}")
        if not 0 <= self.options.forbidden <= self.players * (self.players - 1) // 2:
            raise GenerationError("forbidden pairs: %(players)s players make at most %(most)s pairs",
                                  players=self.players, most=self.players * (self.players - 1) // 2)
        if self.options.tiebreaks:  # ranking two players who have not played says what no list can do
            from keizer.tiebreaks.ranking import rank

            try:
                rank(Tournament((Player(1), Player(2)), 0), parse_list(self.options.tiebreaks))
            except TieBreakError as e:
                raise GenerationError("tie-breaks: %(why)s", why=str(e)) from None
        for what in ("byes", "absences", "forfeits", "withdrawals", "late_entries", "draw_rate"):
            rate = getattr(self, what)
            if not 0 <= rate <= 1:
                raise GenerationError("%(what)s: %(rate)s is not a rate from 0 to 1", what=what.replace("_", " "),
                                      rate=f"{float(rate):g}")
        if not 0 <= self.options.double_forfeits <= 1 - self.forfeits:
            raise GenerationError("double forfeits: %(rate)s is not a rate from 0 to 1 minus the forfeits' rate",
                                  rate=f"{float(self.options.double_forfeits):g}")
        if not 1 <= self.lowest_rating <= 9999 or not 1 <= self.highest_rating <= 9999:
            raise GenerationError("ratings: %(low)s and %(high)s must be from 1 to 9999", low=self.lowest_rating,
                                  high=self.highest_rating)
        if self.lowest_rating > self.highest_rating:
            raise GenerationError("ratings: the lowest rating (%(low)s) is above the highest (%(high)s)",
                                  low=self.lowest_rating, high=self.highest_rating)


def generate(plan: TournamentPlan) -> Tournament:
    """The tournament ``plan`` asks for, every round paired and played.

    Raises :class:`GenerationError` for a bad plan or a round without a lawful
    pairing (a small field that runs out of new opponents).
    """
    plan.check()
    rng = random.Random(plan.seed)
    n, rounds = plan.players, plan.rounds
    ratings = sorted((rng.randint(plan.lowest_rating, plan.highest_rating) for _ in range(n)), reverse=True)
    initial = plan.initial_colour or (Colour.WHITE if rng.random() < 0.5 else Colour.BLACK)
    entered = _entries(rng, plan)
    players = [Player(k, f"Player {k:04}", rating) for k, rating in enumerate(ratings, start=1)]
    results: dict[int, list[RoundResult]] = {p.start_no: [] for p in players}
    rating_of = {p.start_no: p.rating for p in players}
    # Baku: GA is counted among the players of round 1; a late entrant numbered above its last player is in it.
    first = sorted(entered[0])
    virtual = baku(sorted(results), rounds, baku_group_a(first)[-1]) if plan.acceleration == "baku" else {}
    forbidden = _forbidden(rng, n, plan.options.forbidden)
    for r in range(1, rounds + 1):
        taking_part = [k for k in results if k in entered[r - 1]]
        asked = _asked_byes(rng, plan, taking_part, last=r == rounds)
        present = [k for k in taking_part if k not in asked]
        t = Tournament(tuple(Player(p.start_no, p.name, p.rating, tuple(results[p.start_no])) for p in players),
                       rounds)
        try:
            found = pair_swiss(t, rounds, present=present, upto=r - 1, initial_colour=initial, forbidden=forbidden,
                               virtual=virtual, system=plan.options.system)
        except SwissError as e:
            raise GenerationError("round %(n)s of the generated tournament cannot be paired (%(why)s); ask for fewer "
                                  "rounds or more players", n=r, why=e) from None
        played = _results(rng, plan, found.pairs, rating_of)
        for k in results:
            if k == found.bye:
                results[k].append(RoundResult(Code.PAB))
            elif k in played:
                results[k].append(played[k])
            else:
                results[k].append(RoundResult(asked.get(k, Code.ZPB)))
    name = plan.name or f"Random tournament {plan.seed}"
    done = Tournament(tuple(Player(p.start_no, p.name, p.rating, tuple(results[p.start_no])) for p in players),
                      rounds, name=name, tiebreaks=plan.options.tiebreaks,
                      info=(f"152 {'W' if initial is Colour.WHITE else 'B'}", *system_lines(plan.options.system),
                            *xxa_lines(virtual),
                            *xxp_lines(forbidden)))
    if not plan.options.tiebreaks:
        return done
    from keizer.tiebreaks.ranking import rank  # only here: 'keizer trf pair' loads no ranking

    ranks = {s.id: s.rank for s in rank(done, plan.options.tiebreaks)}
    return replace(done, players=tuple(replace(p, rank=ranks[p.start_no]) for p in done.players))


def _forbidden(rng: random.Random, players: int, count: int) -> list[tuple[int, int]]:
    """``count`` different pairs of start numbers drawn at random (none drawn when 0)."""
    if not count:
        return []
    return [_pair_at(k, players) for k in sorted(rng.sample(range(players * (players - 1) // 2), count))]


def _pair_at(k: int, players: int) -> tuple[int, int]:
    """The k-th (0-based) pair (a, b), a < b, in the order (1, 2), (1, 3), …, (2, 3), …"""
    a = 1
    while k >= players - a:
        k -= players - a
        a += 1
    return a, a + 1 + k


def _chance(rng: random.Random, rate: Fraction) -> bool:
    """True with probability ``rate``, exactly (32 random bits against the fraction)."""
    return rate > 0 and rng.getrandbits(32) < rate * 2**32


def _entries(rng: random.Random, plan: TournamentPlan) -> list[set[int]]:
    """Per round the start numbers entered and not withdrawn; never fewer than two."""
    rounds = plan.rounds
    entered = [set(range(1, plan.players + 1)) for _ in range(rounds)]
    for k in range(1, plan.players + 1):
        first, last = 1, rounds  # the rounds the player takes part in
        if rounds > 1 and _chance(rng, plan.late_entries):
            first = rng.randint(2, rounds)
        if first < rounds and _chance(rng, plan.withdrawals):
            last = rng.randint(first, rounds - 1)  # the last round played; absent from the next
        away = [r for r in range(1, rounds + 1) if not first <= r <= last]
        if all(len(entered[r - 1]) > 2 for r in away):
            for r in away:
                entered[r - 1].discard(k)
    return entered


def _asked_byes(rng: random.Random, plan: TournamentPlan, taking_part: list[int], last: bool) -> dict[int, Code]:
    """Who asked not to be paired this round: a half-point bye (never in the last round) or an absence."""
    asked: dict[int, Code] = {}
    for k in taking_part:
        if not last and _chance(rng, plan.byes):
            asked[k] = Code.HPB
        elif _chance(rng, plan.absences):
            asked[k] = Code.ZPB
    return asked if len(taking_part) - len(asked) >= 2 else {}


def _results(rng: random.Random, plan: TournamentPlan, pairs: tuple[tuple[int, int], ...],
             ratings: dict[int, int | None]) -> dict[int, RoundResult]:
    """Each paired player's result: a forfeit, or a game drawn from the ratings."""
    out = {}
    double = plan.options.double_forfeits  # a chance per game: among the games not forfeited by one side
    both = double / (1 - plan.forfeits) if double else Fraction(0)
    for white, black in pairs:
        if _chance(rng, plan.forfeits):
            white_came = rng.random() < 0.5
            codes = (Code.FORFEIT_WIN, Code.FORFEIT_LOSS) if white_came else (Code.FORFEIT_LOSS, Code.FORFEIT_WIN)
        elif _chance(rng, both):
            codes = (Code.FORFEIT_LOSS, Code.FORFEIT_LOSS)
        else:
            e = Fraction(expected((ratings[white] or 0) - (ratings[black] or 0)), 100)
            draw = 2 * plan.draw_rate * min(e, 1 - e)
            u = Fraction(rng.getrandbits(32), 2**32)
            codes = ((Code.WIN, Code.LOSS) if u < e - draw / 2 else
                     (Code.DRAW, Code.DRAW) if u < e + draw / 2 else (Code.LOSS, Code.WIN))
        out[white] = RoundResult(codes[0], black, Colour.WHITE)
        out[black] = RoundResult(codes[1], white, Colour.BLACK)
    return out

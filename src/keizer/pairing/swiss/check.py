"""A free pairings checker: re-pair every round of a Swiss tournament and compare.

For each round the engine is given exactly what the tournament knew before it
(the history, who took part), and its pairing is compared with the one played:
pairs, colours and the pairing-allocated bye.  Where they differ the checker
says why, in the rules' own terms: an absolute criterion the played pairing
breaks (C.1–C.3), else the first quality criterion (C.5–C.21) on which the two
pairings differ in the highest bracket where they differ, else the order of the
Dutch candidates (Article 4) or the colour allocation (Article 5).

>>> from keizer.tiebreaks import Player, RoundResult, Tournament
>>> from keizer.model import Colour
>>> W, B = Colour.WHITE, Colour.BLACK
>>> a = Player(1, results=(RoundResult(Code.WIN, 2, W),))
>>> b = Player(2, results=(RoundResult(Code.LOSS, 1, B),))
>>> c = Player(3, results=(RoundResult(Code.WIN, 4, W),))
>>> d = Player(4, results=(RoundResult(Code.LOSS, 3, B),))
>>> [r.differs for r in check(Tournament((a, b, c, d), rounds=1), rounds=3)]   # round 1 should be 1-3, 4-2
[True]
>>> check(Tournament((a, b, c, d), rounds=1), rounds=3)[0].reason
'Article 4: the order of the Dutch candidates (which MDPs, exchanges, transpositions) — both pairings meet every criterion equally'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Iterable, Sequence

from keizer.colour import Colour
from keizer.tiebreaks import Code, Tournament

if TYPE_CHECKING:
    from keizer.pairing.swiss import Accelerations, RoundInputs
    from keizer.pairing.swiss.forbidden import ForbiddenGroup

#: The quality criteria as the engine weighs them (more is better in each), with the rules' numbers.
CRITERIA = {
    "pairs": ("C.5", "pairs in the bracket"),
    "scores": ("C.6", "scores paired in the bracket (the highest moved-down players paired)"),
    "next_pairs": ("C.7", "pairs in the next bracket"),
    "next_scores": ("C.8", "scores paired in the next bracket"),
    "bye": ("C.9", "games played by the players paired, so the bye has the fewest unplayed"),
    "top_diff": ("C.10", "pairs giving no topscorer a colour difference beyond 2"),
    "top_three": ("C.11", "pairs giving no topscorer one colour three times in a row"),
    "pref": ("C.12", "pairs granting both colour preferences"),
    "strong": ("C.13", "pairs granting every strong colour preference"),
    "down1": ("C.14", "players spared a downfloat two rounds in a row"),
    "up1": ("C.15", "pairs sparing an upfloat two rounds in a row"),
    "down2": ("C.16", "players spared the downfloat they had two rounds before"),
    "up2": ("C.17", "pairs sparing the upfloat of two rounds before"),
    "down1_scores": ("C.18", "scores of the players spared a second downfloat"),
    "up1_scores": ("C.19", "scores met by the players spared a second upfloat"),
    "down2_scores": ("C.20", "scores of the players spared the downfloat of two rounds before"),
    "up2_scores": ("C.21", "scores met by the players spared the upfloat of two rounds before"),
}
#: How the checker names the systems whose own texts it cites.
_SYSTEM_NAMES = {"dubov": "Dubov", "burstein": "Burstein"}
_COUNTS = {"pairs", "next_pairs", "top_diff", "top_three", "pref", "strong", "down1", "up1", "down2", "up2"}


@dataclass(frozen=True)
class Board:
    """A pair as (white, black); ``coloured`` is False for a forfeit the file gives no colours."""

    white: int
    black: int
    coloured: bool = True

    def same(self, other: "Board") -> bool:
        if self.coloured and other.coloured:
            return (self.white, self.black) == (other.white, other.black)
        return {self.white, self.black} == {other.white, other.black}


@dataclass(frozen=True)
class Breach:
    """An absolute criterion the played pairing breaks, whoever made it: ``rule`` is
    ``C1`` (``kind`` "rematch" or "forbidden": the two ``players`` met before or may not
    meet), ``C2`` ("bye": the bye went to a player who had a pairing-allocated bye or a
    win without playing already) or ``C3`` ("colour": two players, neither a topscorer of
    the last round, with the same absolute colour preference, ``colour``)."""

    rule: str
    kind: str
    players: tuple[int, ...]
    colour: Colour | None = None
    system: str = "dutch"   # whose text the criterion is (the Dubov and Burstein texts have no topscorer exception)


@dataclass(frozen=True)
class RoundCheck:
    """One round: the pairing played (``played``), the engine's (``engine``, None when it
    found none: ``error`` says why), and why they differ (``reason``)."""

    round: int
    played: tuple[Board, ...]
    played_bye: int | None
    engine: tuple[Board, ...] = ()
    engine_bye: int | None = None
    error: str | None = None
    reason: str | None = None
    breaches: tuple[Breach, ...] = ()

    @property
    def differs(self) -> bool:
        if self.error or self.breaches:
            return True
        return self.played_bye != self.engine_bye or len(self.played) != len(self.engine) or \
            any(not any(b.same(e) for e in self.engine) for b in self.played)

    def only_played(self) -> list[tuple[int, Board]]:
        """The played boards (numbered as played) the engine does not have."""
        return [(k, b) for k, b in enumerate(self.played, 1) if not any(b.same(e) for e in self.engine)]

    def only_engine(self) -> list[tuple[int, Board]]:
        """The engine's boards (numbered by the pairing rules) the played pairing does not have."""
        return [(k, e) for k, e in enumerate(self.engine, 1) if not any(b.same(e) for b in self.played)]


def played_round(t: Tournament, r: int) -> tuple[list[int], tuple[Board, ...], int | None]:
    """Who took part in round r (0-based), its boards (white, black) and the pairing-allocated bye."""
    present, boards, bye = [], [], None
    seen: set[int] = set()
    for p in sorted(t.players, key=lambda p: p.start_no):
        res = p.results[r] if r < len(p.results) else None
        if res is None:
            continue
        if res.opponent is None:
            if res.code in (Code.PAB, Code.FORFEIT_WIN):
                present.append(p.start_no)
                bye = p.start_no
            continue
        present.append(p.start_no)
        if p.start_no in seen:
            continue
        seen |= {p.start_no, res.opponent}
        if res.colour is Colour.BLACK:
            boards.append(Board(res.opponent, p.start_no))
        else:
            boards.append(Board(p.start_no, res.opponent, res.colour is Colour.WHITE))
    return present, tuple(boards), bye


def check(t: Tournament, rounds: int, initial_colour: Colour = Colour.WHITE,
          upto: Iterable[int] | None = None, virtual: Accelerations | None = None,
          forbidden: Sequence[ForbiddenGroup] = (), system: str = "dutch") -> list[RoundCheck]:
    """Re-pair every round of ``t`` (or the 1-based rounds ``upto``) and compare, with the
    virtual points of accelerated pairings and the forbidden pairs of each round, by the
    engine of ``system`` (:data:`keizer.pairing.swiss.ENGINES`)."""
    from keizer.pairing.swiss import SwissError, board_key, pair_inputs, round_inputs
    from keizer.pairing.swiss.forbidden import pairs_in_round

    played_rounds = max((len(p.results) for p in t.players), default=0)
    out = []
    for r in range(played_rounds) if upto is None else (k - 1 for k in upto):
        present, boards, bye = played_round(t, r)
        if len(present) < 2:
            continue
        inputs = round_inputs(t, rounds, present, r, pairs_in_round(forbidden, r + 1), virtual)
        boards = tuple(sorted(boards, key=lambda b: board_key((b.white, b.black), inputs.data)))
        broken = breaches(inputs, boards, bye, _cited(system, r, rounds))
        try:
            got = pair_inputs(inputs, r, initial_colour, system, t, rounds)
        except SwissError as e:
            out.append(RoundCheck(r + 1, boards, bye, error=str(e), breaches=broken))
            continue
        engine = tuple(Board(w, b) for w, b in got.pairs)
        result = RoundCheck(r + 1, boards, bye, engine, got.bye, breaches=broken)
        if result.differs:
            result = replace(result, reason=_why(t, inputs, r, result, system, rounds))
        out.append(result)
    return out


def _cited(system: str, r: int, rounds: int) -> str:
    """Whose text decides round ``r + 1`` (0-based ``r``): the Burstein system's seeding rounds are
    paired by the Dutch system (C.04.4.2 1.6)."""
    from keizer.pairing.swiss.burstein import seeding_rounds

    return "dutch" if system == "burstein" and r < seeding_rounds(rounds) else system


def breaches(inputs: RoundInputs, boards: Sequence[Board], bye: int | None, system: str = "dutch") -> tuple[Breach, ...]:
    """Every absolute criterion (C.1–C.3) the played ``boards`` and ``bye`` break, by the text of
    ``system`` (the Dubov and Burstein texts make no exception for the last round's topscorers).
    keizer's engine never makes such a pairing: the checker reports it, whoever made it."""
    from keizer.pairing.swiss import colour_preference

    data = inputs.data
    top = {e.number for e in inputs.entrants if e.topscorer} if system not in ("dubov", "burstein") else set()
    out = []
    for b in boards:
        pair = (min(b.white, b.black), max(b.white, b.black))
        if b.black in data[b.white].opponents:
            out.append(Breach("C1", "rematch", pair, system=system))
        elif inputs.met(b.white, b.black):
            out.append(Breach("C1", "forbidden", pair, system=system))
        mine, theirs = colour_preference(data[b.white].colours), colour_preference(data[b.black].colours)
        if mine.absolute and theirs.absolute and mine.colour is theirs.colour and not top & set(pair):
            out.append(Breach("C3", "colour", pair, mine.colour, system))
    if bye is not None and not data[bye].bye_eligible:
        out.append(Breach("C2", "bye", (bye,), system=system))
    return tuple(out)


def _why(t: Tournament, inputs: RoundInputs, r: int, result: RoundCheck, system: str = "dutch",
         rounds: int = 0) -> str:
    """The first rule on which the played pairing and the engine's differ."""
    from keizer.pairing.swiss.burstein import seeding_rounds
    from keizer.pairing.swiss.dutch import assess

    data = inputs.data
    own = system in ("dubov", "burstein") and (system == "dubov" or r >= seeding_rounds(rounds))
    name = _SYSTEM_NAMES.get(system, "")
    absolute = f"{name} C" if own else "C."   # the Dubov and Burstein texts number them C1-C4
    for b in result.played:
        if b.black in data[b.white].opponents:
            return f"{absolute}1: {b.white} and {b.black} met before"
        if inputs.met(b.white, b.black):
            return f"{absolute}1: {b.white} and {b.black} are a forbidden pair"
    if result.played_bye is not None and not data[result.played_bye].bye_eligible:
        return f"{absolute}2: {result.played_bye} had a pairing-allocated bye or a win without playing already"
    played = [(b.white, b.black) for b in result.played]
    engine = [(b.white, b.black) for b in result.engine]
    seeding = "Burstein 1.6 (a seeding round, paired by the Dutch system): " if system == "burstein" and not own else ""
    if sorted(map(sorted, played)) == sorted(map(sorted, engine)) and result.played_bye == result.engine_bye:
        return f"{name} 5.2: the colour allocation" if own else f"{seeding}Article 5: the colour allocation"
    if own:
        from keizer.pairing.swiss.criteria_text import system_reason

        return system_reason(system, t, inputs, r, rounds, engine, result.engine_bye, played, result.played_bye)
    if system == "lim":  # no criteria to weigh: the system's own procedure decides
        return "the Lim system's procedure (scoregroups, floaters, exchanges) pairs otherwise"
    theirs = assess(inputs.entrants, inputs.avoid, inputs.last_round, r, played)
    ours = assess(inputs.entrants, inputs.avoid, inputs.last_round, r, engine)
    points = {e.score: data[e.number].pairing_score for e in inputs.entrants}
    for (score, mine), (_, other) in zip(ours, theirs):
        for (name, value), (_, value2) in zip(mine, other):
            if value != value2:
                number, what = CRITERIA[name]
                where = f"in the bracket of {_points(points[score])}"
                better = "keizer's pairing" if value > value2 else "the played pairing"
                counts = f" (keizer {value}, played {value2})" if name in _COUNTS else ""
                return f"{seeding}{number} ({what}) {where}: {better} has more{counts}"
    return (f"{seeding}Article 4: the order of the Dutch candidates (which MDPs, exchanges, transpositions) — "
            "both pairings meet every criterion equally")


def _points(value: Fraction) -> str:
    from keizer.output import number

    return f"{number(value, 1)} points" if value != 1 else "1 point"

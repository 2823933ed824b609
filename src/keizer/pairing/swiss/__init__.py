"""Swiss pairings by the FIDE Dutch system (Handbook C.04.3, in force from 1 February 2026).

The pairing is asked of a :class:`~keizer.tiebreaks.Tournament` — the same
typed history the tie-breaks and TRF files use — and comes back as white–black
pairs of start numbers (pairing numbers) in board order, plus the
pairing-allocated bye.

This module derives every input the Dutch rules define from that history:

* the score (points under the tournament's scoring, so a club may value a
  pairing-allocated bye at ½);
* the colour history of games played on the board (forfeits have no colour,
  C.04.1 and A.6);
* the float of every round (1.4: a player who did not play but scored more
  than a loss floated down; a played game floats the higher scorer down and the
  lower up — scores before that round);
* bye eligibility (C.2: no second bye for a player who had a pairing-allocated
  bye or scored a win without playing, a forfeit win included);
* previous opponents (C.1; forfeited games count as not played, so the two may
  meet again, as C.04.1.b says);
* the effective pairing number: the rank among the players who take part in
  this round or did in an earlier one (a late entrant is not counted before
  he plays), which decides colours when nobody has a preference.

The bracket search is :mod:`keizer.pairing.swiss.dutch`, our own, checked
round by round against the FIDE-endorsed bbpPairings (``docs/swiss.md``).

>>> from keizer.tiebreaks import Player, Tournament
>>> t = Tournament(tuple(Player(n) for n in range(1, 7)), rounds=0)
>>> pair_swiss(t, rounds=5).pairs    # round 1: top half against bottom half
((1, 4), (5, 2), (3, 6))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from keizer.colour import Colour
from keizer.refusals import Refusal
from keizer.tiebreaks import Code, Player, RoundResult, Tournament

if TYPE_CHECKING:
    from keizer.pairing.swiss.dutch import Entrant, Outcome

_ABSENT = RoundResult(Code.ZPB)

#: Virtual points by player and round (0-based), as accelerated pairings give them (C.04.7).
Accelerations = Mapping[int, Sequence[Fraction]]



def system_of(info: Iterable[str]) -> str:
    """The Swiss system a TRF file names: Dubov or Burstein when its record 192 (TRF-2026's code,
    e.g. ``192 FIDE_DUBOV``) or else 092 (free text) says so, else the Dutch system.

    >>> system_of(["092 Individual: Swiss-System", "192 FIDE_DUBOV"]), system_of(["092 Swiss"])
    ('dubov', 'dutch')
    """
    for code in ("192", "092"):
        for line in info:
            for system in ("dubov", "burstein"):
                if line[:3] == code and system.upper() in line[3:].upper():
                    return system
    return "dutch"


def system_lines(system: str) -> tuple[str, ...]:
    """The TRF records that name ``system`` (none for the Dutch system, the files' default)."""
    return (f"192 FIDE_{system.upper()}",) if system != "dutch" else ()


class SwissError(Refusal, ValueError):
    """The round cannot be paired under the Dutch system's absolute criteria;
    ``players`` are the start numbers left without a lawful opponent, if known."""

    def __init__(self, message: str, /, players: tuple[int, ...] = (),
                 forbidden: tuple[tuple[int, int], ...] = (), **values: Any):
        super().__init__(message, **values)
        self.players = players
        self.forbidden = forbidden  # forbidden pairs that, allowed, would make the round pairable


@dataclass(frozen=True)
class SwissPairing:
    """One round's pairing: ``pairs`` are (white, black) start numbers, top board first."""

    round: int
    pairs: tuple[tuple[int, int], ...]
    bye: int | None = None


@dataclass(frozen=True)
class DutchInput:
    """What the Dutch rules look at for one player before a round (A.2, A.4, A.6, C.1, C.2)."""

    number: int
    score: Fraction
    colours: tuple[Colour, ...]  # games played on the board, oldest first
    floats: tuple[str, ...]  # "up", "down" or "none" for every round so far
    bye_eligible: bool
    opponents: frozenset[int]
    rank: int = -1  # effective pairing number, 0-based (-1: the start number's)
    virtual: Fraction = Fraction(0)  # virtual points for this round (accelerated pairings, C.04.7)

    @property
    def effective(self) -> int:
        return self.number - 1 if self.rank < 0 else self.rank

    @property
    def pairing_score(self) -> Fraction:
        """The score the pairing rules see: the points plus any virtual points."""
        return self.score + self.virtual


def dutch_inputs(t: Tournament, upto: int, virtual: Accelerations | None = None) -> dict[int, DutchInput]:
    """Every player's pairing data after ``upto`` rounds of ``t``.

    ``virtual`` gives players virtual points by round (accelerated pairings, C.04.7:
    ``virtual[n][r]`` is added to player n's score for pairing round r + 1): the
    pairing score of each round then decides the floats of that round, as bbpPairings
    reads it, and the round to pair gets ``DutchInput.virtual``.

    >>> from keizer.tiebreaks import Player, RoundResult, Tournament
    >>> a = Player(1, results=(RoundResult(Code.WIN, 2, Colour.WHITE), RoundResult(Code.PAB)))
    >>> b = Player(2, results=(RoundResult(Code.LOSS, 1, Colour.BLACK), RoundResult(Code.ZPB)))
    >>> d = dutch_inputs(Tournament((a, b), rounds=2), 2)
    >>> d[1].score, d[1].floats, d[1].bye_eligible, d[2].floats
    (Fraction(2, 1), ('none', 'down'), False, ('none', 'none'))
    """
    scores = {p.start_no: [Fraction(0)] for p in t.players}  # score before round r+1 at index r
    for p in t.players:
        for r in range(upto):
            scores[p.start_no].append(scores[p.start_no][-1] + t.scoring.points(_result(p, r).code))
    virtual = virtual or {}

    def pairing_score(n: int, r: int) -> Fraction:
        extra = virtual.get(n, ())
        return scores[n][r] + (extra[r] if r < len(extra) else 0)

    out: dict[int, DutchInput] = {}
    for p in t.players:
        colours: list[Colour] = []
        floats: list[str] = []
        opponents: set[int] = set()
        eligible = True
        for r in range(upto):
            res = _result(p, r)
            if res.code.is_game and res.opponent is not None and res.colour is not None:
                colours.append(res.colour)
                opponents.add(res.opponent)
                mine, theirs = pairing_score(p.start_no, r), pairing_score(res.opponent, r)
                floats.append("down" if mine > theirs else "up" if mine < theirs else "none")
            else:
                won = t.scoring.points(res.code)
                floats.append("down" if won > t.scoring.loss else "none")
                if res.code in (Code.PAB, Code.FORFEIT_WIN) or (res.opponent is None and won >= t.scoring.win):
                    eligible = False
        out[p.start_no] = DutchInput(p.start_no, scores[p.start_no][upto], tuple(colours), tuple(floats),
                                     eligible, frozenset(opponents),
                                     virtual=pairing_score(p.start_no, upto) - scores[p.start_no][upto])
    return out


def initial_colour_of(t: Tournament) -> Colour:
    """The initial colour of a tournament: its TRF record (``152 W``/``B``, or the
    older ``XXC white1``/``black1``), else read back from the first round with a
    colour on the board, as bbpPairings and JaVaFo read it: the highest-numbered
    player who took part by then had the initial colour if his effective pairing
    number among those players is odd (1-based), else the other one; else White.

    >>> from keizer.tiebreaks import Player, RoundResult
    >>> a = Player(1, results=(RoundResult(Code.ZPB),))
    >>> b = Player(2, results=(RoundResult(Code.WIN, 3, Colour.WHITE),))
    >>> c = Player(3, results=(RoundResult(Code.LOSS, 2, Colour.BLACK),))
    >>> initial_colour_of(Tournament((a, b, c), rounds=1)).value   # 2 is the first who took part
    'white'
    """
    for line in t.info:
        code, _, value = line.partition(" ")
        value = value.strip().lower()
        if code == "152" and value[:1] in ("w", "b") or code == "XXC" and value in ("white1", "black1"):
            return Colour.BLACK if value.startswith("b") else Colour.WHITE
    first = min((r for p in t.players for r, res in enumerate(p.results) if res.colour is not None), default=None)
    if first is None:
        return Colour.WHITE
    effective = 0
    for p in sorted(t.players, key=lambda p: p.start_no):
        if any(took_part(p, r) for r in range(first + 1)):
            colour = _result(p, first).colour
            if colour is not None:
                return colour.opposite if effective % 2 else colour
            effective += 1
    return Colour.WHITE


def took_part(player: Player, r: int) -> bool:
    """Paired in round ``r`` (0-based): a game or forfeit against someone, or the pairing-allocated bye."""
    res = _result(player, r)
    return res.opponent is not None or res.code in (Code.PAB, Code.FORFEIT_WIN)


def _result(player: Player, r: int) -> RoundResult:
    return player.results[r] if r < len(player.results) else _ABSENT


def pair_swiss(t: Tournament, rounds: int, present: Iterable[int] | None = None, upto: int | None = None,
               initial_colour: Colour = Colour.WHITE, forbidden: Iterable[tuple[int, int]] = (),
               virtual: Accelerations | None = None, system: str = "dutch") -> SwissPairing:
    """Pair round ``upto + 1`` of ``t`` (default: the round after the last one it holds).

    ``rounds`` is the planned number of rounds (the Dutch rules treat the last
    round's top scorers differently); ``present`` the start numbers to pair
    (default: everyone); ``initial_colour`` the colour of the top-ranked player
    in round 1 (drawn by lot before the event, C.04.2); ``forbidden`` pairs that
    must not meet (for instance players of one family, C.04.1 rules allow it as
    if they had met); ``virtual`` the virtual points of accelerated pairings
    (:mod:`keizer.pairing.swiss.acceleration`), added to the scores the rules see;
    ``system`` one of :data:`ENGINES` (the Dutch system unless another is named; the Dubov and
    Burstein systems read the players' ratings).
    """
    upto = t.rounds if upto is None else upto
    inputs = round_inputs(t, rounds, present, upto, forbidden, virtual)
    return pair_inputs(inputs, upto, initial_colour, system, t, rounds)


def _dutch(inputs: RoundInputs, upto: int, initial_white: bool, t: Tournament, rounds: int) -> Outcome:
    from keizer.pairing.swiss.dutch import pair

    return pair(inputs.entrants, inputs.avoid, inputs.last_round, upto, initial_white)


def _dubov(inputs: RoundInputs, upto: int, initial_white: bool, t: Tournament, rounds: int) -> Outcome:
    from keizer.pairing.swiss.dubov import dubov_entrants, pair_dubov

    return pair_dubov(dubov_entrants(t, upto, inputs.numbers, inputs.data, _unit(inputs)), inputs.avoid, rounds,
                      upto, initial_white)


def _burstein(inputs: RoundInputs, upto: int, initial_white: bool, t: Tournament, rounds: int) -> Outcome:
    from keizer.pairing.swiss.burstein import burstein_entrants, pair_burstein, seeding_rounds

    if upto < seeding_rounds(rounds):  # the seeding rounds are paired by the Dutch system (C.04.4.2 1.6)
        return _dutch(inputs, upto, initial_white, t, rounds)

    return pair_burstein(burstein_entrants(t, upto, inputs.numbers, inputs.data, _unit(inputs)), inputs.avoid,
                         initial_white)


def _lim(inputs: RoundInputs, upto: int, initial_white: bool, t: Tournament, rounds: int) -> Outcome:
    from keizer.pairing.swiss.lim import pair

    return pair(inputs.entrants, inputs.avoid, inputs.last_round, upto, initial_white, median=inputs.median)


#: The Swiss pairing engines by the name ``--system`` takes: one line per FIDE system.
ENGINES: dict[str, Callable[[RoundInputs, int, bool, Tournament, int], Outcome]] = {
    "dutch": _dutch,  # C.04.3
    "dubov": _dubov,  # C.04.4.1
    "burstein": _burstein,  # C.04.4.2
    "lim": _lim,  # C.04.4.3
}
#: Their names.
SYSTEMS = tuple(ENGINES)


def pair_inputs(inputs: RoundInputs, upto: int, initial_colour: Colour, system: str, t: Tournament,
                rounds: int) -> SwissPairing:
    """:func:`pair_swiss` on the inputs :func:`round_inputs` made for round ``upto + 1`` of ``t``
    (the checker has them already), by the engine of ``system``."""
    from keizer.pairing.swiss.dutch import NoPairing

    try:
        found = ENGINES[system](inputs, upto, initial_colour is Colour.WHITE, t, rounds)
    except NoPairing as e:
        if blocking := _forbidden_in_the_way(inputs, upto):
            raise SwissError("round %(n)s has no pairing that keeps the forbidden pairs apart: allowing %(pairs)s "
                             "would make one", forbidden=blocking, n=upto + 1,
                             pairs=", ".join(f"{a}-{b}" for a, b in blocking)) from None
        left = tuple(sorted(e.args[0])) if e.args else ()
        if left:
            raise SwissError("round %(n)s has no pairing that meets the absolute criteria — no rematch, no second "
                             "bye, no third colour in a row or colour difference beyond 2 outside the last round's "
                             "top scorers (players %(left)s are left over)", left, n=upto + 1,
                             left=", ".join(map(str, left))) from None
        raise SwissError("round %(n)s has no pairing that meets the absolute criteria — no rematch, no second bye, "
                         "no third colour in a row or colour difference beyond 2 outside the last round's top "
                         "scorers", n=upto + 1) from None
    pairs = list(found.pairs)
    data = inputs.data
    _check(inputs.numbers, pairs, found.bye, {frozenset((n, o)) for n in inputs.numbers for o in data[n].opponents}
           | inputs.apart, data)
    return SwissPairing(upto + 1, tuple(sorted(pairs, key=lambda pair: board_key(pair, data))), found.bye)


def _forbidden_in_the_way(inputs: RoundInputs, upto: int) -> tuple[tuple[int, int], ...]:
    """When the round cannot be paired: a smallest set of forbidden pairs (none can be left out)
    that, allowed, makes it pairable; () when allowing every one would not help."""
    from dataclasses import replace

    from keizer.pairing.swiss.dutch import possible

    present = set(inputs.numbers)
    apart = sorted(tuple(sorted(p)) for p in inputs.apart if len(p) == 2 and p <= present)
    if not apart or len(apart) > 200:  # very many pairs: saying which would take as many matchings
        return ()

    def pairable(kept: list[tuple[int, ...]]) -> bool:
        trial = replace(inputs, apart={frozenset(p) for p in kept})
        return possible(trial.entrants, trial.avoid, trial.last_round, upto)

    if not pairable([]):
        return ()
    needed: list[tuple[int, ...]] = []
    kept: list[tuple[int, ...]] = []
    for p in apart:  # forbid each pair again unless the round then fails
        if pairable(kept + [p]):
            kept.append(p)
        else:
            needed.append(p)
    return tuple((a, b) for a, b in needed)


@dataclass(frozen=True)
class RoundInputs:
    """What the Dutch engine is given for one round (see :func:`round_inputs`)."""

    numbers: list[int]
    data: dict[int, DutchInput]
    entrants: list[Entrant]
    apart: set[frozenset[int]]
    last_round: bool
    median: int = 0  # half the score the rounds played can give, in the entrants' units (Lim's median)

    def met(self, a: int, b: int) -> bool:
        """May not meet: they played each other, or are a forbidden pair."""
        return b in self.data[a].opponents or frozenset((a, b)) in self.apart

    @property
    def avoid(self) -> dict[int, set[int]]:
        """Each player's pairing numbers he may not meet."""
        out = {n: set(self.data[n].opponents) for n in self.numbers}
        for pair in self.apart:
            a, b = tuple(pair) if len(pair) == 2 else (next(iter(pair)),) * 2
            out.setdefault(a, set()).add(b)
            out.setdefault(b, set()).add(a)
        return out


def round_inputs(t: Tournament, rounds: int, present: Iterable[int] | None, upto: int,
                 forbidden: Iterable[tuple[int, int]] = (), virtual: Accelerations | None = None) -> RoundInputs:
    """The engine's view of round ``upto + 1``: each player's Dutch data, scores (pairing scores,
    virtual points included) in integer units."""
    from keizer.pairing.swiss.dutch import BLACK, WHITE, Entrant

    numbers = sorted(p.start_no for p in t.players) if present is None else sorted(set(present))
    known = {p.start_no for p in t.players}
    if unknown := [n for n in numbers if n not in known]:
        raise SwissError("start number %(n)s is not in the tournament", n=unknown[0])
    if len(numbers) < 2:
        raise SwissError("a Swiss round needs at least two players to pair")
    if upto + 1 > rounds:
        raise SwissError("all %(rounds)s rounds have been paired; raise the number of rounds to go on", rounds=rounds)
    data = effective_numbers(t, upto, numbers, dutch_inputs(t, upto, virtual))
    last_round = upto + 1 >= rounds
    threshold = upto * max(t.scoring.win, t.scoring.draw) / 2   # topscorers: more than half the maximum
    unit = 1
    for n in numbers:
        unit = _lcm(unit, data[n].pairing_score.denominator)
    unit = _lcm(unit, threshold.denominator)
    entrants: list[Entrant] = []
    for n in numbers:
        d = data[n]
        floats = [None if f == "none" else f for f in d.floats]
        entrants.append(Entrant(
            n, d.effective, int(d.pairing_score * unit),
            tuple(WHITE if c is Colour.WHITE else BLACK for c in d.colours),
            floats[upto - 1] if upto >= 1 else None, floats[upto - 2] if upto >= 2 else None,
            len(d.colours), d.bye_eligible, last_round and d.pairing_score > threshold))
    return RoundInputs(numbers, data, entrants, {frozenset(pair) for pair in forbidden}, last_round,
                       int(threshold * unit))


def effective_numbers(t: Tournament, upto: int, present: Iterable[int],
                      data: dict[int, DutchInput]) -> dict[int, DutchInput]:
    """``data`` with each player's effective pairing number: his rank by start number among
    the players paired in this round or an earlier one."""
    from dataclasses import replace

    taking_part = set(present) | {p.start_no for p in t.players
                                  if any(took_part(p, r) for r in range(upto))}
    order = sorted(taking_part)
    rank = {n: k for k, n in enumerate(order)}
    return {n: replace(d, rank=rank.get(n, -1)) for n, d in data.items()}


def _unit(inputs: RoundInputs) -> int:
    """The score unit :func:`round_inputs` chose (the entrants' scores are pairing scores times it)."""
    for e in inputs.entrants:
        score = inputs.data[e.number].pairing_score
        if score:
            return int(e.score / score)
    return 1


def _lcm(a: int, b: int) -> int:
    from math import gcd

    return a * b // gcd(a, b)


def _ranks_above(a: DutchInput, b: DutchInput) -> bool:
    """Article 1.2: score first, then the lower pairing number."""
    return (a.score, -a.number) > (b.score, -b.number)


def board_key(pair: tuple[int, int], data: dict[int, DutchInput]) -> tuple[Fraction, Fraction, int]:
    """Board order (General Handling Rules): the higher score of the higher-ranked
    player first, then the score of the lower-ranked one, then the higher-ranked
    player's pairing number."""
    a, b = data[pair[0]], data[pair[1]]
    high, low = (a, b) if _ranks_above(a, b) else (b, a)
    return (-high.score, -low.score, high.number)


@dataclass(frozen=True)
class _Preference:
    colour: Colour | None
    imbalance: int  # |whites - blacks|
    absolute: bool
    strong: bool


def colour_preference(colours: tuple[Colour, ...]) -> _Preference:
    """Article 1.7: absolute when the colour difference is beyond ±1 or the last two
    games had one colour; strong when the difference is ±1; mild (alternate) when it is 0.

    >>> W, B = Colour.WHITE, Colour.BLACK
    >>> colour_preference((W, W)).colour.value, colour_preference((W, W)).absolute
    ('black', True)
    >>> p = colour_preference((W, B, W)); p.colour.value, p.strong
    ('black', True)
    >>> colour_preference((B, W)).colour.value, colour_preference(()).colour
    ('black', None)
    """
    whites = sum(c is Colour.WHITE for c in colours)
    diff = whites - (len(colours) - whites)
    fewer = Colour.BLACK if diff > 0 else Colour.WHITE
    repeated = len(colours) >= 2 and colours[-1] is colours[-2]
    if abs(diff) > 1:
        colour = fewer
    elif repeated:
        colour = colours[-1].opposite
    elif diff:
        colour = fewer
    elif colours:
        colour = colours[-1].opposite
    else:
        colour = None
    absolute = abs(diff) > 1 or repeated
    return _Preference(colour, abs(diff), absolute, bool(diff) and not absolute)


def allocate_colours(a: DutchInput, b: DutchInput, initial_colour: Colour = Colour.WHITE) -> tuple[int, int]:
    """The (white, black) of a pair by the colour allocation rules (Article 5.2):
    grant both preferences; else the stronger (absolute beats strong beats mild; of
    two absolutes, the wider colour difference); else alternate from the last round
    in which their colours differed; else the higher-ranked player's preference;
    with no preference at all, the higher-ranked player gets the initial colour if
    his pairing number is odd.

    >>> W, B = Colour.WHITE, Colour.BLACK
    >>> x = DutchInput(1, Fraction(1), (B, W), ("none", "none"), True, frozenset())
    >>> y = DutchInput(3, Fraction(2), (B, W), ("none", "none"), True, frozenset())
    >>> allocate_colours(x, y)   # same history, both want Black: the higher score (3) gets it
    (1, 3)
    """
    pa, pb = colour_preference(a.colours), colour_preference(b.colours)
    colour = _neutral_colour(a, b, pa, pb)
    if colour is None:
        higher_is_a = _ranks_above(a, b)
        if pa.colour is None:  # neither has a preference
            higher = a if higher_is_a else b
            colour_of_higher = initial_colour if higher.effective % 2 == 0 else initial_colour.opposite
            colour = colour_of_higher if higher_is_a else colour_of_higher.opposite
        else:  # both prefer the same colour, with identical histories
            assert pb.colour is not None  # _neutral_colour decides when only one has a preference
            colour = pa.colour if higher_is_a else pb.colour.opposite
    return (a.number, b.number) if colour is Colour.WHITE else (b.number, a.number)


def _neutral_colour(a: DutchInput, b: DutchInput, pa: _Preference, pb: _Preference) -> Colour | None:
    """Player a's colour by every rule before rank decides, or None when rank must."""
    if pa.colour is None or pb.colour is None or pa.colour is not pb.colour:
        if pa.colour is not None:
            return pa.colour
        return pb.colour.opposite if pb.colour is not None else None
    if pa.absolute and (pa.imbalance > pb.imbalance or not pb.absolute):
        return pa.colour
    if pb.absolute and (pb.imbalance > pa.imbalance or not pa.absolute):
        return pb.colour.opposite
    if pa.strong and not pb.strong:
        return pa.colour
    if pb.strong and not pa.strong:
        return pb.colour.opposite
    for mine, theirs in zip(reversed(a.colours), reversed(b.colours)):
        if mine is not theirs:
            return theirs
    return None


def _check(numbers: list[int], pairs: list[tuple[int, int]], bye: int | None,
           previous: set[frozenset[int]], data: dict[int, DutchInput]) -> None:
    """The absolute criteria, checked on the answer: every player once, no rematch, a lawful bye."""
    seen = [n for pair in pairs for n in pair] + ([bye] if bye is not None else [])
    if sorted(seen) != numbers:
        raise SwissError("the Dutch engine returned a pairing that misses or repeats a player")
    if any(frozenset(p) in previous for p in pairs):
        raise SwissError("no pairing without a rematch (or a forbidden pair) exists for this round")
    if bye is not None and not data[bye].bye_eligible:
        raise SwissError("no pairing without a second bye exists for this round")

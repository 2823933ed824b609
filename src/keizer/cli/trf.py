"""``keizer trf …``: tie-break standings, Dutch pairing, the pairings checker and random tournaments for FIDE TRF files.

Register with ``cli.add_command(trf)``.  User errors raise :class:`TrfUsageError`
(a :class:`FormatError`), which ``keizer.cli.main`` prints as one line.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from keizer.cli.params import RATE, RATING, ROUND, ROUND_OR_ZERO, SEED, Whole
from keizer.cli.trf_pair import TrfUsageError as TrfUsageError  # the refusal of this group, named here as before
from keizer.cli.trf_pair import pair_text, paired_rounds, planned_rounds
from keizer.formats.errors import FormatError
from keizer.formats.trf import TRF16, TRF26, dump
from keizer.limits import MAX_PLAYERS
from keizer.model import Colour
from keizer.output import FORMATS, json_number, number, render
from keizer.pairing.swiss import ENGINES, SYSTEMS
from keizer.tiebreaks.fide_tables import round_half_up
from keizer.tiebreaks.model import System, Tournament
from keizer.tiebreaks.unplayed import Edition

if TYPE_CHECKING:
    from collections.abc import Callable

    from keizer.formats.trf_import import RankDifference, TieBreakList
    from keizer.formats.trf_standing import StandingCheck
    from keizer.pairing.swiss.check import Board, Breach, RoundCheck
    from keizer.tiebreaks.ranking import Standing


#: ``--system`` of ``trf pair`` and ``trf check``: every engine of :data:`keizer.pairing.swiss.ENGINES`.
SWISS_SYSTEM = click.option("--system", "pairing_system", type=click.Choice(list(ENGINES)),
                            help="FIDE Swiss system: dutch (C.04.3), dubov (C.04.4.1), burstein (C.04.4.2) or lim "
                                 "(C.04.4.3); default: the one the file names in record 192/092 (FIDE_DUBOV, "
                                 "FIDE_BURSTEIN), else dutch.")


@click.group("trf")
def trf() -> None:
    """FIDE Tournament Report Files (TRF16, TRF26): standings with tie-breaks, Dutch pairings, checking, random tournaments."""


@trf.command("standings")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--tiebreaks", "-t", "codes",
              help='Ordered tie-break codes, e.g. "BH/C1,BH,SB" (default: the file\'s 202 record, '
                   "else the recommended list).")
@click.option("--edition", type=click.Choice([e.value for e in Edition]), default="2026", show_default=True,
              help="Rule edition for unplayed rounds.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
              help="Output format.")
@click.option("--round", "upto", type=ROUND_OR_ZERO, help="Standings after this round (default: the last played).")
@click.option("--primary", type=click.Choice(["MP", "GP"]), help="Team files: rank by match or game points.")
@click.option("--system", type=click.Choice([s.value for s in System]),
              help="Override the pairing system the file declares (092/192).")
@click.option("--lots", type=SEED, help="Seed of the drawing of lots for ties the list leaves.")
def standings(file: str, codes: str | None, edition: str, fmt: str, upto: int | None, primary: str | None,
              system: str | None, lots: int | None) -> None:
    """The ranking of FILE by its tie-breaks.

    A file that leaves its last round open (only byes entered for the round to pair, or a
    round paired without all its results) is ranked after the rounds before it, as
    'keizer import' then ranks it; a note on stderr says so.
    """
    from keizer.formats import trf_import
    from keizer.tiebreaks import TieBreakError, advise, labels, parse_list, rank, recommended_for

    t = trf_import.read(file)
    for note in trf_import.notes_of(t, totals=False):
        click.echo(f"note: {note}", err=True)
    if system:
        t = replace(t, system=System(system))
    ed = Edition(edition)
    taken = trf_import.tiebreak_list(t)
    if codes is None:
        _say_taken(taken)
    chosen = codes if codes is not None else ",".join(taken.codes or recommended_for(t))
    try:
        tbs = parse_list(chosen)
        unrated = any(not p.rating for p in t.players)
        for a in advise(chosen, t.is_team, t.system, ed, unrated):
            if a.level == "error":
                raise TrfUsageError(a.message)
            if codes is not None:
                click.echo(f"warning: {a.message}", err=True)
        result = rank(t, tbs, ed, rounds=upto, primary=primary, lots_seed=lots)
    except TieBreakError as e:
        raise TrfUsageError(str(e)) from None
    if upto is None:
        for message in t.totals:
            click.echo(f"warning: {message}", err=True)
    names = list(labels(tbs))
    if fmt == "json":
        click.echo(render([_json_row(s, names) for s in result], [], "json"))
        return
    rows = [{"rank": s.rank, "start_no": s.id, "name": s.name, "points": number(s.points),
             **{n: _shown(s.values[n]) for n in names}} for s in result]
    click.echo(render(rows, ["rank", "start_no", "name", "points", *names], fmt))


@trf.command("pair")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--round", "round_no", type=ROUND, help="Round to pair (default: the one after the last in the file).")
@click.option("--rounds", type=ROUND, help="Planned number of rounds (default: the file's 142/XXR record).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
              help="Output format.")
@SWISS_SYSTEM
def pair(file: str, round_no: int | None, rounds: int | None, fmt: str, pairing_system: str | None) -> None:
    """Pair a round of FILE by the FIDE Dutch system (2026 rules), or the one --system or the file names.

    As bbpPairings and JaVaFo read a file: in the round to be paired a player whose
    entry is already there (0000 - H, F, U, Z or -) is not paired, and every other
    player is, whether or not his line reaches that round.  Games the file already
    holds for that round are ignored.  Virtual points of accelerated pairings (XXA,
    250) are added to the scores; forbidden pairs (XXP, 260) do not meet.
    """
    click.echo(pair_text(file, round_no, rounds, fmt, pairing_system))


@trf.command("generate")
@click.option("--players", type=Whole(2, MAX_PLAYERS), required=True, help="Number of players.")
@click.option("--rounds", type=ROUND, required=True, help="Number of rounds, all paired and played.")
@click.option("--seed", type=SEED, help="Seed of the random choices; the same seed and options give the same "
                                        "file (default: drawn, and said on stderr).")
@click.option("--system", type=click.Choice(list(SYSTEMS)), default="dutch", show_default=True,
              help="The Swiss system every round is paired by: dutch (C.04.3), dubov (C.04.4.1), burstein "
                   "(C.04.4.2) or lim (C.04.4.3), written as record 192 where TRF-2026 has a code (FIDE_DUBOV, "
                   "FIDE_BURSTEIN).")
@click.option("--byes", "--half-point-byes", "byes", type=RATE, default="0",
              help="Chance per player and round of a requested half-point bye (H), never in the last round, "
                   "e.g. 0.03 or 3%.")
@click.option("--absences", "--zero-point-byes", "absences", type=RATE, default="0",
              help="Chance per player and round of an announced absence (zero-point bye, Z).")
@click.option("--forfeits", type=RATE, default="0", help="Chance per game of a forfeit by one player (+/-).")
@click.option("--double-forfeits", type=RATE, default="0",
              help="Chance per game that neither player came (-/-).")
@click.option("--forbidden", type=Whole(0, 10**6), default=0, show_default=True,
              help="Number of forbidden pairs drawn at random (players who may not meet: XXP records).")
@click.option("--tiebreaks", "-t", "codes", help='Tie-break list, e.g. "BH/C1,BH,SB": written as record 202, the '
                                                 "ranks by it (default: no list, no ranks).")
@click.option("--withdrawals", type=RATE, default="0", help="Chance per player of withdrawing (Z from then on).")
@click.option("--late-entries", type=RATE, default="0", help="Chance per player of joining after round 1 "
                                                             "(Z before).")
@click.option("--draw-rate", type=RATE, default="0.3", show_default=True,
              help="Share of draws between equally rated players (fewer as the ratings differ).")
@click.option("--initial-colour", type=click.Choice(["white", "black", "lot"]), default="lot", show_default=True,
              help="Colour of the top-ranked player in round 1.")
@click.option("--highest-rating", type=RATING, default=2600, show_default=True, help="Ratings are drawn …")
@click.option("--lowest-rating", type=RATING, default=1200, show_default=True, help="… uniformly in this range.")
@click.option("--trf-version", type=click.Choice([TRF26, TRF16]), default=TRF26, show_default=True)
@click.option("--acceleration", type=click.Choice(["none", "baku"]), default="none", show_default=True,
              help="Accelerated pairings: baku is FIDE's Baku method (C.04.7), its virtual points written as XXA.")
@click.option("--count", type=Whole(1, 100_000), default=1, show_default=True,
              help="How many tournaments, with the seeds S, S+1, …; they need --output DIR.")
@click.option("--output", "-o", type=click.Path(), help="File to write (default: standard output); "
                                                         "with --count, a folder for SEED.trf files.")
def generate(players: int, rounds: int, seed: int | None, system: str, byes: Fraction, absences: Fraction,
             forfeits: Fraction, double_forfeits: Fraction, forbidden: int, codes: str | None,
             withdrawals: Fraction, late_entries: Fraction, draw_rate: Fraction, initial_colour: str,
             highest_rating: int, lowest_rating: int, trf_version: str, acceleration: str, count: int,
             output: str | None) -> None:
    """Random tournaments paired by keizer's engine of --system, as TRF: FIDE's "random tournament generator".

    Ratings, requested byes, absences, forfeits on one or both sides, withdrawals, late
    entries and forbidden pairs are drawn at the rates given; game results follow FIDE's
    rating table (see docs/swiss.md). With --tiebreaks the list is record 202 and the ranks
    follow it. The file's first comment line says how to generate it again; 'keizer trf
    check' finds every file as generated.
    """
    from keizer.pairing.generate import GenerationError, Options, TournamentPlan, generate as generated

    if count > 1 and output is None:
        raise TrfUsageError(f"--count {count} writes one file per tournament: give a folder with --output DIR")
    if count > 1 and Path(output).exists() and not Path(output).is_dir():  # type: ignore[arg-type]
        raise TrfUsageError(f"--output {output}: with --count it must be a folder, and this is a file")
    colour = {"white": Colour.WHITE, "black": Colour.BLACK, "lot": None}[initial_colour]
    asked = TournamentPlan(players, rounds, seed or 0, byes, absences, forfeits, withdrawals, late_entries,
                           draw_rate, colour, highest_rating, lowest_rating, acceleration=acceleration,
                           options=Options(system, forbidden, double_forfeits, _codes(codes)))
    try:
        asked.check()
    except GenerationError as e:
        raise TrfUsageError(str(e)) from None
    if seed is None:
        seed = random.SystemRandom().randrange(10**9)
        click.echo(f"seed {seed}", err=True)
    for k in range(count):
        plan = replace(asked, seed=seed + k)
        try:
            t = generated(plan)
        except GenerationError as e:
            raise TrfUsageError(f"seed {plan.seed}: {e}" if count > 1 else str(e)) from None
        how = (f"### keizer trf generate --players {players} --rounds {rounds} --seed {plan.seed}"
               + "".join(f" --{name.replace('_', '-')} {_decimal_text(value)}" for name, value in (
                   ("byes", byes), ("absences", absences), ("forfeits", forfeits), ("withdrawals", withdrawals),
                   ("late_entries", late_entries), ("draw_rate", draw_rate)) if value)
               + f" --initial-colour {initial_colour} --highest-rating {highest_rating}"
                 f" --lowest-rating {lowest_rating} --trf-version {trf_version}"
               + (f" --acceleration {acceleration}" if acceleration != "none" else "")
               + (f" --system {system}" if system != "dutch" else "")
               + (f" --double-forfeits {_decimal_text(double_forfeits)}" if double_forfeits else "")
               + (f" --forbidden {forbidden}" if forbidden else "")
               + (f" --tiebreaks {','.join(asked.options.tiebreaks)}" if asked.options.tiebreaks else ""))
        info = tuple(("XXC white1" if x == "152 W" else "XXC black1") if trf_version == TRF16 and x[:3] == "152"
                     else x for x in t.info)
        data = dump(replace(t, info=(how, *info)), trf_version, every_round=True).encode("utf-8")
        if output is None:
            sys.stdout.buffer.write(data)  # bytes as they are: CR LF line ends on every system
            continue
        path = Path(output) / f"{plan.seed}.trf" if count > 1 else Path(output)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        except OSError as e:
            raise TrfUsageError(f"cannot write {path}: {e.strerror or e}") from None


def _codes(codes: str | None) -> tuple[str, ...]:
    """A tie-break list as typed ("BH/C1, BH,SB") as its codes."""
    return tuple(c.strip() for c in (codes or "").split(",") if c.strip())


def _decimal_text(value: Fraction) -> str:
    """A rate as it was typed: an exact decimal (``0.05``)."""
    places = 0
    while (value * 10**places).denominator != 1:
        places += 1
    digits = str(int(value * 10**places)).rjust(places + 1, "0")
    return f"{digits[:-places]}.{digits[-places:]}" if places else digits

@trf.command("check")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--rounds", type=ROUND, help="Planned number of rounds (default: the file's 142/XXR record).")
@click.option("--tiebreaks", "-t", "codes",
              help='Tie-break codes to check the ranks by, e.g. "BH/C1,BH,SB" (default: the file\'s 202 record; '
                   "without either only the totals are checked).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True,
              help="Output format.")
@SWISS_SYSTEM
def check(file: str, rounds: int | None, codes: str | None, fmt: str, pairing_system: str | None) -> None:
    """Re-pair every round of FILE by the FIDE Dutch system (or the one --system or the file names), check its standing, report each difference.

    The free pairings checker: each round is paired from what was known before it
    (the history, who took part) and compared with the pairing played — pairs,
    colours and the bye, with the file's virtual points (XXA, 250) and forbidden pairs
    (XXP, 260).  For a difference it names the boards and the rule that decided: an absolute
    criterion the played pairing breaks (one line per breach, whoever made the pairing),
    the first quality criterion on which the two differ, or the order of the candidates or
    the colours — each by the system's own text: Dutch C.5–C.21, Articles 4 and 5; Dubov
    3.1, C5–C10, Articles 3.2–4.4 and 5.2; Burstein 3.1, C5–C8, Articles 4 and 5.2 (its
    seeding rounds by the Dutch rules, 1.6).  Then the standing after the last round:
    each player's total against his round records, and his rank against keizer's by the
    tie-breaks of record 202 or --tiebreaks.  Exit status 0 when everything agrees, 1 when
    anything differs, 2 when the file cannot be checked (the error on stderr).
    """
    try:
        _check_file(file, rounds, codes, fmt, pairing_system)
    except FormatError as e:  # a file or option that cannot be checked: not "a difference"
        from keizer.cli.words import say

        click.echo(f"error: {say(e)}", err=True)
        raise click.exceptions.Exit(2) from None


def _check_file(file: str, rounds: int | None, codes: str | None, fmt: str, pairing_system: str | None) -> None:
    from keizer.cli.switch import rank_reason
    from keizer.formats.trf import parse, text_of
    from keizer.formats.trf_import import tiebreak_list
    from keizer.formats.trf_records import forbidden_groups, virtual_points
    from keizer.formats.trf_standing import check_standing
    from keizer.pairing.swiss import initial_colour_of, system_of
    from keizer.pairing.swiss.check import check as check_rounds
    from keizer.tiebreaks import TieBreakError

    text = text_of(file)
    t = parse(text)
    if t.is_team:
        raise TrfUsageError("team files cannot be checked here: the Dutch checker pairs individual tournaments")
    played = paired_rounds(t)
    if not played:
        raise TrfUsageError(f"{file} holds no paired round to check")
    planned = planned_rounds(file, t, rounds, played)
    chosen = codes
    if chosen is None:  # the file's list (record 202), read as 'keizer trf standings' reads it
        taken = tiebreak_list(t)
        _say_taken(taken)
        chosen = ",".join(taken.codes) or None
    try:
        standing = check_standing(t, played, chosen)
    except TieBreakError as e:
        raise TrfUsageError(f"--tiebreaks: {e}" if codes is not None else f"{file}, record 202: {e}") from None
    system = pairing_system or system_of(t.info)
    results = check_rounds(t, planned, initial_colour_of(t), range(1, played + 1), virtual_points(text),
                           forbidden_groups(text), system)
    bad = [c for c in results if c.differs]
    lines = _standing_lines(standing, rank_reason)
    if fmt == "json":
        click.echo(json.dumps({"file": file, "system": system, "rounds": len(results), "differences": len(bad),
                               "checked": [_check_json(c) for c in results],
                               "standing": {"round": standing.round, "tiebreaks": list(standing.tiebreaks),
                                            "differences": lines}}))
    else:
        click.echo(f"{file}: {len(results)} rounds re-paired, "
                   + (f"{len(bad)} differ" if bad else "every one as played"))
        for c in bad:
            click.echo(_check_text(c))
        compared = ("totals (no tie-break list: no 202 record, no --tiebreaks)" if not standing.tiebreaks
                    else "totals (the file's rank column repeats the start numbers: no standing to compare)"
                    if not standing.ranks_compared else f"totals and ranks by {','.join(standing.tiebreaks)}")
        click.echo(f"standing after round {standing.round}, {compared}: "
                   + (f"{len(lines)} differ" if lines else "as the file states"))
        for line in lines:
            click.echo(f"round {line['round']}, player {line['player']}: {line['what']}: the file says "
                       f"{line['file']}, keizer computes {line['keizer']}"
                       + (f" ({line['why']})" if line["why"] else ""))
    if bad or lines:
        raise click.exceptions.Exit(1)


def _standing_lines(standing: StandingCheck, reason: Callable[[RankDifference], str]) -> list[dict[str, Any]]:
    """Each difference of the standing: round, player, what, the file's value, keizer's, why."""
    out: list[dict[str, Any]] = [
        {"round": standing.round, "player": d.start_no, "what": "total", "file": number(d.declared, 2),
         "keizer": number(d.computed, 2), "why": ""} for d in standing.totals]
    out += [{"round": standing.round, "player": d.start_no, "what": "rank", "file": d.theirs, "keizer": d.ours,
             "why": reason(d)} for d in standing.ranks]
    return out


def _say_taken(taken: TieBreakList) -> None:
    """Notes on stderr: how the file's tie-break list (record 202) is read."""
    for raw, code in taken.renamed:
        click.echo(f"note: the file's tie-break {raw!r} (Swiss-Manager's name) is read as {code}", err=True)
    for raw, _why in taken.dropped:
        click.echo(f"note: the file's tie-break {raw!r} has no equivalent in keizer: left out", err=True)


def _board(b: Board) -> str:
    return f"{b.white} - {b.black}" if b.coloured else f"{b.white} / {b.black} (no colours)"


#: The texts whose own criteria a breach cites beside its number (the Dutch ones: C1-C3 alone).
_TEXTS = {"dubov": "of the Dubov system (C.04.4.1)", "burstein": "of the Burstein system (C.04.4.2)"}


def _breach_text(b: Breach) -> str:
    """An absolute criterion broken, as the checker reports it (after "round N: ")."""
    rule = f"{b.rule} {_TEXTS[b.system]}" if b.system in _TEXTS else b.rule
    if b.kind == "rematch":
        return f"players {b.players[0]} and {b.players[1]} meet a second time: {rule}"
    if b.kind == "forbidden":
        return f"players {b.players[0]} and {b.players[1]}, a forbidden pair, meet: {rule}"
    if b.kind == "bye":
        return (f"a second pairing-allocated bye for player {b.players[0]} (who had one, or a win without "
                f"playing, before): {rule}")
    colour = b.colour.value if b.colour is not None else ""
    who = "" if b.system in _TEXTS else ", neither a topscorer,"
    return f"players {b.players[0]} and {b.players[1]}{who} meet with the same absolute colour preference ({colour}): {rule}"


def _check_text(c: RoundCheck) -> str:
    lines = [f"round {c.round}: {_breach_text(b)}" for b in c.breaches]
    lines.append(f"round {c.round}: " + (f"the engine found no pairing: {c.error}" if c.error else c.reason or ""))
    if not c.error:
        mine, theirs = c.only_engine(), c.only_played()
        for k in range(max(len(mine), len(theirs))):
            left = f"played board {theirs[k][0]:>3}: {_board(theirs[k][1])}" if k < len(theirs) else ""
            right = f"keizer board {mine[k][0]:>3}: {_board(mine[k][1])}" if k < len(mine) else ""
            lines.append(f"  {left:<36}{right}".rstrip())
        if c.played_bye != c.engine_bye:
            lines.append(f"  bye: played {c.played_bye or 'none'}, keizer {c.engine_bye or 'none'}")
    return "\n".join(lines)


def _check_json(c: RoundCheck) -> dict[str, Any]:
    def board(b: Board) -> list[int]:
        return [b.white, b.black]

    return {"round": c.round, "differs": c.differs, "reason": c.reason, "error": c.error,
            "breaches": [{"rule": b.rule, "kind": b.kind, "players": list(b.players),
                          "colour": b.colour.value if b.colour is not None else None} for b in c.breaches],
            "played": [board(b) for b in c.played], "played_bye": c.played_bye,
            "keizer": [board(b) for b in c.engine], "keizer_bye": c.engine_bye}


def _json_row(s: Standing, names: list[str]) -> dict[str, Any]:
    return {"rank": s.rank, "start_no": s.id, "name": s.name, "points": json_number(s.points),
            "tiebreaks": {n: _json_value(s.values[n]) for n in names}}


def _json_value(v: Fraction | int | None) -> int | float | None:
    """Exact for integers and half/quarter points; otherwise rounded half up to 2 decimals."""
    if v is None or isinstance(v, int):
        return v
    return json_number(round_half_up(v, 2))


def _shown(v: Fraction | int | None) -> str:
    return "" if v is None else str(v) if isinstance(v, int) else number(v)

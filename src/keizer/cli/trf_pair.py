"""``keizer trf pair`` as a function of its options, and its quick lane: the command without click.

A pairing program calls ``keizer trf pair FILE`` once per round, as a whole process: at 100
players the pairing itself takes some 15 ms, and importing click and the CLI's shared
modules took a third of the command (issue 25: the whole command under 0.1 s).
:func:`pair_quickly` runs the command when its arguments are plain (a file that exists,
``--round``, ``--rounds``, ``--format`` and ``--system`` with values click would take) and
nothing goes wrong; anything else (``--help``, an unknown option, a value click would refuse,
a file it cannot pair) it leaves to click, which runs the command again and words the
refusal as every command does. The click command (:mod:`keizer.cli.trf`) calls
:func:`pair_text` too, so both print the same bytes.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from keizer.formats.errors import FormatError

if TYPE_CHECKING:
    from keizer.tiebreaks.model import Tournament


class TrfUsageError(FormatError):
    """A tie-break list or option that cannot be used with this file."""


def pair_text(file: str, round_no: int | None, rounds: int | None, fmt: str, pairing_system: str | None) -> str:
    """What ``keizer trf pair`` prints (without the last line end); :class:`TrfUsageError` when
    the file cannot be paired so."""
    from keizer.formats.trf import entered, parse, text_of
    from keizer.formats.trf_records import forbidden_groups, virtual_points
    from keizer.pairing.swiss import SwissError, initial_colour_of, pair_swiss, system_of, took_part
    from keizer.pairing.swiss.forbidden import pairs_in_round

    text = text_of(file)
    t = parse(text)
    if t.is_team:
        raise TrfUsageError("team files cannot be paired here; a team Swiss is paired in the database "
                            "('keizer competition create NAME --system team --schedule swiss')")
    played = paired_rounds(t)
    number_ = round_no if round_no is not None else played + 1
    if not 1 <= number_ <= played + 1:
        raise TrfUsageError(f"round {number_} cannot be paired: the file has {played} rounds")
    planned = planned_rounds(file, t, rounds, number_)
    marks = entered(text)
    system = pairing_system or system_of(t.info)
    r = number_ - 1
    present = [p.start_no for p in t.players
               if r not in marks.get(p.start_no, ()) or took_part(p, r)]
    try:
        found = pair_swiss(t, planned, present, r, initial_colour_of(t),
                           pairs_in_round(forbidden_groups(text), number_), virtual_points(text), system)
    except SwissError as e:
        raise TrfUsageError(f"{file}: {e}") from None
    if fmt == "json":  # json.dumps's bytes for these numbers (tests/test_trf_pair_quick.py), without importing json
        pairs = ", ".join(f"[{white}, {black}]" for white, black in found.pairs)
        bye = "null" if found.bye is None else int(found.bye)
        return f'{{"round": {int(found.round)}, "pairs": [{pairs}], "bye": {bye}}}'
    from keizer.output import render

    names = {p.start_no: p.name for p in t.players}
    rows = [{"board": k, "white": w, "white_name": names[w], "black": b, "black_name": names[b]}
            for k, (w, b) in enumerate(found.pairs, 1)]
    if fmt == "csv" and found.bye is not None:  # the bye as a row of its own: Black 0, as pairing programs write it
        rows.append({"board": None, "white": found.bye, "white_name": names[found.bye], "black": 0,
                     "black_name": "(bye)"})
    lines = [f"Round {found.round} (FIDE {system.capitalize()})"] if fmt == "table" else []
    lines.append(render(rows, ["board", "white", "white_name", "black", "black_name"], fmt))
    if found.bye is not None and fmt == "table":
        lines.append(f"bye: {found.bye} {names[found.bye]}")
    return "\n".join(lines)


def paired_rounds(t: Tournament) -> int:
    """The last round in which anyone was paired (files may announce more, or hold byes ahead):
    a round with a game or a forfeit, or the pairing-allocated bye (who took part in it, as
    :func:`keizer.pairing.swiss.check.played_round` counts them), looked for from each line's end."""
    from keizer.tiebreaks.model import Code

    last, bye = 0, (Code.PAB, Code.FORFEIT_WIN)
    for p in t.players:
        line = p.results
        for r in range(len(line), last, -1):
            if line[r - 1].opponent is not None or line[r - 1].code in bye:
                last = r
                break
    return last


def planned_rounds(file: str, t: Tournament, rounds: int | None, needed: int) -> int:
    """The planned number of rounds (the Dutch rules treat the last round's topscorers apart)."""
    planned = rounds or t.rounds
    if needed > planned:
        raise TrfUsageError(f"{file} plans {planned} rounds (record 142 or XXR, else the rounds it holds); "
                            f"to pair round {needed} give the planned number with --rounds N")
    return planned


#: keizer.output.FORMATS, without importing the table and CSV writers a JSON answer does not need
#: (tests/test_startup.py keeps the two the same).
_FORMATS = ("table", "json", "csv")
_OPTIONS = {"--round": "round_no", "--rounds": "rounds", "--format": "fmt", "--system": "pairing_system"}


def pair_quickly(args: list[str]) -> bool:
    """Run ``keizer trf pair`` with ``args`` (those after ``trf pair``) without click, if they are
    plain and the pairing succeeds: True when the pairing was printed, False to leave the
    command to click (nothing printed)."""
    given = _plain(args)
    if given is None:
        return False
    file, options = given
    try:
        out = pair_text(file, options.get("round_no"), options.get("rounds"),  # type: ignore[arg-type]
                        str(options.get("fmt", "table")), options.get("pairing_system"))  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001 - click runs the command again and words what went wrong
        return False
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "").replace("_", "")
    if "\x1b" in out or (not out.isascii() and encoding != "utf8"):
        return False  # click strips terminal codes and re-encodes for such a terminal
    try:
        sys.stdout.write(out + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (`keizer trf pair x.trf | head`): stop quietly, as click's path
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return True


def _plain(args: list[str]) -> tuple[str, dict[str, int | str]] | None:
    """The file and the options of ``args`` when click would take them as they are, else None."""
    from keizer.limits import MAX_ROUNDS, whole_number
    from keizer.pairing.swiss import ENGINES

    files: list[str] = []
    options: dict[str, int | str] = {}
    items = iter(args)
    for arg in items:
        name, equals, value = arg.partition("=")
        if name in _OPTIONS and _OPTIONS[name] not in options:
            if not equals:
                value = next(items, "")
            if not value or value.startswith("-"):
                return None
            key = _OPTIONS[name]
            if key in ("round_no", "rounds"):
                try:
                    options[key] = whole_number(value, "", 1, MAX_ROUNDS)
                except ValueError:
                    return None
            elif (key == "fmt" and value not in _FORMATS) or \
                    (key == "pairing_system" and value not in ENGINES):
                return None
            else:
                options[key] = value
        elif arg.startswith("-"):
            return None  # --help, an option of another command, a repeated one: click says what it makes of it
        else:
            files.append(arg)
    if len(files) != 1 or not os.path.isfile(files[0]):
        return None
    return files[0], options

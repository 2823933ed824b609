"""Competition settings: every Keizer variant as a named, validated value.

A competition is configured as a preset plus overrides; the effective settings
are what the engines read.  Every setting is explained in ``docs/scoring.md``.

>>> s = Settings.from_preset("knsb-sixths", {"top": 60})
>>> s.bye, s.max_excused, s.top
(Fraction(2, 3), 5, 60)
>>> Settings.from_preset("classic", {"excused": "2/5"}).excused
Fraction(2, 5)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from fractions import Fraction
from typing import Any, Mapping

from keizer.i18n import N_
from keizer.refusals import Message, Refusal, Words

LADDERS = (N_("position"), N_("range"))
TOP_ROUNDINGS = (N_("half-up"), N_("half-even"), N_("down"))
OWN_VALUES = (N_("current"), N_("start"), N_("none"))
RECALCULATIONS = (N_("per-round"), N_("fixed-point"), N_("frozen"))
BYE_POLICIES = (N_("fewest-byes"), N_("lowest"), N_("random"))
ATTENDANCE_DEFAULTS = (N_("present"), N_("absent"))
CATEGORY_PAIRINGS = (N_("any"), N_("same"), N_("adjacent"))
COLOUR_TIEBREAKS = (N_("lower-white"), N_("higher-white"))
#: Simple tie-breaks of the Keizer ranking (start order always comes last).  Any
#: FIDE tie-break of keizer.tiebreaks (SB, DE, WIN, TPR …) may be listed instead.
KEIZER_TIEBREAKS = ("rating", "wins", "games", "draws")
#: The simple ones that have a FIDE code, for lists that mix both kinds.
FIDE_CODES = {"rating": "RTNG", "wins": "WIN"}
TIEBREAK_EDITIONS = ("2026", "2024", "2012", N_("self-draw"))


class SettingsError(Refusal, ValueError):
    """A setting has an unknown name or a value out of range."""


@dataclass(frozen=True)
class Settings:
    # Value ladder: rank k gets top − (k−1)·step ("position"), or a linear
    # range_top → range_bottom spread over the ladder ("range").
    ladder: str = "position"
    top: int | None = None  # None: auto, (n−1)·ratio/(ratio−1)
    step: Fraction = Fraction(1)
    ratio: Fraction = Fraction(3)
    top_rounding: str = "half-up"
    range_top: Fraction = Fraction(200)
    range_bottom: Fraction = Fraction(100)
    # What a round earns, as a fraction of the opponent's or one's own value.
    own_value: str = "current"
    win: Fraction = Fraction(1)
    draw: Fraction = Fraction(1, 2)
    loss: Fraction = Fraction(0)
    forfeit_win: Fraction = Fraction(1)
    excused: Fraction = Fraction(1, 3)
    unexcused: Fraction = Fraction(0)
    club: Fraction = Fraction(2, 3)
    bye: Fraction = Fraction(2, 3)
    late: Fraction = Fraction(0)
    external_win: Fraction = Fraction(1)
    external_draw: Fraction = Fraction(1, 2)
    external_loss: Fraction = Fraction(0)
    max_excused: int | None = None
    max_club: int | None = None
    absence_decay: bool = False
    withdrawn_opponent: Fraction | None = None
    # How the standing is recomputed.
    recalculation: str = "per-round"
    max_iterations: int = 50
    tiebreaks: tuple[str, ...] = ("rating",)
    tiebreak_edition: str = "2026"
    decimals: int = 2
    # Pairing.
    rematch_gap: int = 4
    max_meetings: int | None = None
    colour_limit: bool = False
    colour_tiebreak: str = "lower-white"
    bye_policy: str = "fewest-byes"
    bye_seed: int = 0
    default_attendance: str = "present"
    category_pairing: str = "any"

    @classmethod
    def from_preset(
        cls, preset: str = "classic", overrides: Mapping[str, Any] | None = None
    ) -> "Settings":
        """The effective settings of a preset with overrides applied and checked."""
        if preset not in PRESETS:
            raise SettingsError("unknown preset %(preset)s (choose from %(presets)s)", preset=repr(preset),
                                presets=", ".join(PRESETS))
        base = PRESETS[preset]
        return base.with_overrides(overrides or {})

    def with_overrides(self, overrides: Mapping[str, Any]) -> "Settings":
        changes = {}
        for name, raw in overrides.items():
            if name == "preset":
                continue
            if name not in _FIELDS:
                raise SettingsError("unknown setting %(name)s", hint="settings_list", name=repr(name))
            changes[name] = _coerce(name, raw)
        result = replace(self, **changes)
        result.validate()
        return result

    def validate(self) -> None:
        _choice("ladder", self.ladder, LADDERS)
        _choice("top_rounding", self.top_rounding, TOP_ROUNDINGS)
        _choice("own_value", self.own_value, OWN_VALUES)
        _choice("recalculation", self.recalculation, RECALCULATIONS)
        _choice("bye_policy", self.bye_policy, BYE_POLICIES)
        _choice("default_attendance", self.default_attendance, ATTENDANCE_DEFAULTS)
        _choice("category_pairing", self.category_pairing, CATEGORY_PAIRINGS)
        _choice("colour_tiebreak", self.colour_tiebreak, COLOUR_TIEBREAKS)
        if self.top is not None and not 1 <= self.top <= 100_000:
            raise SettingsError("top must be between 1 and 100000, not %(value)s", value=self.top)
        if not 0 < self.step <= 1000:
            raise SettingsError("step must be above 0 and at most 1000, not %(value)s", value=self.step)
        if not 1 < self.ratio <= 100:
            raise SettingsError("ratio must be above 1 and at most 100, not %(value)s", value=self.ratio)
        if not 0 <= self.range_bottom <= self.range_top <= 100_000:
            raise SettingsError("range_bottom must be between 0 and range_top")
        for name in _FACTOR_FIELDS:
            value = getattr(self, name)
            if value is not None and not 0 <= value <= 2:
                text = str(value)
                raise SettingsError("%(name)s must be between 0 and 2, not %(value)s", name=name,
                                    value=text if len(text) <= 24 else text[:20] + "…")
        if not self.win > self.loss or not self.win >= self.draw >= self.loss:
            raise SettingsError("win, draw and loss must keep their order: win ≥ draw ≥ loss, and win above loss")
        if len(set(self.tiebreaks)) < len(self.tiebreaks):
            twice = next(tb for tb in self.tiebreaks if self.tiebreaks.count(tb) > 1)
            raise SettingsError("tiebreaks: %(code)s is listed twice", code=repr(twice))
        if self.max_excused is not None and self.max_excused < 0:
            raise SettingsError("max_excused must be 0 or more")
        if self.max_club is not None and self.max_club < 0:
            raise SettingsError("max_club must be 0 or more")
        if not 1 <= self.max_iterations <= 10_000:
            raise SettingsError("max_iterations must be between 1 and 10000")
        if not 0 <= self.decimals <= 6:
            raise SettingsError("decimals must be between 0 and 6")
        if not 0 <= self.rematch_gap <= 999:
            raise SettingsError("rematch_gap must be between 0 and 999")
        if self.max_meetings is not None and self.max_meetings < 1:
            raise SettingsError("max_meetings must be 1 or more")
        for name in ("max_excused", "max_club", "max_meetings"):  # a competition has at most 999 rounds
            if (getattr(self, name) or 0) > 999:
                raise SettingsError("%(name)s must be at most 999", name=name)
        if not -(2**63) <= self.bye_seed < 2**63:  # what JSON readers and SQLite hold exactly
            raise SettingsError("bye_seed must be between %(low)s and %(high)s", low=-(2**63), high=2**63 - 1)
        _choice("tiebreak_edition", self.tiebreak_edition, TIEBREAK_EDITIONS)
        self.fide_tiebreaks()  # checks the list

    def fide_tiebreaks(self) -> tuple[str, ...] | None:
        """The tie-break list as FIDE codes, or None when it holds only the simple ones.

        >>> Settings(tiebreaks=("SB", "rating")).fide_tiebreaks()
        ('SB', 'RTNG')
        >>> Settings().fide_tiebreaks() is None
        True
        """
        if all(tb in KEIZER_TIEBREAKS for tb in self.tiebreaks):
            return None
        from keizer.tiebreaks.advice import advise
        from keizer.tiebreaks.codes import TieBreakError, parse_list
        from keizer.tiebreaks.model import System
        from keizer.tiebreaks.unplayed import Edition

        for tb in self.tiebreaks:
            if tb in KEIZER_TIEBREAKS and tb not in FIDE_CODES:
                raise SettingsError("tiebreaks: %(code)s cannot be combined with FIDE tie-breaks; use REP or GE",
                                    code=repr(tb))
        try:
            parsed = parse_list([FIDE_CODES.get(tb, tb) for tb in self.tiebreaks])
            errors = [a.said for a in advise([t.text for t in parsed], False, System.SWISS,
                                                Edition.parse(self.tiebreak_edition)) if a.level == "error"]
        except TieBreakError as e:
            raise SettingsError("tiebreaks: %(why)s", why=e) from None
        if errors:
            raise SettingsError("tiebreaks: %(why)s", why=errors[0])
        if any(t.name == "LOT" for t in parsed):
            raise SettingsError("tiebreaks: LOT cannot be used here; the start order decides the last ties")
        return tuple(t.text for t in parsed)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: fractions as '1/3' strings or integers."""
        return {name: _dump(value) for name, value in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Settings":
        """Effective settings as stored (preset key, if any, is ignored)."""
        return cls().with_overrides({k: v for k, v in data.items() if k != "preset"})

    def differences(self, other: "Settings") -> dict[str, tuple[Any, Any]]:
        """Settings whose value differs: name → (self's, other's), JSON-ready."""
        mine, theirs = self.to_dict(), other.to_dict()
        return {k: (mine[k], theirs[k]) for k in mine if mine[k] != theirs[k]}


_FIELDS = {f.name: f for f in fields(Settings)}
_FACTOR_FIELDS = (
    "win", "draw", "loss", "forfeit_win", "excused", "unexcused", "club", "bye",
    "late", "external_win", "external_draw", "external_loss", "withdrawn_opponent",
)
_FRACTION_FIELDS = set(_FACTOR_FIELDS) | {"step", "ratio", "range_top", "range_bottom"}
_INT_FIELDS = {"max_excused", "max_club", "max_iterations", "decimals", "rematch_gap",
               "max_meetings", "bye_seed", "top"}
_OPTIONAL = {"top", "max_excused", "max_club", "max_meetings", "withdrawn_opponent"}


def parse_fraction(raw: Any) -> Fraction:
    """A number, '1/3', '0.35' or '35%' as an exact fraction.

    >>> parse_fraction("35%"), parse_fraction(0.5), parse_fraction("2/6")
    (Fraction(7, 20), Fraction(1, 2), Fraction(1, 3))
    """
    if isinstance(raw, bool):
        raise ValueError("a number is needed, not true/false")
    if isinstance(raw, Fraction | int):
        return Fraction(raw)
    if isinstance(raw, float):
        # Floats come from JSON numbers like 0.35: take the decimal the user wrote.
        return Fraction(repr(raw))
    text = str(raw).strip().replace(",", ".")
    if text.endswith("%"):
        return Fraction(text[:-1].strip()) / 100
    return Fraction(text)


def _coerce(name: str, raw: Any) -> Any:
    try:
        if name in _OPTIONAL and (raw is None or str(raw).strip().lower() in ("none", "auto", "")):
            return None
        if name in _FRACTION_FIELDS:
            return parse_fraction(raw)
        if name in _INT_FIELDS:
            if isinstance(raw, bool):
                raise ValueError
            value = Fraction(str(raw).strip()) if not isinstance(raw, int) else Fraction(raw)
            if value.denominator != 1:
                raise ValueError
            return int(value)
        if name in ("absence_decay", "colour_limit"):
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
            raise ValueError
        if name == "tiebreaks":
            items = raw.split(",") if isinstance(raw, str) else list(raw)
            return tuple(str(t).strip() for t in items if str(t).strip())
        return str(raw).strip()
    except (ValueError, ZeroDivisionError, TypeError):
        shown = repr(raw) if len(repr(raw)) <= 40 else repr(raw)[:37] + "…"
        wanted = _wanted(name)
        if wanted is None:
            raise SettingsError("setting %(name)s: %(value)s is not a valid value", hint="settings_values", name=name,
                                value=shown) from None
        raise SettingsError("setting %(name)s: %(value)s is not a valid value; %(wanted)s", name=name, value=shown,
                            wanted=wanted) from None


def _wanted(name: str) -> Message | None:
    """What a setting takes, for the message that refuses a value (None: a word the views
    point to the list of, as a hint).

    >>> str(_wanted("excused")), str(_wanted("top")), str(_wanted("max_club"))
    ('give a number such as 1/2, 0.35 or 35%', 'give a whole number, or auto', 'give a whole number, or none')
    """
    optional = name in _OPTIONAL
    if name in _FRACTION_FIELDS:  # the percent sign is a value: a message id has none of its own
        if optional:
            return Message("give a number such as 1/2, 0.35 or %(percent)s, or none", percent="35%")
        return Message("give a number such as 1/2, 0.35 or %(percent)s", percent="35%")
    if name == "top":
        return Message("give a whole number, or auto")
    if name in _INT_FIELDS:
        return Message("give a whole number, or none") if optional else Message("give a whole number")
    if name in ("absence_decay", "colour_limit"):
        return Message("give yes or no")
    return None


YES_NO = (N_("yes"), N_("no"))

#: The settings that take one of a few words, and those words (the app offers them as a list).
CHOICES: dict[str, tuple[str, ...]] = {
    "ladder": LADDERS, "top_rounding": TOP_ROUNDINGS, "own_value": OWN_VALUES, "recalculation": RECALCULATIONS,
    "bye_policy": BYE_POLICIES, "default_attendance": ATTENDANCE_DEFAULTS, "category_pairing": CATEGORY_PAIRINGS,
    "colour_tiebreak": COLOUR_TIEBREAKS, "tiebreak_edition": TIEBREAK_EDITIONS,
    "absence_decay": YES_NO, "colour_limit": YES_NO,
}


def _dump(value: Any) -> Any:
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if isinstance(value, tuple):
        return list(value)
    return value


def _choice(name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise SettingsError("%(name)s must be one of %(allowed)s, not %(value)s", name=name, allowed=Words(allowed),
                            value=repr(value))


PRESETS: dict[str, Settings] = {
    "classic": Settings(),
    # KeizerForClubs' shipped configuration (cfg/KeizerForClubs.config.s3db in the public
    # KeizerForClubs repository): C#'s Convert.ToInt32 rounds half to even.
    "keizerforclubs": Settings(
        top_rounding="half-even",
        excused=Fraction(35, 100),
        unexcused=Fraction(5, 100),
        club=Fraction(70, 100),
        bye=Fraction(50, 100),
        withdrawn_opponent=Fraction(75, 100),
        rematch_gap=4,
    ),
    # Sixths as in FreeKeizer and many KNSB club rules.
    "knsb-sixths": Settings(
        bye=Fraction(4, 6), excused=Fraction(2, 6), club=Fraction(4, 6), max_excused=5
    ),
    # Sharly-Chess's published defaults (its Keizer settings and scorer, 2026): top
    # (n−1)//2 + (n−1), i.e. ratio 3 truncated; every bye (requested, pairing-allocated,
    # rest) a third of one's own value (KEIZER_ABSENCE_FRACTION 1/3), so club duty too;
    # an absence with no bye recorded earns nothing; rematches avoided for the whole
    # tournament (KEIZER_REMATCH_GAP = number of rounds); own value added, no rounding.
    "sharly": Settings(
        top_rounding="down",
        excused=Fraction(1, 3),
        unexcused=Fraction(0),
        club=Fraction(1, 3),
        bye=Fraction(1, 3),
        max_meetings=1,
    ),
}

#: One line per setting, for `keizer settings` and docs (catalog words: the app shows them translated).
DESCRIPTIONS: dict[str, str] = {
    "ladder": N_("value ladder: position (top − (k−1)·step) or range (range_top → range_bottom)"),
    "top": N_("value of rank 1; auto = (n−1)·ratio/(ratio−1)"),
    "step": N_("value difference between consecutive ranks"),
    "ratio": N_("first/last value ratio used by top = auto"),
    "top_rounding": N_("rounding of the auto top: half-up, half-even (KeizerForClubs), down (Sharly)"),
    "range_top": N_("value of rank 1 on a range ladder"),
    "range_bottom": N_("value of the last rank on a range ladder"),
    "own_value": N_("own value added to the score: current, start (initial value forever) or none"),
    "win": N_("fraction of the opponent's value for a win"),
    "draw": N_("fraction of the opponent's value for a draw"),
    "loss": N_("fraction of the opponent's value for a loss"),
    "forfeit_win": N_("fraction of the opponent's value for a forfeit win"),
    "excused": N_("fraction of one's own value for an absence with notice"),
    "unexcused": N_("fraction of one's own value for an absence without notice"),
    "club": N_("fraction of one's own value for club duty"),
    "bye": N_("fraction of one's own value for the odd-number bye"),
    "late": N_("fraction of one's own value for rounds before joining"),
    "external_win": N_("fraction of one's own value for an external win for the club"),
    "external_draw": N_("fraction of one's own value for an external draw"),
    "external_loss": N_("fraction of one's own value for an external loss"),
    "max_excused": N_("paid excused absences per season; beyond, scored as unexcused"),
    "max_club": N_("paid club-duty rounds per season; beyond, scored as excused absences"),
    "absence_decay": N_("the n-th absence (excused or unexcused) earns ½^(n−1) of its fraction"),
    "withdrawn_opponent": N_("if set, withdrawn players leave the ladder; a game against one earns this × own value × result factor"),
    "recalculation": N_("per-round (values of the previous standing), fixed-point or frozen"),
    "max_iterations": N_("fixed-point: passes per round before giving up"),
    "tiebreaks": N_("ties in score: rating, wins, games, draws, or FIDE tie-breaks (SB, DE, WIN, TPR …); start order last"),
    "tiebreak_edition": N_("FIDE rule edition for FIDE tie-breaks: 2026, 2024, 2012 or self-draw"),
    "decimals": N_("decimals shown (display only)"),
    "rematch_gap": N_("players who met in the previous N rounds are not paired"),
    "max_meetings": N_("meetings per season at most (none = no limit)"),
    "colour_limit": N_("hard colour rule: |whites − blacks| ≤ 2 and never three in a row"),
    "colour_tiebreak": N_("equal colour history, never met: lower-white or higher-white"),
    "bye_policy": N_("who gets the bye: fewest-byes (lowest of those), lowest, random"),
    "bye_seed": N_("seed of the random bye policy"),
    "default_attendance": N_("attendance of players not marked: present or absent"),
    "category_pairing": N_("pairing across categories: any, same or adjacent"),
}

# -- settings in words ------------------------------------------------------------------

#: Settings that are a fraction of the opponent's value, and of one's own value.
OF_OPPONENT = frozenset({"win", "draw", "loss", "forfeit_win"})
OF_OWN = frozenset({"excused", "unexcused", "club", "bye", "late", "external_win", "external_draw", "external_loss"})
#: Setting names that are words of the catalogs (the others are codes, shown as typed).
NAMED = frozenset({"win", "draw", "loss", "excused", "unexcused", "club", "bye"})

#: What each preset is for, in plain words (catalog words: shown where a preset is chosen).
PRESET_NOTES: dict[str, str] = {
    "classic": N_("the usual Dutch club rules: an absence with notice earns a third of one's own value, club duty "
                  "and the bye two thirds, an absence without notice nothing"),
    "keizerforclubs": N_("as KeizerForClubs ships it: a notice earns a little more (7/20), no notice a little "
                         "(1/20), the bye half; a game against a player who withdrew counts three quarters"),
    "knsb-sixths": N_("in sixths, as FreeKeizer and many KNSB clubs count: two sixths for a notice, four for club "
                      "duty and the bye, at most five paid absences a season"),
    "sharly": N_("as Sharly-Chess counts: every absence with a bye or club duty earns a third of one's own value, "
                 "without nothing; two players never meet twice"),
}
#: The settings the presets' table compares (the values, the absences, the rematches), each
#: with its row's label in plain words.
PRESET_TABLE = {
    "top_rounding": N_("Values: the top value rounded"),
    "excused": N_("Absent with notice"),
    "unexcused": N_("Absent without notice"),
    "club": N_("Club duty"),
    "bye": N_("The bye (an odd number present)"),
    "max_excused": N_("Absences with notice that earn points"),
    "withdrawn_opponent": N_("A game against a player who withdrew"),
    "rematch_gap": N_("Rematches"),
    "max_meetings": N_("Meetings of two players"),
}


def worded(name: str, value: Any) -> Message:
    """A setting's value in plain words (the views translate it): what it is a fraction of,
    what a missing limit means.

    >>> str(worded("excused", Fraction(7, 20))), str(worded("win", 1)), str(worded("max_excused", None))
    ('7/20 of own value', "1 of the opponent's value", 'no limit')
    >>> str(worded("rematch_gap", 4)), str(worded("top_rounding", "down"))
    ('not paired again within 4 rounds', 'down')
    """
    shown = _dump(value)
    if name in OF_OPPONENT:
        return Message("%(value)s of the opponent's value", value=shown)
    if name in OF_OWN:
        return Message("%(value)s of own value", value=shown)
    if name == "withdrawn_opponent":
        return (Message("counts as any game") if value is None
                else Message("%(value)s of own value, times the result", value=shown))
    if name in ("max_excused", "max_club"):
        return Message("no limit") if value is None else Message("at most %(value)s a season", value=shown)
    if name == "max_meetings":
        if value is None:
            return Message("no limit")
        return (Message("two players never meet twice") if value == 1
                else Message("at most %(value)s meetings a season", value=shown))
    if name == "rematch_gap":
        return Message("not paired again within %(value)s rounds", value=shown)
    if name == "top" and value is None:
        return Message("auto")
    if isinstance(value, tuple):
        shown = ",".join(value)
    return Message("%(value)s", value=Words((shown,)) if isinstance(value, str) else str(shown).lower())


def said(name: str, value: Any) -> Message:
    """A setting and its value in words: ``excused: 7/20 of own value``, not ``excused=7/20``.

    >>> str(said("excused", Fraction(7, 20)))
    'excused: 7/20 of own value'
    """
    return Message("%(setting)s: %(value)s", setting=Words((name,)) if name in NAMED else name,
                   value=worded(name, value))


def preset_table() -> list[tuple[str, dict[str, Message]]]:
    """What each preset sets, in words: a row per setting of :data:`PRESET_TABLE` (its name),
    a cell per preset (the row's label is ``PRESET_TABLE[name]``).

    >>> rows = dict(preset_table())
    >>> str(rows["excused"]["keizerforclubs"]), str(rows["max_meetings"]["sharly"])
    ('7/20 of own value', 'two players never meet twice')
    """
    return [(name, {preset: worded(name, getattr(s, name)) for preset, s in PRESETS.items()}) for name in PRESET_TABLE]

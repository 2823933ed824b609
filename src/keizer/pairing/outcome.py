"""Why a knock-out or team match stands as it does, as data.

The engines explain every decision — "rapid 1–1, board count 2 v 1 (lower wins)" —
for the command line, and the website says the same in the club's language.  So an
explanation is a :class:`How`: the English sentence (a ``str``, printed and written to
JSON as it is) that also carries its :class:`Part` codes and numbers, which the
templates translate one by one (``how_text`` in ``templates/macros.html``).

>>> h = How(Part("stage", ("rapid", "1", "1")), Part("comma"), Part("board_count", ("2", "1")))
>>> h
'rapid 1–1, board count 2 v 1 (lower wins)'
>>> [p.code for p in h.parts]
['stage', 'comma', 'board_count']
>>> (How(Part("level", ("1", "1", "regular"))) + How(Part("next", ("armageddon",)))).parts[-1].args
('armageddon',)
"""

from __future__ import annotations

from dataclasses import dataclass

#: The English text of every part; ``{0}``, ``{1}``… are its arguments.  Stage kinds
#: (regular, rapid, blitz, armageddon) and points (as ``points_text`` writes them) are arguments.
ENGLISH = {
    "bye": "bye",
    "waiting": "awaiting the winners before it",
    "to_play": "to play",
    "awarded": "awarded by the arbiter",
    "stage": "{0} {1}–{2}",
    "armageddon_draw": " (a draw counts as a win for Black)",
    "after_games": " after {0} of {1} games",
    "level": "level {0}–{1} after the {2} games",
    "level_boards": ", also on board count and bottom-board elimination",
    "next": ": {0} next",
    "arbiter": ": the arbiter decides (an award)",
    "game_points": "game points {0}–{1}",
    "board_count": "board count {0} v {1} (lower wins)",
    "elimination_first": "bottom-board elimination: board 1 {0}–{1}",
    "elimination": "bottom-board elimination: boards 1–{0} {1}–{2}",
    "level_all": "level on game points, board count and bottom-board elimination",
    "comma": ", ",
}


@dataclass(frozen=True)
class Part:
    """One piece of an explanation: a code of :data:`ENGLISH` and its arguments."""

    code: str
    args: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.code not in ENGLISH:
            raise ValueError(f"unknown explanation part {self.code!r}")


class How(str):
    """An explanation: its English text, with ``parts`` for translating it."""

    parts: tuple[Part, ...]

    def __new__(cls, *parts: Part) -> "How":
        text = super().__new__(cls, "".join(ENGLISH[p.code].format(*p.args) for p in parts))
        text.parts = parts
        return text

    def __add__(self, other: str) -> "How":
        if not isinstance(other, How):
            raise TypeError("an explanation extends only with another explanation")
        return How(*self.parts, *other.parts)

    def to_json(self) -> dict[str, object]:
        """For the season summary file: the text and its parts."""
        return {"text": str(self), "parts": [{"code": p.code, "args": list(p.args)} for p in self.parts]}

"""How the command line words a refusal: in English, naming its commands and flags.

An operation's :class:`~keizer.refusals.Refusal` carries the key of what would fix it
(``hint``); :data:`HINTS` says it as a terminal user does it.  The app says the same key
with its pages and buttons (``keizer.web.words``).

>>> from keizer.refusals import Refusal
>>> say(Refusal("round %(n)s has no pairing", hint="pair_first", n=3))
"round 3 has no pairing; pair it with 'keizer pair' first"
"""

from __future__ import annotations

from keizer.refusals import Message, Refusal

#: hint key → the phrase appended to the message (``%(name)s`` from the refusal's values).
HINTS: dict[str, str] = {
    "pair_first": "; pair it with 'keizer pair' first",
    # -- formats and publishing --
    # -- store, engines and tie-breaks --
    # -- operations: the club evening (attendance, pairing, results, rounds, order, cups, draws, changes, club) --
    # -- operations: set-up, Swiss, team events, members, accounts, links --
    # -- settings and systems --
    "settings_list": " (see 'keizer competition settings' for the list)",
    "settings_values": "; see 'keizer presets' for the values it takes",
    "setup_double": " (--double)",
    "setup_rounds": ": add --rounds N",
    "setup_player_change": ": give --category, --joined or --default",
    "timecontrol_which": ": --rounds RANGE (a plan) or --round N (one round)",
    "timecontrol_clear": ", or --clear, not both",
    "timecontrol_plan": "; plan it with --rounds %(n)s",
    # -- change log --
    "undo_again": "; run 'keizer undo' again to see the change that is last now",
    # -- views, pairing reasons, phones --
    "reasons_set_rounds": ": 'keizer swiss rounds N'",
    "reasons_add_rounds": "; add rounds with 'keizer swiss rounds N'",
}


def say(refusal: Refusal | Message) -> str:
    """The refusal as the command line says it."""
    return refusal.words(hints=HINTS)

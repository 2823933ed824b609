"""How the app words a refusal: in the club's language, naming its pages, buttons and boxes.

An operation's :class:`~keizer.refusals.Refusal` carries the key of what would fix it
(``hint``); :data:`HINTS` says it as the officer does it in the app (the command line says
the same key with its flags: ``keizer.cli.words``).  The phrases are msgids of the catalogs.
"""

from __future__ import annotations

from keizer.i18n import N_

#: hint key → the phrase appended to the message (``%(name)s`` from the refusal's values).
HINTS: dict[str, str] = {
    "pair_first": N_("; pair it on the Pairing page first"),
    # -- formats and publishing --
    # -- store, engines and tie-breaks --
    # -- operations: the club evening (attendance, pairing, results, rounds, order, cups, draws, changes, club) --
    # -- operations: set-up, Swiss, team events, members, accounts, links --
    # -- settings and systems --
    "settings_list": N_(" (the Settings page lists them)"),
    "settings_values": N_("; the Settings page offers the values it takes"),
    "setup_double": N_(" (tick double round-robin)"),
    "setup_rounds": N_(": fill in Swiss: rounds"),
    "setup_player_change": N_(": change the category, the first round or the default attendance"),
    "timecontrol_which": N_(": fill in the rounds (a plan) or one round"),
    "timecontrol_clear": N_(", or tick clear, not both"),
    "timecontrol_plan": N_("; plan it first under Rounds (3, 1-3 or 4-) as %(n)s"),
    # -- change log --
    "undo_again": N_("; open the change log again to see the change that is last now"),
    # -- views, pairing reasons, phones --
    "reasons_set_rounds": N_(", on the Settings page"),
    "reasons_add_rounds": N_("; add rounds by raising the planned number of rounds on the Settings page"),
}

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
    "su_set_password": N_(" on the Users page"),
    "su_make_officer": N_(" (Change role on the Users page)"),
    "su_add_user": N_("; add one on the Users page"),
    "su_member_fields": N_(": change a field of the form"),
    "su_reopen": N_("; reopen the season to change it"),
    "su_reopen_first": N_("; reopen the season first"),
    "su_reopens": N_("; reopening it opens it again"),
    "su_swiss_rounds": N_(": Swiss rounds on the Settings page"),
    "su_swiss_more_rounds": N_("; add rounds on the Settings page"),
    "su_add_players": N_("; add them on the Players page"),
    "su_mark_present": N_("; mark players present on the Attendance page"),
    "su_clear_result": N_("; clear it first on the Results page"),
    "su_give_board": N_("; name at least %(boards)s board players"),
    # -- settings and systems --
    # -- change log --
    # -- views, pairing reasons, phones --
}

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
    "upload_no_password": N_(": type it in the Password box"),
    "upload_password_places": N_(" (the Password box, or the one the server keeps)"),
    "upload_password_or_key": N_(" (the Password box, or the one the server keeps) or the SSH key"),
    "upload_again": N_("; publish again to resume (what was sent is kept)"),
    "upload_then_again": N_(" publish again to resume (what was sent is kept)"),
    "upload_publish_first": N_("; publish the site first (Publish, without sending it)"),
    "publish_create_competition": N_("; create one on the Competitions page"),
    "members_csv_edit": N_(" on the Members page"),
    "members_csv_namesake": N_("; tick 'member list: allow namesakes' for a namesake, or use a distinguishing name "
                               "(a middle initial)"),
    "upload_password_where": N_(" and type the password in the Password box"),
    # -- store, engines and tie-breaks --
    "store_see_players": N_("; see the competition's Players page"),
    "store_see_members": N_("; see the Members page"),
    "store_see_teams": N_("; see the Team event page"),
    "store_see_competitions": N_("; see the Competitions page"),
    "store_create_competition": N_(": create one on the Competitions page"),
    "store_namesake": N_(", tick 'a namesake: allow a name another member has', or give a distinguishing name "
                         "(a middle initial, a town)"),
    "store_user_password": N_(" on the Users page"),
    # -- operations: the club evening (attendance, pairing, results, rounds, order, cups, draws, changes, club) --
    # -- operations: set-up, Swiss, team events, members, accounts, links --
    # -- settings and systems --
    # -- change log --
    # -- views, pairing reasons, phones --
}

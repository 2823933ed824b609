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
    "upload_no_password": ": set $%(env)s, store it with 'keyring set %(service)s %(account)s', or run keizer in "
                          "a terminal to be asked",
    "upload_password_places": " ($%(env)s, the keyring or the prompt)",
    "upload_password_or_key": " ($%(env)s, the keyring or the prompt) or the SSH key",
    "upload_again": "; run the same command again to resume (what was sent is kept)",
    "upload_then_again": " run the same command again to resume (what was sent is kept)",
    "upload_publish_first": "; run 'keizer publish %(site)s' first",
    "publish_create_competition": "; create one with 'keizer competition create'",
    "members_csv_edit": " with 'keizer member edit'",
    "members_csv_namesake": "; use --allow-duplicate for a namesake, or a distinguishing name (a middle initial)",
    "upload_password_where": " and give the password in $%(env)s, the system keyring or at the prompt "
                             "(see docs/publishing.md)",
    # -- store, engines and tie-breaks --
    "store_see_players": "; see 'keizer player list'",
    "store_see_members": "; see 'keizer member list'",
    "store_see_teams": "; see 'keizer team list'",
    "store_see_competitions": "; see 'keizer competition list'",
    "store_create_competition": ": create one with 'keizer competition create NAME'",
    "store_namesake": ", use --allow-duplicate, or give a distinguishing name (a middle initial, a town)",
    "store_no_database": ": create one with 'keizer init' or pass --db FILE",
    "store_empty_database": ", or run 'keizer init' to start a new season in it",
    "store_backup_force": ", or pass --force to replace it",
    "store_not_keizer": "; pass --db with the club's season file",
    "store_user_password": " with 'keizer user password %(name)s'",
    # -- operations: the club evening (attendance, pairing, results, rounds, order, cups, draws, changes, club) --
    # -- operations: set-up, Swiss, team events, members, accounts, links --
    # -- settings and systems --
    # -- change log --
    # -- views, pairing reasons, phones --
}


def say(refusal: Refusal | Message) -> str:
    """The refusal as the command line says it."""
    return refusal.words(hints=HINTS)

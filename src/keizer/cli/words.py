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
    "su_set_password": " with 'keizer user password %(user)s'",
    "su_make_officer": " ('keizer user role NAME officer')",
    "su_add_user": "; add one with 'keizer user add NAME --role officer'",
    "su_member_fields": ": give --name, --rating, --fed-id, --fide-id or --fide-rating",
    "su_reopen": "; reopen it with '%(reopen)s'",
    "su_reopen_first": "; reopen it first with '%(reopen)s'",
    "su_see_seasons": "; see 'keizer season list'",
    "su_reopens": "; '%(reopen)s' reopens it",
    "su_swiss_rounds": ": 'keizer swiss rounds N'",
    "su_swiss_more_rounds": "; add rounds with 'keizer swiss rounds N'",
    "su_add_players": "; add them with 'keizer player add'",
    "su_mark_present": "; mark players present with 'keizer attend'",
    "su_clear_result": "; clear it first ('keizer result %(board)s=clear')",
    "su_give_board": "; give --board at least %(boards)s times",
    # -- settings and systems --
    # -- change log --
    # -- views, pairing reasons, phones --
}


def say(refusal: Refusal | Message) -> str:
    """The refusal as the command line says it."""
    return refusal.words(hints=HINTS)

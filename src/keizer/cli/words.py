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
    "su_add_teams": "; add them with 'keizer team add'",
    "su_crepaux": "; create the event with --schedule roundrobin for other numbers of teams",
    "su_make_schedule": "; make the schedule with 'keizer team schedule'",
    "su_correct_result": " (correct a result with 'keizer result --round %(n)s --correct')",
    "su_with_team_next": " with 'keizer team next'",
    "su_by_team_schedule": " by 'keizer team schedule'",
    "su_team_next": " ('keizer team next')",
    "su_team_result": " ('keizer team result %(n)s %(match)s …')",
    "su_team_award": " ('keizer team award %(n)s %(match)s TEAM')",
    "su_undo_that": "; 'keizer undo' that first",
    "su_team_schedule_first": "; pair round 1 with 'keizer team schedule'",
    "su_team_results": "; enter them with 'keizer team result %(n)s MATCH …'",
    "su_team_round_one": "; make round 1 with 'keizer team schedule'",
    "su_bracket_fix": "; was a result corrected after 'keizer team next'? 'keizer undo' back to before it",
    "su_teams_before_schedule": "; add every team before 'keizer team schedule' (or 'keizer undo' the schedule first)",
    "su_trf_standings": " — rank the file with 'keizer trf standings'",
    # -- settings and systems --
    # -- change log --
    # -- views, pairing reasons, phones --
}


def say(refusal: Refusal | Message) -> str:
    """The refusal as the command line says it."""
    return refusal.words(hints=HINTS)

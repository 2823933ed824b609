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
    "su_add_teams": N_("; add them on the Team event page"),
    "su_crepaux": N_("; create the event with the round-robin schedule for other numbers of teams"),
    "su_make_schedule": N_("; make the schedule on the Team event page"),
    "su_correct_result": N_(" (correct a result on the Team event page)"),
    "su_with_team_next": N_(" (Next round on the Team event page)"),
    "su_by_team_schedule": N_(" (Schedule on the Team event page)"),
    "su_team_result": N_(" (enter its results on the Team event page)"),
    "su_team_award": N_(" (Award on the Team event page)"),
    "su_undo_that": N_("; undo that first in the change log"),
    "su_team_schedule_first": N_("; pair round 1 with Schedule on the Team event page"),
    "su_team_results": N_("; enter them on the Team event page"),
    "su_team_round_one": N_("; make round 1 with Schedule on the Team event page"),
    "su_teams_before_schedule": N_("; add every team before making the schedule (or undo the schedule first in the "
                                   "change log)"),
    "su_bracket_fix": N_("; was a result corrected after the next round was made? Undo back to before it in the "
                         "change log"),
    # -- settings and systems --
    # -- change log --
    # -- views, pairing reasons, phones --
}

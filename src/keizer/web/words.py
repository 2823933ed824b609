"""How the app words a refusal: in the club's language, naming its pages, buttons and boxes.

An operation's :class:`~keizer.refusals.Refusal` carries the key of what would fix it
(``hint``); :data:`HINTS` says it as the officer does it in the app (the command line says
the same key with its flags: ``keizer.cli.words``).  The phrases are msgids of the catalogs.
"""

from __future__ import annotations

from keizer.i18n import N_

#: field key → the label of the box (or boxes) that give it, as the forms show it.
FIELDS: dict[str, str] = {
    "set": N_("Settings that differ"),
    "set_example": "excused=2/5",
    "swap_last_two": N_("swap the last two rounds of the first cycle"),
    "lots": N_("Seed of the lot for remaining ties"),
    "system_roundrobin": N_("Round-robin"),
    "swiss_options": N_("Rounds, Points of the bye, Points of an excused absence and Top seed's colour in round 1"),
    "bye_points": N_("Points of the bye"),
    "excused_points": N_("Points of an excused absence"),
    "swiss_points": N_("Points of the bye and Points of an excused absence"),
    "schedule_knockout": N_("Schedule knockout"),
    "roundrobin_options": N_("double round-robin, swap the last two rounds of the first cycle and Tie-breaks"),
    "plan_rounds": N_("Rounds (3, 1-3 or 4-)"),
    "stages": N_("Stages of a match"),
    "fide_mode": N_("FIDE mode: the FIDE rules"),
}

#: hint key → the phrase appended to the message (``%(name)s`` from the refusal's values).
HINTS: dict[str, str] = {
    "pair_first": N_("; pair it on the Pairing page first"),
    "leave_fide": N_("; to leave them for good, tick the box below and confirm"),
    "fide_create": N_("; choose another Rules, or keep FIDE's values"),
    # -- formats and publishing --
    "upload_no_password": N_(": type it in the Password box"),
    "upload_password_places": N_(" (the Password box, or the one the server keeps)"),
    "upload_password_or_key": N_(" (the Password box, or the one the server keeps) or the SSH key"),
    "upload_again": N_("; publish again to resume (what was sent is kept)"),
    "upload_replace": N_(", or tick 'Replace files keizer did not put there' if they are an old copy of the site"),
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
    "ratings_set_id": N_("; set the %(label)s on the member's page (Members, Edit)"),
    "ecf_details": N_("; fill in the ECF's event details"),
    "ecf_club_code": N_("; set the member's ECF code on the member's page (Members, Edit), or give the club's ECF club code"),
    "ecf_round_date": N_("; give the round its date"),
    "ev_forbidden_pair": N_(" (see the forbidden pairs on the Pairing page)"),
    "ev_repair_unplayed": N_(" (a round not played yet can be paired again on the Pairing page)"),
    "ev_plan_more_rounds": N_("; it has no further round to mark"),
    "ev_marks_ahead": N_(": only requested byes (excused) and notice of absence (unexcused) can be marked ahead"),
    "ev_use_noshow": N_("; if they did not come, use their No-show button (or unpair the round on the Pairing page "
                        "to pair it again)"),
    "ev_reinstate_first": N_(" (reinstate the player on the Players page first)"),
    "ev_keep_date": N_(", or tick 'Keep this date even if it is out of order with the other rounds' if it is right"),
    "ev_mark_who_is_here": N_("; mark who is here on the Attendance page first"),
    "ev_run_roundrobin": N_(": its pairings come from the Berger table: draw them on the Pairing page"),
    "ev_run_swiss": N_(": a Swiss tournament is paired round by round on the Pairing page"),
    "ev_run_knockout": N_(": a cup is drawn on the Cup page"),
    "ev_run_team": N_(": a team event is scheduled on the Teams page"),
    "ev_run_keizer": N_(": it is a Keizer competition"),
    "ev_enter_results_first": N_("; enter them on the Results page before pairing the next round"),
    "ev_unpair_or_again": N_("; unpair it first, or pair it again, on the Pairing page"),
    "ev_mark_present": N_("; mark players present on the Attendance page"),
    "ev_swiss_swap_after": N_(": pair it, then swap players on the Pairing page"),
    "ev_use_pair": N_("; pair it on the Pairing page"),
    "ev_clear_board": N_(" (empty its cell on the Results page)"),
    "ev_correct_results": N_("; correct them on the Results page instead"),
    "ev_attend_and_pair": N_(": mark attendance and pair it (Attendance, then Pairing)"),
    "ev_clear_or_forfeit": N_("; empty its cell on the Results page first, or enter a forfeit (+- or -+)"),
    "ev_clear_first": N_("; empty its cell on the Results page first"),
    "ev_results_syntax": N_(": choose a result for a board"),
    "ev_correct_there": N_("; to change a result there, choose round %(done)s on the Results page"),
    "ev_use_correct": N_(": it was entered meanwhile; reload the page to see it and change it there"),
    "ev_undo_team_next": N_("; undo back to before the next round was drawn (Change log) first"),
    "ev_undo_knockout_next": N_("; undo back to before the next round was drawn (Change log)"),
    "ev_undo_knockout_next_first": N_("; undo back to before the next round was drawn (Change log) first"),
    "ev_mark_it": N_("; mark it on the Attendance page"),
    "ev_use_round": N_("; choose an earlier round"),
    "ev_see_bracket": N_("; see the Cup page"),
    "ev_see_matches": N_("; see the Teams page"),
    "ev_from_name": N_(": choose it in the list"),
    "ev_order_by_hand": N_(": list them one a line"),
    "ev_add_players": N_("; add them on the Players page"),
    "ev_draw_cup": N_(": draw it on the Cup page"),
    "ev_distinct_names": N_("; give them distinct names on the Members page and import again"),
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

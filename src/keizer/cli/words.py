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

#: field key → the flag (or flags) that give it (a refusal names a field as a :class:`~keizer.refusals.Field`).
FIELDS: dict[str, str] = {
    "set": "--set",
    "set_example": "--set excused=2/5",
    "swap_last_two": "--swap-last-two",
    "lots": "--lots",
    "system_roundrobin": "--system roundrobin",
    "swiss_options": "--rounds, --bye-points, --excused-points, --initial-colour, --acceleration and --pairing",
    "bye_points": "--bye-points",
    "excused_points": "--excused-points",
    "swiss_points": "--bye-points and --excused-points",
    "schedule_knockout": "--schedule knockout",
    "roundrobin_options": "--double, --swap-last-two and --tiebreaks",
    "plan_rounds": "--rounds",
    "stages": "--stages",
    "fide_mode": "--fide-mode",
}

#: hint key → the phrase appended to the message (``%(name)s`` from the refusal's values).
HINTS: dict[str, str] = {
    "pair_first": "; pair it with 'keizer pair' first",
    "leave_fide": "; to leave them for good, give --leave-fide-rules (you are asked to confirm)",
    "fide_create": "; leave out --fide-mode (or give --no-fide-mode), or keep FIDE's values",
    # -- formats and publishing --
    "upload_no_password": ": set $%(env)s, store it with 'keyring set %(service)s %(account)s', or run keizer in "
                          "a terminal to be asked",
    "upload_password_places": " ($%(env)s, the keyring or the prompt)",
    "upload_password_or_key": " ($%(env)s, the keyring or the prompt) or the SSH key",
    "upload_again": "; run the same command again to resume (what was sent is kept)",
    "upload_replace": ", or add --replace if they are an old copy of the site",
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
    "ratings_set_id": "; set the %(label)s with 'keizer member edit'",
    "ecf_details": "; give it with its option of 'keizer export --format ecf': --event-code, --results-officer, "
                   "--results-officer-address, --treasurer, --treasurer-address or --minutes-for-game",
    "ecf_club_code": "; set the member's ECF code with 'keizer member edit --fed-id', or give --club-code",
    "ecf_round_date": "; give the round its date ('keizer attend --round N --date YYYY-MM-DD')",
    "ev_forbidden_pair": " ('keizer forbid')",
    "ev_repair_unplayed": " (re-pair an unplayed round with 'keizer pair --again')",
    "ev_plan_more_rounds": "; plan more with 'keizer swiss rounds N'",
    "ev_marks_ahead": ": only requested byes (-e) and notice of absence (-u) can be marked ahead",
    "ev_use_noshow": "; if they did not come, use 'keizer noshow' (or 'keizer unpair' to pair the round again)",
    "ev_reinstate_first": " ('keizer player reinstate' first)",
    "ev_keep_date": ", or give --force if it is right",
    "ev_mark_who_is_here": "; mark who is here with 'keizer attend -p NAME …' first",
    "ev_run_roundrobin": ": its pairings come from the Berger table: use 'keizer roundrobin draw'",
    "ev_run_swiss": ": a Swiss tournament is paired round by round with 'keizer pair'",
    "ev_run_knockout": ": a cup is drawn with 'keizer knockout draw'",
    "ev_run_team": ": a team event is scheduled with 'keizer team schedule'",
    "ev_run_keizer": ": it is a Keizer competition",
    "ev_enter_results_first": "; enter them with 'keizer result' before pairing the next round",
    "ev_unpair_or_again": "; 'keizer unpair' first, or 'keizer pair --again'",
    "ev_mark_present": "; mark players present with 'keizer attend'",
    "ev_swiss_swap_after": ": pair it, then move players with 'keizer swap'",
    "ev_use_pair": "; use 'keizer pair'",
    "ev_clear_board": " ('keizer result %(board)s=clear')",
    "ev_correct_results": "; correct them with 'keizer result' instead",
    "ev_attend_and_pair": ": mark attendance with 'keizer attend' and pair it",
    "ev_clear_or_forfeit": "; clear it first ('keizer result %(board)s=clear') or enter a forfeit "
                           "('keizer result %(board)s=+-' or '-+')",
    "ev_clear_first": "; clear it first ('keizer result %(board)s=clear')",
    "ev_results_syntax": ": write BOARD=RESULT, e.g. 'keizer result 1=1-0 2=0-1'",
    "ev_correct_there": "; to change a result there, use --round %(done)s --correct",
    "ev_use_correct": "; use --correct to change it",
    "ev_undo_team_next": "; 'keizer undo' back to before 'keizer team next' first",
    "ev_undo_knockout_next": "; 'keizer undo' back to before 'keizer knockout next'",
    "ev_undo_knockout_next_first": "; 'keizer undo' back to before 'keizer knockout next' first",
    "ev_mark_it": "; mark it with 'keizer attend'",
    "ev_use_round": "; use --round",
    "ev_see_bracket": "; see 'keizer knockout bracket'",
    "ev_see_matches": "; see 'keizer team matches'",
    "ev_from_name": ": --from NAME",
    "ev_order_by_hand": ": keizer competition order P1 P2 …",
    "ev_add_players": "; add them with 'keizer player add'",
    "ev_draw_cup": ": 'keizer knockout draw'",
    "ev_distinct_names": "; give them distinct names with 'keizer member edit' and import again",
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
    return refusal.words(hints=HINTS, fields=FIELDS)

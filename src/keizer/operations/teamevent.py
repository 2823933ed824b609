"""Team events in the season database: teams, the schedule, line-ups, standings.

A team event is a competition of system ``team``.  Its stored settings say how
many boards a match has and which schedule it plays (a team round-robin on the
Berger tables, or the Crepaux system for three teams).  This module reads and
writes through :class:`~keizer.store.Store` only; the schedules, board colours
and match scores come from :mod:`keizer.pairing.teams`, the ranking from the
tie-break engine (:mod:`keizer.tiebreaks`).

How an event is stored:

* ``teams`` and ``team_members``: a team's players in board order, then its reserves.
  A player is in one team only.
* ``team_matches``: per round the matches, numbered 1, 2, … in the round; a team
  with a bye has a match of its own with no second team (numbered last).
* ``games``: one game per board.  Board numbers run on through the round — match 1
  has boards 1…N, match 2 boards N+1…2N — so a result entered for a board of the round
  takes them as they are; ``games.match`` is the match's number.  In every match the
  first team has White on its odd boards (``pairing.teams.first_has_white``).

A Crepaux round has three mini-matches of N/2 boards, one per pair of teams; its
first team is the half with White on the odd positions.  For the standing the two
mini-matches of a pair of teams (one per evening) are one match on N boards, as
if the three matches of a round-robin had been played in full: the ranking is that
of a three-team round-robin, final after the second evening.

A knock-out event (schedule ``knockout``) is a bracket of team matches
(:mod:`keizer.pairing.knockout`, ``MatchFormat(team=True)``): the teams are seeded in
start order (the order they were added), ``team_matches.number`` and ``games.match``
are the bracket slot's index, ``games.stage`` is ``regular:0``, a first-round bye is a
match with no second team.  Only round 1 is stored by the schedule; ``knockout_next``
stores a later match once both its teams are known.  A match is decided by game points,
then board count, then bottom-board elimination; one level on all three waits for an
award (``system_settings["awarded"]``: ``"round:match"`` → team name).  Its standing is
the bracket (:func:`knockout_rows`).

Standings rank by match points — 2 for a won match, 1 drawn, 0 lost (more game
points wins) — then by the event's tie-break list, by default FIDE's recommended
list for team round-robins.  A round-robin's free round scores nothing.
"""

from __future__ import annotations

from datetime import date, timedelta
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from keizer.limits import is_digits
from keizer.operations.results import enter_results
from keizer.operations.state import require_system
from keizer.operations.teams_read import TeamEvent, TeamMatch, _knockout_format, knockout_states, load_event, ranking_tournament
from keizer.pairing.teams import (Seat, SeatGame)
from keizer.pairing.teams import PlannedMatch, plan_event, seat_game
from keizer.refusals import Message, Word, Words
from keizer.store import Store, StoreError, pick_by_name
from keizer.systems.team import TeamRules, stored_rules
from keizer.tiebreaks import Player, Scoring, System, Tournament

if TYPE_CHECKING:
    pass

# -- teams ---------------------------------------------------------------------------


def add_team(store: Store, comp_id: int, name: str, boards: Sequence[str], reserves: Sequence[str] = ()) -> int:
    """Add a team: its players in board order, then reserves.  Returns the team's id.

    Players are named as everywhere (name or part of it, key, ``#start``); a club
    member who is not yet a player of the event is entered in it.
    """
    require_system(store, comp_id, "team", Word("add a team"))
    rules = stored_rules(store, comp_id)
    if store.round_numbers(comp_id):
        raise StoreError("the rounds are scheduled already", hint="su_teams_before_schedule")
    if len(boards) < rules.boards:
        raise StoreError("team %(team)s names %(n)s board player(s) and this event plays on %(boards)s boards",
                         hint="su_give_board", team=name.strip(), n=len(boards), boards=rules.boards)
    in_team = {m["player_id"]: t["name"] for t in store.teams(comp_id) for m in t["members"]}
    chosen: list[dict[str, Any]] = []
    for ref in [*boards, *reserves]:
        row = _player_or_member(store, comp_id, ref)
        if row["id"] in in_team:
            raise StoreError("%(name)s plays for %(team)s already; a player is in one team only", name=row["name"],
                                 team=in_team[row["id"]])
        if any(row["id"] == c["id"] for c in chosen):
            raise StoreError("%(name)s is named twice for team %(team)s", name=row["name"], team=name.strip())
        chosen.append(row)
    team_id = store.add_team(comp_id, name)
    store.set_team_members(team_id, [(row["id"], board, board > len(boards))
                                     for board, row in enumerate(chosen, 1)])
    return team_id


def _player_or_member(store: Store, comp_id: int, ref: str) -> dict[str, Any]:
    """The player ``ref`` names, entering the club member it names if need be."""
    try:
        return store.find_player(comp_id, ref)
    except StoreError as not_a_player:
        member = store.find_member(ref)
        if any(p["member_id"] == member["id"] for p in store.players(comp_id)):
            raise not_a_player  # a registered player, but the reference was ambiguous
        key = store.register(comp_id, member["id"])
        return store.find_player(comp_id, key)


def find_team(store: Store, comp_id: int, ref: str) -> dict[str, Any]:
    """A team by ``#start-number``, name, or a part of the name only it has (accents and case ignored)."""
    teams = store.teams(comp_id)
    text = ref.strip()
    if text.startswith("#") and is_digits(text[1:]):
        for team in teams:
            if team["start_no"] == int(text[1:]):
                return team
    return pick_by_name(teams, text, "team")


# -- schedule and line-ups -----------------------------------------------------------


def schedule_team_event(store: Store, comp_id: int, first_date: date | None = None, every: int = 7) -> int:
    """Store every round: the matches and one game per board.  Returns the number of rounds.

    Allowed until the first result; scheduling again replaces every round (and line-up).
    """
    require_system(store, comp_id, "team", Word("schedule a team event"))
    rules = stored_rules(store, comp_id)
    _refuse_after_results(store, comp_id)
    teams = store.teams(comp_id)
    if rules.schedule in ("knockout", "swiss"):  # later rounds are made one by one: keep their dates' rule
        dates = {"first": first_date.isoformat(), "every": every} if first_date else None
        store.set_system_settings(comp_id, {**store.system_settings(comp_id), "dates": dates})
        when = first_date.isoformat() if first_date else None
        if rules.schedule == "knockout":
            return _schedule_knockout(store, comp_id, teams, rules, when)
        return _schedule_swiss(store, comp_id, teams, rules, when)
    plan = _plan(teams, rules)
    ids = {t["name"]: t["id"] for t in teams}
    # Until a line-up says otherwise a team fields its first members, in board order.
    lineups = {t["name"]: [m["player_id"] for m in t["members"]][:rules.boards] for t in teams}
    for number in reversed(store.round_numbers(comp_id)):
        store.delete_round(comp_id, number)
    for number, matches in enumerate(plan, 1):
        when = (first_date + timedelta(days=every * (number - 1))).isoformat() if first_date else None
        store.ensure_round(comp_id, number, when)
        board = 0
        for match, planned in enumerate(matches, 1):
            store.add_team_match(comp_id, number, match, ids[planned.first],
                                 ids[planned.second] if planned.second else None)
            for g in planned.games:
                board += 1
                store.add_game(comp_id, number, board, lineups[g.white.team][g.white.board - 1],
                               lineups[g.black.team][g.black.board - 1], match=match)
    return len(plan)


def _round_date(store: Store, comp_id: int, number: int, when: date | None) -> str | None:
    """The date of a round made by 'keizer team next': as given, else from the schedule's first date."""
    if when is not None:
        return when.isoformat()
    dates = store.system_settings(comp_id).get("dates")
    if not dates:
        return None
    return (date.fromisoformat(dates["first"]) + timedelta(days=dates["every"] * (number - 1))).isoformat()


def _require_teams(teams: Sequence[Mapping[str, Any]]) -> None:
    if len(teams) < 2:
        raise StoreError("a team event needs at least two teams", hint="su_add_teams")


def _plan(teams: Sequence[Mapping[str, Any]], rules: TeamRules) -> tuple[tuple[PlannedMatch, ...], ...]:
    _require_teams(teams)
    if rules.schedule == "crepaux" and len(teams) != 3:
        raise StoreError("the Crepaux system is for exactly three teams and this event has %(n)s", hint="su_crepaux",
                         n=len(teams))
    try:
        return plan_event([t["name"] for t in teams], rules.boards, rules.schedule, rules.double,
                          rules.swap_last_two)
    except ValueError as e:  # the schedule engine's reason (checked when the event was created)
        raise StoreError("%(why)s", why=str(e)) from None


def _refuse_after_results(store: Store, comp_id: int) -> None:
    if any(g["result"] is not None for r in store.round_numbers(comp_id) for g in store.games(comp_id, r)):
        raise StoreError("results have been entered already; the schedule cannot change any more")


def set_lineup(store: Store, comp_id: int, number: int, team_ref: str, players: Sequence[str]) -> dict[str, Any]:
    """Who plays for a team in round ``number``, board 1 first (reserves move in).

    Rewrites the team's side of its games in that round; refused once a result of
    one of its matches in the round is in.  Returns the team row.
    """
    require_system(store, comp_id, "team", Word("set a line-up"))
    rules = stored_rules(store, comp_id)
    rounds = store.round_numbers(comp_id)
    if number not in rounds:
        raise StoreError("round %(n)s is not scheduled (rounds: %(rounds)s)", hint="su_make_schedule", n=number,
                         rounds=len(rounds))
    team = find_team(store, comp_id, team_ref)
    mine = [m for m in store.team_matches(comp_id)
            if m["round"] == number and team["id"] in (m["first_team"], m["second_team"])]
    if all(m["second_team"] is None for m in mine):
        raise StoreError("%(team)s has a bye in round %(n)s; there is no line-up to set", team=team["name"], n=number)
    games = store.games(comp_id, number)
    for m in mine:
        if any(g["result"] is not None for g in games if g["match"] == m["number"]):
            raise StoreError("match %(match)s of round %(n)s has results already; its line-ups cannot change",
                             hint="su_correct_result", match=m["number"], n=number)
    if len(players) != rules.boards:
        raise StoreError("name %(boards)s players for %(team)s, board 1 first (%(n)s given)", boards=rules.boards,
                         team=team["name"], n=len(players))
    members = {m["player_id"] for m in team["members"]}
    chosen = []
    for ref in players:
        row = store.find_player(comp_id, ref)
        if row["id"] not in members:
            names = ", ".join(m["name"] for m in team["members"])
            raise StoreError("%(name)s is not in team %(team)s (its players: %(names)s)", name=row["name"],
                             team=team["name"], names=names)
        if row["id"] in chosen:
            raise StoreError("%(name)s is named twice in the line-up", name=row["name"])
        chosen.append(row["id"])
    seats = _round_seats(store, comp_id, rules, number, games)
    for g in games:
        seat = seats.get(g["board"])
        if seat is None:  # a knock-out's tie-break stage: made from the match's line-ups when it is due
            continue
        white = chosen[seat.white.board - 1] if seat.white.team == team["name"] else g["white"]
        black = chosen[seat.black.board - 1] if seat.black.team == team["name"] else g["black"]
        if (white, black) != (g["white"], g["black"]):
            store.update_game(comp_id, number, g["board"], white, black)
    return team


def _round_seats(store: Store, comp_id: int, rules: TeamRules, number: int,
                 games: Sequence[Mapping[str, Any]]) -> dict[int, SeatGame]:
    """Board number of round ``number`` → who sits there (team and team board)."""
    if rules.schedule not in ("knockout", "swiss"):
        planned = _plan(store.teams(comp_id), rules)[number - 1]
        return dict(enumerate((g for m in planned for g in m.games), 1))
    names = {t["id"]: t["name"] for t in store.teams(comp_id)}
    seats: dict[int, SeatGame] = {}
    for m in store.team_matches(comp_id):
        if m["round"] != number or m["second_team"] is None:
            continue
        mine = sorted(g["board"] for g in games
                      if g["match"] == m["number"] and (g["stage"] or "regular").startswith("regular"))
        for k, board in enumerate(mine, 1):
            seats[board] = seat_game(Seat(names[m["first_team"]], k), Seat(names[m["second_team"]], k))
    return seats


def enter_match_results(store: Store, comp_id: int, number: int, match: int, results: Sequence[str],
                        correct: bool = False) -> None:
    """A match's results board by board, each written as on the board (White's result first)."""
    require_system(store, comp_id, "team", Word("enter a team match"))
    rows = [m for m in store.team_matches(comp_id) if m["round"] == number]
    if not rows:
        raise StoreError("round %(n)s has no matches", hint="su_make_schedule", n=number)
    row = next((m for m in rows if m["number"] == match), None)
    if row is None:
        raise StoreError("round %(n)s has no match %(match)s (matches 1–%(count)s)", n=number, match=match,
                         count=len(rows))
    names = {t["id"]: t["name"] for t in store.teams(comp_id)}
    if row["second_team"] is None:
        raise StoreError("match %(match)s of round %(n)s is the bye of %(team)s; it has no games", match=match,
                         n=number, team=names[row["first_team"]])
    games = [g for g in store.games(comp_id, number) if g["match"] == match]
    # A knock-out match with tie-break stages takes the results of its latest stage.
    latest = max((g["stage"] or "" for g in games), key=lambda stage: int(stage.rpartition(":")[2] or 0))
    boards = [g["board"] for g in games if (g["stage"] or "") == latest]
    if len(results) != len(boards):
        raise StoreError("match %(match)s of round %(n)s has %(boards)s boards and %(results)s results were given; "
                         "give one per board, board 1 first, as on the board (White's first): 1-0 ½-½ …",
                         match=match, n=number, boards=len(boards), results=len(results))
    enter_results(store, comp_id, dict(zip(boards, results)), number, correct)


# -- knock-out events ----------------------------------------------------------------


#: What only a knock-out event does, as its refusal says it (the CLI names the command).
_NEXT_ROUND = Message("create the next round", hint="su_team_next")
_SCHEDULES = {"roundrobin": Word("roundrobin"), "crepaux": Word("crepaux"), "swiss": Word("swiss")}


def _require_knockout(store: Store, comp_id: int, what: Message) -> TeamRules:
    require_system(store, comp_id, "team", what)
    rules = stored_rules(store, comp_id)
    if rules.schedule != "knockout":
        made = Message("paired round by round", hint="su_with_team_next") if rules.schedule == "swiss" else \
            Message("stored in full", hint="su_by_team_schedule")
        raise StoreError("this event plays a %(schedule)s schedule, %(made)s; only a knock-out event can %(what)s",
                         schedule=_SCHEDULES.get(rules.schedule, rules.schedule), made=made, what=what)
    return rules


def _schedule_knockout(store: Store, comp_id: int, teams: Sequence[Mapping[str, Any]], rules: TeamRules,
                       when: str | None) -> int:
    """Round 1 of the bracket, teams seeded in start order.  Returns the bracket's number of rounds."""
    from keizer.pairing.knockout import make_bracket

    _require_teams(teams)
    names = [t["name"] for t in teams]
    bracket = make_bracket(names, _knockout_format(rules))
    for number in reversed(store.round_numbers(comp_id)):
        store.delete_round(comp_id, number)
    store.set_system_settings(comp_id, {**store.system_settings(comp_id), "seeds": names, "awarded": {}})
    store.ensure_round(comp_id, 1, when)
    board = 0
    for slot in bracket.slots:
        if slot.round == 1:
            assert slot.seeds is not None
            top, bottom = slot.seeds
            board = _store_match(store, comp_id, teams, rules, 1, slot.index, names[top - 1],
                                          names[bottom - 1] if bottom else None, board)
    return bracket.rounds


def _store_match(store: Store, comp_id: int, teams: Sequence[Mapping[str, Any]], rules: TeamRules,
                          number: int, match: int, top: str, bottom: str | None, board: int,
                          stage: str | None = "regular:0") -> int:
    """One match and its boards (numbered on from ``board``); returns the last board number.
    ``top`` has White on the odd boards."""
    ids = {t["name"]: t["id"] for t in teams}
    lineups = {t["name"]: [m["player_id"] for m in t["members"]][:rules.boards] for t in teams}
    store.add_team_match(comp_id, number, match, ids[top], ids[bottom] if bottom else None)
    if bottom is None:
        return board
    for k in range(1, rules.boards + 1):
        g = seat_game(Seat(top, k), Seat(bottom, k))
        board += 1
        store.add_game(comp_id, number, board, lineups[g.white.team][g.white.board - 1],
                       lineups[g.black.team][g.black.board - 1], match=match, stage=stage)
    return board


def _store_stage(store: Store, comp_id: int, m: TeamMatch, number: int, kind: str, boards: int) -> None:
    """A tie-break stage of a level knock-out match: the players of the match's first
    ``boards`` boards meet again, with the colours of the stage before reversed."""
    previous = [g for g in m.games if g.stage == (m.games[-1].stage)]
    board = max((g["board"] for g in store.games(comp_id, m.round)), default=0)
    ids = {r["key"]: r["id"] for r in store.players(comp_id)}
    for g in previous[:boards]:
        board += 1
        store.add_game(comp_id, m.round, board, ids[g.black], ids[g.white], match=m.number, stage=f"{kind}:{number}")


def knockout_next(store: Store, comp_id: int, when: date | None = None) -> list[Message]:
    """Store every match of the bracket whose two teams are now known; one line per match.

    Refused, saying why, when there is nothing to store: results missing, a match
    waiting for an award, or the final decided."""
    rules = _require_knockout(store, comp_id, _NEXT_ROUND)
    event = load_event(store, comp_id)
    states = knockout_states(event)
    stored = {(m.round, m.number): m for m in event.matches}
    teams = store.teams(comp_id)
    created = []
    for s in states:
        if (s.round, s.index) in stored or s.top is None or s.bottom is None:
            continue
        if s.round not in store.round_numbers(comp_id):
            store.ensure_round(comp_id, s.round, _round_date(store, comp_id, s.round, when))
        board = max((g["board"] for g in store.games(comp_id, s.round)), default=0)
        _store_match(store, comp_id, teams, rules, s.round, s.index, s.top, s.bottom, board)
        created.append(Message("round %(round)s match %(match)s: %(top)s – %(bottom)s", round=s.round, match=s.index,
                               top=s.top, bottom=s.bottom))
    fmt = _knockout_format(rules)
    for s in states:
        m = stored.get((s.round, s.index))
        if m is None or s.winner is not None or s.bottom is None or any(g.result is None for g in m.games):
            continue
        done = len({g.stage for g in m.games})
        if done < len(fmt.stages):
            stage = fmt.stages[done]
            _store_stage(store, comp_id, m, done, stage.kind.value, stage.games)
            said = dict(round=s.round, match=s.index, top=s.top, bottom=s.bottom, kind=Words((stage.kind.value,)),
                        n=stage.games)
            created.append(Message("round %(round)s match %(match)s: %(top)s – %(bottom)s, %(kind)s tie-break on "
                                   "%(n)s boards", **said) if stage.games > 1 else
                           Message("round %(round)s match %(match)s: %(top)s – %(bottom)s, %(kind)s tie-break on "
                                   "%(n)s board", **said))
    if created:
        return created
    if states[-1].winner is not None:
        raise StoreError("the knock-out is decided: %(team)s won the final", team=states[-1].winner)
    why: list[Message] = []
    for s in states:
        m = stored.get((s.round, s.index))
        if m is None or s.winner is not None:
            continue
        if any(g.result is None for g in m.games):
            why.append(Message("round %(n)s match %(match)s (%(top)s – %(bottom)s) has results missing",
                               hint="su_team_result", n=s.round, match=s.index, top=s.top, bottom=s.bottom))
        else:
            after = Word("its tie-break stages") if rules.stages else \
                Word("game points, board count and bottom-board elimination")
            why.append(Message("round %(n)s match %(match)s (%(top)s – %(bottom)s) is level after %(after)s",
                               hint="su_team_award", n=s.round, match=s.index, top=s.top, bottom=s.bottom, after=after))
    raise StoreError("nothing to create: %(why)s", why=_listed(why, True))


def _listed(parts: list[Message], semicolons: bool) -> Message:
    """Messages in one line, joined by "; " or ", " (each worded in the view's language)."""
    said = parts[-1]
    for earlier in reversed(parts[:-1]):
        said = (Message("%(first)s; %(rest)s", first=earlier, rest=said) if semicolons
                else Message("%(first)s, %(rest)s", first=earlier, rest=said))
    return said


def award_match(store: Store, comp_id: int, number: int, match: int, team_ref: str) -> str:
    """The arbiter decides a knock-out match (a lot when level on everything, a withdrawal).
    Returns the team's name."""
    _require_knockout(store, comp_id, Message("award a match"))
    event = load_event(store, comp_id)
    state = next((s for s in knockout_states(event) if (s.round, s.index) == (number, match)), None)
    if state is None:
        raise StoreError("the knock-out has no match %(match)s in round %(n)s", match=match, n=number)
    if state.top is None or state.bottom is None:
        if state.how == "bye":
            raise StoreError("match %(match)s of round %(n)s is a bye", match=match, n=number)
        raise StoreError("match %(match)s of round %(n)s does not have both its teams yet", match=match, n=number)
    team = find_team(store, comp_id, team_ref)["name"]
    if team not in (state.top, state.bottom):
        raise StoreError("%(team)s does not play in match %(match)s of round %(n)s (%(top)s – %(bottom)s)", team=team,
                         match=match, n=number, top=state.top, bottom=state.bottom)
    if any(m.round == number + 1 and m.number == (match + 1) // 2 for m in event.matches):
        raise StoreError("the match its winner plays in round %(n)s is stored already", hint="su_undo_that",
                         n=number + 1)
    settings = store.system_settings(comp_id)
    store.set_system_settings(comp_id, {**settings, "awarded": {**(settings.get("awarded") or {}),
                                                                f"{number}:{match}": team}})
    return team


# -- Swiss events --------------------------------------------------------------------


def swiss_seeds(teams: Sequence[Mapping[str, Any]], boards: int) -> list[str]:
    """Team pairing numbers: by the mean rating of the board players (unrated ones left
    out), highest first, then by name.

    >>> teams = [{"name": "B", "members": [{"rating": 1800, "reserve": 0}, {"rating": None, "reserve": 0}]},
    ...          {"name": "A", "members": [{"rating": 1700, "reserve": 0}, {"rating": 1900, "reserve": 0}]}]
    >>> swiss_seeds(teams, 2)
    ['A', 'B']
    """
    def mean(team: Mapping[str, Any]) -> Fraction:
        rated = [m["rating"] for m in team["members"] if not m["reserve"]][:boards]
        rated = [r for r in rated if r]
        return Fraction(sum(rated), len(rated)) if rated else Fraction(0)

    return [t["name"] for t in sorted(teams, key=lambda t: (-mean(t), t["name"].casefold()))]


def swiss_pairing_tournament(event: TeamEvent, upto: int) -> Tournament:
    """The teams as the Dutch system sees them: one 'player' per team, numbered by seed;
    a match won, drawn or lost (on game points) is a win, draw or loss in the colour of
    the team's first board; a bye is a pairing-allocated bye worth a drawn match."""
    from keizer.tiebreaks import RoundResult

    t = ranking_tournament(event, upto, players=False)
    tpn = {name: k for k, name in enumerate(event.seeds, 1)}
    by_number = {team.number: team.name for team in t.teams}
    people = tuple(
        Player(tpn[team.name], team.name, results=tuple(
            RoundResult(m.code, tpn[by_number[m.opponent]] if m.opponent else None, m.colour)
            for m in team.matches[:upto]))
        for team in t.teams)
    # Match points 2-1-0 on the Dutch rules' scale of 1-½-0; the bye is a drawn match.
    return Tournament(tuple(sorted(people, key=lambda p: p.start_no)), upto, System.SWISS,
                      Scoring(pab=Fraction(1, 2)))


def _schedule_swiss(store: Store, comp_id: int, teams: Sequence[Mapping[str, Any]], rules: TeamRules,
                    when: str | None) -> int:
    """Seed the teams and pair round 1.  Returns the planned number of rounds."""
    _require_teams(teams)
    for number in reversed(store.round_numbers(comp_id)):
        store.delete_round(comp_id, number)
    store.set_system_settings(comp_id, {**store.system_settings(comp_id), "seeds": swiss_seeds(teams, rules.boards)})
    _pair_swiss_round(store, comp_id, when)
    return int(rules.rounds or 0)


def _pair_swiss_round(store: Store, comp_id: int, when: str | None) -> list[Message]:
    from keizer.model import Colour
    from keizer.pairing.swiss import SwissError, pair_swiss

    event = load_event(store, comp_id)
    rules = event.rules
    number = len(event.season.rounds) + 1
    if rules.rounds is None or number > rules.rounds:
        raise StoreError("all %(rounds)s rounds are paired; the event is over", rounds=rules.rounds)
    t = swiss_pairing_tournament(event, number - 1)
    colour = Colour.BLACK if rules.initial_colour == "black" else Colour.WHITE
    try:
        found = pair_swiss(t, rules.rounds, upto=number - 1, initial_colour=colour)
    except SwissError as e:
        if not e.players:
            raise  # the engine's refusal says why
        left = ", ".join(event.seeds[n - 1] for n in e.players)
        raise StoreError("round %(n)s has no pairing without a rematch, a second bye or a forbidden colour sequence "
                         "(%(left)s left over)", n=number, left=left) from None
    teams = store.teams(comp_id)
    store.ensure_round(comp_id, number, when)
    board, lines = 0, list[Message]()
    for match, (white, black) in enumerate(found.pairs, 1):
        first, second = event.seeds[white - 1], event.seeds[black - 1]
        board = _store_match(store, comp_id, teams, rules, number, match, first, second, board, None)
        lines.append(Message("round %(round)s match %(match)s: %(top)s – %(bottom)s", round=number, match=match,
                             top=first, bottom=second))
    if found.bye is not None:
        _store_match(store, comp_id, teams, rules, number, len(found.pairs) + 1,
                              event.seeds[found.bye - 1], None, board, None)
        lines.append(Message("round %(n)s: bye for %(team)s", n=number, team=event.seeds[found.bye - 1]))
    return lines


def swiss_next(store: Store, comp_id: int, when: date | None = None) -> list[Message]:
    """Pair the next round of a team Swiss by the Dutch system, once every result is in."""
    rules = stored_rules(store, comp_id)
    event = load_event(store, comp_id)
    if not event.seeds or not event.season.rounds:
        raise StoreError("the Swiss has not started", hint="su_team_schedule_first")
    last = len(event.season.rounds)
    if event.played < last:
        waiting = [Message("match %(match)s (%(first)s – %(second)s)", match=m.number, first=m.first, second=m.second)
                   for m in event.round_matches(last)
                   if m.second is not None and m.score() is None]
        raise StoreError("round %(n)s still waits for results: %(waiting)s", hint="su_team_results", n=last,
                         waiting=_listed(waiting, False))
    if rules.rounds is not None and last >= rules.rounds:
        raise StoreError("all %(rounds)s rounds are played; the event is over", rounds=rules.rounds)
    return _pair_swiss_round(store, comp_id, _round_date(store, comp_id, last + 1, when))



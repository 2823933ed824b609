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
  has boards 1…N, match 2 boards N+1…2N — so ``keizer result --round R BOARD=RESULT``
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

from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from keizer.limits import is_digits
from keizer.operations.competition import MemberFinder, enter_results, require_system
from keizer.model import Colour, Game, Season
from keizer.pairing.teams import (Seat, SeatGame, TeamMatchResult, crepaux_schedule, first_has_white,
                                  team_round_robin)
from keizer.points import tournament as player_tournament
from keizer.store import Store, StoreError, pick_by_name
from keizer.systems.team import DEFAULTS, MATCH_SCORING, TeamRules, stored_rules, team_rules
from keizer.tiebreaks import Code, Match, Player, Scoring, System, Team, TieBreakError, Tournament, labels, rank

if TYPE_CHECKING:
    from keizer.pairing.knockout import MatchFormat

# -- the schedule (pure) -------------------------------------------------------------


@dataclass(frozen=True)
class PlannedMatch:
    """A match of the schedule: who sits on each board, White first, in board order."""

    first: str
    second: str | None  # None: ``first`` has a bye
    games: tuple[SeatGame, ...] = ()


def plan_event(teams: Sequence[str], boards: int, schedule: str = "roundrobin", double: bool = False,
               swap_last_two: bool = False) -> tuple[tuple[PlannedMatch, ...], ...]:
    """Every round's matches, teams in start order.  A bye comes after the matches.

    >>> [[(m.first, m.second, [str(g) for g in m.games]) for m in r] for r in plan_event("ABC", 2)][0]
    [('B', 'C', ['B1-C1', 'C2-B2']), ('A', None, [])]
    >>> [(m.first, m.second, [str(g) for g in m.games]) for m in plan_event("ABC", 4, "crepaux")[0]]
    [('A', 'B', ['A1-B1', 'B2-A2']), ('C', 'B', ['C1-B3', 'B4-C2']), ('A', 'C', ['A3-C3', 'C4-A4'])]

    Raises ValueError for a schedule the engines cannot make (e.g. Crepaux with four teams).
    """
    if schedule == "crepaux":
        half = boards // 2
        rounds = []
        for rnd in crepaux_schedule(teams, boards):
            minis = [rnd.games[i:i + half] for i in range(0, len(rnd.games), half)]
            # The half that leads a mini-match has White on its first board: it is named first.
            rounds.append(tuple(PlannedMatch(m[0].white.team, m[0].black.team, tuple(m)) for m in minis))
        return tuple(rounds)
    rounds = []
    for planned in team_round_robin(teams, double, swap_last_two):
        matches = [PlannedMatch(a, b, tuple(_board(Seat(a, k), Seat(b, k)) for k in range(1, boards + 1)))
                   for a, b in planned.matches]
        if planned.bye is not None:
            matches.append(PlannedMatch(planned.bye, None))
        rounds.append(tuple(matches))
    return tuple(rounds)


def _board(first: Seat, second: Seat) -> SeatGame:
    return SeatGame(first, second) if first_has_white(first.board) else SeatGame(second, first)


# -- teams ---------------------------------------------------------------------------


def add_team(store: Store, comp_id: int, name: str, boards: Sequence[str], reserves: Sequence[str] = ()) -> int:
    """Add a team: its players in board order, then reserves.  Returns the team's id.

    Players are named as everywhere (name or part of it, key, ``#start``); a club
    member who is not yet a player of the event is entered in it.
    """
    require_system(store, comp_id, "team", "add a team")
    rules = stored_rules(store, comp_id)
    if store.round_numbers(comp_id):
        raise StoreError("the rounds are scheduled already; add every team before 'keizer team schedule' "
                         "(or 'keizer undo' the schedule first)")
    if len(boards) < rules.boards:
        raise StoreError(f"team {name.strip()} names {len(boards)} board player(s) and this event plays on "
                         f"{rules.boards} boards; give --board at least {rules.boards} times")
    in_team = {m["player_id"]: t["name"] for t in store.teams(comp_id) for m in t["members"]}
    chosen: list[dict[str, Any]] = []
    for ref in [*boards, *reserves]:
        row = _player_or_member(store, comp_id, ref)
        if row["id"] in in_team:
            raise StoreError(f"{row['name']} plays for {in_team[row['id']]} already; a player is in one team only")
        if any(row["id"] == c["id"] for c in chosen):
            raise StoreError(f"{row['name']} is named twice for team {name.strip()}")
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
    return pick_by_name(teams, text, "team", "keizer team list")


# -- schedule and line-ups -----------------------------------------------------------


def schedule_team_event(store: Store, comp_id: int, first_date: date | None = None, every: int = 7) -> int:
    """Store every round: the matches and one game per board.  Returns the number of rounds.

    Allowed until the first result; scheduling again replaces every round (and line-up).
    """
    require_system(store, comp_id, "team", "schedule a team event")
    rules = stored_rules(store, comp_id)
    _refuse_after_results(store, comp_id, "the schedule cannot change any more")
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
        raise StoreError("a team event needs at least two teams; add them with 'keizer team add'")


def _plan(teams: Sequence[Mapping[str, Any]], rules: TeamRules) -> tuple[tuple[PlannedMatch, ...], ...]:
    _require_teams(teams)
    if rules.schedule == "crepaux" and len(teams) != 3:
        raise StoreError(f"the Crepaux system is for exactly three teams and this event has {len(teams)}; "
                         "create the event with --schedule roundrobin for other numbers of teams")
    try:
        return plan_event([t["name"] for t in teams], rules.boards, rules.schedule, rules.double,
                          rules.swap_last_two)
    except ValueError as e:
        raise StoreError(str(e)) from None


def _refuse_after_results(store: Store, comp_id: int, why: str) -> None:
    if any(g["result"] is not None for r in store.round_numbers(comp_id) for g in store.games(comp_id, r)):
        raise StoreError(f"results have been entered already; {why}")


def set_lineup(store: Store, comp_id: int, number: int, team_ref: str, players: Sequence[str]) -> dict[str, Any]:
    """Who plays for a team in round ``number``, board 1 first (reserves move in).

    Rewrites the team's side of its games in that round; refused once a result of
    one of its matches in the round is in.  Returns the team row.
    """
    require_system(store, comp_id, "team", "set a line-up")
    rules = stored_rules(store, comp_id)
    rounds = store.round_numbers(comp_id)
    if number not in rounds:
        raise StoreError(f"round {number} is not scheduled (rounds: {len(rounds)}); "
                         "make the schedule with 'keizer team schedule'")
    team = find_team(store, comp_id, team_ref)
    mine = [m for m in store.team_matches(comp_id)
            if m["round"] == number and team["id"] in (m["first_team"], m["second_team"])]
    if all(m["second_team"] is None for m in mine):
        raise StoreError(f"{team['name']} has a bye in round {number}; there is no line-up to set")
    games = store.games(comp_id, number)
    for m in mine:
        if any(g["result"] is not None for g in games if g["match"] == m["number"]):
            raise StoreError(f"match {m['number']} of round {number} has results already; its line-ups cannot "
                             f"change (correct a result with 'keizer result --round {number} --correct')")
    if len(players) != rules.boards:
        raise StoreError(f"name {rules.boards} players for {team['name']}, board 1 first ({len(players)} given)")
    members = {m["player_id"] for m in team["members"]}
    chosen = []
    for ref in players:
        row = store.find_player(comp_id, ref)
        if row["id"] not in members:
            names = ", ".join(m["name"] for m in team["members"])
            raise StoreError(f"{row['name']} is not in team {team['name']} (its players: {names})")
        if row["id"] in chosen:
            raise StoreError(f"{row['name']} is named twice in the line-up")
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
            seats[board] = _board(Seat(names[m["first_team"]], k), Seat(names[m["second_team"]], k))
    return seats


def enter_match_results(store: Store, comp_id: int, number: int, match: int, results: Sequence[str],
                        correct: bool = False) -> None:
    """A match's results board by board, each written as on the board (White's result first)."""
    require_system(store, comp_id, "team", "enter a team match")
    rows = [m for m in store.team_matches(comp_id) if m["round"] == number]
    if not rows:
        raise StoreError(f"round {number} has no matches; make the schedule with 'keizer team schedule'")
    row = next((m for m in rows if m["number"] == match), None)
    if row is None:
        raise StoreError(f"round {number} has no match {match} (matches 1–{len(rows)})")
    names = {t["id"]: t["name"] for t in store.teams(comp_id)}
    if row["second_team"] is None:
        raise StoreError(f"match {match} of round {number} is the bye of {names[row['first_team']]}; "
                         "it has no games")
    games = [g for g in store.games(comp_id, number) if g["match"] == match]
    # A knock-out match with tie-break stages takes the results of its latest stage.
    latest = max((g["stage"] or "" for g in games), key=lambda stage: int(stage.rpartition(":")[2] or 0))
    boards = [g["board"] for g in games if (g["stage"] or "") == latest]
    if len(results) != len(boards):
        raise StoreError(f"match {match} of round {number} has {len(boards)} boards and {len(results)} results "
                         "were given; give one per board, board 1 first, as on the board (White's first): 1-0 ½-½ …")
    enter_results(store, comp_id, dict(zip(boards, results)), number, correct)


# -- reading an event ----------------------------------------------------------------


@dataclass(frozen=True)
class TeamMatch:
    """A stored match with its games in board order; ``second`` None is a bye."""

    round: int
    number: int
    first: str
    second: str | None
    games: tuple[Game, ...]

    @property
    def regular(self) -> tuple[Game, ...]:
        """The match itself, without a knock-out's tie-break stages."""
        return tuple(g for g in self.games if g.stage is None or g.stage.startswith("regular"))

    def score(self) -> tuple[Fraction, Fraction] | None:
        """Game points of (first, second) once every board has its result."""
        results = tuple(g.result for g in self.regular if g.result is not None)
        if self.second is None or not results or len(results) < len(self.regular):
            return None
        return TeamMatchResult(self.first, self.second, results).game_points


@dataclass(frozen=True)
class TeamEvent:
    """Everything stored about a team event, as model values."""

    name: str
    rules: TeamRules
    season: Season
    teams: tuple[dict[str, Any], ...]  # store.teams rows: id, name, start_no, members
    matches: tuple[TeamMatch, ...]
    seeds: tuple[str, ...] = ()  # a knock-out: the teams in seed order, once scheduled
    awarded: Mapping[str, str] = field(default_factory=dict)  # a knock-out: "round:match" → team
    byes: Mapping[str, str] = field(default_factory=dict)  # imported: "round:team" → TRF bye code (F, H, Z, U)

    @property
    def played(self) -> int:
        """The last round of the standing: rounds 1…played all have every result."""
        return self.season.completed_rounds()

    def team_of(self) -> dict[str, str]:
        """Player key → team name."""
        return {m["key"]: t["name"] for t in self.teams for m in t["members"]}

    def round_matches(self, number: int) -> list[TeamMatch]:
        return [m for m in self.matches if m.round == number]


def load_event(store: Store, comp_id: int) -> TeamEvent:
    require_system(store, comp_id, "team", "show a team event")
    season = store.load_season(comp_id)
    names = {t["id"]: t["name"] for t in store.teams(comp_id)}
    games = {r.number: r.games for r in season.rounds}
    matches = tuple(
        TeamMatch(m["round"], m["number"], names[m["first_team"]], names.get(m["second_team"]),
                  tuple(g for g in games.get(m["round"], ()) if g.match == m["number"]))
        for m in store.team_matches(comp_id))
    settings = store.system_settings(comp_id)
    return TeamEvent(season.name, stored_rules(store, comp_id), season, tuple(store.teams(comp_id)), matches,
                     tuple(settings.get("seeds") or ()), dict(settings.get("awarded") or {}),
                     dict(settings.get("byes") or {}))


# -- standings -----------------------------------------------------------------------


def ranking_tournament(event: TeamEvent, upto: int | None = None, players: bool = True) -> Tournament:
    """The event after round ``upto`` (default: the last complete one) as the tie-break engine sees it.

    A round-robin keeps its rounds; with ``players`` its team members and their games
    come along (what TRF needs).  A Crepaux event becomes the three-team round-robin
    it stands for, one round per pair of teams, counted once both evenings are
    complete; it has no players (TRF cannot hold a team meeting two teams in a round).
    """
    upto = event.played if upto is None else upto
    number = {t["name"]: t["start_no"] for t in event.teams}
    team_of = event.team_of()
    start = {p.id: p.start_no for p in event.season.players}
    if event.rules.schedule == "crepaux":
        final = bool(event.season.rounds) and upto >= len(event.season.rounds)
        meetings = _crepaux_meetings(event) if final else {}
        teams = []
        for t in event.teams:
            line = []
            for (a, b), games in meetings.items():
                if t["name"] not in (a, b):
                    line.append(Match(Code.PAB))  # the pair this team is not in: its free round
                    continue
                line.append(_match(games, t["name"], b if t["name"] == a else a, team_of, number, start,
                                   lineup=False))
            teams.append(Team(t["start_no"], t["name"], matches=tuple(line)))
        return Tournament((), len(meetings), System.ROUND_ROBIN, Scoring(), tuple(teams), MATCH_SCORING,
                          event.rules.boards, event.name, event.rules.tiebreaks)
    teams = []
    for t in event.teams:
        line = []
        for r in range(1, upto + 1):
            m = next((x for x in event.round_matches(r) if t["name"] in (x.first, x.second)), None)
            bye = Code(event.byes.get(f"{r}:{t['name']}", "U" if m is not None else "Z"))
            if m is None:  # not paired: withdrawn, or an imported file's half-point or zero-point bye
                line.append(Match(bye, game_points=_bye_points(event, bye)))
            elif m.second is None:
                line.append(Match(bye, game_points=_bye_points(event, bye)))
            else:
                other = m.second if m.first == t["name"] else m.first
                line.append(_match(m.games, t["name"], other, team_of, number, start, lineup=True))
        members = tuple(start[m["key"]] for m in t["members"])
        teams.append(Team(t["start_no"], t["name"], members, tuple(line)))
    people: tuple[Player, ...] = ()
    system = event.rules.system
    if players:
        listed = {start[key] for key in team_of}
        people = tuple(p for p in player_tournament(event.season, upto, system, Scoring()).players
                       if p.start_no in listed)
    colours = "".join("W" if first_has_white(k) else "B" for k in range(1, event.rules.boards + 1))
    return Tournament(people, upto, system, Scoring(), tuple(teams), event.rules.match_scoring,
                      event.rules.boards, event.name, event.rules.tiebreaks, (f"352 {colours}",))


def _bye_points(event: TeamEvent, code: Code) -> Fraction:
    """Game points of an imported team bye: a full-point bye is worth a won match on every board."""
    return Fraction(event.rules.boards) if code is Code.FPB else Fraction(event.rules.boards, 2) \
        if code is Code.HPB else Fraction(0)


def _match(games: Sequence[Game], me: str, other: str, team_of: Mapping[str, str], number: Mapping[str, int],
           start: Mapping[str, int], lineup: bool) -> Match:
    """One team's match against ``other`` from the games between them, in board order."""
    mine = [g.white if team_of[g.white] == me else g.black for g in games]
    boards = tuple(g.points_of(p) for g, p in zip(games, mine))
    theirs = sum((g.points_of(g.opponent_of(p)) for g, p in zip(games, mine)), Fraction(0))
    points = sum(boards, Fraction(0))
    code = Code.WIN if points > theirs else Code.DRAW if points == theirs else Code.LOSS
    colour = games[0].colour_of(mine[0])
    return Match(code, number[other], colour, points, boards, tuple(start[p] for p in mine) if lineup else ())


def _crepaux_meetings(event: TeamEvent) -> dict[tuple[str, str], list[Game]]:
    """Per pair of teams (start order) its games of both evenings, ordered by the boards of
    the lower-numbered team — the one that fields all its boards against the other."""
    names = [t["name"] for t in event.teams]
    plan = plan_event(names, event.rules.boards, "crepaux")
    found: dict[tuple[str, str], list[tuple[int, Game]]] = {}
    for rnd, planned in zip(event.season.rounds, plan):
        seats = [g for m in planned for g in m.games]
        for g in rnd.games:
            seat = seats[g.board - 1]
            a, b = sorted((seat.white, seat.black), key=lambda s: names.index(s.team))
            found.setdefault((a.team, b.team), []).append((a.board, g))
    return {pair: [g for _, g in sorted(found[pair], key=lambda x: x[0])] for pair in sorted(
        found, key=lambda pair: (names.index(pair[0]), names.index(pair[1])))}


def standing(event: TeamEvent, upto: int | None = None) -> list[dict[str, Any]]:
    """The ranking after round ``upto`` (default: the last complete round), exact values.

    Rows: rank, team, start_no, match_points, game_points, matches, wins, draws,
    losses and tiebreaks {label: value}.
    """
    if not event.teams:
        return []
    t = ranking_tournament(event, upto, players=False)
    try:
        ranked = rank(t, list(event.rules.tiebreaks), event.rules.edition, rounds=t.rounds, primary="MP")
    except TieBreakError as e:
        raise StoreError(str(e)) from None
    teams = {team.number: team for team in t.teams}
    rows = []
    for s in ranked:
        played = [m for m in teams[s.id].matches[:t.rounds] if m.opponent is not None]
        rows.append({
            "rank": s.rank, "team": s.name, "start_no": s.id, "match_points": s.points,
            "game_points": sum((m.game_points for m in teams[s.id].matches[:t.rounds]), Fraction(0)),
            "matches": len(played), "wins": sum(m.code is Code.WIN for m in played),
            "draws": sum(m.code is Code.DRAW for m in played), "losses": sum(m.code is Code.LOSS for m in played),
            "tiebreaks": dict(s.values),
        })
    return rows


def team_standings(store: Store, comp_id: int, upto: int | None = None) -> list[dict[str, Any]]:
    """The team standing after round ``upto`` (default: the last complete round)."""
    event = load_event(store, comp_id)
    if upto is not None and not 0 <= upto <= event.played:
        raise StoreError(f"round {upto} has not been played; the last complete round is {event.played}")
    return standing(event, upto)


def tiebreak_labels(event: TeamEvent) -> tuple[str, ...]:
    """The keys of a standing row's ``tiebreaks``, in list order."""
    return labels(list(event.rules.tiebreaks))


def crosstable(event: TeamEvent, upto: int | None = None) -> dict[tuple[str, str], list[tuple[Fraction, Fraction]]]:
    """(team, opponent) → the game points of each of their matches so far (team's first)."""
    t = ranking_tournament(event, upto, players=False)
    name = {team.number: team.name for team in t.teams}
    cells: dict[tuple[str, str], list[tuple[Fraction, Fraction]]] = {}
    for team in t.teams:
        for r, m in enumerate(team.matches[:t.rounds]):
            if m.opponent is None:
                continue
            theirs = next(x for x in t.teams if x.number == m.opponent).matches[r].game_points
            cells.setdefault((team.name, name[m.opponent]), []).append((m.game_points, theirs))
    return cells


# -- knock-out events ----------------------------------------------------------------


def _knockout_format(rules: TeamRules) -> MatchFormat:
    """The match on every board, then the tie-break stages (rapid, blitz, armageddon) on
    their first boards."""
    from keizer.pairing.knockout import MatchFormat, Stage, StageKind

    stages = [Stage(StageKind.REGULAR, rules.boards)]
    stages += [Stage(StageKind(kind), games) for kind, games in rules.stages]
    try:
        return MatchFormat(tuple(stages), team=True)
    except ValueError as e:
        raise StoreError(f"--stages: {e}") from None


def _require_knockout(store: Store, comp_id: int, what: str) -> TeamRules:
    require_system(store, comp_id, "team", what)
    rules = stored_rules(store, comp_id)
    if rules.schedule != "knockout":
        made = "paired round by round with 'keizer team next'" if rules.schedule == "swiss" else \
            "stored in full by 'keizer team schedule'"
        raise StoreError(f"this event plays a {rules.schedule} schedule, {made}; only a knock-out event can {what}")
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
        g = _board(Seat(top, k), Seat(bottom, k))
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


def knockout_states(event: TeamEvent) -> tuple[Any, ...]:
    """The bracket engine's match states (``MatchState``) from the stored games and awards."""
    from keizer.pairing.knockout import MatchGame, MatchRecord, bracket_state, make_bracket

    if not event.seeds or not event.season.rounds:
        raise StoreError("the knock-out has not been scheduled yet; make round 1 with 'keizer team schedule'")
    fmt = _knockout_format(event.rules)
    bracket = make_bracket(event.seeds, fmt)
    team_of = event.team_of()
    records: dict[tuple[int, int], Any] = {}
    for m in event.matches:
        stages = []
        for k, stage in enumerate(fmt.stages):
            played = tuple(MatchGame(team_of[g.white], g.result) for g in m.games
                           if g.stage == f"{stage.kind.value}:{k}" and g.result is not None)
            if not played:
                break
            stages.append(played)
        if m.second is not None and stages:
            records[(m.round, m.number)] = MatchRecord(tuple(stages))
    for key, winner in event.awarded.items():
        r, k = (int(x) for x in key.split(":"))
        records[(r, k)] = MatchRecord(records.get((r, k), MatchRecord()).stages, winner)
    fix = "was a result corrected after 'keizer team next'? 'keizer undo' back to before it"
    try:
        states = bracket_state(bracket, records)
    except ValueError as e:
        raise StoreError(f"the stored matches do not fit the bracket ({e}); {fix}") from None
    sides = {(s.round, s.index): (s.top, s.bottom) for s in states}
    winners = {(s.round, s.index): s.winner for s in states}
    for m in event.matches:
        if sides.get((m.round, m.number)) != (m.first, m.second):
            raise StoreError(f"round {m.round} match {m.number} is stored as {m.first} – {m.second} and the "
                             f"bracket now has {sides.get((m.round, m.number))}; {fix}")
        recorded = len(records[(m.round, m.number)].stages) if (m.round, m.number) in records else 0
        if (winners[(m.round, m.number)] is not None and f"{m.round}:{m.number}" not in event.awarded
                and len({g.stage for g in m.games}) > max(recorded, 1)):
            raise StoreError(f"round {m.round} match {m.number} is decided before its stored tie-break stage; {fix}")
    return states


def knockout_rows(event: TeamEvent, upto: int | None = None) -> list[dict[str, Any]]:
    """The bracket as rows: round, match, top, bottom (None: unknown or a bye), winner, how,
    score (game points of top and bottom once every board has a result) and stored (the
    match has its boards in the database)."""
    stored = {(m.round, m.number): m for m in event.matches}
    rows = []
    for s in knockout_states(event):
        if upto is not None and s.round > upto:
            continue
        m = stored.get((s.round, s.index))
        rows.append({"round": s.round, "match": s.index, "top": s.top, "bottom": s.bottom, "winner": s.winner,
                     "how": s.how, "score": m.score() if m else None, "stored": m is not None})
    return rows


def knockout_next(store: Store, comp_id: int, when: date | None = None) -> list[str]:
    """Store every match of the bracket whose two teams are now known; one line per match.

    Refused, saying why, when there is nothing to store: results missing, a match
    waiting for an award, or the final decided."""
    rules = _require_knockout(store, comp_id, "create the next round ('keizer team next')")
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
        created.append(f"round {s.round} match {s.index}: {s.top} – {s.bottom}")
    fmt = _knockout_format(rules)
    for s in states:
        m = stored.get((s.round, s.index))
        if m is None or s.winner is not None or s.bottom is None or any(g.result is None for g in m.games):
            continue
        done = len({g.stage for g in m.games})
        if done < len(fmt.stages):
            stage = fmt.stages[done]
            _store_stage(store, comp_id, m, done, stage.kind.value, stage.games)
            created.append(f"round {s.round} match {s.index}: {s.top} – {s.bottom}, {stage.kind.value} tie-break "
                           f"on {stage.games} board{'s' if stage.games > 1 else ''}")
    if created:
        return created
    if states[-1].winner is not None:
        raise StoreError(f"the knock-out is decided: {states[-1].winner} won the final")
    why = []
    for s in states:
        m = stored.get((s.round, s.index))
        if m is None or s.winner is not None:
            continue
        if any(g.result is None for g in m.games):
            why.append(f"round {s.round} match {s.index} ({s.top} – {s.bottom}) has results missing "
                       f"('keizer team result {s.round} {s.index} …')")
        else:
            after = "its tie-break stages" if rules.stages else "game points, board count and bottom-board elimination"
            why.append(f"round {s.round} match {s.index} ({s.top} – {s.bottom}) is level after {after} "
                       f"('keizer team award {s.round} {s.index} TEAM')")
    raise StoreError("nothing to create: " + "; ".join(why))


def award_match(store: Store, comp_id: int, number: int, match: int, team_ref: str) -> str:
    """The arbiter decides a knock-out match (a lot when level on everything, a withdrawal).
    Returns the team's name."""
    _require_knockout(store, comp_id, "award a match")
    event = load_event(store, comp_id)
    state = next((s for s in knockout_states(event) if (s.round, s.index) == (number, match)), None)
    if state is None:
        raise StoreError(f"the knock-out has no match {match} in round {number}")
    if state.top is None or state.bottom is None:
        raise StoreError(f"match {match} of round {number} "
                         + ("is a bye" if state.how == "bye" else "does not have both its teams yet"))
    team = find_team(store, comp_id, team_ref)["name"]
    if team not in (state.top, state.bottom):
        raise StoreError(f"{team} does not play in match {match} of round {number} ({state.top} – {state.bottom})")
    if any(m.round == number + 1 and m.number == (match + 1) // 2 for m in event.matches):
        raise StoreError(f"the match its winner plays in round {number + 1} is stored already; "
                         "'keizer undo' that first")
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


def _pair_swiss_round(store: Store, comp_id: int, when: str | None) -> list[str]:
    from keizer.model import Colour
    from keizer.pairing.swiss import SwissError, pair_swiss

    event = load_event(store, comp_id)
    rules = event.rules
    number = len(event.season.rounds) + 1
    if rules.rounds is None or number > rules.rounds:
        raise StoreError(f"all {rules.rounds} rounds are paired; the event is over")
    t = swiss_pairing_tournament(event, number - 1)
    colour = Colour.BLACK if rules.initial_colour == "black" else Colour.WHITE
    try:
        found = pair_swiss(t, rules.rounds, upto=number - 1, initial_colour=colour)
    except SwissError as e:
        if not e.players:
            raise StoreError(str(e)) from None
        left = ", ".join(event.seeds[n - 1] for n in e.players)
        raise StoreError(f"round {number} has no pairing without a rematch, a second bye or a forbidden colour "
                         f"sequence ({left} left over)") from None
    teams = store.teams(comp_id)
    store.ensure_round(comp_id, number, when)
    board, lines = 0, []
    for match, (white, black) in enumerate(found.pairs, 1):
        first, second = event.seeds[white - 1], event.seeds[black - 1]
        board = _store_match(store, comp_id, teams, rules, number, match, first, second, board, None)
        lines.append(f"round {number} match {match}: {first} – {second}")
    if found.bye is not None:
        _store_match(store, comp_id, teams, rules, number, len(found.pairs) + 1,
                              event.seeds[found.bye - 1], None, board, None)
        lines.append(f"round {number}: bye for {event.seeds[found.bye - 1]}")
    return lines


def swiss_next(store: Store, comp_id: int, when: date | None = None) -> list[str]:
    """Pair the next round of a team Swiss by the Dutch system, once every result is in."""
    rules = stored_rules(store, comp_id)
    event = load_event(store, comp_id)
    if not event.seeds or not event.season.rounds:
        raise StoreError("the Swiss has not started; pair round 1 with 'keizer team schedule'")
    last = len(event.season.rounds)
    if event.played < last:
        waiting = [f"match {m.number} ({m.first} – {m.second})" for m in event.round_matches(last)
                   if m.second is not None and m.score() is None]
        raise StoreError(f"round {last} still waits for results: {', '.join(waiting)}; "
                         f"enter them with 'keizer team result {last} MATCH …'")
    if rules.rounds is not None and last >= rules.rounds:
        raise StoreError(f"all {rules.rounds} rounds are played; the event is over")
    return _pair_swiss_round(store, comp_id, _round_date(store, comp_id, last + 1, when))


# -- TRF -----------------------------------------------------------------------------


def import_team_tournament(store: Store, t: Tournament, name: str | None = None) -> int:
    """Store a TRF team tournament as a team event: members and players from its 001
    records, teams from 310/013 (members in board order), and per round the matches and
    their games on the boards the line-ups give.  A Swiss stays a Swiss (continued with
    'keizer team next'), anything else becomes a round-robin event.  Returns its id.

    A match with a board won or lost without a game (a forfeited match, an empty board)
    cannot be stored as games: such a file is refused, before anything is written.
    """
    from keizer.pairing.swiss import initial_colour_of
    from keizer.points import _result

    swiss = t.system is System.SWISS
    teams = sorted(t.teams, key=lambda team: team.number)
    played = max((r + 1 for team in teams for r, m in enumerate(team.matches) if m.opponent is not None), default=0)
    boards = t.boards or max((len(m.lineup) for team in teams for m in team.matches), default=0)
    if boards < 1:
        raise StoreError("the file does not say how many boards a match has (record 362 or line-ups)")
    settings = {**DEFAULTS, "boards": boards, "schedule": "swiss" if swiss else "roundrobin",
                "tiebreaks": list(t.tiebreaks) or None}
    if swiss:
        settings |= {"rounds": max(t.rounds, played), "seeds": [team.name for team in teams],
                     "initial_colour": initial_colour_of(replace(t, teams=())).value}
    team_rules(settings)  # refuses a tie-break list the rules forbid, before anything is written
    comp_id = store.create_competition(name or t.name or "Imported team tournament", "classic", {}, "team", settings)
    ids: dict[int, int] = {}
    member_for = MemberFinder(store)
    for p in sorted(t.players, key=lambda p: p.start_no):
        member = member_for(p.name or f"Player {p.start_no}", p.rating or None)
        key = store.register(comp_id, member, key=str(p.start_no))
        ids[p.start_no] = store.find_player(comp_id, key)["id"]
    team_ids = {}
    for team in teams:
        team_ids[team.number] = store.add_team(comp_id, team.name or f"Team {team.number}")
        store.set_team_members(team_ids[team.number], [(ids[n], k, k > boards)
                                                        for k, n in enumerate(team.members, 1) if n in ids])
    by_number = {p.start_no: p for p in t.players}
    byes: dict[str, str] = {}
    for r in range(played):
        store.ensure_round(comp_id, r + 1, t.dates[r] if r < len(t.dates) else None)
        match, board, done = 0, 0, set()
        for team in teams:
            m = team.matches[r] if r < len(team.matches) else None
            if m is None or team.number in done or (m.opponent is None and m.code not in (Code.PAB, Code.FPB)):
                continue
            if m.opponent is None:
                continue  # byes are stored last
            other = next(x for x in teams if x.number == m.opponent)
            theirs = other.matches[r]
            first, second, lineup = (team, other, m.lineup) if m.colour is not Colour.BLACK else (other, team, theirs.lineup)
            done |= {team.number, other.number}
            match += 1
            store.add_team_match(comp_id, r + 1, match, team_ids[first.number], team_ids[second.number])
            mine = lineup or tuple(n for n in first.members if _opponent_in(by_number[n], r, second.members))
            results = [by_number[n].results[r] if n in by_number and r < len(by_number[n].results) else None
                       for n in mine]
            if len(mine) < boards or any(res is None or res.opponent is None for res in results):
                raise StoreError(f"round {r + 1}: {first.name} – {second.name} has a board without a game (a forfeited "
                                 "match or an empty board); the database keeps a team match as its games and cannot "
                                 "hold it — rank the file with 'keizer trf standings'")
            for n, res in zip(mine, results):
                assert res is not None and res.opponent is not None  # refused above
                board += 1
                opp = by_number[res.opponent].results[r]
                white_is_mine = res.colour is not Colour.BLACK
                white, black = (n, res.opponent) if white_is_mine else (res.opponent, n)
                result = _result(res.code, opp.code) if white_is_mine else _result(opp.code, res.code)
                store.add_game(comp_id, r + 1, board, ids[white], ids[black], result.value, match=match)
        for team in teams:
            m = team.matches[r] if r < len(team.matches) else None
            if m is None or m.opponent is not None:
                continue
            if m.code is not Code.PAB:  # kept, so that the standing scores it as the file does
                byes[f"{r + 1}:{team.name}"] = m.code.value
            if m.code in (Code.PAB, Code.FPB):
                match += 1
                store.add_team_match(comp_id, r + 1, match, team_ids[team.number], None)
    if byes:
        store.set_system_settings(comp_id, {**store.system_settings(comp_id), "byes": byes})
    return comp_id


def _opponent_in(player: Player, r: int, members: Sequence[int]) -> bool:
    return r < len(player.results) and player.results[r].opponent in members


def team_tournament(store: Store, comp_id: int) -> Tournament:
    """The event after its last complete round, with teams and players, for ``formats.trf.dump``."""
    event = load_event(store, comp_id)
    if event.rules.schedule == "knockout":
        raise StoreError("a knock-out team event cannot be written as TRF: TRF has no records for a bracket")
    if event.rules.schedule == "crepaux":
        raise StoreError("a Crepaux event cannot be written as TRF: its teams meet two teams in one round, "
                         "which TRF's team records cannot express")
    return ranking_tournament(event)


def team_trf(store: Store, comp_id: int, version: str = "TRF26") -> str:
    """``keizer export --format trf`` of a team event (dates of the rounds played as 042/052)."""
    from keizer.formats.trf import TRF16, dump

    t = team_tournament(store, comp_id)
    season = store.load_season(comp_id)
    dates = sorted(r.date for r in season.rounds[:t.rounds] if r.date)
    info: tuple[str, ...] = (f"042 {dates[0]}", f"052 {dates[-1]}") if dates else ()
    rules = stored_rules(store, comp_id)
    if rules.schedule == "swiss":  # the planned rounds (142) and the initial colour, to be continued elsewhere
        black = rules.initial_colour == "black"
        info += (("152 B" if black else "152 W") if version != TRF16 else ("XXC black1" if black else "XXC white1"),)
        t = replace(t, rounds=max(int(rules.rounds or 0), t.rounds))
    # Record 352 (board colours) is TRF26's; TRF16 readers get the alternation by default.
    kept = tuple(x for x in t.info if version != TRF16 or not x.startswith("352"))
    dated = tuple(r.date for r in season.rounds[:season.completed_rounds()])
    return dump(replace(t, info=info + kept, dates=dated if any(dated) else ()), version)


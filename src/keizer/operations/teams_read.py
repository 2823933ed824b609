"""A team event as it stands, read from the store: its teams, matches and line-ups, its
standing and crosstable, a knock-out's bracket.  Reads only; the writes are
:mod:`keizer.operations.teamevent`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping, Sequence

from keizer.model import Game, Season
from keizer.operations.state import require_system
from keizer.pairing.knockout import MatchFormat, Stage, StageKind
from keizer.pairing.teams import TeamMatchResult, first_has_white, plan_event
from keizer.points import tournament as player_tournament
from keizer.refusals import Field, Word
from keizer.store import Store, StoreError
from keizer.systems.team import MATCH_SCORING, TeamRules, stored_rules
from keizer.tiebreaks import Code, Match, Player, Scoring, System, Team, TieBreakError, Tournament, labels, rank


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
    require_system(store, comp_id, "team", Word("show a team event"))
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
    except TieBreakError:
        raise  # the tie-break engine's refusal says which code and why
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
        raise StoreError("round %(n)s has not been played; the last complete round is %(last)s", n=upto,
                         last=event.played)
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


def _knockout_format(rules: TeamRules) -> MatchFormat:
    """The match on every board, then the tie-break stages (rapid, blitz, armageddon) on
    their first boards."""
    stages = [Stage(StageKind.REGULAR, rules.boards)]
    stages += [Stage(StageKind(kind), games) for kind, games in rules.stages]
    try:
        return MatchFormat(tuple(stages), team=True)
    except ValueError as e:
        raise StoreError("%(field)s: %(why)s", field=Field("stages"), why=str(e)) from None


def knockout_states(event: TeamEvent) -> tuple[Any, ...]:
    """The bracket engine's match states (``MatchState``) from the stored games and awards."""
    from keizer.pairing.knockout import MatchGame, MatchRecord, bracket_state, make_bracket

    if not event.seeds or not event.season.rounds:
        raise StoreError("the knock-out has not been scheduled yet", hint="su_team_round_one")
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
    try:
        states = bracket_state(bracket, records)
    except ValueError as e:
        raise StoreError("the stored matches do not fit the bracket (%(why)s)", hint="su_bracket_fix",
                         why=str(e)) from None
    sides = {(s.round, s.index): (s.top, s.bottom) for s in states}
    winners = {(s.round, s.index): s.winner for s in states}
    for m in event.matches:
        if sides.get((m.round, m.number)) != (m.first, m.second):
            raise StoreError("round %(n)s match %(match)s is stored as %(first)s – %(second)s and the bracket now "
                             "has %(sides)s", hint="su_bracket_fix", n=m.round, match=m.number, first=m.first,
                             second=m.second, sides=sides.get((m.round, m.number)))
        recorded = len(records[(m.round, m.number)].stages) if (m.round, m.number) in records else 0
        if (winners[(m.round, m.number)] is not None and f"{m.round}:{m.number}" not in event.awarded
                and len({g.stage for g in m.games}) > max(recorded, 1)):
            raise StoreError("round %(n)s match %(match)s is decided before its stored tie-break stage",
                             hint="su_bracket_fix", n=m.round, match=m.number)
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

"""Team events to and from FIDE's TRF: a team tournament of another program stored as a team
event, and a team event written as TRF26.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Sequence

from keizer.formats.trf_import import ImportedTournament
from keizer.model import Colour, Result
from keizer.operations.importing import MemberFinder
from keizer.operations.teams_read import load_event, ranking_tournament
from keizer.store import Store, StoreError
from keizer.systems.team import DEFAULTS, stored_rules, team_rules
from keizer.tiebreaks import Code, Player, System, Team, Tournament


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
                raise StoreError("round %(n)s: %(first)s – %(second)s has a board without a game (a forfeited "
                                 "match or an empty board); the database keeps a team match as its games and "
                                 "cannot hold it",
                                 hint="su_trf_standings", n=r + 1, first=first.name, second=second.name)
            for n, res in zip(mine, results):
                assert res is not None and res.opponent is not None  # refused above
                board += 1
                opp = by_number[res.opponent].results[r]
                white_is_mine = res.colour is not Colour.BLACK
                white, black = (n, res.opponent) if white_is_mine else (res.opponent, n)
                result = _result(res.code, opp.code) if white_is_mine else _result(opp.code, res.code)
                store.add_game(comp_id, r + 1, board, ids[white], ids[black], result.value, match=match)
        _store_byes(store, comp_id, teams, team_ids, r, match, byes)
    opened = t.open_round if isinstance(t, ImportedTournament) else None
    if opened is not None and opened.paired:  # a round paired and not finished: its matches, results to enter
        r = opened.number - 1
        store.ensure_round(comp_id, r + 1, t.dates[r] if r < len(t.dates) else None)
        match = _store_open_matches(store, comp_id, teams, team_ids, ids, opened.number, opened.games,
                                    opened.lineups)
        _store_byes(store, comp_id, teams, team_ids, r, match, byes)
    if byes:
        store.set_system_settings(comp_id, {**store.system_settings(comp_id), "byes": byes})
    return comp_id


def _store_byes(store: Store, comp_id: int, teams: list[Team], team_ids: dict[int, int], r: int, match: int,
                byes: dict[str, str]) -> None:
    """Round ``r``'s team byes (after its ``match`` matches): the PAB and full-point bye as a
    match without an opponent; every bye but the PAB also kept in ``byes``, so that the standing
    scores it as the file does."""
    for team in teams:
        m = team.matches[r] if r < len(team.matches) else None
        if m is None or m.opponent is not None:
            continue
        if m.code is not Code.PAB:
            byes[f"{r + 1}:{team.name}"] = m.code.value
        if m.code in (Code.PAB, Code.FPB):
            match += 1
            store.add_team_match(comp_id, r + 1, match, team_ids[team.number], None)


def _store_open_matches(store: Store, comp_id: int, teams: list[Team], team_ids: dict[int, int], ids: dict[int, int],
                        number: int, games: Sequence[tuple[int, int, Result | None]],
                        lineups: Mapping[int, Sequence[int]]) -> int:
    """The open round's matches from its games (results where the file has them): the games of
    two teams are their match, boards in the order of the round's line-up (record 300) or else
    of the lower-numbered team's members, the team whose player has White on the first board
    listed first.  Returns the matches stored."""
    team_of = {m: team.number for team in teams for m in team.members if m}
    order = {m: k for team in teams for k, m in enumerate(team.members) if m}
    for number_, lineup in lineups.items():  # the round's line-up wins: a reserve who plays
        team_of |= {m: number_ for m in lineup if m}
        order |= {m: k for k, m in enumerate(lineup) if m}
    matches: dict[tuple[int, int], list[tuple[int, int, Result | None]]] = {}
    for white, black, result in games:
        a, b = team_of.get(white), team_of.get(black)
        if a is None or b is None or a == b:
            raise StoreError("round %(n)s: the game of %(white)s and %(black)s is not one of a match between two "
                             "teams", hint="su_trf_standings", n=number, white=white, black=black)
        matches.setdefault((min(a, b), max(a, b)), []).append((white, black, result))
    match = board = 0
    for (low, high), found in sorted(matches.items()):
        found.sort(key=lambda g: order[g[0] if team_of[g[0]] == low else g[1]])
        first, second = (low, high) if team_of[found[0][0]] == low else (high, low)
        match += 1
        store.add_team_match(comp_id, number, match, team_ids[first], team_ids[second])
        for white, black, result in found:
            board += 1
            store.add_game(comp_id, number, board, ids[white], ids[black], result.value if result else None,
                           match=match)
    return match


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
    """A team event as a TRF file (dates of the rounds played as 042/052)."""
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

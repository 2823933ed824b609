"""Team events to and from FIDE's TRF: a team tournament of another program stored as a team
event, and a team event written as TRF26.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from keizer.model import Colour
from keizer.operations.importing import MemberFinder
from keizer.operations.teams_read import load_event, ranking_tournament
from keizer.store import Store, StoreError
from keizer.systems.team import DEFAULTS, stored_rules, team_rules
from keizer.tiebreaks import Code, Player, System, Tournament


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

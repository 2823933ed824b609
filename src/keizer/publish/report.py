"""Season-end figures: prizes, most games, best performance, longest unbeaten run, attendance.

Pure functions over a season and its standings.  Performance ratings use
FIDE's rating-performance formula (Ra + dp(p), Handbook B.02) over games played
on the board against rated opponents.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

from keizer.model import Season
from keizer.tiebreaks.fide_tables import rating_difference, round_half_up

#: How many players each list of the report shows.
SHOWN = 5


@dataclass(frozen=True)
class Figure:
    player: str
    value: Fraction | int
    detail: str = ""


@dataclass(frozen=True)
class SeasonReport:
    rounds: int
    prizes: tuple[Figure, ...]  # top three of the final standing, value = score
    category_winners: tuple[tuple[str, Figure], ...]
    most_games: tuple[Figure, ...]
    best_performance: tuple[Figure, ...]  # value = TPR; detail = "p% from n games"
    unbeaten: tuple[Figure, ...]  # value = games in a row without a loss
    attendance: tuple[Figure, ...]  # value = rounds played (games and byes)
    min_games_for_performance: int


def season_report(season: Season, ranking: Sequence[tuple[str, Fraction]]) -> SeasonReport:
    """The figures of a season whose final ranking is ``ranking`` (player, score), best first."""
    played = season.completed_rounds()
    ranked = [p for p, _ in ranking]
    order = {p: k for k, p in enumerate(ranked)}
    players = {p.id: p for p in season.players}

    prizes = tuple(Figure(p, score) for p, score in ranking[:3])
    winners = []
    for category in sorted({p.category for p in season.players if p.category}):
        best = next(((p, score) for p, score in ranking if players[p].category == category), None)
        if best:
            winners.append((category, Figure(*best)))

    def top(values: Mapping[str, Fraction | int], detail: dict[str, str] | None = None) -> tuple[Figure, ...]:
        chosen = sorted((p for p in values if values[p] > 0), key=lambda p: (-values[p], order.get(p, len(order))))
        return tuple(Figure(p, values[p], (detail or {}).get(p, "")) for p in chosen[:SHOWN])

    games = dict.fromkeys(ranked, 0)
    rounds_played = dict.fromkeys(ranked, 0)  # games, forfeits and byes
    for rnd in season.rounds[:played]:
        for g in rnd.games:
            for pid in (g.white, g.black):
                if pid in games:
                    games[pid] += g.played_on_board
                    rounds_played[pid] += 1
        for pid in rnd.byes:
            if pid in rounds_played:
                rounds_played[pid] += 1

    # Performance over games on the board against rated opponents; at least a third of the rounds.
    minimum = max(3, -(-played // 3))
    points: dict[str, Fraction] = {}
    ratings: dict[str, list[int]] = {}
    streak: dict[str, int] = dict.fromkeys(ranked, 0)
    best_streak: dict[str, int] = dict.fromkeys(ranked, 0)
    for rnd in season.rounds[:played]:
        for g in rnd.games:
            for me in (g.white, g.black):
                opp = g.opponent_of(me)
                score = g.points_of(me)
                if not g.played_on_board:
                    if score == 0 and me in streak:
                        streak[me] = 0  # a forfeit loss ends a run; a forfeit win is no game
                    continue
                if me in streak:
                    streak[me] = streak[me] + 1 if score > 0 else 0
                    best_streak[me] = max(best_streak[me], streak[me])
                rating = players[opp].rating
                if rating is not None:
                    points[me] = points.get(me, Fraction(0)) + score
                    ratings.setdefault(me, []).append(rating)
    tpr: dict[str, int] = {}
    detail: dict[str, str] = {}
    for p, rs in ratings.items():
        if p in order and len(rs) >= minimum:
            share = points[p] / len(rs)
            average = Fraction(sum(rs), len(rs))
            # p rounded to hundredths, then Ra + dp(p) rounded half up (as C.07 TPR does).
            tpr[p] = round_half_up(average + rating_difference(int(round_half_up(share * 100))))
            detail[p] = f"{_points(points[p])}/{len(rs)}"
    return SeasonReport(
        rounds=played,
        prizes=prizes,
        category_winners=tuple(winners),
        most_games=top(games),
        best_performance=top(tpr, detail),
        unbeaten=top(best_streak),
        attendance=top(rounds_played),
        min_games_for_performance=minimum,
    )


def _points(points: Fraction) -> str:
    """Game points as chess players write them: 2½, ½, 3."""
    whole, half = divmod(points * 2, 2)
    return (str(int(whole)) if whole or not half else "") + ("½" if half else "")

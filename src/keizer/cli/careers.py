"""Ratings and careers on the command line: ``keizer history --rating`` (what each game did
to the FIDE rating), ``keizer ratings club`` (the club rating across seasons), ``keizer
head2head A B`` and ``keizer career MEMBER``.

A thin view over :mod:`keizer.operations.careers`; every rating figure is keizer's own
calculation and is printed with "provisional, not official".
"""

from __future__ import annotations

import json
from typing import Any

import click

from keizer.cli.base import Context, format_option, pass_ctx
from keizer.output import json_number, number, render
from keizer.readmodel import RatingChanges

PROVISIONAL = "provisional, not official"

#: Why a game does not count for the FIDE rating, as the CLI says it.
NOT_COUNTED = {"opponent_unrated": "opponent unrated", "own_unrated": "unrated", "no_date": "round has no date",
               "before_rules": "before 1 March 2024", "not_rated": "not rated (600 apart, one above 2600)"}


def fide_rows(found: RatingChanges, names: dict[str, str]) -> list[dict[str, Any]]:
    return [{"round": g.round, "opponent": names.get(g.opponent, g.opponent), "opponent_id": g.opponent,
             "opponent_rating": g.opponent_rating, "score": json_number(g.score), "chapter": g.chapter,
             "expected": None if g.expected is None else float(g.expected),
             "delta": None if g.delta is None else float(g.delta),
             "change": None if g.change is None else float(g.change), "counted": g.why is None,
             "why": g.why} for g in found.games]


def show_fide(name: str, found: RatingChanges, names: dict[str, str], fmt: str, dwz: Any = None,
              ecf: Any = None) -> None:
    """``keizer history --rating``: the FIDE rating change of every game and the sum (and, in
    JSON, the DWZ's under ``dwz`` or the ECF rating's under ``ecf`` when the club shows it)."""
    rows = fide_rows(found, names)
    if fmt == "json":
        click.echo(json.dumps({"name": name, "note": PROVISIONAL, "rating": found.rating, "k": found.k,
                               "games": found.counted, "delta": float(found.delta), "change": float(found.change),
                               "performance": found.performance, "rounds": rows,
                               **({"dwz": dwz_data(dwz)} if dwz is not None else {}),
                               **({"ecf": ecf_data(ecf)} if ecf is not None else {})}, ensure_ascii=False, indent=2))
        return
    table = [{**r, "expected": "" if r["expected"] is None else number(g.expected, 2),
              "delta": "" if g.delta is None else number(g.delta, 2),
              "change": "" if g.change is None else f"{number(g.change, 2)}", "why": NOT_COUNTED.get(g.why or "", "")}
             for r, g in zip(rows, found.games)]
    if fmt == "table":
        rated = f"FIDE {found.rating}" if found.rating else "no FIDE rating"
        click.echo(f"{name} — {rated}; FIDE rating change, {PROVISIONAL}")
    click.echo(render(table, ["round", "opponent", "opponent_rating", "score", "expected", "delta", "change",
                              "why"], fmt))
    if fmt == "table" and found.k is not None:
        click.echo(f"{found.counted} games counted: ΣΔR {number(found.delta, 2)}, K {found.k}, "
                   f"change {number(found.change, 2)}, performance {found.performance} ({PROVISIONAL})")


def dwz_data(found: Any) -> dict[str, Any]:
    """The DWZ of ``keizer history --rating`` as data: each game's P(D), and the competition
    taken as one tournament (DSB Wertungsordnung 3.5.2; None without a DWZ or a counted game)."""
    rows = [{"round": g.round, "opponent": g.opponent_name, "opponent_rating": g.opponent_rating,
             "score": json_number(g.score), "expected": None if g.expected is None else round(g.expected, 3)}
            for g in found.games]
    r = found.result
    summary = None if r is None else {"rating": r.ro, "games": r.games, "score": json_number(r.score),
                                      "expected": round(r.we, 3), "e": r.e, "new": r.new, "change": r.change}
    return {"note": PROVISIONAL, "result": summary, "rounds": rows}


def show_dwz(name: str, found: Any, fmt: str) -> None:
    """``keizer history --rating`` (table or CSV) when the club shows the DWZ."""
    rows = dwz_data(found)["rounds"]
    r = found.result
    if fmt == "table":
        rated = f"DWZ {found.rating}" if found.rating else "no DWZ"
        click.echo(f"\n{name} — {rated}; DWZ change (DSB Wertungsordnung), {PROVISIONAL}")
    click.echo(render([{**row, "expected": "" if g.expected is None else f"{g.expected:.3f}"}
                       for row, g in zip(rows, found.games)],
                      ["round", "opponent", "opponent_rating", "score", "expected"], fmt))
    if fmt == "table" and r is not None:
        click.echo(f"{r.games} games counted: W {number(r.score)}, We {r.we:.3f}, E {r.e}: "
                   f"DWZ {r.ro} → {r.new} ({r.change:+d}, {PROVISIONAL})")


def ecf_data(found: Any) -> dict[str, Any]:
    """The ECF rating of ``keizer history --rating`` as data: each game's PD and k(s − PD), each
    month's sums and the competition's (None: no ECF rating or no counted game)."""
    rows = [{"round": g.round, "month": g.month, "opponent": g.opponent_name, "opponent_rating": g.opponent_rating,
             "score": json_number(g.score), "expected": None if g.expected is None else float(g.expected),
             "change": None if g.change is None else float(g.change)} for g in found.games]
    months = [{"month": m.month, "games": m.games, "score": json_number(m.score), "expected": float(m.expected),
               "change": float(m.change)} for m in found.months]
    summary = None if found.rating is None or not found.counted else {
        "rating": found.rating, "k": found.k, "games": found.counted, "score": json_number(found.score),
        "expected": float(found.expected), "change": float(found.change)}
    return {"note": PROVISIONAL, "result": summary, "months": months, "rounds": rows}


def show_ecf(name: str, found: Any, fmt: str) -> None:
    """``keizer history --rating`` (table or CSV) when the club shows the ECF rating."""
    data = ecf_data(found)
    if fmt == "table":
        rated = f"ECF rating {found.rating}, K {found.k}" if found.rating else "no ECF rating"
        click.echo(f"\n{name} — {rated}; ECF rating change (R1 = R0 + K(W − We)), {PROVISIONAL}")
    click.echo(render([{**row, "expected": "" if g.expected is None else number(g.expected, 2),
                        "change": "" if g.change is None else number(g.change, 2)}
                       for row, g in zip(data["rounds"], found.games)],
                      ["round", "month", "opponent", "opponent_rating", "score", "expected", "change"], fmt))
    if fmt == "table" and data["result"] is not None:
        for m in found.months:
            click.echo(f"{m.month or 'no date'}: {m.games} games, W {number(m.score)}, We {number(m.expected, 2)}, "
                       f"change {number(m.change, 2)}")
        click.echo(f"{found.counted} games counted: W {number(found.score)}, We {number(found.expected, 2)}: "
                   f"change {number(found.change, 2)} ({PROVISIONAL})")


@click.command("head2head")
@click.argument("first")
@click.argument("second")
@format_option
@pass_ctx
def head2head(ctx: Context, first: str, second: str, fmt: str) -> None:
    """Every game two members played against each other, in every season: W/D/L, the last
    meeting and each game (from the first member's side)."""
    from keizer.operations.careers import head_to_head

    found = head_to_head(ctx.store(), first, second)
    a = found.first["id"]
    rows = [{"date": g.date or "", "season": g.season, "competition": g.competition, "round": g.round,
             "colour": "white" if g.white == a else "black", "score": json_number(g.score_of(a))}
            for g in found.games]
    r = found.record
    if fmt == "json":
        click.echo(json.dumps({"first": found.first["name"], "second": found.second["name"], "games": r.games,
                               "wins": r.wins, "draws": r.draws, "losses": r.losses, "last": r.last,
                               "list": rows}, ensure_ascii=False, indent=2))
        return
    if fmt == "table":
        click.echo(f"{found.first['name']} – {found.second['name']}: {_games(r.games)}, {r.wins} won, {r.draws} drawn, "
                   f"{r.losses} lost ({number(r.score)}–{number(r.games - r.score)})"
                   + (f", last met {r.last}" if r.last else ""))
    if rows or fmt != "table":
        click.echo(render(rows, ["date", "season", "competition", "round", "colour", "score"], fmt))


@click.command("career")
@click.argument("member")
@format_option
@pass_ctx
def career(ctx: Context, member: str, fmt: str) -> None:
    """A member's career at the club: every competition of every season (rank, score,
    games, W/D/L), the club rating over time and the record against every opponent."""
    from keizer.operations.careers import career as career_op
    from keizer.operations.careers import rating_table

    found = career_op(ctx.store(), member)
    comps = [{"season": c.season, "competition": c.competition, "rank": c.rank,
              "score": None if c.score is None else json_number(c.score), "games": c.record.games,
              "wins": c.record.wins, "draws": c.record.draws, "losses": c.record.losses} for c in found.lines]
    opponents = [{"opponent": o.name, "games": o.record.games, "wins": o.record.wins, "draws": o.record.draws,
                  "losses": o.record.losses, "last": o.record.last or ""} for o in found.opponents]
    rating = [{"date": p.date or "", "competition": p.competition, "round": p.round,
               "rating": round(p.rating.rating), "deviation": round(p.rating.deviation)}
              for p in rating_table(found.rating)]
    best = best_lines(found.best)
    if fmt == "json":
        click.echo(json.dumps({"name": found.member["name"], "competitions": comps, "opponents": opponents,
                               "club_rating": rating, "best": dict(best), "note": PROVISIONAL},
                              ensure_ascii=False, indent=2))
        return
    t = found.total
    if fmt == "table":
        click.echo(f"{found.member['name']}: {_games(t.games)}, {t.wins} won, {t.draws} drawn, {t.losses} lost")
        for label, said in best:
            click.echo(f"{label.replace('_', ' ')}: {said}")
    click.echo(render(comps, ["season", "competition", "rank", "score", "games", "wins", "draws", "losses"], fmt))
    if fmt != "table":
        return
    if rating:
        click.echo(f"\nclub rating ({PROVISIONAL}):")
        click.echo(render(rating[-12:], ["date", "competition", "round", "rating", "deviation"], fmt))
    if opponents:
        click.echo("\nagainst every opponent:")
        click.echo(render(opponents, ["opponent", "games", "wins", "draws", "losses", "last"], fmt))


def _in(season: str, competition: str) -> str:
    return competition + (f" ({season})" if season and season not in competition else "")


def _when(g: Any) -> str:
    return f"{g.date} in {_in(g.season, g.competition)}" if g.date else f"round {g.round} of {_in(g.season, g.competition)}"


def best_lines(best: Any) -> list[tuple[str, str]]:
    """The best results of a career, each as (label, sentence); none where there is none."""
    found = []
    if best.rank:
        found.append(("best_rank", f"{best.rank.rank} in {_in(best.rank.season, best.rank.competition)}"))
    if best.performance:
        p = best.performance
        found.append(("best_performance", f"{p.rating} in {_in(p.line.season, p.line.competition)}, over "
                                          f"{_games(p.games)} against rated opponents"))
    if best.unbeaten:
        u = best.unbeaten
        found.append(("longest_unbeaten_run", f"{_games(u.games)}, from {_when(u.first)} to {_when(u.last)}"))
    if best.scalp:
        found.append(("biggest_scalp", f"a win against {best.scalp.name} (rating {best.scalp.rating}), "
                                       f"{_when(best.scalp.game)}"))
    return found


def show_club_rating(found: Any, fmt: str) -> None:
    """``keizer ratings club``: one line per member, best first."""
    rows = [{"rank": n, "name": r.name, "rating": round(r.rating.rating), "deviation": round(r.rating.deviation),
             "low": r.interval[0], "high": r.interval[1], "games": r.games, "last": r.last}
            for n, r in enumerate(found.rows, 1)]
    if fmt == "json":
        click.echo(json.dumps({"note": PROVISIONAL, "periods": found.periods, "games": found.games,
                               "rows": [{**row, "rating": row["rating"], "volatility": r.rating.volatility}
                                        for row, r in zip(rows, found.rows)]}, ensure_ascii=False, indent=2))
        return
    if fmt == "table":
        click.echo(f"club rating ({PROVISIONAL}): {found.games} games in {found.periods} rating periods")
    click.echo(render(rows, ["rank", "name", "rating", "deviation", "low", "high", "games", "last"], fmt))


def _games(n: int) -> str:
    return f"{n} game{'s' * (n != 1)}"

"""The members' careers on the site: one page per member across every season, under
``careers/`` (:mod:`keizer.operations.careers` computes them; this module only arranges).

A career page holds every competition of every season the member played in (rank, score,
games, W/D/L), the club rating over time (an SVG line chart, :func:`keizer.publish.charts.line_chart`,
with every figure in a table as its text alternative), the best results, the record against
every opponent and, further down the same page, the games against each opponent under an
anchor of its own (``#vs-<member id>``): the head-to-head of every pair that met.

Privacy: a member whose career is not public (``keizer member edit --no-career``) gets no
page, and no other page links to one; the name stays where the season's pages already show
it (standings, pairings), and in other members' records, unlinked.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import partial
from typing import Any

from keizer.operations.careers import Career, PlayedGame, RatingPoint, rating_table
from keizer.publish.charts import line_chart
from keizer.publish.plan import Club, Page
from keizer.publish.slugs import CAREERS, unique_slugs
from keizer.publish.written import written


def career_links(found: Mapping[int, Career]) -> dict[int, str]:
    """Each public member's career page (member id → path), slugs in the order of member ids."""
    shown = sorted(m for m, c in found.items() if c.member["career_public"] and c.total.games + len(c.lines))
    return {m: f"{CAREERS}/{slug}.html" for m, slug in zip(shown, unique_slugs([found[m].member["name"] for m in shown]))}


def plan_careers(club: Club, found: Mapping[int, Career], links: Mapping[int, str],
                 competitions: Mapping[tuple[str, str], str], seasons: Mapping[str, str]) -> list[Page]:
    """The career page of every member in ``links`` (see :func:`career_links`);
    ``competitions``: (season, competition) → the competition's page; ``seasons``: season →
    its front page."""
    # What every career page may show of the rest of the site, in an order of its own (a live
    # publish gathers the links in another order than a publishing of every season).
    around = written((club, sorted(links.items()), sorted(competitions.items()), sorted(seasons.items())))
    pages: list[Page] = []
    used: dict[Hashable, tuple[object, bytes | None]] = {}
    for m, path in sorted(links.items(), key=lambda mp: mp[1]):
        c = found[m]
        mine = career_digest(c, used)
        inputs = None if around is None or mine is None else (hashlib.sha256(around).digest(), mine)
        pages.append(Page(path, "career.html", partial(_career, club, c, links, competitions, seasons),
                          None if inputs is None else partial(_given, inputs)))
    _digests.clear()  # those of this run only: the careers of runs before are let go
    _digests.update(used)
    return pages


def _given(inputs: tuple[bytes, bytes]) -> tuple[bytes, bytes]:
    return inputs


#: The digests taken, by member: of what each career page shows of the career but its club
#: rating (found again while the career's parts are the same objects: a career kept from run
#: to run keeps them, :mod:`keizer.operations.kept_careers`, also when only its rating points
#: are new), and of the member's club rating in the periods played (kept, a played period's
#: point is the same object).
_digests: dict[Hashable, tuple[object, bytes | None]] = {}


def kept_digests() -> list[tuple[Hashable, object, bytes | None]]:
    """The digests taken by the last run, to be carried to the next process with the careers
    they were taken of (:mod:`keizer.operations.kept_file`, in the same pickle: a digest is
    found again while the career's parts are the objects it was taken of)."""
    return [(key, value, made) for key, (value, made) in _digests.items()]


def take_digests(entries: object) -> None:
    """Take the digests :func:`kept_digests` gave in another process (with the careers restored
    with them); anything else is ignored."""
    if not isinstance(entries, list):
        return
    taken: dict[Hashable, tuple[object, bytes | None]] = {}
    for entry in entries:
        if not (isinstance(entry, tuple) and len(entry) == 3 and isinstance(entry[0], tuple) and len(entry[0]) == 2
                and entry[0][0] in ("career", "rating") and type(entry[0][1]) is int
                and (entry[2] is None or type(entry[2]) is bytes)):
            return
        key, value, made = entry
        taken[key] = (value, made)
    _digests.clear()
    _digests.update(taken)


def _digest_of(key: Hashable, value: object, make: Callable[[], object], used: dict[Hashable, tuple[object, bytes | None]],
               same: Callable[[object, object], bool]) -> bytes | None:
    known = _digests.get(key)
    if known is None or not same(known[0], value):
        data = written(make())
        known = (value, None if data is None else hashlib.sha256(data).digest())
    used[key] = known
    return known[1]


def _same_objects(a: object, b: object) -> bool:
    """Two lists or tuples of the same objects (a career's parts, a member's rating points)."""
    return type(a) is type(b) and isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) \
        and len(a) == len(b) and all(x is y for x, y in zip(a, b))


def career_digest(c: Career, used: dict[Hashable, tuple[object, bytes | None]]) -> bytes | None:
    """A digest of what a career page shows of ``c`` (None: it cannot be written down): the
    member, competitions, games, opponents and best results (taken once while they are the
    same objects) and the club rating after the periods the member played (once per list of
    points); ``used`` gathers the digests taken or found."""
    parts = (c.member, c.lines, c.total, c.opponents, c.games, c.best)
    rest = _digest_of(("career", c.member["id"]), parts, lambda: parts, used, _same_objects)
    played = rating_table(c.rating)
    rating = _digest_of(("rating", c.member["id"]), played, lambda: played, used, _same_objects)
    return None if rest is None or rating is None else rest + rating


def _career(club: Club, c: Career, links: Mapping[int, str], competitions: Mapping[tuple[str, str], str],
            seasons: Mapping[str, str]) -> dict[str, Any]:
    me = c.member["id"]
    lines = [{"season": line.season, "season_link": seasons.get(line.season),
              "competition": line.competition, "link": competitions.get((line.season, line.competition)),
              "rank": line.rank, "score": line.score, "record": line.record} for line in c.lines]
    played = rating_table(c.rating)
    against: dict[int, list[dict[str, Any]]] = {}
    for g in c.games:
        against.setdefault(g.opponent_of(me), []).append(_game(g, me))
    opponents = [{"id": o.member, "name": o.name, "record": o.record, "link": links.get(o.member),
                  "games": against.get(o.member, [])} for o in c.opponents]
    b = c.best
    best = {
        "rank": b.rank and {"rank": b.rank.rank, "competition": b.rank.competition, "season": b.rank.season},
        "performance": b.performance and {"rating": b.performance.rating, "games": b.performance.games,
                                          "competition": b.performance.line.competition,
                                          "season": b.performance.line.season},
        "unbeaten": b.unbeaten and {"games": b.unbeaten.games, "first": _when(b.unbeaten.first),
                                    "last": _when(b.unbeaten.last)},
        "scalp": b.scalp and {"name": b.scalp.name, "rating": b.scalp.rating, "link": links.get(b.scalp.opponent),
                              "when": _when(b.scalp.game)},
    }
    return {"club": club, "title": c.member["name"], "name": c.member["name"], "total": c.total, "lines": lines,
            "rating_line": rating_chart(c.member["name"], played), "rating": list(reversed(played)),
            "opponents": opponents, "best": best}


def rating_chart(name: str, played: Sequence[RatingPoint]) -> dict[str, Any] | None:
    """The club rating after each period the member played, as a line chart (x: the n-th
    period played); None with fewer than two.

    >>> from keizer.rating.glicko2 import Rating
    >>> points = [RatingPoint(str(n), None, "K", n, Rating(r, 100, .06), True) for n, r in enumerate((1500, 1612.4, 1580), 1)]
    >>> c = rating_chart("Anna", points)
    >>> [t["value"] for t in c["y_ticks"]], c["first"], c["last"], c["best"]
    ([1500, 1550, 1600, 1650], (1, 1500), (3, 1580), (2, 1612))
    """
    if len(played) < 2:
        return None
    values = [(n, round(p.rating.rating)) for n, p in enumerate(played, 1)]
    return line_chart([(name, values)], len(values), min(v for _, v in values), max(v for _, v in values))


def _game(g: PlayedGame, me: int) -> dict[str, Any]:
    return {"date": g.date, "season": g.season, "competition": g.competition, "round": g.round,
            "colour": "white" if g.white == me else "black", "score": g.score_of(me)}


def _when(g: PlayedGame) -> dict[str, Any]:
    """Where a game was played, for a sentence: its date (None if the round has none), competition and round."""
    return {"date": g.date, "competition": g.competition, "season": g.season, "round": g.round}

"""Build sample_club.db: a realistic demo club's season.

The Keizer competition: about 40 members, 30 played rounds with absences of
every kind, byes, forfeits, a withdrawal, a late entrant and external games,
and the next round's attendance entered.  Beside it, as clubs run them: a
Swiss rapid tournament (FIDE Dutch, in FIDE mode, with a requested bye), a round-robin group
(meerkamp) and a knock-out cup with tie-break games, still under way.  The
Keizer competition stays the one commands use by default.  Everything comes from one seeded random
generator and the club evenings' dates, so running it again gives the same
database, byte for byte:

    python scripts/make_sample_club.py [OUTPUT]   # default: sample_club.db
"""

from __future__ import annotations

import argparse
import random
from datetime import date, timedelta
from pathlib import Path

from keizer.operations import competition as ops
from keizer.refusals import Message
from keizer.store import Store

SEED = 2026
FIRST = ["Anna", "Bram", "Cor", "Daan", "Eva", "Femke", "Gert", "Hanneke", "Ivo", "Joost", "Karin", "Lars",
         "Marieke", "Niels", "Olga", "Pieter", "Quinten", "Roos", "Sjoerd", "Tineke", "Usha", "Vincent",
         "Wouter", "Xander", "Yara", "Zeger", "Anouk", "Bas", "Chantal", "Dennis", "Els", "Frank", "Gijs",
         "Henk", "Inge", "Jan", "Kees", "Lotte", "Mees", "Nora", "Otto", "Petra"]
LAST = ["de Vries", "Jansen", "van den Berg", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder",
        "de Groot", "Bos", "Vos", "Peters", "Hendriks", "van Leeuwen", "Dekker", "Brouwer", "de Wit",
        "Dijkstra", "Smits", "de Graaf", "van der Meer", "van der Linden", "Kok", "Jacobs", "de Haan",
        "Vermeulen", "van den Heuvel", "van der Veen", "van den Broek", "de Bruijn", "de Jong", "van Dijk",
        "Willems", "Hoekstra", "Koster", "Prins", "Postma", "Kuipers", "van Beek", "Schouten", "Timmermans"]
# Names with quotes, accents and more are normal data.
SPECIAL = ["Sjoerd van 't Hof", "Ingrid Müller", "José Álvarez", "Chloë O'Brien", "Łukasz Wójcik"]


def members(rng: random.Random) -> list[tuple[str, int | None, str | None]]:
    names = SPECIAL + [f"{f} {l}" for f, l in zip(rng.sample(FIRST, 36), rng.sample(LAST, 36))]
    result = []
    for k, name in enumerate(names):
        rating = None if k % 13 == 7 else int(rng.gauss(1650, 260))
        rating = None if rating is None else max(900, min(2350, rating))
        fed_id = None if rating is None else str(7_000_000 + rng.randrange(900_000))
        result.append((name, rating, fed_id))
    return result


def expected_score(a: int | None, b: int | None) -> float:
    ra, rb = a or 1400, b or 1400
    return 1 / (1 + 10 ** ((rb - ra) / 400))


def game_result(rng: random.Random, white: int | None, black: int | None) -> str:
    if rng.random() < 0.025:
        return rng.choice(["+-", "-+"])
    e = expected_score(white, black)
    draw = 0.22
    x = rng.random()
    if x < e - draw / 2:
        return "1-0"
    if x < e + draw / 2:
        return "1/2-1/2"
    return "0-1"


def build(path: Path) -> None:
    rng = random.Random(SEED)
    if path.exists():
        path.unlink()
    store = Store.open(path, create=True)
    first_evening = date(2025, 9, 2)
    evening = lambda r: first_evening + timedelta(weeks=r - 1)  # noqa: E731
    store.clock = lambda: f"{evening(1).isoformat()}T19:00:00+00:00"
    store.origin = lambda: Message("%(user)s on %(computer)s", user="wedstrijdleider", computer="clublaptop")
    people = members(rng)
    late_entrant = people.pop()  # joins in round 9
    with store.change("member import", Message("import members")):
        ids = [store.add_member(*p) for p in people]
        late_id = store.add_member(*late_entrant)
    with store.change("competition create", Message("create competition %(name)s", name="Interne competitie 2025-2026")):
        comp = store.create_competition("Interne competitie 2025-2026", "classic", {"max_excused": 8})
        for member_id in ids:
            store.register(comp, member_id)
    players = {r["key"]: r for r in store.players(comp)}
    # A brother and sister who would rather not play each other.
    with store.change("forbid", Message("forbid a family pair")):
        store.forbid(comp, players[f"m{ids[3]}"]["id"], players[f"m{ids[4]}"]["id"])
    # Some members come nearly every week, some now and then.
    keenness = {key: rng.uniform(0.55, 0.95) for key in players}
    withdrawing = f"m{ids[10]}"
    for r in range(1, 32):
        store.clock = lambda r=r: f"{evening(r).isoformat()}T19:30:00+00:00"
        if r == 9:
            with store.change("player add", Message("register %(players)s", players=late_entrant[0])):
                store.register(comp, late_id, joined=9)
            players = {row["key"]: row for row in store.players(comp)}
            keenness[f"m{late_id}"] = 0.9
        marks: dict[str, str] = {}
        external: dict[str, str] = {}
        withdrawn = [withdrawing] if r == 19 else []
        season = store.load_season(comp)
        for p in season.players:
            if not p.active_in(r) or p.id in withdrawn:
                continue
            if rng.random() < keenness[p.id]:
                marks[p.id] = "present"
                continue
            x = rng.random()
            if x < 0.55:
                marks[p.id] = "excused"
            elif x < 0.75:
                marks[p.id] = "unexcused"
            elif x < 0.9:
                marks[p.id] = "club"
            else:
                external[p.id] = rng.choice(["win", "draw", "loss"])
        with store.change("attend", Message("attendance round %(round)s", round=r)):
            ops.mark_attendance(store, comp, marks, external, withdrawn, date=evening(r).isoformat())
        if r == 31:
            break  # the next round: attendance entered, not yet paired
        with store.change("pair", Message("pair round %(round)s", round=r)):
            pairing = ops.make_pairing(store, comp)
        ratings = {p.id: p.rating for p in store.load_season(comp).players}
        results = {b.board: game_result(rng, ratings[b.white], ratings[b.black]) for b in pairing.boards}
        store.clock = lambda r=r: f"{evening(r).isoformat()}T23:15:00+00:00"
        with store.change("result", Message("results round %(round)s", round=r)):
            ops.enter_results(store, comp, results)
    side_events(store, ids, random.Random(SEED + 1))
    with store.change("competition use", Message("use competition %(name)s", name="Interne competitie 2025-2026")):
        store.set_meta("current_competition", str(comp))
    # The file's random key (the venue's check-in codes) from the seeded generator: the same file every run.
    store.conn.execute("UPDATE app_secrets SET value = ? WHERE name = 'checkin'", (f"{rng.getrandbits(128):032x}",))
    # The rounds' stamps (schema 13: random, so that no two contents of a round share one) from it too.
    for comp_id, number in store.conn.execute("SELECT competition_id, round FROM round_stamps "
                                              "ORDER BY competition_id, round").fetchall():
        store.conn.execute("UPDATE round_stamps SET stamp = ? WHERE competition_id = ? AND round = ?",
                           (rng.getrandbits(64).to_bytes(8, "big"), comp_id, number))
    store.conn.commit()
    store.conn.execute("VACUUM")
    store.close()


def side_events(store: Store, ids: list[int], rng: random.Random) -> None:
    """The club's other competitions of the season, from their own random stream."""
    from keizer.operations import cup
    from keizer.operations.swiss import pair_next
    from keizer.systems.knockout import parse_stages
    from keizer.systems.points import POINTS_DEFAULTS
    from keizer.systems.fide import new_mode
    from keizer.systems.swiss import SWISS_DEFAULTS

    store.clock = lambda: "2025-11-15T10:00:00+00:00"
    with store.change("competition create", Message("create competition %(name)s", name="Rapidtoernooi 2025")):
        # FIDE's settings (the bye a win, a requested bye ½), so in FIDE mode as 'competition create' makes it
        rapid = store.create_competition("Rapidtoernooi 2025", "classic", {}, "swiss",
                                         new_mode("swiss", {**SWISS_DEFAULTS, "rounds": 5, "initial_colour": "white"},
                                                  None))
        for member_id in rng.sample(ids, 17):
            store.register(rapid, member_id)
    for r in range(1, 6):
        store.clock = lambda r=r: f"2025-11-15T{9 + r:02d}:00:00+00:00"
        marks = {}
        if r == 3:  # one player asks for a half-point bye
            marks[store.players(rapid)[5]["key"]] = "excused"
        with store.change("attend", Message("attendance round %(round)s", round=r)):
            ops.mark_attendance(store, rapid, marks, date="2025-11-15")
        with store.change("pair", Message("pair round %(round)s", round=r)):
            pairing = pair_next(store, rapid)
        ratings = {p.id: p.rating for p in store.load_season(rapid).players}
        with store.change("result", Message("results round %(round)s", round=r)):
            ops.enter_results(store, rapid, {b.board: game_result(rng, ratings[b.white], ratings[b.black])
                                             for b in pairing.boards})
    store.clock = lambda: "2025-09-09T19:00:00+00:00"
    with store.change("competition create", Message("create competition %(name)s", name="Meerkamp A")):
        group = store.create_competition("Meerkamp A", "classic", {}, "roundrobin",
                                         {**POINTS_DEFAULTS, "tiebreaks": ["DE", "SB", "WIN"]})
        for member_id in ids[:6]:
            store.register(group, member_id)
    with store.change("roundrobin draw", Message("round-robin draw")):
        ops.draw_round_robin(store, group, seed=2025, first_date=date(2025, 9, 9), every=14)
    season = store.load_season(group)
    ratings = {p.id: p.rating for p in season.players}
    for rnd in season.rounds[:4]:  # round 5 is still to be played
        with store.change("result", Message("results round %(round)s", round=rnd.number)):
            ops.enter_results(store, group, {g.board: game_result(rng, ratings[g.white], ratings[g.black])
                                             for g in rnd.games}, rnd.number)
    store.clock = lambda: "2025-10-01T19:00:00+00:00"
    with store.change("competition create", Message("create competition %(name)s", name="Clubbeker 2025-2026")):
        beker = store.create_competition("Clubbeker 2025-2026", "classic", {}, "knockout",
                                         {"stages": parse_stages("regular:2,armageddon:1")})
        for member_id in ids[6:18]:
            store.register(beker, member_id)
    with store.change("knockout draw", Message("draw the cup")):
        cup.draw_cup(store, beker)
    for _ in range(4):  # the first round and a half: every match played as far as its stages go
        season = store.load_season(beker)
        ratings = {p.id: p.rating for p in season.players}
        open_games = [(rnd.number, g) for rnd in season.rounds for g in rnd.games if g.result is None]
        if not open_games:
            break
        with store.change("result", Message("cup results")):
            for number, g in open_games:
                result = game_result(rng, ratings[g.white], ratings[g.black])
                if (g.stage or "").startswith("armageddon"):
                    result = result if result in ("1-0", "0-1") else "1/2-1/2"
                ops.enter_results(store, beker, {g.board: result}, number)
        with store.change("knockout next", Message("cup: next games")):
            if not cup.advance(store, beker) or max(store.round_numbers(beker)) > 2:
                break


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output", nargs="?", type=Path,
                        default=Path(__file__).resolve().parents[1] / "sample_club.db", help="default: sample_club.db")
    target = parser.parse_args().output
    build(target)
    print(f"wrote {target}")

"""A season read from a file (TRF, KeizerForClubs, season JSON, a rounds CSV) stored as a new
competition, its players matched to the club's members.
"""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import Any, Callable, Iterable, Mapping

from keizer.limits import fold_name
from keizer.model import Season
from keizer.settings import Settings
from keizer.store import Store, StoreError


#: How alike two folded names must be (difflib's ratio) to ask "did you mean": 'anne de vries'
#: and 'anna de vries' are 0.92 alike, 'jan smit' and 'jan smid' 0.88, 'bram jansen' and
#: 'hans jansen' 0.82 (two people).
NEAR = 0.85


def near_names(name: str, names: Iterable[str]) -> list[str]:
    """The names among ``names`` that ``name`` is close to but not the same as (case,
    accents and spaces aside; 'Vries, Anna de' is 'Anna de Vries'), closest first: a
    typing slip the officer should see before a new member is made of it.

    >>> near_names("Anne de Vries", ["Anna de Vries", "Bram Jansen", "anne de vries "])
    ['Anna de Vries']
    >>> near_names("Vries, Anna de", ["Anna de Vries"]), near_names("Hans Jansen", ["Bram Jansen"])
    (['Anna de Vries'], [])
    """
    mine = fold_name(name)
    last, comma, first = name.partition(",")
    turned = fold_name(f"{first} {last}") if comma and first.strip() else mine
    scored = []
    for other in names:
        theirs = fold_name(other)
        if theirs == mine:
            continue
        ratio = 1.0 if theirs == turned else SequenceMatcher(None, mine, theirs).ratio()
        if ratio >= NEAR:
            scored.append((-ratio, other))
    return [other for _, other in sorted(scored)]


class MemberFinder:
    """Which club member each player of an imported file is.  The members are read once
    and indexed, and members the import adds join the index, so each player is a
    dictionary look-up: an import stays linear in the size of the file."""

    def __init__(self, store: Store, tell: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.tell = tell or (lambda line: None)
        self.exact: dict[tuple[str, int | None], list[int]] = {}
        self.folded: dict[str, list[int]] = {}
        for m in store.members():
            self._index(m["id"], m["name"], m["rating"])
        self.taken: set[int] = set()

    def _index(self, member: int, name: str, rating: int | None) -> None:
        self.exact.setdefault((name, rating), []).append(member)
        self.folded.setdefault(fold_name(name), []).append(member)

    def __call__(self, name: str, rating: int | None) -> int:
        """The member with this name and rating; else the one member with this name
        (case, accents and spaces aside: a rating list may have changed the rating since),
        else a new member.  A name that fits several members is refused: a guess could
        give one person's games to another."""
        free = [m for m in self.exact.get((name.strip(), rating), []) if m not in self.taken]
        if len(free) != 1:
            free = [m for m in self.folded.get(fold_name(name), []) if m not in self.taken]
            if len(free) > 1:
                raise StoreError("%(name)s in the file fits %(count)s members (ids %(ids)s)", hint="ev_distinct_names",
                                 name=repr(name), count=len(free), ids=", ".join(map(str, free)))
        if free:
            member = free[0]
        else:
            member = self.store.add_member(name, rating)
            stored = self.store.member(member)
            self._index(member, stored["name"], stored["rating"])
            self.tell(f"new member: {stored['name']}" + (f" (rating {rating})" if rating is not None else ""))
        self.taken.add(member)
        return member


def import_season(store: Store, season: Season, name: str | None = None, preset: str = "classic",
                  system: str = "keizer", system_settings: Mapping[str, Any] | None = None,
                  tell: Callable[[str], None] | None = None, rating_list: str | None = None) -> int:
    """Store a parsed season as a new competition.  Its players become the club's members
    of the same name (``tell`` hears of each member it adds), and keep the ratings the file
    gives them: those ordered its standings, whatever the members' ratings are today.
    ``rating_list`` (national or fide) is the list that ordered it, set before play is frozen."""
    comp_name = name or season.name
    overrides = season.settings.differences(Settings.from_preset(preset))
    comp_id = store.create_competition(comp_name, preset, {k: v[0] for k, v in overrides.items()}
                                       | ({"rating_list": rating_list} if rating_list else {}),
                                       system, system_settings)
    ids: dict[str, int] = {}
    member_for = MemberFinder(store, tell)
    for start_no, p in enumerate(sorted(season.players, key=lambda p: p.start_no), 1):
        member = member_for(p.name, p.rating)
        store.register(comp_id, member, p.joined, p.category, key=p.id, start_no=start_no)
        row = store.find_player(comp_id, p.id)
        if p.withdrawn_after is not None:
            store.update_player(row["id"], withdrawn_after=p.withdrawn_after)
        ids[p.id] = row["id"]
    if season.initial_order:
        store.set_initial_order(comp_id, list(season.initial_order))
    if any(r.games for r in season.rounds):
        store.start(comp_id, {ids[p.id]: p.rating for p in season.players})
    for rnd in season.rounds:
        store.ensure_round(comp_id, rnd.number, rnd.date)
        store.set_round_time_control(comp_id, rnd.number, rnd.time_control)
        marks: dict[int, tuple[str, str | None]] = {}  # a later mark of a player wins, as before
        for g in rnd.games:
            store.add_game(comp_id, rnd.number, g.board, ids[g.white], ids[g.black],
                           g.result.value if g.result else None)
            for pid in (g.white, g.black):
                marks[ids[pid]] = ("present", None)
        for pid, why in rnd.absent.items():
            marks[ids[pid]] = (why.value, None)
        for pid, ext in rnd.external.items():
            marks[ids[pid]] = ("external", ext.value)
        for pid in rnd.present:
            marks[ids[pid]] = ("present", None)
        store.set_round_attendance(comp_id, rnd.number, marks)
    return comp_id

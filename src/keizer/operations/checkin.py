"""Members check in at the venue: "I am here" from a phone, until the round is paired.

How a member is known (an arbiter's view: nobody may mark anybody else present):

* **Who** is always the member's personal link (``/m/<token>``, made by the officer or
  sent with the week's mail): only its owner has it.  The link's page shows *I am here*
  for each competition whose check-in is open for the member; a phone that opened the
  link keeps it in a cookie for the check-in page only.
* **Where** is the round's check-in code: the venue screen (before the pairing) and the
  printed pairing list (for the next round: it hangs on the notice board all week) carry a
  QR code of ``/checkin/<competition>/<round>/<code>``.  The code is an HMAC of the
  competition and round with a random key of the file (:meth:`Store.app_secret`), so it
  needs no storing, is another for every round and cannot be guessed from an earlier one.
  The page it opens asks for nothing else when the phone knows its member (the cookie);
  otherwise it asks for the personal link (pasted) and then checks the member in.
* **When**: only for the competition's open round, before it is paired, on the round's
  evening (its date, else the date a week after the last dated round; a round with no date
  in sight is open).  Paired, the round's check-in is over: the arbiter takes a latecomer.

A check-in is kept per player and round (:meth:`Store.add_checkin`).  When the round's
attendance is prepared (the officer saves the page, or the pairing fills in the unmarked
players), a checked-in player is **present** whatever their default or notice says; when
the attendance was marked already, the check-in marks the player present at once.  A mark
the officer gives afterwards wins, as always.

Everything writes in the caller's transaction (``store.change``).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import date
from typing import Any

from keizer import systems
from keizer.operations.boards import ALPHABET
from keizer.store import Store, StoreError
from keizer.systems import open_round

#: Letters of a round's check-in code (from the board codes' alphabet: 40 bits).
CODE_LENGTH = 8


class CheckinRefused(StoreError):
    """A check-in that cannot be made; ``status`` is the HTTP status the page answers with."""

    def __init__(self, message: str, status: int, /, **values: Any) -> None:
        super().__init__(message, **values)
        self.status = status


@dataclass(frozen=True)
class CheckedIn:
    """What a check-in did."""

    competition: str
    round: int
    name: str
    first: bool  # False: the player had checked in already
    at: str  # when the player (first) checked in


@dataclass(frozen=True)
class Open:
    """A competition whose check-in is open for a member."""

    comp_id: int
    competition: str
    round: int
    checked_in: str | None  # when the member checked in, if they did


def round_code(store: Store, comp_id: int, number: int) -> str:
    """The check-in code of a competition's round: the same every time it is asked for.

    >>> store = Store.memory()
    >>> code = round_code(store, 1, 5)
    >>> code == round_code(store, 1, 5) != round_code(store, 1, 6)
    True
    >>> len(code) == CODE_LENGTH and set(code) <= set(ALPHABET)
    True
    """
    digest = hmac.new(store.app_secret("checkin").encode("ascii"), f"{comp_id}:{number}".encode("ascii"),
                      hashlib.sha256).digest()
    return "".join(ALPHABET[b % len(ALPHABET)] for b in digest[:CODE_LENGTH])


def round_date(store: Store, comp_id: int, number: int) -> str | None:
    """The evening of a round: its date, else a week after the last dated round before it."""
    from keizer.operations.rounds import next_date

    season = store.load_season(comp_id)
    given = season.rounds[number - 1].date if number <= len(season.rounds) else None
    return given or next_date(season, number)


def open_for_checkin(store: Store, comp_id: int, today: date) -> int | None:
    """The round of the competition members may check in for today, or None."""
    comp = store.competition_by_id(comp_id)
    kind = systems.of(comp["system"])
    if not (kind.weekly and kind.from_attendance) or store.system_settings(comp_id).get("closed"):
        return None
    target = open_round(store.load_season(comp_id))
    if target.paired:
        return None
    day = round_date(store, comp_id, target.number)
    return target.number if day is None or day == today.isoformat() else None


def check_code(store: Store, comp_id: int, number: int, code: str, today: date) -> str:
    """The competition's name when ``code`` is the check-in code of its round ``number`` and
    that round's check-in is open today; refused (:class:`CheckinRefused`) otherwise."""
    try:
        comp = store.competition_by_id(comp_id)
    except StoreError:
        raise CheckinRefused("this check-in code is not known; scan the code at the venue again", 404) from None
    if not hmac.compare_digest(code.upper().encode("utf-8"), round_code(store, comp_id, number).encode("ascii")):
        raise CheckinRefused("this check-in code is not known; scan the code at the venue again", 404)
    target = open_round(store.load_season(comp_id))
    if number < target.number or (number == target.number and target.paired):
        raise CheckinRefused("round %(n)s of %(competition)s is paired: check-in is over; tell the arbiter you are "
                             "here", 403, n=number, competition=comp["name"])
    if open_for_checkin(store, comp_id, today) != number:
        day = round_date(store, comp_id, number)
        raise CheckinRefused("check-in for round %(n)s of %(competition)s opens on its evening (%(day)s)", 403,
                             n=number, competition=comp["name"], day=day or "?")
    return str(comp["name"])


def check_in(store: Store, comp_id: int, member_id: int, today: date) -> CheckedIn:
    """The member is here for the competition's open round (see the module's rules)."""
    comp = store.competition_by_id(comp_id)
    number = open_for_checkin(store, comp_id, today)
    member = store.member(member_id)
    if number is None:
        raise CheckinRefused("check-in for %(competition)s is not open now: it is open on the evening of a round "
                             "until the round is paired", 403, competition=comp["name"])
    player = next((p for p in store.players(comp_id) if p["member_id"] == member_id), None)
    season = store.load_season(comp_id)
    if player is None or not next(p for p in season.players if p.id == player["key"]).active_in(number):
        raise CheckinRefused("%(name)s does not play in round %(n)s of %(competition)s; ask the arbiter", 403,
                             name=member["name"], n=number, competition=comp["name"])
    first = store.add_checkin(comp_id, number, player["id"])
    marked = store.attendance(comp_id, number) if number <= len(season.rounds) else {}
    if marked and marked.get(player["id"], (None, None))[0] != "present":
        store.set_attendance(comp_id, number, player["id"], "present")
    return CheckedIn(str(comp["name"]), number, str(member["name"]), first, store.checkins(comp_id, number)[player["id"]])


def open_checkins(store: Store, member_id: int, today: date) -> list[Open]:
    """The competitions the member may check in for today, with whether they did."""
    found = []
    for comp in store.competitions():
        number = open_for_checkin(store, comp["id"], today)
        if number is None:
            continue
        player = next((p for p in store.players(comp["id"]) if p["member_id"] == member_id), None)
        if player is None or not next(p for p in store.load_season(comp["id"]).players
                                      if p.id == player["key"]).active_in(number):
            continue
        found.append(Open(comp["id"], comp["name"], number, store.checkins(comp["id"], number).get(player["id"])))
    return found


def checked_in_at(store: Store, comp_id: int, number: int, member_id: int) -> str | None:
    """When the member checked in for round ``number`` of the competition, or None."""
    player = next((p for p in store.players(comp_id) if p["member_id"] == member_id), None)
    return None if player is None else store.checkins(comp_id, number).get(player["id"])


def round_checkins(store: Store, comp_id: int, number: int) -> dict[str, str]:
    """Player key → when the player checked in for the round."""
    keys = {p["id"]: p["key"] for p in store.players(comp_id)}
    return {keys[pid]: at for pid, at in store.checkins(comp_id, number).items() if pid in keys}

"""Members' personal links and their notices of absence.

A member gets a personal link (``/m/<token>`` in the web app): a random token of which
only the SHA-256 is stored, so a copy of the database gives no link away.  The
officer makes one (a new one revokes the old) and revokes it; a link older than the
club's ``link_days`` setting (default 365) is refused as expired.

Through the link the member says "I cannot come" for a club evening.  When the
attendance of a round with a date is prepared (the players nobody marked get their
default, :func:`keizer.operations.attendance.mark_attendance`), a member who sent
notice for that date is marked **excused** if the notice came before the deadline
(by default the day before, 18:00, the server's local time), else as the
``late_notice`` setting says (default **unexcused**).  A mark the officer gives
explicitly always wins over a notice, and a round whose attendance was marked before
the notice arrived keeps its marks.

The club evenings a member is offered: the dates of rounds still to come, and the
weekly evenings of the next eight weeks on the club's evening weekday (the
``evening_day`` setting, else the weekday most recent rounds were on).  Any other date
can be given too.

Settings live in the database's meta table (``club_notice_days``, ``club_notice_time``,
``club_late_notice``, ``club_link_days``, ``club_evening_day``): see
:func:`notice_settings` and :func:`set_notice_settings`.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import Any

from keizer.limits import is_digits
from keizer.refusals import Message, Words
from keizer.store import Store, StoreError

#: The channel a notice came through, as the officer sees it.
VIA_LINK = "member link"
#: How many weeks of club evenings a member is offered.
WEEKS = 8
#: How far ahead a notice may be given (days).
AHEAD = 366
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_TIME = re.compile(r"([01]?\d|2[0-3]):([0-5]\d)")

#: setting → (meta key, default)
SETTINGS = {
    "notice_days": ("club_notice_days", "1"),
    "notice_time": ("club_notice_time", "18:00"),
    "late_notice": ("club_late_notice", "unexcused"),
    "link_days": ("club_link_days", "365"),
    "evening_day": ("club_evening_day", ""),
}


@dataclass(frozen=True)
class NoticeRules:
    notice_days: int  # the deadline is this many days before the evening …
    notice_time: str  # … at this time (HH:MM, the server's local time)
    late_notice: str  # what a notice after the deadline counts as: excused or unexcused
    link_days: int  # a member link older than this is expired
    evening_day: str  # the club's evening weekday ('' = the weekday most recent rounds were on)

    def deadline(self, day: str) -> datetime:
        """The moment a notice for the evening ``day`` must have come by (aware, local time)."""
        hours, minutes = (int(x) for x in self.notice_time.split(":"))
        when = date.fromisoformat(day) - timedelta(days=self.notice_days)
        return datetime.combine(when, time(hours, minutes)).astimezone()

    def counts_as(self, day: str, sent: str) -> str:
        """excused when ``sent`` (an ISO time as the store records it) is before the deadline."""
        return "excused" if _aware(sent) <= self.deadline(day) else self.late_notice

    def describe(self) -> Message:
        """The rules in a line ("notice by 18:00 the day before counts as excused, later as unexcused; …")."""
        before = {0: Message("the same day"), 1: Message("the day before")}.get(
            self.notice_days, Message("%(n)s days before", n=self.notice_days))
        return Message("notice by %(time)s %(before)s counts as excused, later as %(late)s; links expire after "
                       "%(days)s days", time=self.notice_time, before=before, late=Words((self.late_notice,)),
                       days=self.link_days)


class LinkRefused(StoreError):
    """A member link that is unknown (404), revoked or expired (403)."""

    def __init__(self, message: str, status: int, /, **values: Any) -> None:
        super().__init__(message, **values)
        self.status = status


# -- settings -------------------------------------------------------------------


def notice_settings(store: Store) -> NoticeRules:
    values = {name: store.get_meta(key) or default for name, (key, default) in SETTINGS.items()}
    return NoticeRules(int(values["notice_days"]), values["notice_time"], values["late_notice"],
                       int(values["link_days"]), values["evening_day"])


def set_notice_settings(store: Store, **values: str | int | None) -> NoticeRules:
    """Change the notice settings (a value of None is left as it is); refuses bad values."""
    for name, value in values.items():
        if value is None:
            continue
        if name not in SETTINGS:
            raise StoreError("unknown notice setting %(name)s (choose from %(names)s)", name=repr(name),
                             names=", ".join(SETTINGS))
        text = str(value).strip().lower()
        if name == "notice_days":
            if not _whole(text, 0, 14):
                raise StoreError("notice_days must be a whole number from %(low)s to %(high)s, not %(text)s",
                                 low=0, high=14, text=repr(text[:20]))
            text = str(int(text))
        elif name == "link_days":
            if not _whole(text, 1, 3650):
                raise StoreError("link_days must be a whole number from %(low)s to %(high)s, not %(text)s",
                                 low=1, high=3650, text=repr(text[:20]))
            text = str(int(text))
        elif name == "notice_time":
            match = _TIME.fullmatch(text)
            if not match:
                raise StoreError("notice_time must be a time like 18:00, not %(text)s", text=repr(text[:20]))
            text = f"{int(match[1]):02d}:{match[2]}"
        elif name == "late_notice" and text not in ("excused", "unexcused"):
            raise StoreError("late_notice must be excused or unexcused, not %(text)s", text=repr(text[:20]))
        elif name == "evening_day" and text:
            found = [d for d in WEEKDAYS if len(text) >= 2 and d.startswith(text)]
            if len(found) != 1:
                raise StoreError("evening_day must be a weekday (monday … sunday) or empty, not %(text)s",
                                 text=repr(text[:20]))
            text = found[0]
        key, default = SETTINGS[name]
        if (store.get_meta(key) or default) != text:  # an unchanged value is no change to undo
            store.set_meta(key, text)
    return notice_settings(store)


def _whole(text: str, low: int, high: int) -> bool:
    return is_digits(text) and low <= int(text) <= high


# -- links ----------------------------------------------------------------------


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_link(store: Store, member_id: int) -> str:
    """A new personal link for the member (their old one is revoked); returns its token,
    which is shown once and never stored."""
    store.member(member_id)
    store.revoke_member_links(member_id)
    token = secrets.token_urlsafe(24)
    store.add_member_link(member_id, token_hash(token))
    return token


def revoke_link(store: Store, member_id: int) -> int:
    """Revoke the member's link; refused when they have none."""
    member = store.member(member_id)
    revoked = store.revoke_member_links(member_id)
    if not revoked:
        raise StoreError("%(name)s has no personal link to revoke", name=member["name"])
    return revoked


def links(store: Store, now: datetime | None = None) -> list[dict[str, Any]]:
    """Each member with their link in force (created, expires, expired), or none."""
    rules = notice_settings(store)
    now = now or datetime.now(timezone.utc)
    active = {row["member_id"]: row for row in store.member_links()}
    rows = []
    for member in store.members():
        link = active.get(member["id"])
        expires = _aware(link["created"]) + timedelta(days=rules.link_days) if link else None
        rows.append({"member_id": member["id"], "name": member["name"],
                     "created": link["created"] if link else None,
                     "expires": expires.date().isoformat() if expires else None,
                     "expired": bool(expires and expires < now)})
    return rows


def member_for_token(store: Store, token: str, now: datetime | None = None) -> dict[str, Any]:
    """The member whose link this is; refused (:class:`LinkRefused`) when the link is
    unknown, revoked or expired."""
    row = store.member_link(token_hash(token)) if token and len(token) <= 200 else None
    if row is None:
        raise LinkRefused("this personal link is not known; check it, or ask the competition leader for a new one",
                          404)
    if row["revoked"]:
        raise LinkRefused("this personal link was revoked; ask the competition leader for a new one", 403)
    rules = notice_settings(store)
    if _aware(row["created"]) + timedelta(days=rules.link_days) < (now or datetime.now(timezone.utc)):
        raise LinkRefused("this personal link has expired (links last %(days)s days); ask the competition leader for "
                          "a new one", 403, days=rules.link_days)
    return store.member(row["member_id"])


# -- notices --------------------------------------------------------------------


def club_evenings(store: Store, today: date, weeks: int = WEEKS) -> list[str]:
    """The club evenings of the next ``weeks`` weeks (today included): the dates of rounds
    to come, and each week's evening weekday (the ``evening_day`` setting, else the
    weekday most of the latest rounds were played on)."""
    rules = notice_settings(store)
    horizon = today + timedelta(weeks=weeks)
    dates = [d for d in (_date(text) for text in store.round_dates()) if d is not None]
    found = {d for d in dates if today <= d < horizon}
    weekday = WEEKDAYS.index(rules.evening_day) if rules.evening_day else usual_weekday(dates)
    if weekday is not None:
        first = today + timedelta(days=(weekday - today.weekday()) % 7)
        found |= {first + timedelta(weeks=k) for k in range(weeks) if first + timedelta(weeks=k) < horizon}
    return [d.isoformat() for d in sorted(found)]


def usual_weekday(dates: list[date], recent: int = 20) -> int | None:
    """The weekday most of the latest rounds were played on (ties: the latest's): a Saturday's
    rapid tournament does not move a club's Tuesday evenings.

    >>> tuesdays = [date(2026, 9, 1) + timedelta(weeks=k) for k in range(5)]
    >>> usual_weekday(tuesdays + [date(2026, 10, 10)])   # one Saturday after five Tuesdays
    1
    """
    latest = sorted(dates)[-recent:]
    if not latest:
        return None
    counts: dict[int, int] = {}
    for d in latest:
        counts[d.weekday()] = counts.get(d.weekday(), 0) + 1
    return max(counts, key=lambda w: (counts[w], max(d for d in latest if d.weekday() == w)))


def check_notice_date(text: str, today: date) -> str:
    """An evening a notice may be given for: a date from today up to a year ahead."""
    day = _date(text.strip())
    if day is None:
        raise StoreError("give the date as YYYY-MM-DD, e.g. %(today)s, not %(text)s", today=today.isoformat(),
                         text=repr(text.strip()[:20]))
    if day < today:
        raise StoreError("%(day)s is past; a notice can only be given for an evening to come", day=day.isoformat())
    if day > today + timedelta(days=AHEAD):
        raise StoreError("%(day)s is more than a year ahead; give notice nearer the time", day=day.isoformat())
    return day.isoformat()


def send_notice(store: Store, member_id: int, day: str, today: date, via: str = VIA_LINK) -> bool:
    """The member cannot come on ``day``; False when they had said so already."""
    return store.add_notice(member_id, check_notice_date(day, today), via)


def withdraw_notice(store: Store, member_id: int, day: str, today: date) -> bool:
    """The member can come after all; False when there was no notice."""
    return store.remove_notice(member_id, check_notice_date(day, today))


def with_status(store: Store, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Notices with what each counts as (excused or as the late setting says) and the deadline."""
    rules = notice_settings(store)
    return [{**row, "status": rules.counts_as(row["date"], row["sent"]),
             "deadline": rules.deadline(row["date"]).isoformat(timespec="minutes")} for row in rows]


def member_notices(store: Store, member_id: int, today: date) -> list[dict[str, Any]]:
    """One member's notices for evenings to come."""
    return with_status(store, store.notices(member_id=member_id, since=today.isoformat()))


def recent_notices(store: Store, today: date, days_back: int = 28) -> list[dict[str, Any]]:
    """Every member's notices for the evenings to come and the last ``days_back`` days."""
    return with_status(store, store.notices(since=(today - timedelta(days=days_back)).isoformat()))


def round_notices(store: Store, comp_id: int, number: int, day: str | None = None,
                  players_read: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The notices of the competition's players for the date of round ``number`` (or ``day``,
    the date the round will most likely have; none when there is no date), each with the
    player's id and what it counts as (``players_read``: the competition's players, when the
    caller has read them already)."""
    day = store.round_date(comp_id, number) or day
    if not day:
        return []
    players = {row["member_id"]: row for row in (store.players(comp_id) if players_read is None else players_read)}
    return [{**row, "player_id": players[row["member_id"]]["id"], "player": players[row["member_id"]]["key"]}
            for row in with_status(store, store.notices(date=day)) if row["member_id"] in players]


def absence_marks(store: Store, comp_id: int, number: int) -> dict[int, str]:
    """Player id → excused / unexcused for the players who sent notice for round
    ``number``'s date: what preparing the attendance marks them instead of their default."""
    return {row["player_id"]: row["status"] for row in round_notices(store, comp_id, number)}


def _date(text: str) -> date | None:
    try:
        return date.fromisoformat(text) if len(text) == 10 else None
    except ValueError:
        return None


def _aware(stamp: str) -> datetime:
    moment = datetime.fromisoformat(stamp)
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)

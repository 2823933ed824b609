"""The pages of the app, one module per concept, each a Flask blueprint named after
its module.  :data:`MAIN_NAV` and :func:`comp_tabs` draw the navigation."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from keizer import systems
from keizer.web.context import club_or_default, setup_pending
from keizer.web.views import (attendance, boards, careers, changes, checkin, club, competitions, cups, home, mail,
                              member_links, members, pairing, printing, publishing, results, setup, standings, teams,
                              users, venue)

BLUEPRINTS: list[Blueprint] = [m.bp for m in (home, attendance, pairing, results, standings, members, competitions,
                                              changes, printing, venue, publishing, boards, member_links, users, cups,
                                              teams, setup, club, checkin, mail, careers)]

#: (endpoint, label, key); each is shown to those who may use it (keizer.web.access)
MAIN_NAV = [
    ("competitions.index", "Competitions", "competitions"),
    ("members.index", "Members", "members"),
    ("changes.index", "Change log", "log"),
    ("publishing.index", "Publish", "publish"),
    ("users.index", "Users", "users"),
    ("club.index", "Club", "club"),
]


def navigation() -> dict[str, Any]:
    """What every page's header needs (a context processor of the app)."""
    name = "keizer" if setup_pending() else club_or_default()["name"]  # no club yet: the program's name
    return {"club_name": name, "main_nav": MAIN_NAV, "comp_tabs": comp_tabs}


def comp_tabs(comp: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The tabs of a competition's pages: (endpoint, label, key)."""
    system = systems.of(comp["system"])
    tabs: list[tuple[str, str, str]] = []
    if system.weekly:
        tabs += [("attendance.index", "Attendance", "attendance"), ("pairing.index", "Pairing", "pairing"),
                 ("results.index", "Results", "results")]
    elif system.standing_kind == "bracket":
        tabs += [("cups.index", "Cup", "cup")]
    elif system.standing_kind == "matches":
        tabs += [("teams.index", "Team event", "teams")]
    tabs += [("standings.index", "Standings", "standings"), ("standings.crosstable", "Crosstable", "crosstable"),
             ("printing.index", "Print", "print"), ("venue.screen", "Venue screen", "venue")]
    if system.weekly:
        tabs += [("mail.index", "Mail", "mail")]
    tabs += [("competitions.settings", "Settings", "settings")]
    return tabs

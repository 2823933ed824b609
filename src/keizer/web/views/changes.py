"""The change log (``keizer log``), newest first, and undo (``keizer undo``) with a
confirmation that says exactly which change is reverted.  The confirmation sends that
change's id: if another change came in meanwhile, nothing is undone (:meth:`Store.undo`).
An arbiter may read the log; only an officer may undo."""

from __future__ import annotations

import datetime
from typing import Any

from flask import Blueprint, flash, redirect, request, url_for

from keizer.i18n import N_
from keizer.operations import changes as change_ops
from keizer.refusals import Message
from keizer.refusals import Word
from keizer.web import forms
from keizer.web.access import arbiter
from keizer.web.context import _, render, say, store

bp = Blueprint("changes", __name__)

#: Changes shown per page unless ?n= says otherwise.
SHOWN = 50

#: The log's command column in the club's language: command → its name (the command line's,
#: in English; "club" and "late" are other words of the catalogs, so they are named in full).
COMMANDS: dict[str, str] = {
    "attend": N_("attend"), "board report": N_("board report"), "board reports": N_("board reports"),
    "checkin": N_("check-in"), "mail": N_("week's mail"),
    "club": N_("club settings"), "competition create": N_("competition create"),
    "competition order": N_("competition order"), "competition season": N_("competition season"),
    "competition settings": N_("competition settings"), "competition use": N_("competition use"),
    "forbid": N_("forbid"), "import": N_("import"), "knockout award": N_("knockout award"),
    "knockout draw": N_("knockout draw"), "knockout next": N_("knockout next"), "late": N_("latecomer"),
    "member add": N_("member add"), "member edit": N_("member edit"), "member import": N_("member import"),
    "member-link": N_("member-link"), "member-link revoke": N_("member-link revoke"), "noshow": N_("noshow"),
    "notice": N_("notice"), "notices settings": N_("notices settings"), "pair": N_("pair"),
    "player add": N_("player add"), "player reinstate": N_("player reinstate"), "player set": N_("player set"),
    "player withdraw": N_("player withdraw"), "print slips": N_("print slips"), "publish": N_("publish"),
    "ratings import": N_("ratings import"), "result": N_("result"), "roundrobin draw": N_("roundrobin draw"),
    "season close": N_("season close"), "season new": N_("season new"), "season reopen": N_("season reopen"),
    "swap": N_("swap"), "swiss rounds": N_("swiss rounds"), "team add": N_("team add"),
    "team award": N_("team award"), "team lineup": N_("team lineup"), "team next": N_("team next"),
    "team result": N_("team result"), "team schedule": N_("team schedule"), "timecontrol": N_("timecontrol"),
    "undo": N_("undo"), "unpair": N_("unpair"), "user add": N_("user add"), "user password": N_("user password"),
    "user remove": N_("user remove"), "user role": N_("user role"),
}

#: What only the command line and the demo season log (the app's own summaries are found in
#: its views): msgids for the catalogs, so that the log words them too.
LOGGED_ELSEWHERE = (
    N_("%(rounds)s rounds planned"), N_("attendance"), N_("club settings"), N_("close season %(season)s"),
    N_("cup results"), N_("draw the cup"), N_("edit member %(member)s"), N_("forbid a family pair"),
    N_("import %(name)s"), N_("import members"), N_("new season %(season)s from %(source)s"),
    N_("new season %(season)s: %(name)s from %(source)s"), N_("reopen season %(season)s"),
    N_("results round %(round)s"), N_("round %(round)s match %(match)s: %(results)s"),
    N_("round %(round)s: latecomer %(player)s"), N_("round %(round)s: no-show %(player)s"),
    N_("season %(season)s"), N_("use competition %(name)s"), N_("%(user)s on %(computer)s"),
    N_("results %(results)s"),
)


@bp.route("/log")
@arbiter
def index() -> Any:
    limit = forms.whole(request.args.get("n", str(SHOWN)), Word("n"), 1, 10_000)
    rows = _shown(store().changes(limit, said=True))
    return render("app/log.html", title=_("Change log"), nav="log", changes=rows, limit=limit,
                  last=store().last_change())


def when(at: str) -> str:
    """A change's moment (stored in UTC) as the clock at the club shows it: ``2026-03-31 20:15``."""
    try:
        moment = datetime.datetime.fromisoformat(at)
    except (TypeError, ValueError):
        return str(at).replace("T", " ")
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return moment.strftime("%Y-%m-%d %H:%M")


def _worded(said: Message | str | None) -> str:
    """A summary or origin in the club's language (an entry logged as text: as it was stored)."""
    return say(said) if isinstance(said, Message) else said or ""


def _command(name: str) -> str:
    return _(COMMANDS[name]) if name in COMMANDS else name


def _shown(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The log's rows as the page shows them: when (the club's clock), command, what, by whom."""
    return [{**row, "when": when(row["at"]), "command": _command(row["command"]),
             "summary": _worded(change_ops.summary(row)), "origin": _worded(change_ops.origin(row))}
            for row in rows]


def _described(change: dict[str, Any]) -> str:
    """A change in one line, as 'keizer undo' says it, in the club's language."""
    values = {"command": _command(change["command"]), "at": change["at"].replace("T", " "),
              "summary": _worded(change_ops.summary(change))}
    by = _worded(change_ops.origin(change))
    if by:
        return _("'%(command)s' of %(at)s by %(origin)s: %(summary)s", origin=by, **values)
    return _("'%(command)s' of %(at)s: %(summary)s", **values)


@bp.route("/log/undo", methods=["GET", "POST"])
def undo() -> Any:
    if request.method == "GET":
        last = change_ops.last_change(store())
        rows = _shown(store().changes(SHOWN, said=True))
        shown = _shown([last])[0]
        return render("app/log.html", title=_("Undo"), nav="log", changes=rows, limit=SHOWN, last=last,
                      confirm={"id": last["id"], "what": shown["summary"], "when": shown["when"],
                               "by": shown["origin"], "command": shown["command"]})
    change_id = forms.whole(request.form.get("change", ""), Word("change"), 1, 2**62)
    undone = change_ops.undo(store(), change_id)
    flash(_("undone: %(what)s", what=_described(undone)), "ok")
    return redirect(url_for("changes.index"), code=303)

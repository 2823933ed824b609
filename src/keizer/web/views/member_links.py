"""A member's personal link to send notice of absence (/m/<token>, public: the token is
the key), and the officer's page of links and notices (/members/links).  The rules live
in keizer.operations.notices."""

from __future__ import annotations

from datetime import date as _date, datetime as _datetime, timezone as _timezone
from typing import Any

from flask import Blueprint, flash, g, make_response, redirect, request, url_for
from markupsafe import Markup

from keizer.operations import checkin as checkin_ops
from keizer.operations import notices as notice_ops
from keizer.refusals import Message, Word
from keizer.web.access import public
from keizer.web.context import _, back, link_refused, private, render, say, store, writing
from keizer.web.context import day as _day
from keizer.web.views.checkin import remember

bp = Blueprint("member_links", __name__)



@bp.route("/m/<token>", methods=["GET", "POST"])
@public
def member(token: str) -> Any:
    """The member's own page: the club evenings to come, "I cannot come" per evening."""
    try:
        person = notice_ops.member_for_token(store(), token)
    except notice_ops.LinkRefused as refused:
        return link_refused(refused)
    today = _date.today()
    if request.method == "POST":
        absent = request.form.get("action") != "come"
        day = notice_ops.check_notice_date(request.form.get("date", ""), today)
        g.origin = Message("member link: %(name)s from %(address)s", name=person["name"],
                           address=request.remote_addr or Word("an unknown address"))
        with writing("notice", Message("%(name)s %(what)s on %(day)s", name=person['name'], day=day,
                                       what=Word("cannot come") if absent else Word("can come after all"))) as s:
            if absent:
                changed = notice_ops.send_notice(s, person["id"], day, today)
            else:
                changed = notice_ops.withdraw_notice(s, person["id"], day, today)
        shown = _day(day)  # as the member reads a date, not 2026-10-14
        if absent:
            flash(_("noted: you cannot come on %(day)s", day=shown) if changed
                  else _("you had already said you cannot come on %(day)s", day=shown), "ok")
        else:
            flash(_("noted: you can come on %(day)s after all", day=shown) if changed
                  else _("you had sent no notice for %(day)s", day=shown), "ok")
        return private(redirect(url_for("member_links.member", token=token), code=303))
    sent = {n["date"]: n for n in notice_ops.member_notices(store(), person["id"], today)}
    evenings = sorted(set(notice_ops.club_evenings(store(), today)) | set(sent))
    rules = notice_ops.notice_settings(store())
    now = _datetime.now(_timezone.utc)
    rows = [{"date": d, "notice": sent.get(d),
             "deadline": f"{_day(rules.deadline(d).date().isoformat())}, {rules.deadline(d):%H:%M}",
             "late": rules.deadline(d) < now} for d in evenings]
    remember(token)  # the venue's check-in code knows this phone's member from now on
    return private(make_response(render("app/member_link.html", title=person["name"], person=person,
                                         evenings=rows, rules=rules, today=today.isoformat(), token=token,
                                         checkins=checkin_ops.open_checkins(store(), person["id"], today))))


@bp.route("/members/links")
def index() -> Any:
    return _member_links_page()


def _member_links_page(new: dict[str, Any] | None = None) -> Any:
    today = _date.today()
    return render("app/member_links.html", title=_("Personal links"), nav="members", new=new,
                  links=notice_ops.links(store()), notices=notice_ops.recent_notices(store(), today),
                  rules=notice_ops.notice_settings(store()), weekdays=notice_ops.WEEKDAYS, today=today.isoformat())


def _member_id() -> int:
    text = request.form.get("member", "")
    known = text.isascii() and text.isdigit() and len(text) < 19  # an id SQLite can hold
    return store().member(int(text) if known else -1)["id"]


@bp.route("/members/links/new", methods=["POST"])
def member_link_new() -> Any:
    """A new (or renewed) personal link, shown once on the page that answers."""
    person = store().member(_member_id())
    with writing("member-link", Message("personal link for %(name)s", name=person['name'])) as s:
        token = notice_ops.new_link(s, person["id"])
    url = url_for("member_links.member", token=token, _external=True)
    import segno  # imported when a link is made, not when the server starts (keizer.web.qr)

    qr = Markup('<img class="qr" alt="" src="{}">').format(segno.make(url, error="m").svg_data_uri(scale=4))
    return private(make_response(_member_links_page({"name": person["name"], "url": url, "qr": qr})))


@bp.route("/members/links/revoke", methods=["POST"])
def member_link_revoke() -> Any:
    person = store().member(_member_id())
    with writing("member-link revoke", Message("revoke the personal link of %(name)s", name=person['name'])) as s:
        notice_ops.revoke_link(s, person["id"])
    flash(_("the personal link of %(name)s is revoked", name=person["name"]), "ok")
    return back("/members/links")


@bp.route("/members/links/settings", methods=["POST"])
def notice_settings() -> Any:
    fields = ("notice_days", "notice_time", "late_notice", "link_days", "evening_day")
    with writing("notices settings", Message("notice settings")) as s:
        rules = notice_ops.set_notice_settings(s, **{k: request.form.get(k) for k in fields})
    flash(say(rules.describe()), "ok")
    return back("/members/links")


# == end of members' personal links ===========================================================

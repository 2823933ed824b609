"""Members check in at the venue (public pages: the personal link is the key).

* ``/checkin/<competition>/<round>/<code>``: the page the venue screen's and the printed
  list's QR code opens.  The phone's member is known when it opened its personal link
  before (kept in the session); else the page asks for the personal link, pasted.
* ``/m/<token>/checkin``: *I am here* on the member's own page.

The rules (who, where, when) live in :mod:`keizer.operations.checkin`.
"""

from __future__ import annotations

from datetime import date as _date
from typing import Any

from flask import Blueprint, flash, g, make_response, redirect, request, session, url_for

from keizer.operations import checkin as checkin_ops
from keizer.operations import notices as notice_ops
from keizer.refusals import Message, Word
from keizer.store import StoreError
from keizer.web.access import public
from keizer.web.context import _, link_refused, private, render, say, store, writing
from keizer.web.qr import qr_svg

bp = Blueprint("checkin", __name__)

#: The session key of the personal link this phone opened last.
KEPT = "member_token"



def remember(token: str) -> None:
    """This phone is the member's whose personal link it opened: the check-in page knows it."""
    session[KEPT] = token


def _kept_member() -> dict[str, Any] | None:
    token = session.get(KEPT)
    if not isinstance(token, str):
        return None
    try:
        return notice_ops.member_for_token(store(), token)
    except notice_ops.LinkRefused:  # revoked or expired since: ask again
        session.pop(KEPT, None)
        return None


def _token_of(text: str) -> str:
    """The token of a pasted personal link (``https://…/m/TOKEN``) or of the token alone."""
    text = text.strip()
    return text.rstrip("/").rsplit("/m/", 1)[-1].split("/")[0].split("?")[0] if "/m/" in text else text


def venue_url(comp_id: int, number: int) -> str:
    return url_for("checkin.venue", comp_id=comp_id, number=number,
                   code=checkin_ops.round_code(store(), comp_id, number), _external=True)


def venue_qr(comp_id: int, number: int) -> dict[str, Any]:
    """The check-in address of a round and its QR code (inline SVG), for the venue screen and print."""
    url = venue_url(comp_id, number)
    return {"url": url, "qr": qr_svg(url), "round": number}


def _check_in(comp_id: int, person: dict[str, Any], via: Message) -> checkin_ops.CheckedIn:
    g.origin = via
    with writing("checkin", Message("%(name)s checked in", name=person["name"])) as s:
        done = checkin_ops.check_in(s, comp_id, person["id"], _date.today())
        s.describe(Message("%(name)s checked in for round %(n)s", name=person["name"], n=done.round))
    return done


def _said(done: checkin_ops.CheckedIn) -> str:
    if done.first:
        return _("%(name)s, you are checked in for round %(n)s of %(competition)s", name=done.name, n=done.round,
                 competition=done.competition)
    return _("%(name)s, you had checked in for round %(n)s of %(competition)s already", name=done.name, n=done.round,
             competition=done.competition)


@bp.route("/checkin/<int:comp_id>/<int:number>/<code>", methods=["GET", "POST"])
@public
def venue(comp_id: int, number: int, code: str) -> Any:
    """The venue's QR code: *I am here* for the phone's member, or the personal link asked for."""
    title = _("Check in")
    try:
        name = checkin_ops.check_code(store(), comp_id, number, code, _date.today())
    except checkin_ops.CheckinRefused as refused:
        return private(make_response(render("app/checkin.html", status=refused.status, title=title, refused=say(refused))))
    person = _kept_member()
    if request.method == "POST":
        if request.form.get("other") == "1":  # not this phone's member: ask for the link
            session.pop(KEPT, None)
            return private(redirect(request.path, code=303))
        if person is None:
            token = _token_of(request.form.get("link", ""))
            try:
                person = notice_ops.member_for_token(store(), token)
            except notice_ops.LinkRefused as refused:
                return private(make_response(render("app/checkin.html", status=refused.status, title=title,
                                                     competition=name, number=number, person=None,
                                                     error=_("error: %(message)s", message=say(refused)))))
            remember(token)
        try:
            done = _check_in(comp_id, person, Message("check-in: %(name)s from %(address)s", name=person["name"],
                                                      address=request.remote_addr or Word("an unknown address")))
        except checkin_ops.CheckinRefused as refused:
            return private(make_response(render("app/checkin.html", status=refused.status, title=title,
                                                 competition=name, number=number, person=person,
                                                 error=_("error: %(message)s", message=say(refused)))))
        flash(_said(done), "ok")
        return private(redirect(request.path, code=303))
    done_at = None if person is None else checkin_ops.checked_in_at(store(), comp_id, number, person["id"])
    return private(make_response(render("app/checkin.html", title=title, competition=name, number=number,
                                         person=person, done_at=done_at)))


@bp.route("/m/<token>/checkin", methods=["POST"])
@public
def member(token: str) -> Any:
    """*I am here* on the member's own page."""
    try:
        person = notice_ops.member_for_token(store(), token)
    except notice_ops.LinkRefused as refused:
        return link_refused(refused)
    text = request.form.get("competition", "")
    if not (text.isascii() and text.isdigit() and len(text) < 10):
        raise StoreError("choose the competition to check in for")
    remember(token)
    done = _check_in(int(text), person, Message("member link: %(name)s from %(address)s", name=person["name"],
                                                address=request.remote_addr or Word("an unknown address")))
    flash(_said(done), "ok")
    return private(redirect(url_for("member_links.member", token=token), code=303))


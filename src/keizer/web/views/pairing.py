"""Pairing: propose the open round's pairing without storing it (``keizer pair --dry-run
--explain``), with pairs fixed by hand and the bye chosen, then store it (``keizer pair``);
once paired: swap two players (``keizer swap``), re-pair keeping boards (``keizer pair --again
--keep N``), unpair (``keizer unpair``); forbidden pairs (``keizer forbid``)."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import Blueprint, flash, redirect, request, url_for

from keizer import limits
from keizer import systems
from keizer.operations import competition as comp_ops
from keizer.operations import printing as print_ops
from keizer.operations import rounds as rounds_ops
from keizer.refusals import Message
from keizer.refusals import Word
from keizer.store import StoreError
from keizer.web import forms
from keizer.web.access import arbiter
from keizer.web.context import _, back, competition, render, say, store, writing

bp = Blueprint("pairing", __name__)


@bp.route("/c/<int:comp_id>/pairing")
@arbiter
def index(comp_id: int) -> Any:
    return _page(comp_id, _number(request.args.get("round"), Word("round")))


def _page(comp_id: int, round_no: int | None = None, proposal: rounds_ops.Proposal | None = None,
          fixed: list[tuple[str, str]] | None = None, bye: str | None = None) -> Any:
    comp = competition(comp_id)
    if not systems.of(comp["system"]).weekly:
        raise StoreError("%(name)s has no weekly pairing: it is a %(system)s competition", name=comp["name"],
                         system=_(comp["system"]))
    s = store()
    state = rounds_ops.pairing_state(s, comp_id, round_no)
    listing = rounds_ops.pairing_list(s, comp_id, s.load_season(comp_id), state.shown) if state.shown else None
    return render("app/pairing.html", comp=comp, tab="pairing", nav="competitions",
                  title=f"{_('Pairing')} · {comp['name']}", state=state, listing=listing, proposal=proposal,
                  fixed=fixed or [], bye=bye or "", forbidden=rounds_ops.forbidden_list(s, comp_id), say=say,
                  rounds=print_ops.paired_rounds(s, comp_id))


@bp.route("/c/<int:comp_id>/pairing/propose", methods=["GET", "POST"])
@arbiter
def propose(comp_id: int) -> Any:
    """The pairing ``keizer pair`` would store, shown and not stored.  (The forms on that page
    come back here after a write or a refusal: then the pairing page.)"""
    if request.method == "GET":
        return redirect(url_for("pairing.index", comp_id=comp_id), code=303)
    fixed, bye = _options()
    proposal = rounds_ops.propose_pairing(store(), comp_id, fixed, bye)
    return _page(comp_id, proposal=proposal, fixed=fixed, bye=bye)


@bp.route("/c/<int:comp_id>/pairing/store", methods=["POST"])
@arbiter
def store_pairing(comp_id: int) -> Any:
    """``keizer pair [--fix WHITE BLACK …] [--bye PLAYER]``."""
    fixed, bye = _options()
    notes: list[Message] = []
    with writing("pair", Message("pairing")) as s:
        competition(comp_id, write=True)
        pairing = comp_ops.make_pairing(s, comp_id, fixed, bye, tell=notes.append)
        s.describe(Message("pair round %(round)s", round=pairing.round))
    _told(comp_id, pairing, notes)
    expected = request.form.get("expect")
    if expected and expected != rounds_ops.fingerprint(((b.white, b.black) for b in pairing.boards), pairing.bye):
        flash(_("the stored pairing differs from the one proposed: attendance or results changed in between; "
                "check it below"), "warning")
    return back(url_for("pairing.index", comp_id=comp_id))


@bp.route("/c/<int:comp_id>/pairing/again", methods=["POST"])
@arbiter
def again(comp_id: int) -> Any:
    """``keizer pair --again [--keep BOARD …]``: re-pair the open round, keeping the boards ticked."""
    keep = [n for n in (_number(text, Word("board"), limits.MAX_BOARDS) for text in request.form.getlist("keep")) if n]
    notes: list[Message] = []
    with writing("pair", Message("pairing")) as s:
        competition(comp_id, write=True)
        pairing = comp_ops.make_pairing(s, comp_id, (), None, keep, True, tell=notes.append)
        s.describe(Message("pair round %(round)s", round=pairing.round))
    _told(comp_id, pairing, notes)
    return back(url_for("pairing.index", comp_id=comp_id))


@bp.route("/c/<int:comp_id>/pairing/swap", methods=["POST"])
@arbiter
def swap(comp_id: int) -> Any:
    """``keizer swap A B``: exchange two players in the open round's pairing."""
    a, b = request.form.get("a", ""), request.form.get("b", "")
    with writing("swap", Message("swap %(a)s and %(b)s", a=a, b=b)) as s:
        competition(comp_id, write=True)
        number, warnings = comp_ops.swap_players(s, comp_id, a, b, request.form.get("leave_fide") == "on")
        name_a, name_b = s.find_player(comp_id, a)["name"], s.find_player(comp_id, b)["name"]
        s.describe(Message("swap %(a)s and %(b)s", a=name_a, b=name_b))
    for w in warnings:
        flash(_("warning: %(warning)s", warning=say(w)), "warning")
    flash(_("round %(n)s: swapped %(a)s and %(b)s", n=number, a=name_a, b=name_b), "ok")
    return back(url_for("pairing.index", comp_id=comp_id))


@bp.route("/c/<int:comp_id>/pairing/unpair", methods=["POST"])
@arbiter
def unpair(comp_id: int) -> Any:
    """``keizer unpair``: remove the open round's pairing (before any result)."""
    with writing("unpair", Message("remove pairing")) as s:
        competition(comp_id, write=True)
        number = comp_ops.unpair(s, comp_id)
    flash(_("pairing of round %(n)s removed", n=number), "ok")
    return back(url_for("pairing.index", comp_id=comp_id))


@bp.route("/c/<int:comp_id>/pairing/draw", methods=["POST"])
@arbiter
def draw(comp_id: int) -> Any:
    """``keizer roundrobin draw [--first-date D] [--every N]``: the Berger numbers by lot and
    every round of the schedule (allowed until the first result)."""
    first = _date(request.form.get("first_date", ""))
    every = _number(request.form.get("every") or "7", Word("the days between rounds"), 365) or 7
    with writing("roundrobin draw", Message("round-robin draw")) as s:
        competition(comp_id, write=True)
        _numbered, seed = comp_ops.draw_round_robin(s, comp_id, None, (), first, every)
        rounds = len(s.round_numbers(comp_id))
    flash(_("numbers by lot (seed %(seed)s); %(n)s rounds scheduled", seed=seed, n=rounds), "ok")
    return back(url_for("pairing.index", comp_id=comp_id))


def _date(text: str) -> date | None:
    """The date of round 1 (empty: none), as the CLI's --first-date takes it."""
    if not text.strip():
        return None
    return forms.day(text, Word("the date of round 1"))


@bp.route("/c/<int:comp_id>/pairing/forbid", methods=["POST"])
@arbiter
def forbid(comp_id: int) -> Any:
    """``keizer forbid A B [--remove]``."""
    a, b = request.form.get("a", ""), request.form.get("b", "")
    remove = request.form.get("remove") == "on"
    with writing("forbid", Message("allow %(a)s – %(b)s", a=a, b=b) if remove
                           else Message("forbid %(a)s – %(b)s", a=a, b=b)) as s:
        competition(comp_id, write=True)
        name_a, name_b = rounds_ops.forbid_pair(s, comp_id, a, b, remove)
        s.describe(Message("allow %(a)s – %(b)s", a=name_a, b=name_b) if remove
                   else Message("forbid %(a)s – %(b)s", a=name_a, b=name_b))
    flash(_("%(a)s – %(b)s: allowed again", a=name_a, b=name_b) if remove
          else _("%(a)s – %(b)s: forbidden", a=name_a, b=name_b), "ok")
    return back(url_for("pairing.index", comp_id=comp_id))


def _options() -> tuple[list[tuple[str, str]], str | None]:
    """The pairs fixed by hand (White, Black) and the bye chosen, from the form."""
    form = request.form
    fixed = []
    for white, black in zip(form.getlist("fix_white"), form.getlist("fix_black")):
        white, black = white.strip(), black.strip()
        if not white and not black:
            continue
        if not white or not black:
            raise StoreError("a fixed pair needs both players: White and Black")
        fixed.append((white, black))
    return fixed, form.get("bye", "").strip() or None


def _told(comp_id: int, pairing: Any, notes: list[Message]) -> None:
    """What ``keizer pair`` says: what was assumed, the rules bent, the bye."""
    for note in notes:
        flash(say(note), "info")
    for line in pairing.bent_why:
        flash(f"{_('rule bent')}: {say(line)}", "warning")
    n, boards = pairing.round, len(pairing.boards)
    if pairing.bye:
        bye = store().find_player(comp_id, pairing.bye)["name"]
        said = (_("round %(n)s paired: 1 board; bye: %(bye)s", n=n, bye=bye) if boards == 1 else
                _("round %(n)s paired: %(boards)s boards; bye: %(bye)s", n=n, boards=boards, bye=bye))
    else:
        said = (_("round %(n)s paired: 1 board", n=n) if boards == 1 else
                _("round %(n)s paired: %(boards)s boards", n=n, boards=boards))
    flash(said, "ok")


def _number(text: str | None, what: Word, high: int = limits.MAX_ROUNDS) -> int | None:
    if text is None or not text.strip():
        return None
    return forms.whole(text, what, 1, high)

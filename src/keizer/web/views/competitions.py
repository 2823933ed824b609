"""Competitions (officer only): the list, create one from a preset (``keizer competition
create``), its players (``keizer player add/withdraw/reinstate``), its settings
(``keizer competition settings --set``), its initial order (``keizer competition order``)
and its time-control plan (``keizer timecontrol``)."""

from __future__ import annotations

from typing import Any, Callable

from flask import Blueprint, flash, redirect, request, url_for

from keizer import limits
from keizer import systems
from keizer.operations import competition as comp_ops
from keizer.operations import order as order_ops
from keizer.operations import setup
from keizer.systems.knockout import DEFAULT_STAGES
from keizer.systems.swiss import PAIRINGS
from keizer.operations.evening import evening
from keizer.refusals import Message, Word
from keizer.settings import CHOICES, OF_OPPONENT, OF_OWN, said, worded
from keizer.store import StoreError
from keizer.web import forms
from keizer.web.context import _, back, competition, render, say, store, writing
from keizer.web.views.setup import presets_shown

bp = Blueprint("competitions", __name__)

#: A yes/no setting as the settings list writes it, and as its choice says it.
YES_NO = {"true": "yes", "false": "no"}

#: The settings of the other systems that take one of a few words (the app offers them as a list).
SYSTEM_CHOICES = {"initial_colour": ("white", "black"), "pairing": PAIRINGS}

#: The systems the creation form offers, by name, with their labels.
SYSTEM_LABELS = {s.name: s.label for s in systems.ALL}


@bp.route("/competitions")
def index() -> Any:
    return render("app/competitions.html", title=_("Competitions"), nav="competitions", evenings=evening(store()),
                  systems=SYSTEM_LABELS, schedules=setup.SCHEDULES, cup_stages=DEFAULT_STAGES, **presets_shown())


def _text(name: str) -> str | None:
    value = request.form.get(name, "").strip()
    return value or None


def _whole(name: str, what: Word, low: int, high: int) -> int | None:
    value = _text(name)
    return None if value is None else forms.whole(value, what, low, high)


def _flag(name: str) -> bool:
    return request.form.get(name) == "on"


def _sets() -> dict[str, str]:
    return setup.parse_sets([line for line in request.form.get("sets", "").splitlines() if line.strip()])


#: How the creation form sends each option of ``competition create`` (a system's ``options`` say which it takes).
_OPTIONS: dict[str, Callable[[], Any]] = {
    "preset": lambda: request.form.get("preset", "classic"), "overrides": _sets,
    "double": lambda: _flag("double"), "swap_last_two": lambda: _flag("swap_last_two"),
    "tiebreaks": lambda: _text("tiebreaks"), "edition": lambda: _text("edition"),
    "lots": lambda: _whole("lots", Word("lots"), limits.MIN_SEED, limits.MAX_SEED),
    "rounds": lambda: _whole("rounds", Word("rounds"), 1, 99), "bye_points": lambda: _text("bye_points"),
    "excused_points": lambda: _text("excused_points"),
    "initial_colour": lambda: request.form.get("initial_colour", "white"), "stages": lambda: _text("stages"),
    "pairing": lambda: request.form.get("pairing", "dutch"),
    "boards": lambda: _whole("boards", Word("boards"), 1, 20) or 4,
    "schedule": lambda: request.form.get("schedule", "roundrobin"),
    "fide_mode": lambda: {"fide": True, "club": False}.get(request.form.get("fide_mode", "")),
}


@bp.route("/competitions/create", methods=["POST"])
def create() -> Any:
    """``keizer competition create NAME --system … [options of that system]``: each system's
    form sends only its own options."""
    system = request.form.get("system", "keizer")
    name = request.form.get("name", "")
    chosen = systems.find(system)  # None: plan_competition refuses the name
    wanted = chosen.options_for(request.form.get("schedule", "roundrobin")) if chosen else ()
    options: dict[str, Any] = {option: _OPTIONS[option]() for option in wanted}
    if options.get("edition", "") is None:  # an empty box keeps the default edition
        del options["edition"]
    new = setup.plan_competition(name, system, all_members=_flag("all_members"), season=_text("season"), **options)
    with writing("competition create", Message("create competition %(name)s", name=name)) as s:
        comp_id, registered = setup.create_competition(s, new, current=False)  # the terminal keeps its default
    for w in new.warnings:
        flash(_("warning: %(warning)s", warning=say(w)), "warning")
    flash(_("created %(kind)s %(name)s; %(n)s players registered", kind=say(new.kind), name=new.name, n=registered), "ok")
    return redirect(url_for("competitions.players", comp_id=comp_id), code=303)


# -- players ---------------------------------------------------------------------------


@bp.route("/c/<int:comp_id>/players")
def players(comp_id: int) -> Any:
    comp = competition(comp_id)
    rows = store().players(comp_id)
    registered = {r["member_id"] for r in rows}
    others = [m for m in store().members() if m["id"] not in registered]
    return render("app/competitions_players.html", comp=comp, tab="settings", nav="competitions",
                  title=f"{_('Players')} · {comp['name']}", players=rows, others=others,
                  weekly=systems.of(comp["system"]).weekly)


@bp.route("/c/<int:comp_id>/players/add", methods=["POST"])
def add_players(comp_id: int) -> Any:
    """``keizer player add #ID … [--joined N] [--category X]``."""
    refs = [f"#{int(v)}" for v in request.form.getlist("member") if limits.is_digits(v, 9)]
    joined = _whole("joined", Word("round"), 1, limits.MAX_ROUNDS)
    category = _text("category")
    if category is not None:
        category = forms.clean(category, Word("a category"), limits.MAX_CATEGORY)
    with writing("player add", Message("register %(players)s", players=', '.join(refs))) as s:
        first, note = setup.add_players(s, competition(comp_id, write=True), refs, joined, category, _flag("leave_fide"))
        names = [s.find_member(r)["name"] for r in refs]
        s.describe(Message("register %(players)s", players=', '.join(names)))
    flash(_("registered %(n)s player(s), from round %(first)s", n=len(refs), first=first), "ok")
    if note:
        flash(say(note), "warning")
    return back(url_for("competitions.players", comp_id=comp_id))


@bp.route("/c/<int:comp_id>/players/<int:player_id>", methods=["GET", "POST"])
def edit_player(comp_id: int, player_id: int) -> Any:
    """``keizer player set PLAYER [--category C] [--joined N] [--default present|absent]``."""
    comp = competition(comp_id)
    found = [r for r in store().players(comp_id) if r["id"] == player_id]
    if not found:
        raise StoreError("there is no player %(id)s in %(name)s", id=player_id, name=comp["name"])
    row = found[0]
    system = systems.of(comp["system"])
    default = store().settings(comp_id).default_attendance if system.fills_attendance else "present"
    if request.method == "GET":  # keizer: the player's own default attendance can be set
        return render("app/competitions_player.html", comp=comp, tab="settings", nav="competitions",
                      title=f"{row['name']} · {comp['name']}", player=row, competition_default=default,
                      weekly=system.from_attendance, keizer=system.fills_attendance)
    category = request.form.get("category")
    if category is not None:
        category = forms.clean(category.strip(), Word("a category"), limits.MAX_CATEGORY) if category.strip() else ""
    joined = _whole("joined", Word("round"), 1, limits.MAX_ROUNDS)
    default_attendance = _text("default")
    if row["default_attendance"] is None and default_attendance == default:
        default_attendance = None  # the competition's default, left as it was: it keeps following the setting
    with writing("player set", Message("set %(player)s", player=row['name'])) as s:
        competition(comp_id, write=True)
        name, changed = setup.set_player(s, comp_id, row["key"], category, joined, default_attendance)
    flash(_("updated %(name)s: %(changes)s", name=name, changes=", ".join(map(say, changed))) if changed
          else _("%(name)s: nothing changed", name=name),
          "ok" if changed else "info")
    return redirect(url_for("competitions.players", comp_id=comp_id), code=303)


@bp.route("/c/<int:comp_id>/players/withdraw", methods=["POST"])
def withdraw(comp_id: int) -> Any:
    """``keizer player withdraw PLAYER``."""
    ref = request.form.get("player", "")
    with writing("player withdraw", Message("withdraw %(player)s", player=ref)) as s:
        competition(comp_id, write=True)
        name = s.find_player(comp_id, ref)["name"]
        last = setup.withdraw_player(s, comp_id, ref, fill=False)
        s.describe(Message("withdraw %(player)s", player=name))
    flash(_("%(name)s withdrawn after round %(n)s", name=name, n=last), "ok")
    return back(url_for("competitions.players", comp_id=comp_id))


@bp.route("/c/<int:comp_id>/players/reinstate", methods=["POST"])
def reinstate(comp_id: int) -> Any:
    """``keizer player reinstate PLAYER [--missed excused]``."""
    ref = request.form.get("player", "")
    missed = request.form.get("missed", "unexcused")
    with writing("player reinstate", Message("reinstate %(player)s", player=ref)) as s:
        competition(comp_id, write=True)
        row, gone = comp_ops.reinstate(s, comp_id, ref, missed)
        s.describe(Message("reinstate %(player)s", player=row['name']))
    said = _("%(name)s takes part again", name=row["name"])
    if len(gone) == 1:
        said = _("%(said)s; round %(n)s counts as an %(missed)s absence", said=said, n=gone[0], missed=_(missed))
    elif gone:
        said = _("%(said)s; rounds %(first)s–%(last)s count as %(missed)s absences", said=said, first=gone[0],
                 last=gone[-1], missed=_(missed))
    flash(said, "ok")
    return back(url_for("competitions.players", comp_id=comp_id))


# -- settings ---------------------------------------------------------------------------


@bp.route("/c/<int:comp_id>/settings", methods=["GET", "POST"])
def settings(comp_id: int) -> Any:
    if request.method == "POST":
        return _change_settings(comp_id)
    comp = competition(comp_id)
    s = store()
    rows = [{**r, "in_words": say(worded(r["setting"], r["value"])) if r["setting"] in OF_OWN | OF_OPPONENT else ""}
            for r in setup.settings_rows(s, comp_id)]
    can = setup.changeable(s, comp_id)
    order = heading = None
    if systems.of(comp["system"]).has_initial_order:
        order, said = comp_ops.initial_order_rows(s, comp_id)
        heading = say(said)
    others = [c for c in s.competitions() if c["id"] != comp_id]
    return render("app/settings.html", comp=comp, tab="settings", nav="competitions",
                  title=f"{_('Settings')} · {comp['name']}", rows=rows, changeable=can, order=order,
                  choices=CHOICES if systems.of(comp["system"]).preset_settings else SYSTEM_CHOICES, yes_no=YES_NO,
                  order_heading=heading, others=others, plan=setup.time_control_rows(s, comp_id),
                  started=s.started(comp_id))


def _change_settings(comp_id: int) -> Any:
    """``keizer competition settings --set NAME=VALUE …`` with the settings the form changed."""
    current = {r["setting"]: r["value"] for r in setup.settings_rows(store(), comp_id)}
    overrides = {}
    for name, shown in current.items():
        sent = request.form.get(f"s-{name}")
        if sent is not None and sent.strip() not in (shown, YES_NO.get(shown)):
            overrides[name] = sent.strip()
    if not overrides:
        flash(_("nothing changed"), "info")
        return back(url_for("competitions.settings", comp_id=comp_id))
    summary = ", ".join(f"{k}={v}" for k, v in overrides.items())  # the log's line, as the CLI writes it
    with writing("competition settings", Message("settings: %(summary)s", summary=summary)) as s:
        competition(comp_id, write=True)
        note = setup.change_settings(s, comp_id, overrides, _flag("leave_fide"))
    # The page says it in words: "excused: 7/20 of own value", not excused=7/20.
    flash(_("settings: %(summary)s", summary="; ".join(say(said(k, v)) for k, v in overrides.items())), "ok")
    if note:
        flash(say(note), "warning")
    return back(url_for("competitions.settings", comp_id=comp_id))


@bp.route("/c/<int:comp_id>/order", methods=["POST"])
def order(comp_id: int) -> Any:
    """``keizer competition order --by rating|standing|hand [--from COMPETITION] [PLAYERS]``."""
    by = request.form.get("by", "rating")
    refs = [line.strip() for line in request.form.get("players", "").splitlines() if line.strip()]
    source = _text("source") if by == "standing" else None
    if by != "hand" and refs:
        raise StoreError("players are listed only for an order by hand")
    with writing("competition order", Message("initial order")) as s:
        competition(comp_id, write=True)
        how = comp_ops.set_initial_order(s, comp_id, by, refs, source)
        s.describe(Message("initial order %(how)s", how=how))
    flash(_("initial order %(how)s", how=say(order_ops.said_how(how))), "ok")
    return back(url_for("competitions.settings", comp_id=comp_id))


@bp.route("/c/<int:comp_id>/timecontrol", methods=["POST"])
def timecontrol(comp_id: int) -> Any:
    """``keizer timecontrol "rapid 25+10" --rounds 1-3`` (or ``--round N``, or ``--clear``)."""
    clear = _flag("clear")
    rounds = _text("rounds")
    round_no = _whole("round", Word("round"), 1, limits.MAX_ROUNDS)
    # Refused here as the form's boxes name it (the operation names the CLI's flags).
    if (rounds is None) == (round_no is None):
        raise StoreError("say which rounds: fill in Rounds (a plan) or one round, not both")
    if clear == bool(_text("time_control")):
        raise StoreError("give a time control, or tick clear, not both")
    text = setup.check_time_control(_text("time_control"), rounds, round_no, clear)
    with writing("timecontrol", Message("time control %(text)s for %(rounds)s",
                                        text=text or Word("cleared"), rounds=rounds or round_no)) as s:
        competition(comp_id, write=True)
        setup.set_time_control(s, comp_id, text, rounds, round_no)
    where = _("rounds %(rounds)s", rounds=rounds) if rounds else _("round %(n)s", n=round_no)
    flash(_("time control %(control)s for %(where)s", control=text, where=where) if text
          else _("time control cleared for %(where)s", where=where), "ok")
    return back(url_for("competitions.settings", comp_id=comp_id))

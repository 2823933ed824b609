"""Files in and out: ``keizer import`` (season JSON, TRF, rounds CSV, KeizerForClubs),
``keizer export`` (season JSON, TRF), ``keizer publish`` (the club website) and
``keizer club`` (the website's settings).

Reading and writing the formats lives in :mod:`keizer.formats`, the site in
:mod:`keizer.publish`; another program's files are mapped by :mod:`keizer.cli.switch`
and :mod:`keizer.cli.kfc`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from keizer import systems
from keizer.cli.base import Context, format_option, pass_ctx, writing
from keizer.formats.errors import FormatError
from keizer.operations import competition as comp_ops
from keizer.output import render
from keizer.refusals import Message
from keizer.settings import PRESETS
from keizer.store import Store, StoreError
from keizer.systems.points import POINTS_DEFAULTS

if TYPE_CHECKING:
    from keizer.model import Season
    from keizer.formats.targets import Target


# -- club website -------------------------------------------------------------


@click.command()
@click.option("--name", help="Club name shown on every page.")
@click.option("--colour", help="Main colour, e.g. #1f4e79.")
@click.option("--accent", help="Accent colour, e.g. #c8102e.")
@click.option("--language", help="Site language: en, nl, de or et.")
@click.option("--logo", type=click.Path(exists=True, dir_okay=False, path_type=Path), help="Logo image (png, jpg, gif, svg, webp).")
@click.option("--season", help="Season (site folder) of competitions created from now on; existing ones keep "
                                "theirs (default: the August–July season of the creation date, e.g. 2025-2026).")
@click.option("--templates", type=click.Path(file_okay=False, path_type=Path), help="The club's own template folder.")
@click.option("--upload", metavar="URL", help="Where 'keizer publish OUTDIR --upload' sends the site "
                                              "(no password in it; '' forgets it).")
@click.option("--site", metavar="URL", help="The published site's web address, e.g. https://schaak.example.nl/uitslagen/ "
                                           "(the feeds' links and ids; '' forgets it).")
@click.option("--evening-time", metavar="HH:MM", help="When a club evening starts (and ends): 20:00 or 19:45-23:30 "
                                                      "(the calendar's events; '' for all-day events).")
@click.option("--national-rating", type=click.Choice(["dwz", "ecf", "none"]),
              help="The national rating whose change per game 'keizer history --rating', the app and the site "
                   "show beside FIDE's: dwz (Deutscher Schachbund), ecf (English Chess Federation), or none.")
@click.option("--site-folder", type=click.Path(file_okay=False, path_type=Path),
              help="The folder the app ('keizer serve') publishes the site into; from the app, only this one "
                   "or one inside the database's folder.")
@click.option("--mail-server", metavar="URL", help="The mail server of the week's mail: smtp://user@host:587 "
                                                   "(STARTTLS), smtps://user@host (TLS) or smtp+plain://host:port (a test "
                                                   "server); no password in it ('' forgets it). The app may then use "
                                                   "$KEIZER_MAIL_PASSWORD or the keyring for this account.")
@click.option("--mail-from", metavar="ADDRESS", help="The sender's address of the week's mail.")
@format_option
@pass_ctx
def club(ctx: Context, name: str | None, colour: str | None, accent: str | None, language: str | None,
         logo: Path | None, season: str | None, templates: Path | None, upload: str | None, site: str | None,
         evening_time: str | None, national_rating: str | None, site_folder: Path | None, mail_server: str | None,
         mail_from: str | None, fmt: str) -> None:
    """Show or change the club's website settings: name, colours, language, logo, upload target."""
    from keizer.operations.club import PASSWORD_TARGET, SITE_FOLDER, club_settings, set_club

    values = dict(name=name, colour=colour, accent=accent, language=language, season=season,
                  templates=str(templates.resolve()) if templates else None, upload=upload, site=site,
                  evening_time=evening_time,
                  national_rating=None if national_rating is None else national_rating.replace("none", ""))
    if mail_server is not None or mail_from is not None:
        with writing(ctx, "club", Message("mail settings"), create=True) as store:
            _mail_server(store, mail_server, mail_from)
    if any(v is not None for v in values.values()) or logo is not None or site_folder is not None:
        with writing(ctx, "club", Message("club settings"), create=True) as store:
            set_club(store, logo=logo, **values)
            if upload is not None:  # set in a terminal: the server's own password may go there from the app
                store.set_meta(PASSWORD_TARGET, club_settings(store)["upload"])
            if site_folder is not None:
                store.set_meta(SITE_FOLDER, str(site_folder.expanduser().resolve()))
    store = ctx.store()
    kept = sorted({c["season"] for c in store.competitions()} - {(season or "").strip()})
    if season is not None and kept:  # the past is frozen: published folders do not move
        click.echo(f"note: existing competitions keep their season ({', '.join(kept)}); "
                   "the new one applies to competitions created from now on", err=True)
    settings = club_settings(store)
    if colour is not None or accent is not None:
        from keizer.operations.club import colour_advice

        for line in colour_advice(settings["colour"], settings["accent"]):
            click.echo(f"warning: {line}", err=True)
    settings["logo"] = store.get_meta("club_logo_type") and f"logo.{store.get_meta('club_logo_type')}" or ""
    settings["site_folder"] = store.get_meta(SITE_FOLDER) or ""
    from keizer.operations.mail import mail_settings

    mail = mail_settings(store)
    if mail is not None:
        scheme = {"starttls": "smtp", "tls": "smtps", "plain": "smtp+plain"}[mail.security]
        settings["mail_server"] = f"{scheme}://{mail.user + '@' if mail.user else ''}{mail.host}:{mail.port}"
        settings["mail_from"] = mail.sender
    click.echo(render([{"setting": k, "value": v} for k, v in settings.items()], ["setting", "value"], fmt)
               if fmt != "json" else json.dumps(settings, ensure_ascii=False, indent=2))


def _mail_server(store: Store, server: str | None, sender: str | None) -> None:
    """Set (or with '' forget) the mail server; the account set here may get the server's own password."""
    from keizer.operations import mail as mail_ops

    current = mail_ops.mail_settings(store)
    if server == "":
        mail_ops.set_mail_settings(store, "", "", "", "", "")
        store.set_meta(mail_ops.PASSWORD_ACCOUNT, "")
        return
    if server is None and current is None:
        raise click.UsageError("--mail-from needs a mail server: give --mail-server too")
    host, port, security, user = mail_ops.parse_server(server) if server else \
        (current.host, str(current.port), current.security, current.user)  # type: ignore[union-attr]
    given = sender if sender is not None else current.sender if current else ""
    if not given:
        raise click.UsageError("--mail-server needs the sender's address: give --mail-from too")
    kept = mail_ops.set_mail_settings(store, host, port, security, user, given)
    store.set_meta(mail_ops.PASSWORD_ACCOUNT, kept.account)


@click.command()
@click.argument("outdir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--templates", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="A folder of templates that override the shipped ones (any subset).")
@click.option("--language", help="Site language for this run (default: the club setting).")
@click.option("--upload", "upload_to", is_flag=False, flag_value="", default=None, metavar="URL",
              help="Then send what changed to the club's web host: ftps://user@host/folder, sftp://…, ftp://…, "
                   "a folder or a git work tree (alone: the club's upload setting). The password comes from "
                   "$KEIZER_UPLOAD_PASSWORD, the system keyring or a prompt.")
@click.option("--dry-run", is_flag=True, help="With --upload: list what would be sent and removed; send nothing.")
@click.option("--resend", is_flag=True, help="With --upload: send every file, also those the host has already.")
@click.option("--replace", is_flag=True, help="With --upload: replace files keizer did not put on the host that "
                                              "have the names of its pages (an old copy of the site).")
@pass_ctx
def publish(ctx: Context, outdir: Path, templates: Path | None, language: str | None, upload_to: str | None,
            dry_run: bool, resend: bool, replace: bool) -> None:
    """Write the club website (standings, rounds, crosstable, players, report) to OUTDIR,
    and with --upload send it on to the club's web host."""
    from keizer.operations.club import club_settings
    from keizer.publish import publish as publish_site

    if upload_to is None and (dry_run or resend or replace):
        raise click.UsageError(f"{'--dry-run' if dry_run else '--resend' if resend else '--replace'} goes with --upload")
    store = ctx.store()
    target = None
    if upload_to is not None:  # a bad target is refused before anything is written
        from keizer.formats.targets import parse_target

        given = upload_to or club_settings(store)["upload"]
        if not given:
            raise StoreError("no upload target: give one (--upload ftps://user@host/public_html) or keep one with "
                             "'keizer club --upload URL'")
        target = parse_target(given)
    result = publish_site(store, outdir, templates, language, remember=True)
    click.echo(f"published {', '.join(result.seasons)} to {outdir}: {len(result.written)} files written, "
               f"{result.unchanged} unchanged")
    if target is not None:
        _upload(ctx, outdir, target, dry_run, resend, replace)


def _upload(ctx: Context, site: Path, target: Target, dry_run: bool, resend: bool, replace: bool) -> None:
    import sys

    from keizer.operations.club import PASSWORD_TARGET, club_settings, set_club
    from keizer.publish.upload import upload

    def ask() -> str | None:  # only a person at a terminal is asked; a script gets the one-line refusal
        if not sys.stdin.isatty():
            return None
        return click.prompt(f"password for {target.account}", hide_input=True, default="", show_default=False,
                            err=True) or None

    counting = [False]  # a count is on the terminal's last line

    def progress(done: int, total: int) -> None:
        counting[0] = done < total
        click.echo(f"\rsending {done}/{total}", nl=done == total, err=True)

    try:
        done = upload(site, target, ask, dry_run=dry_run, resend=resend, replace=replace,
                      progress=progress if sys.stderr.isatty() and not dry_run else None)
    except BaseException as e:
        if counting[0]:
            click.echo("", err=True)  # the error goes on a line of its own, not after the count
        if isinstance(e, KeyboardInterrupt):
            raise StoreError("upload interrupted; run the same command again to resume (what was sent is kept)") from None
        raise
    if dry_run:
        for kind, paths in (("send", done.sent), ("remove", done.removed), ("keep (changed on the host)", done.kept),
                            ("replace (not keizer's)" if replace else "refuse to replace (not keizer's)",
                             done.in_the_way)):
            for path in paths:
                click.echo(f"would {kind}: {path}")
        refused = (f", {len(done.in_the_way)} not keizer's in the way (--replace replaces them)"
                   if done.in_the_way and not replace else "")
        click.echo(f"dry run for {done.where}: {len(done.sent)} files to send, {len(done.removed)} to remove, "
                   f"{done.unchanged} unchanged{refused}; nothing was sent")
        return
    for path in done.kept:
        click.echo(f"note: {path} is no longer published but was changed on the host since keizer sent it; "
                   "left there", err=True)
    click.echo(f"uploaded to {done.where}: {len(done.sent)} files sent, {len(done.removed)} removed, "
               f"{done.unchanged} unchanged" + (f" (commit {done.commit})" if done.commit else ""))
    known = club_settings(ctx.store())["upload"]
    if target.url != known or target.url != ctx.store().get_meta(PASSWORD_TARGET):
        with writing(ctx, "publish", Message("upload target %(url)s", url=target.url)) as store:
            set_club(store, upload=target.url)
            store.set_meta(PASSWORD_TARGET, target.url)
    if target.url != known:
        click.echo(f"remembered {target.url} as the club's upload target: next time 'keizer publish {site} --upload' "
                   "is enough")


# -- season JSON --------------------------------------------------------------


@click.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--name", help="Competition name (default: the file's).")
@click.option("--system", type=click.Choice(["keizer", "swiss", "roundrobin"]),
              help="TRF: import as this system (default: keizer for keizer's own export, else from the file).")
@click.option("--preset", type=click.Choice(list(PRESETS)), help="Keizer from TRF or CSV: the preset (classic).")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Keizer from TRF or CSV: override a setting.")
@click.option("--dry-run", is_flag=True, help="Show what would be created, the standing it would give and what "
                                             "differs from the file, without writing.")
@click.option("--new-members", is_flag=True, help="Rounds CSV: add a name that is close to a member's "
                                                  "('Anne' beside 'Anna') as a new member.")
@pass_ctx
def import_(ctx: Context, file: Path, name: str | None, system: str | None, preset: str | None,
            sets: tuple[str, ...], dry_run: bool, new_members: bool) -> None:
    """Import a season JSON file, a FIDE TRF file, a rounds CSV or a KeizerForClubs
    database (.s3db) as a new competition.

    A TRF round-robin becomes a round-robin group, any other TRF tournament a Swiss
    event ranked by points and the file's tie-break list; with --system keizer (the
    default for keizer's own export of a Keizer competition) a Keizer competition.
    A CSV of rounds (round;date;white;black;result) becomes a Keizer competition.
    """
    from keizer.cli import switch as cli_switch

    if not dry_run:
        _import(ctx, file, name, system, preset, sets, False, new_members)
        return
    with cli_switch.scratch(ctx) as copy:
        members = copy.store().members() if copy.db.exists() else []
        comp_id, kind = _import(copy, file, name, system, preset, sets, True, new_members)
        if kind != "csv":  # a rounds CSV asks of each new member itself
            cli_switch.ask_near_names(copy.store(), members)
        cli_switch.show_standing(copy.store(), comp_id)
    if kind in ("json", "csv"):
        click.echo("the file states no totals or ranks of its own: nothing to compare")
    click.echo(f"nothing written to {ctx.db} (--dry-run)")


def _import(ctx: Context, file: Path, name: str | None, system: str | None, preset: str | None,
            sets: tuple[str, ...], dry_run: bool, new_members: bool) -> tuple[int, str]:
    """The import of any kind of file into ``ctx``'s database (a dry run's is a copy); the
    new competition's id and the kind of file (kfc, csv, trf, json)."""
    from keizer.cli import switch as cli_switch
    from keizer.formats.rounds_csv import header_kind

    from keizer.formats.kfc import looks_like_kfc
    from keizer.operations.setup import parse_sets

    raw = file.read_bytes()
    verb = "would import" if dry_run else "imported"
    if looks_like_kfc(raw, file):
        from keizer.cli.kfc import import_kfc

        cli_switch.refuse_options("kfc", system, preset, sets, new_members)
        return import_kfc(ctx, file, name, writing, verb), "kfc"
    if file.suffix.lower() == ".csv" or header_kind(raw[:4096].decode("utf-8", "replace")):
        cli_switch.refuse_options("csv", system, preset, sets, new_members)
        return cli_switch.import_rounds(ctx, file, raw, name, preset or "classic", parse_sets(sets), dry_run,
                                        writing, new_members), "csv"
    if file.suffix.lower() in (".trf", ".txt") or raw.lstrip()[:3] in (b"012", b"001"):
        cli_switch.refuse_options("trf", system, preset, sets, new_members)
        return _import_trf(ctx, file, name, system, preset, parse_sets(sets), verb), "trf"
    cli_switch.refuse_options("json", system, preset, sets, new_members)
    from keizer.formats.season_json import decode, load_season, member_data
    from keizer.operations import members as member_ops

    try:
        data = decode(raw)
    except FormatError as e:
        raise FormatError(f"{file.name}: {e}") from None
    season = load_season(data)
    extra = member_data(data)
    preset = data.get("settings", {}).get("preset", "classic") if isinstance(data.get("settings"), dict) else "classic"
    added: list[str] = []
    with writing(ctx, "import", Message("import %(name)s", name=file.name), create=True) as store:
        comp_id = comp_ops.import_season(store, season, name, preset, tell=added.append, rating_list=extra.rating_list)
        added += member_ops.store_season_member_data(store, comp_id, extra)
    click.echo(f"{verb} {name or season.name}: {len(season.players)} players, {len(season.rounds)} rounds")
    for line in added:
        click.echo(line)
    return comp_id, "json"


def _import_trf(ctx: Context, file: Path, name: str | None, force: str | None = None, preset: str | None = None,
                overrides: dict[str, str] | None = None, verb: str = "imported") -> int:
    from keizer.cli.switch import say_ranks, say_tiebreaks
    from keizer.formats.trf_import import notes_of, read, season_of, tiebreak_list
    from keizer.formats.trf_keizer import is_keizer_export
    from keizer.tiebreaks import Scoring, System, recommended_for

    t = read(file, individual=force is not None)  # a chosen system is individual: team records left out
    keizer = systems.of(force).preset_settings if force is not None else not t.is_team and is_keizer_export(t)
    if keizer:
        from keizer.cli.switch import import_trf_keizer

        return import_trf_keizer(ctx, file, t, name, preset or "classic", overrides or {}, writing, verb)
    if preset or overrides:
        raise StoreError("--preset and --set are for a Keizer competition: add --system keizer")
    if t.is_team:
        from keizer.operations.teams_trf import import_team_tournament

        with writing(ctx, "import", Message("import %(name)s", name=file.name), create=True) as store:
            comp_id = import_team_tournament(store, t, name)
        kind = "team Swiss" if t.system is System.SWISS else "team event"
        click.echo(f"{verb} {name or t.name} ({kind}): {len(t.teams)} teams, {len(t.players)} players")
        for note in notes_of(t):
            click.echo(str(note))
        return comp_id
    season = season_of(t)
    system = force or ("roundrobin" if t.system is System.ROUND_ROBIN else "swiss")
    scoring = None if t.scoring == Scoring() else {k: str(v) for k, v in vars(t.scoring).items()}
    # The list 'keizer trf standings' would use: the file's 202 record, else FIDE's recommendation
    # for this file (which knows whether its ratings can be relied on).
    taken = tiebreak_list(t)
    settings = {**POINTS_DEFAULTS, "tiebreaks": list(taken.codes or recommended_for(t)), "scoring": scoring}
    if systems.of(system).planned_rounds:  # ready to be continued with 'keizer pair' (after 'keizer swiss rounds N' if need be)
        from keizer.pairing.swiss import initial_colour_of, system_of

        settings |= {"rounds": max(t.rounds, len(season.rounds)),
                     "initial_colour": initial_colour_of(t).value,
                     "numbered": [p.id for p in sorted(season.players, key=lambda p: p.start_no)]}
        if system_of(t.info) != "dutch":   # the file names its pairing system (192 FIDE_DUBOV)
            settings["pairing"] = system_of(t.info)
    records = None
    if systems.of(system).accelerated:  # the file's virtual points (XXA, 250) and forbidden pairs (XXP, 260), first
        from keizer.operations.swiss import SwissRecords

        records = SwissRecords.of_file(file, {p.start_no: p.id for p in season.players})
        settings |= records.settings()
    from keizer.systems.fide import imported

    settings = imported(system, settings, t.info)  # FIDE mode: as the file's ### lines say, else a new Swiss's default
    systems.points_system(system).rules(settings)  # refuses a list the rules forbid, before writing
    added: list[str] = []
    with writing(ctx, "import", Message("import %(name)s", name=file.name), create=True) as store:
        comp_id = comp_ops.import_season(store, season, name, system=system, system_settings=settings,
                                         tell=added.append)
        if records is not None:
            records.store_forbidden(store, comp_id)
    click.echo(f"{verb} {name or season.name} ({system}): {len(season.players)} players, {len(season.rounds)} rounds")
    for line in [*added, *map(str, notes_of(t))]:
        click.echo(line)
    say_tiebreaks(taken, settings["tiebreaks"])
    say_ranks(t, ctx.store(), comp_id)
    return comp_id


@click.command()
@click.option("--format", "fmt", type=click.Choice(["json", "trf", "ecf"]), default="json", show_default=True)
@click.option("--trf-version", type=click.Choice(["TRF26", "TRF16"]), default="TRF26", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="File (default: stdout).")
@click.option("--event-code", default="", help="ECF: the event code (your grader prefix and a number).")
@click.option("--submission-index", type=click.IntRange(1), default=1, show_default=True,
              help="ECF: 1, or higher for a file that replaces an earlier one.")
@click.option("--results-officer", default="", help="ECF: who answers for the results.")
@click.option("--results-officer-address", multiple=True, help="ECF: their address or e-mail (repeat for lines).")
@click.option("--treasurer", default="", help="ECF: who pays the game fees.")
@click.option("--treasurer-address", multiple=True, help="ECF: their address or e-mail (repeat for lines).")
@click.option("--club-code", help="ECF: the club's ECF club code, for players without an ECF code.")
@click.option("--minutes-for-game", type=click.IntRange(1), help="ECF: minutes per player (default: the rounds' "
                                                                  "time control, like 90+30).")
@click.option("--seconds-per-move", type=click.IntRange(0), help="ECF: the increment (with --minutes-for-game).")
@pass_ctx
def export(ctx: Context, fmt: str, trf_version: str, output: Path | None, event_code: str, submission_index: int,
           results_officer: str, results_officer_address: tuple[str, ...], treasurer: str,
           treasurer_address: tuple[str, ...], club_code: str | None, minutes_for_game: int | None,
           seconds_per_move: int | None) -> None:
    """Export the competition as season JSON, as a FIDE TRF file (all games, e.g. for a rating
    report), or as an ECF results submission file.

    The ECF file holds the games played on the board, checked as far as the ECF's format is
    public (docs/ratings.md)."""
    store = ctx.store()
    comp_id = ctx.comp(store)["id"]
    season = store.load_season(comp_id)
    if fmt == "ecf":
        from keizer.operations.ecf_report import EcfDetails, ecf_text

        text = ecf_text(store, comp_id, EcfDetails(event_code, submission_index, results_officer,
                                                   results_officer_address, treasurer, treasurer_address, club_code,
                                                   minutes_for_game, seconds_per_move))
    elif fmt == "trf":
        text = _trf_text(store, comp_id, season, trf_version)
        done = season.completed_rounds()
        left = [g for r in season.rounds[done:] for g in r.games if g.result is not None]
        if left:  # TRF holds complete rounds only
            click.echo(f"warning: round {done + 1} is not complete; its {len(left)} result(s) are not in the file",
                       err=True)
    else:
        from keizer.formats.season_json import dump
        from keizer.operations import members as member_ops

        text = json.dumps(dump(season, store.preset(comp_id), member_ops.season_member_data(store, comp_id)),
                          ensure_ascii=False, indent=1) + "\n"
    if output:
        output.write_text(text, encoding="utf-8", newline="")
        click.echo(f"wrote {output}")
    else:
        click.echo(text, nl=False)


def _trf_text(store: Store, comp_id: int, season: Season, version: str) -> str:
    from dataclasses import replace as with_

    from keizer.formats.trf import dump
    from keizer.points import GAMES_ONLY, tournament
    from keizer.tiebreaks import System

    if systems.of(store.system(comp_id)).standing_kind == "matches":  # a team event's own TRF
        from keizer.operations.teams_trf import team_trf

        return team_trf(store, comp_id, version)
    upto = season.completed_rounds()
    label: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    if systems.of(store.system(comp_id)).points:
        from keizer.operations.fide import trf_comments

        rules = systems.stored_points_rules(store, comp_id)
        t = with_(tournament(season, upto, rules.system, rules.scoring), tiebreaks=rules.tiebreaks)
        label = trf_comments(store, comp_id)  # FIDE mode, or when it left the FIDE rules (### lines)
        settings = store.system_settings(comp_id)
        if settings.get("rounds"):  # a Swiss: the planned rounds (142) and the initial colour (152 / XXC)
            t = with_(t, rounds=max(int(settings["rounds"]), upto))
            black = settings.get("initial_colour") == "black"
            extra = (("152 B" if black else "152 W") if version == "TRF26" else
                     ("XXC black1" if black else "XXC white1"),)
            if systems.of(store.system(comp_id)).accelerated:  # virtual points (XXA), forbidden pairs (XXP)
                from keizer.operations.swiss import trf_records

                extra += trf_records(store, comp_id, season)
    else:  # a Keizer season: its games scored by games only (rating reports), labelled as what it is
        t = tournament(season, upto, System.SWISS, GAMES_ONLY)
        label = ("092 Individual: Keizer (club competition; game points only)",)
    dates = sorted(r.date for r in season.rounds[:upto] if r.date)
    info = (f"042 {dates[0]}", f"052 {dates[-1]}") if dates else ()
    dated = tuple(r.date for r in season.rounds[:upto])
    return dump(with_(t, info=label + info + extra, dates=dated if any(dated) else ()), version)


COMMANDS = (club, publish, import_, export)

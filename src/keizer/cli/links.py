"""``keizer member-link`` (members' personal links) and ``keizer notices`` (their
notices of absence and the deadline settings).

Registered in ``keizer.cli.commands`` (``_Commands.lazy``).  The web app's page
``/members/links`` calls the same operations (:mod:`keizer.operations.notices`).
"""

from __future__ import annotations

import json
from datetime import date

import click

from keizer.cli.base import Context, format_option, pass_ctx, writing
from keizer.cli.words import say
from keizer.operations import notices as ops
from keizer.output import render
from keizer.refusals import Message
from keizer.store import StoreError


class _LinkCommands(click.Group):
    """``keizer member-link NAME`` is short for ``keizer member-link new NAME``."""

    def resolve_command(self, ctx: click.Context, args: list[str]
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            args = ["new", *args]
        return super().resolve_command(ctx, args)


@click.group("member-link", cls=_LinkCommands)
def member_link() -> None:
    """Members' personal links, to send notice of absence from a phone (no password).

    'keizer member-link NAME --base-url URL' (or 'new NAME') prints a new link.
    """


@member_link.command("new")
@click.argument("member_ref", metavar="MEMBER")
@click.option("--base-url", envvar="KEIZER_BASE_URL",
              help="The app's address as members reach it, e.g. https://club.example.org (default: $KEIZER_BASE_URL).")
@pass_ctx
def link_new(ctx: Context, member_ref: str, base_url: str | None) -> None:
    """Make a member's personal link and print it (shown once; their old link stops working)."""
    base = (base_url or "").strip().rstrip("/")
    if not base.startswith(("http://", "https://")):
        raise StoreError("give the app's address with --base-url https://club.example.org (or set $KEIZER_BASE_URL): "
                         "the link is printed only once")
    member = ctx.store().find_member(member_ref)
    with writing(ctx, "member-link", Message("personal link for %(name)s", name=member['name'])) as store:
        token = ops.new_link(store, member["id"])
    click.echo(f"{base}/m/{token}")


@member_link.command("revoke")
@click.argument("member_ref", metavar="MEMBER")
@pass_ctx
def link_revoke(ctx: Context, member_ref: str) -> None:
    """Revoke a member's personal link."""
    member = ctx.store().find_member(member_ref)
    with writing(ctx, "member-link revoke", Message("revoke the personal link of %(name)s", name=member['name'])) as store:
        ops.revoke_link(store, member["id"])
    click.echo(f"the personal link of {member['name']} is revoked")


@member_link.command("list")
@format_option
@pass_ctx
def link_list(ctx: Context, fmt: str) -> None:
    """The members with a personal link in force (never the link itself)."""
    rows = [r for r in ops.links(ctx.store()) if r["created"]]
    shown = [{"member": r["name"], "created": r["created"], "expires": r["expires"],
              "state": "expired" if r["expired"] else "in force"} for r in rows]
    click.echo(json.dumps(shown, ensure_ascii=False, indent=2) if fmt == "json"
               else render(shown, ["member", "created", "expires", "state"], fmt))


@click.group(invoke_without_command=True)
@click.option("--days-back", type=click.IntRange(0, 3650), default=28, show_default=True,
              help="Also show notices for evenings this many days past.")
@format_option
@pass_ctx
@click.pass_context
def notices(click_ctx: click.Context, ctx: Context, days_back: int, fmt: str) -> None:
    """Members' notices of absence: who cannot come on which evening, sent when, and
    what each counts as (excused before the deadline, else as the setting says)."""
    if click_ctx.invoked_subcommand is not None:
        return
    rows = [{"date": r["date"], "member": r["name"], "sent": r["sent"], "via": r["via"], "counts as": r["status"]}
            for r in ops.recent_notices(ctx.store(), date.today(), days_back)]
    click.echo(json.dumps(rows, ensure_ascii=False, indent=2) if fmt == "json"
               else render(rows, ["date", "member", "sent", "via", "counts as"], fmt))


@notices.command("settings")
@click.option("--days-before", "notice_days", help="The deadline is this many days before the evening (0-14).")
@click.option("--time", "notice_time", help="… at this time, e.g. 18:00 (the server's local time).")
@click.option("--late", "late_notice", type=click.Choice(["excused", "unexcused"]),
              help="What a notice after the deadline counts as.")
@click.option("--link-days", help="Members' links expire after this many days (1-3650).")
@click.option("--evening-day", help="The club's evening weekday (e.g. tuesday); '' for the weekday of the rounds.")
@pass_ctx
def notice_settings(ctx: Context, /, **values: str | None) -> None:  # pass_ctx gives ctx by position
    """Show or change the notice deadline and the lifetime of members' links."""
    if any(v is not None for v in values.values()):
        with writing(ctx, "notices settings", Message("notice settings")) as store:
            rules = ops.set_notice_settings(store, **values)
    else:
        rules = ops.notice_settings(ctx.store())
    click.echo(say(rules.describe()) + (f"; club evening: {rules.evening_day}" if rules.evening_day else ""))

"""``keizer serve`` (the web app) and ``keizer user`` (its accounts).

Registered in ``keizer.cli.commands`` (``_Commands.lazy``): Flask and waitress are
imported only when the app is served.
"""

from __future__ import annotations

import errno
import os
import threading
import webbrowser

import click

from keizer.cli.base import Context, format_option, pass_ctx, writing
from keizer.cli.params import Whole
from keizer.operations import accounts
from keizer.operations.accounts import ROLES
from keizer.output import render
from keizer.store import StoreError

LOOPBACK = ("127.0.0.1", "localhost", "::1")


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; any other than this computer's own needs accounts (keizer user add).")
@click.option("--port", type=Whole(1, 65535), default=8000, show_default=True)
@click.option("--open", "open_browser", is_flag=True, help="Open the app in the browser.")
@click.option("--threads", type=Whole(1, 64), default=8, show_default=True, help="Requests served at once.")
@click.option("--behind-proxy", is_flag=True,
              help="A reverse proxy (nginx, Caddy) terminates TLS in front of the app: trust its X-Forwarded headers.")
@click.option("--plain-http", is_flag=True,
              help="Send the login cookie over plain HTTP too (a club network without TLS; not advised).")
@pass_ctx
def serve(ctx: Context, host: str, port: int, open_browser: bool, threads: int, behind_proxy: bool,
          plain_http: bool) -> None:
    """Serve the app for the club evening in a browser (Ctrl+C stops it).

    On this computer's own address with no accounts, whoever uses the browser is the
    officer.  Listening on another address (the club's network, a server behind a TLS
    proxy) needs accounts: 'keizer user add NAME --role officer'.
    """
    from waitress.server import create_server

    from keizer.web import create_app

    store = ctx.store()
    store.commit_upgrade()  # an older file is upgraded once, before the requests start
    # Behind a proxy the app listens on this computer but answers the network: accounts as well.
    local = host in LOOPBACK and not behind_proxy
    if not local and not store.users():
        where = "behind a proxy" if behind_proxy else f"on {host}"
        raise StoreError(f"serving {where} needs accounts, so that nobody on the network is the officer "
                         "by default: add one with 'keizer user add NAME --role officer'")
    store.close()
    app = create_app(ctx.db, local=local, secure_cookies=not local and not plain_http,
                     secret_key=os.environ.get("KEIZER_SECRET_KEY"), behind_proxy=behind_proxy)
    shown = f"[{host}]" if ":" in host else host
    try:  # the port is taken before anything is said: a busy one is refused, not announced
        server = create_server(app, host=host, port=port, threads=threads, ident="keizer")
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            raise StoreError(f"port {port} on {host} is in use (another 'keizer serve'?); choose another with "
                             f"--port {port + 1}") from None
        raise StoreError(f"cannot listen on {host} port {port}: {e.strerror or e}") from None
    url = f"http://{shown}:{port}/"
    click.echo(f"keizer serves {ctx.db} at {url} (Ctrl+C stops)")
    if open_browser:
        threading.Timer(0.8, webbrowser.open, args=(url,)).start()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()


@click.group()
def user() -> None:
    """Accounts of the web app: officers and arbiters."""


def _password(confirm: bool = True) -> str:
    """From $KEIZER_PASSWORD (scripts) or a hidden prompt: never the command line."""
    given = os.environ.get("KEIZER_PASSWORD")
    if given is not None:
        return given
    return click.prompt("password", hide_input=True, confirmation_prompt=confirm)


@user.command("add")
@click.argument("name")
@click.option("--role", type=click.Choice(ROLES), required=True,
              help="officer: everything; arbiter: attendance, pairing and results only.")
@pass_ctx
def user_add(ctx: Context, name: str, role: str) -> None:
    """Add an account; the password is asked (or taken from $KEIZER_PASSWORD)."""
    accounts.check_new_user(ctx.store(), name, role)
    password = _password()
    with writing(ctx, "user add", f"user {name} ({role})") as store:
        made = accounts.add_user(store, name, role, password)
    click.echo(f"added {made['name']} ({made['role']})")


@user.command("list")
@format_option
@pass_ctx
def user_list(ctx: Context, fmt: str) -> None:
    """The accounts (never their passwords)."""
    click.echo(render(ctx.store().users(), ["name", "role", "created"], fmt))


@user.command("password")
@click.argument("name")
@pass_ctx
def user_password(ctx: Context, name: str) -> None:
    """Set a new password (asked, or taken from $KEIZER_PASSWORD)."""
    accounts.find_user(ctx.store(), name)
    password = _password()
    with writing(ctx, "user password", f"password of {name}") as store:
        accounts.set_password(store, name, password)
    click.echo(f"password of {name} changed")


@user.command("role")
@click.argument("name")
@click.argument("role", type=click.Choice(ROLES))
@pass_ctx
def user_role(ctx: Context, name: str, role: str) -> None:
    """Make a user officer or arbiter."""
    with writing(ctx, "user role", f"{name} is {role}") as store:
        accounts.set_role(store, name, role)
    click.echo(f"{name} is now {role}")


@user.command("remove")
@click.argument("name")
@pass_ctx
def user_remove(ctx: Context, name: str) -> None:
    """Remove an account (their sessions end at their next request)."""
    with writing(ctx, "user remove", f"remove user {name}") as store:
        gone = accounts.remove_user(store, name)
    click.echo(f"removed {gone['name']}")

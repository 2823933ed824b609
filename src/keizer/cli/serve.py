"""``keizer serve`` (the web app) and ``keizer user`` (its accounts).

Registered in ``keizer.cli.commands`` (``_Commands.lazy``): Flask and waitress are
imported only when the app is served.
"""

from __future__ import annotations

import errno
import os
import secrets
import select
import socket
import threading
import webbrowser

import click

from keizer.cli.base import Context, format_option, pass_ctx, writing
from keizer.cli.params import Whole
from keizer.operations import accounts
from keizer.operations.accounts import ROLES
from keizer.output import render
from keizer.refusals import Message, Word
from keizer.store import StoreError

LOOPBACK = ("127.0.0.1", "localhost", "::1")
#: Addresses that listen on every network of the computer.
EVERYWHERE = ("0.0.0.0", "::", "")
#: The largest request body the server takes in at all (waitress keeps a body whole before the
#: app sees it): more than the app's largest file, far less than waitress's own 1 GB.
MAX_BODY = 128 * 1024 * 1024
#: What the proxy tells the app about each request: the client's address, the scheme
#: (https), the host name and port the browser used.
PROXY_HEADERS = {"x-forwarded-for", "x-forwarded-proto", "x-forwarded-host", "x-forwarded-port"}


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; any other than this computer's own needs accounts (keizer user add).")
@click.option("--port", type=Whole(1, 65535), default=8000, show_default=True)
@click.option("--host-name", "host_names", multiple=True, metavar="NAME",
              help="A name or address browsers use for the app (schaak.example.nl, 192.168.1.20); repeat for "
                   "more. Other names are refused. Default: this computer's own names for --host.")
@click.option("--open", "open_browser", is_flag=True, help="Open the app in the browser.")
@click.option("--threads", type=Whole(1, 64), default=8, show_default=True, help="Requests served at once.")
@click.option("--connections", type=Whole(10, 100_000), default=2000, show_default=True,
              help="Connections kept open at once (each phone and venue screen keeps one).")
@click.option("--behind-proxy", is_flag=True,
              help="A reverse proxy (nginx, Caddy) terminates TLS in front of the app: trust its X-Forwarded "
                   "headers. Needs --host-name.")
@click.option("--trusted-proxy", default="127.0.0.1", show_default=True, metavar="ADDRESS",
              help="With --behind-proxy: the proxy's address as the app sees it; headers from anyone else are dropped.")
@click.option("--plain-http", is_flag=True,
              help="Send the login cookie over plain HTTP too (a club network without TLS; not advised).")
@pass_ctx
def serve(ctx: Context, host: str, port: int, host_names: tuple[str, ...], open_browser: bool, threads: int,
          connections: int, behind_proxy: bool, trusted_proxy: str, plain_http: bool) -> None:
    """Serve the app for the club evening in a browser (Ctrl+C stops it).

    On a database file that does not exist yet, it prints a one-time link where the club
    is created in the browser (name, language, colour, logo, first competition, the
    first officer's account).

    On this computer's own address with no accounts, whoever uses the browser is the
    officer.  Listening on another address (the club's network, a server behind a TLS
    proxy) needs accounts: 'keizer user add NAME --role officer'.  The app answers only
    to this computer's names and those given with --host-name.
    """
    from waitress.server import create_server

    from keizer.web import create_app, served_gc

    # Behind a proxy the app listens on this computer but answers the network: accounts as well.
    local = host in LOOPBACK and not behind_proxy
    setup_token = None
    if not ctx.db.exists():  # a new club: created in the browser, through a link only this terminal shows
        if not ctx.db.parent.is_dir():
            raise StoreError(f"there is no folder {ctx.db.parent}: create it first, or choose another file with --db")
        setup_token = secrets.token_urlsafe(24)
    else:
        store = ctx.store()
        store.commit_upgrade()  # an older file is upgraded once, before the requests start
        if not local and not store.users():
            where = "behind a proxy" if behind_proxy else f"on {host}"
            raise StoreError(f"serving {where} needs accounts, so that nobody on the network is the officer "
                             "by default: add one with 'keizer user add NAME --role officer'")
        store.close()
    if behind_proxy and not host_names:
        raise click.UsageError("--behind-proxy needs the public name members use: add --host-name, "
                               "e.g. --host-name schaak.example.nl")
    names = served_names(host, host_names, behind_proxy)
    app = create_app(ctx.db, local=local, secure_cookies=not local and not plain_http,
                     secret_key=os.environ.get("KEIZER_SECRET_KEY"), hosts=names, setup_token=setup_token)
    proxy = dict(trusted_proxy=trusted_proxy, trusted_proxy_count=1, trusted_proxy_headers=PROXY_HEADERS,
                 clear_untrusted_proxy_headers=True) if behind_proxy else {}
    connections = _open_files_for(connections)
    shown = f"[{host}]" if ":" in host else host
    served_gc()
    try:  # the port is taken before anything is said: a busy one is refused, not announced
        server = create_server(app, host=host, port=port, threads=threads, ident="keizer",
                               connection_limit=connections, asyncore_use_poll=hasattr(select, "poll"),
                               max_request_body_size=MAX_BODY, **proxy)
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            raise StoreError(f"port {port} on {host} is in use (another 'keizer serve'?); choose another with "
                             f"--port {port + 1}") from None
        raise StoreError(f"cannot listen on {host} port {port}: {e.strerror or e}") from None
    url = f"http://{shown}:{port}/" if host not in EVERYWHERE else f"http://127.0.0.1:{port}/"
    click.echo(f"keizer serves {ctx.db} at {url} (Ctrl+C stops)")
    others = sorted(names - {"127.0.0.1", "localhost", "[::1]"})
    if others:
        click.echo(f"it answers to {', '.join(others)} too" + (f" (behind the proxy at {trusted_proxy})"
                                                                  if behind_proxy else ""))
    if setup_token is not None:
        url = f"{url}setup/{setup_token}"
        click.echo(f"there is no club in {ctx.db} yet: create it in the browser at {url} "
                   "(only this link can; it works until the club is created)")
    if open_browser:
        threading.Timer(0.8, webbrowser.open, args=(url,)).start()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()


def served_names(host: str, given: tuple[str, ...], behind_proxy: bool) -> set[str]:
    """The host names the app answers to: those given, and this computer's own for the address
    it listens on (behind a proxy, only those given: the proxy passes on the public name).

    >>> sorted(served_names("127.0.0.1", ("schaak.example.nl",), False))
    ['127.0.0.1', '[::1]', 'localhost', 'schaak.example.nl']
    >>> sorted(served_names("192.168.1.20", (), False)), sorted(served_names("::1", ("Schaak.NL",), True))
    (['192.168.1.20'], ['schaak.nl'])
    """
    names = {_bracketed(n) for n in given}
    if behind_proxy:
        return names
    if host in LOOPBACK:
        return names | {"127.0.0.1", "localhost", "[::1]"}
    if host in EVERYWHERE:
        return names | {"127.0.0.1", "localhost", "[::1]"} | _own_names()
    return names | {_bracketed(host)}


def _bracketed(name: str) -> str:
    """A name as a Host header carries it, lower case: an IPv6 address in brackets."""
    name = name.strip().lower().rstrip(".")
    return f"[{name}]" if ":" in name and not name.startswith("[") else name


def _own_names() -> set[str]:
    """This computer's name and addresses, as phones on its network would reach it."""
    name = socket.gethostname()
    names = {name, f"{name}.local", socket.getfqdn()}
    try:
        names |= {str(info[4][0]) for info in socket.getaddrinfo(name, None)}
    except OSError:
        pass
    try:  # the address of the network towards the internet (a UDP 'connect' sends nothing)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            names.add(probe.getsockname()[0])
    except OSError:
        pass
    return {_bracketed(n) for n in names if n}


def _open_files_for(connections: int) -> int:
    """The connections the server can keep: the process may open enough files for them (the
    soft limit is raised towards the hard one where the system allows it)."""
    try:
        import resource
    except ImportError:  # Windows: no such limit, but select() watches at most 512 sockets
        return connections if hasattr(select, "poll") else min(connections, 500)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + 64  # the database, the listening socket, the threads' files
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass
    return connections if soft == resource.RLIM_INFINITY else max(10, min(connections, soft - 64))


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
    with writing(ctx, "user add", Message("user %(name)s (%(role)s)",
                                          name=name, role=Word("officer") if role == "officer" else Word("arbiter"))) as store:
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
    with writing(ctx, "user password", Message("password of %(name)s", name=name)) as store:
        accounts.set_password(store, name, password)
    click.echo(f"password of {name} changed")


@user.command("role")
@click.argument("name")
@click.argument("role", type=click.Choice(ROLES))
@pass_ctx
def user_role(ctx: Context, name: str, role: str) -> None:
    """Make a user officer or arbiter."""
    with writing(ctx, "user role", Message("%(name)s is %(role)s",
                                           name=name, role=Word("officer") if role == "officer" else Word("arbiter"))) as store:
        accounts.set_role(store, name, role)
    click.echo(f"{name} is now {role}")


@user.command("remove")
@click.argument("name")
@pass_ctx
def user_remove(ctx: Context, name: str) -> None:
    """Remove an account (their sessions end at their next request)."""
    with writing(ctx, "user remove", Message("remove user %(name)s", name=name)) as store:
        gone = accounts.remove_user(store, name)
    click.echo(f"removed {gone['name']}")

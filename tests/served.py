"""The app as a browser or an attacker meets it: `keizer serve` (waitress) started on a free port
of 127.0.0.1 and stopped, and a bare HTTP client that sends exactly the headers a test gives
(a forged Host, a forged X-Forwarded-For), from a chosen source address (127.0.0.0/8 is all
this computer's: a test can be many clients), keeping its cookie as a browser does."""

from __future__ import annotations

import http.client
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_club.db"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served:
    """`keizer --db DB serve ARGS…` on a free port until :meth:`stop` (or the ``with`` ends)."""

    def __init__(self, db: Path, *args: str, env: dict[str, str] | None = None, log: Path | None = None) -> None:
        """``log``: a file for the server's error stream, readable while it runs (:meth:`written`);
        a server shared by many tests writes there (a pipe nobody reads would fill up)."""
        self.db, self.port, self.log = db, free_port(), log
        self.process = subprocess.Popen(
            [sys.executable, "-m", "keizer", "--db", str(db), "serve", "--port", str(self.port), *args],
            stdout=subprocess.PIPE, stderr=log.open("w") if log else subprocess.PIPE, text=True,
            env={**os.environ, **(env or {})})
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"keizer serve stopped: {self.process.stderr.read()}")  # type: ignore[union-attr]
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("keizer serve did not answer within 20 s")

    def client(self, **options: Any) -> Client:
        return Client(self.port, **options)

    def errors(self) -> str:
        """What the server wrote to its error stream (a traceback, a warning), once it stopped."""
        self.stop()
        return self.written() if self.log else self.process.stderr.read()  # type: ignore[union-attr]

    def written(self) -> str:
        """What the server wrote to its ``log`` so far (it writes each line as it comes)."""
        assert self.log, "Served(..., log=FILE) keeps the error stream in a file"
        return self.log.read_text(encoding="utf-8", errors="replace")

    def said(self, lines: int, timeout: float = 10) -> str:
        """The first ``lines`` lines the server wrote to its standard output (what it listens for)."""
        import select

        assert self.process.stdout is not None
        pipe, out, deadline = self.process.stdout.fileno(), b"", time.monotonic() + timeout
        while out.count(b"\n") < lines and select.select([pipe], [], [], max(0, deadline - time.monotonic()))[0]:
            chunk = os.read(pipe, 4096)  # unbuffered: the stream's own buffer would hide lines from select
            if not chunk:
                break
            out += chunk
        return out.decode("utf-8", "replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> Served:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def sample_copy(folder: Path) -> Path:
    db = folder / "club.db"
    shutil.copy(SAMPLE, db)
    return db


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: str

    @property
    def location(self) -> str:
        return self.headers.get("location", "")

    def text(self) -> str:
        """The visible text, tags stripped, whitespace folded."""
        import html

        body = re.sub(r"<(script|style)\b.*?</\1>", " ", self.body, flags=re.S)
        return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


@dataclass
class Client:
    """One browser (its cookie) on one connection at a time; ``host`` is the Host header it
    sends (default: the address it connects to), ``source`` the address it connects from."""

    port: int
    host: str | None = None
    source: str | None = None
    address: str = "127.0.0.1"
    cookies: dict[str, str] = field(default_factory=dict)
    timeout: float = 30.0

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> Answer:
        conn = http.client.HTTPConnection(self.address, self.port, timeout=self.timeout,
                                          source_address=(self.source, 0) if self.source else None)
        try:
            conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            conn.putheader("Host", self.host or f"{self.address}:{self.port}")
            if self.cookies:
                conn.putheader("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
            for key, value in (headers or {}).items():
                conn.putheader(key, value)
            if body is not None:
                conn.putheader("Content-Length", str(len(body)))
            conn.endheaders(body)
            response = conn.getresponse()
            data = response.read().decode("utf-8", "replace")
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    self.cookies[key] = rest.split(";", 1)[0]
                    if not self.cookies[key]:
                        del self.cookies[key]
            return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, data)
        finally:
            conn.close()

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self.request("GET", path, headers=headers)

    def post(self, path: str, data: dict[str, str] | None = None, csrf: bool = True,
             headers: dict[str, str] | None = None) -> Answer:
        """A form sent as the app's page would send it (with this browser's CSRF token)."""
        fields = dict(data or {})
        if csrf and "csrf" not in fields:
            fields["csrf"] = self.csrf()
        return self.request("POST", path, urllib.parse.urlencode(fields).encode(),
                            {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})})

    def csrf(self, page: str = "/login") -> str:
        """This browser's CSRF token, read off a page with a form (the login page has one)."""
        found = re.search(r'name="csrf" value="([^"]+)"', self.get(page).body)
        assert found, f"no form on {page}"
        return found.group(1)

    def login(self, name: str, password: str) -> Answer:
        return self.post("/login", {"name": name, "password": password})


class ReverseProxy:
    """A reverse proxy on a free port of 127.0.0.1 in front of the app, as nginx or Caddy is
    configured in docs/web.md: it forwards every request, telling the app the client's address
    (X-Forwarded-For, replacing whatever the client sent), the scheme the client used
    (X-Forwarded-Proto: https, as behind TLS) and the name it asked for (X-Forwarded-Host)."""

    def __init__(self, app_port: int) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        class Forward(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                conn = http.client.HTTPConnection("127.0.0.1", app_port, timeout=30)
                conn.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
                for name, value in self.headers.items():
                    if name.lower() not in ("x-forwarded-for", "x-forwarded-proto", "x-forwarded-host",
                                            "x-forwarded-port", "forwarded", "connection"):
                        conn.putheader(name, value)
                conn.putheader("X-Forwarded-For", self.client_address[0])
                conn.putheader("X-Forwarded-Proto", "https")
                conn.putheader("X-Forwarded-Host", self.headers.get("Host", ""))
                conn.endheaders(body)
                answer = conn.getresponse()
                data = answer.read()
                self.send_response(answer.status)
                for name, value in answer.getheaders():
                    if name.lower() not in ("content-length", "connection", "transfer-encoding"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(data)
                conn.close()

            do_GET = do_POST = do_HEAD = _forward

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Forward)
        self.port = int(self.server.server_address[1])
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def client(self, **options: Any) -> Client:
        return Client(self.port, **options)

    def __enter__(self) -> ReverseProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

"""Real FTP, FTPS and SFTP servers on 127.0.0.1 for the upload tests, each in a thread.

FTP and FTPS are pyftpdlib's (FTPS with a self-signed certificate made here with the
``cryptography`` package, TLS required on the control and data connections); SFTP is
asyncssh's own SFTP server, chrooted in a folder, with a host key made here and a
password login.  Every server serves a folder of the test's ``tmp_path``: one server for
one test, or one for many tests (a module's), given a function that says the folder of the
test running now (each login is served from the folder it names then).
"""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import logging
import os
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

USER = "webmaster"
PASSWORD = "s3cret pass"


def self_signed_certificate(folder: Path, name: str = "127.0.0.1") -> Path:
    """A PEM file with a new key and a certificate for 127.0.0.1 signed by itself."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(name))]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    path = folder / f"cert-{name}.pem"
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()) + cert.public_bytes(serialization.Encoding.PEM))
    return path


class _Dropping:
    """Counts the files a server has been asked to store; after ``limit`` it hangs up."""  # and knows no MLSD

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """As a new server is: it stores every file and knows MLSD."""
        self.limit: int | None = None
        self.stored = 0
        self.mlsd = True  # False: the server answers MLSD (RFC 3659) as an old server does


Root = Path | Callable[[], Path]  # the folder served, or a function saying it at each login


def _where(root: Root) -> Callable[[], Path]:
    return root if callable(root) else lambda: root


@contextmanager
def ftp_server(root: Root, tls_cert: Path | None = None) -> Iterator[tuple[int, _Dropping]]:
    """A pyftpdlib server for USER/PASSWORD with its home in ``root``; yields (port, dropper)."""
    from pyftpdlib.authorizers import DummyAuthorizer
    from pyftpdlib.handlers import FTPHandler, TLS_FTPHandler
    from pyftpdlib.ioloop import IOLoop
    from pyftpdlib.servers import FTPServer

    quiet = logging.getLogger("pyftpdlib")  # one line per command otherwise
    quiet.addHandler(logging.NullHandler())
    quiet.setLevel(logging.WARNING)
    dropper = _Dropping()
    where = _where(root)

    class Authorizer(DummyAuthorizer):  # type: ignore[misc]
        def get_home_dir(self, username: str) -> str:
            return str(where()) if username == USER else str(super().get_home_dir(username))

    authorizer = Authorizer()
    authorizer.add_user(USER, PASSWORD, str(where()), perm="elradfmw")
    base = TLS_FTPHandler if tls_cert else FTPHandler

    class Handler(base):  # type: ignore[misc, valid-type]
        def ftp_STOR(self, file: str, mode: str = "w") -> object:
            dropper.stored += 1
            if dropper.limit is not None and dropper.stored > dropper.limit:
                self.close()  # the line goes dead in the middle of the upload
                return None
            return super().ftp_STOR(file, mode)

        def ftp_MLSD(self, path: str) -> object:
            if not dropper.mlsd:
                self.respond("502 Command not implemented.")
                return None
            return super().ftp_MLSD(path)

    Handler.authorizer = authorizer
    Handler.auth_failed_timeout = 0  # pyftpdlib waits 3 s after a wrong password, to slow guessing
    if tls_cert:
        Handler.certfile = str(tls_cert)
        Handler.tls_control_required = True
        Handler.tls_data_required = True
    # An event loop of its own (pyftpdlib's default is one for the whole process), so that an
    # FTP and an FTPS server can run at once, each in its thread, and each stops alone.
    server = FTPServer(("127.0.0.1", 0), Handler, ioloop=IOLoop())
    stop = threading.Event()

    def serve() -> None:
        wait = 0.05  # how often the stop flag is looked at, or sooner when a task is due
        while not stop.is_set():
            soonest = server.ioloop.loop(wait, blocking=False)
            wait = 0.05 if soonest is None else min(0.05, soonest)
        server.close_all()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield server.address[1], dropper
    finally:
        stop.set()
        thread.join(10)


@contextmanager
def sftp_server(root: Root) -> Iterator[tuple[int, str]]:
    """asyncssh's SFTP server chrooted in ``root`` for USER/PASSWORD; yields (port, host key line)."""
    import asyncssh

    key = asyncssh.generate_private_key("ssh-ed25519")
    where = _where(root)

    class Server(asyncssh.SSHServer):
        def begin_auth(self, username: str) -> bool:
            return True

        def password_auth_supported(self) -> bool:
            return True

        def validate_password(self, username: str, password: str) -> bool:
            return username == USER and password == PASSWORD

    loop = asyncio.new_event_loop()
    acceptor = loop.run_until_complete(asyncssh.listen(
        "127.0.0.1", 0, server_host_keys=[key], server_factory=Server,
        sftp_factory=lambda chan: asyncssh.SFTPServer(chan, chroot=os.fsencode(where()))))
    port = acceptor.sockets[0].getsockname()[1]
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield port, f"[127.0.0.1]:{port} {key.export_public_key().decode().strip()}\n"
    finally:
        async def shut() -> None:
            acceptor.close()
            await acceptor.wait_closed()

        asyncio.run_coroutine_threadsafe(shut(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()

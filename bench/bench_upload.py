"""Benchmark: uploading the published site to servers on 127.0.0.1 (needs the test extra).

    python bench/bench_upload.py

The sample club's site (realistic) and the 600-player 52-round season's (10×), each
uploaded to an empty FTP, FTPS and SFTP server and to a folder, then again unchanged (one
login and one manifest read), then after a change of one page.  The servers are the
tests' (pyftpdlib, asyncssh); over loopback this measures keizer's own cost and the
protocol's round trips, not a club's line to its host.
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))
from seasons import synthetic_season  # noqa: E402
from upload_servers import PASSWORD, USER, ftp_server, self_signed_certificate, sftp_server  # noqa: E402

from keizer.operations import competition as ops  # noqa: E402
from keizer.publish import publish  # noqa: E402
from keizer.publish.files import write_site, read_manifest  # noqa: E402
from keizer.formats.targets import PASSWORD_ENV, parse_target  # noqa: E402
from keizer.publish.upload import upload  # noqa: E402
from keizer.store import Store  # noqa: E402


def timed(job) -> float:
    start = time.perf_counter()
    job()
    return (time.perf_counter() - start) * 1000


def sites(folder: Path) -> list[tuple[str, Path]]:
    sample = folder / "sample-site"
    db = folder / "sample.db"
    shutil.copy(ROOT / "sample_club.db", db)
    publish(Store.open(db), sample)
    big = folder / "big-site"
    store = Store.open(folder / "big.db", create=True)
    with store.change("bench", "bench"):
        ops.import_season(store, synthetic_season(600, 52, seed=1), name="Interne competitie")
    publish(store, big)
    return [("sample club", sample), ("600 players, 52 rounds", big)]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        home = folder / "home"
        (home / ".ssh").mkdir(parents=True)
        os.environ.update(HOME=str(home), SSL_CERT_FILE=str(self_signed_certificate(folder)), **{PASSWORD_ENV: PASSWORD})
        os.environ.pop("SSH_AUTH_SOCK", None)
        runs = 3
        for label, site in sites(folder):
            files = len(read_manifest(site))
            pages = sum(1 for _ in site.rglob("*.html"))
            print(f"{label}: {pages} pages, {files} files, {sum(p.stat().st_size for p in site.rglob('*') if p.is_file()) // 1024} KiB")
            for kind in ("folder", "ftp", "ftps", "sftp"):
                first, again, one = [], [], []
                for k in range(runs):
                    servers = ExitStack()  # one server at a time: pyftpdlib's servers share one event loop
                    served = folder / f"served-{kind}-{label[:3]}-{k}"
                    served.mkdir()
                    if kind == "folder":
                        url = str(served / "schaak")
                    elif kind == "sftp":
                        port, known = servers.enter_context(sftp_server(served))
                        (home / ".ssh" / "known_hosts").write_text(known)
                        url = f"sftp://{USER}@127.0.0.1:{port}/schaak"
                    else:
                        port, _ = servers.enter_context(ftp_server(served, folder / "cert-127.0.0.1.pem"
                                                                   if kind == "ftps" else None))
                        url = f"{kind}://{USER}@127.0.0.1:{port}/schaak"
                    target = parse_target(url)
                    copy = folder / f"site-{kind}-{label[:3]}-{k}"
                    shutil.copytree(site, copy)
                    first.append(timed(lambda: upload(copy, target)))
                    again.append(timed(lambda: upload(copy, target)))
                    index = (copy / "index.html").read_bytes()
                    write_site(copy, {rel: (copy / rel).read_bytes() for rel in read_manifest(copy)}
                               | {"index.html": index + b"\n"}, lambda rel: True)
                    one.append(timed(lambda: upload(copy, target)))
                    servers.close()
                print(f"  {kind:>6}: {statistics.median(first):7.0f} ms first upload, "
                      f"{statistics.median(again):5.0f} ms unchanged, {statistics.median(one):5.0f} ms one page changed"
                      f" (median of {runs})")


if __name__ == "__main__":
    main()

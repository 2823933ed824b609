"""Benchmark: the officer's app (keizer serve).

    python bench/bench_web.py [--seconds 60] [--phones 50] [--screens 200]

1. Server-side render time of each main page (Flask's test client, no network), for the
   sample club and for a 600-player 52-round season: p50 and p95 over repeated requests.
2. Load: `keizer serve` on 127.0.0.1 over the sample club plus a Keizer competition with
   one board per phone, paired, with result links; PHONES clients report their board's
   result through its link every REPORT_EVERY seconds (each report replaces the last) while
   SCREENS clients poll the venue screen's JSON every POLL_EVERY seconds (20, as venue.js),
   for SECONDS seconds, bounded and self-stopping.
   Reports requests per second, p50/p95 latency, errors, and lost writes (a board whose
   stored report is not the last one its phone was told was stored).
"""

from __future__ import annotations

import argparse
import http.cookiejar
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from seasons import synthetic_season  # noqa: E402

from keizer.operations import boards as boards_ops  # noqa: E402
from keizer.operations import competition as ops  # noqa: E402
from keizer.store import Store  # noqa: E402
from keizer.web import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PAGES = ["/", "/c/{c}/attendance", "/c/{c}/pairing", "/c/{c}/results", "/c/{c}/standings", "/c/{c}/crosstable",
         "/c/{c}/print", "/c/{c}/venue", "/c/{c}/venue.json", "/members", "/competitions", "/log"]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def render_times(db: Path, comp: int, runs: int) -> None:
    app = create_app(db)
    client = app.test_client()
    for page in PAGES:
        url = page.format(c=comp)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200, (url, response.status_code)
        print(f"  {url:<24} p50 {statistics.median(times):7.1f} ms   p95 {percentile(times, 95):7.1f} ms")


def big_season(folder: Path) -> Path:
    db = folder / "s600.db"
    store = Store.open(db, create=True)
    with store.change("bench", "bench"):
        ops.import_season(store, synthetic_season(600, 52, seed=1), name="Interne competitie")
    store.close()
    return db


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    """A browser-like client: cookies, and the CSRF token of the last page read."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = ""

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=30) as r:
            body = r.read().decode()
        found = re.search(r'name="csrf" value="([^"]+)"', body)
        if found:
            self.csrf = found.group(1)
        return body

    def post(self, path: str, data: dict[str, str]) -> str:
        encoded = urllib.parse.urlencode({"csrf": self.csrf, **data}).encode()
        with self.opener.open(self.base + path, encoded, timeout=30) as r:
            return r.read().decode()


def load_db(folder: Path, boards: int) -> tuple[Path, int, dict[int, str]]:
    """A copy of the sample club plus a Keizer competition of 2×``boards`` players, its
    next round paired, and a result link per board: {board: code}."""
    db = folder / "club.db"
    shutil.copy(ROOT / "sample_club.db", db)
    store = Store.open(db)
    with store.change("bench", "bench"):
        comp_id = ops.import_season(store, synthetic_season(2 * boards, 3, seed=7), name="Load test")
    with store.change("bench", "pair"):
        ops.mark_attendance(store, comp_id, {}, {}, (), None, "2026-12-01", True)  # all present by default
        ops.make_pairing(store, comp_id)
        number = store.load_season(comp_id).rounds[-1].number
        codes = boards_ops.make_codes(store, comp_id, number)
    store.close()
    return db, comp_id, codes


def load(seconds: float, phones: int, screens: int, report_every: float = 5.0, poll_every: float = 20.0) -> None:
    """PHONES players report their board's result through its link, again and again (a new
    result each time, replacing the last); SCREENS venue screens poll.  Afterwards every
    board must hold the last result its phone was told was stored."""
    with tempfile.TemporaryDirectory() as tmp:
        db, comp_id, codes = load_db(Path(tmp), phones)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen([sys.executable, "-m", "keizer", "--db", str(db), "serve", "--port", str(port),
                                   "--threads", "16"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        latencies: list[float] = []
        errors: list[str] = []
        acknowledged: dict[int, str] = {}
        lock = threading.Lock()
        try:
            for _ in range(200):
                try:
                    urllib.request.urlopen(base + "/", timeout=2)
                    break
                except OSError:
                    time.sleep(0.05)
            stop = time.monotonic() + seconds

            def timed(job) -> bool:
                start = time.perf_counter()
                try:
                    job()
                    return True
                except (urllib.error.URLError, OSError, AssertionError) as e:
                    with lock:
                        errors.append(repr(e)[:200])
                    return False
                finally:
                    with lock:
                        latencies.append((time.perf_counter() - start) * 1000)

            def phone(board: int, code: str) -> None:
                client = Client(base)
                timed(lambda: client.get(f"/b/{code}"))
                n = 0
                while time.monotonic() < stop:
                    result = ("1-0", "1/2-1/2", "0-1")[n % 3]

                    def report() -> None:
                        page = client.post(f"/b/{code}", {"side": "white", "result": result})
                        assert "error" not in page.lower(), page[:200]

                    if timed(report):
                        with lock:
                            acknowledged[board] = result
                    n += 1
                    time.sleep(report_every)

            def screen(k: int) -> None:
                time.sleep(poll_every * k / max(1, screens))  # screens switched on one after another
                while time.monotonic() < stop:
                    timed(lambda: urllib.request.urlopen(f"{base}/c/{comp_id}/venue.json", timeout=30).read())
                    time.sleep(poll_every)

            threads = [threading.Thread(target=phone, args=item) for item in codes.items()]
            threads += [threading.Thread(target=screen, args=(k,)) for k in range(screens)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(seconds + 120)
        finally:
            server.terminate()
            server.wait(10)
        store = Store.open(db)
        number = store.load_season(comp_id).rounds[-1].number
        stored = {r["board"]: r["result"] for r in store.board_reports(comp_id, number) if r["side"] == "white"}
        store.close()
        lost = [b for b, result in acknowledged.items() if stored.get(b) != result]
        print(f"  {len(latencies)} requests in {seconds:.0f} s: {len(latencies) / seconds:.0f}/s; "
              f"p50 {statistics.median(latencies):.0f} ms, p95 {percentile(latencies, 95):.0f} ms; "
              f"errors {len(errors)}; lost writes {len(lost)} of {len(acknowledged)} boards")
        for e in errors[:5]:
            print("   ", e)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--phones", type=int, default=50)
    parser.add_argument("--screens", type=int, default=200)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--report-every", type=float, default=5.0, help="seconds between a phone's reports")
    parser.add_argument("--poll-every", type=float, default=20.0, help="seconds between a screen's polls (venue.js: 20)")
    args = parser.parse_args()
    print("render time, sample club (Keizer, 41 members, 30 rounds):")
    render_times(ROOT / "sample_club.db", 1, args.runs)
    with tempfile.TemporaryDirectory() as tmp:
        print("render time, 600 players, 52 rounds:")
        render_times(big_season(Path(tmp)), 1, max(3, args.runs // 10))
    print(f"load: {args.phones} phones reporting every {args.report_every:g} s, {args.screens} venue screens "
          f"polling every {args.poll_every:g} s, {args.seconds:.0f} s:")
    load(args.seconds, args.phones, args.screens, args.report_every, args.poll_every)


if __name__ == "__main__":
    main()

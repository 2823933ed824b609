"""Benchmark: the officer's app (keizer serve).

    python bench/bench_web.py [--seconds 60] [--phones 50] [--screens 200] [--scale K]
                              [--connections N] [--threads 16] [--load-only]

1. Server-side render time of each main page (Flask's test client, no network), for the
   sample club and for a 600-player 52-round season: p50 and p95 over repeated requests.
2. Load: `keizer serve` on 127.0.0.1 over the sample club plus a Keizer competition with
   one board per phone, paired, with result links.  Each client is a browser tab with ONE
   persistent HTTP/1.1 (keep-alive) connection, as browsers keep them; a new one is opened
   when the server has closed it (a request it did not answer is sent again, as browsers
   do) or after an error: each a reconnect.  PHONES phones open their board's result link,
   then report a new result every REPORT_EVERY seconds (each replacing the last); SCREENS
   venue screens fetch venue.json every POLL_EVERY seconds (20, as venue.js).  The clients
   start spread evenly over the first POLL_EVERY seconds, skip a tick that passed while
   their last request ran, stop asking after SECONDS seconds, and keep their connections
   until every client is done (the last requests meet the server as it was).
   --scale K multiplies the phones and the screens (the review: 50+200 and 250+1000);
   --connections N is passed to `keizer serve` if given and if serve has the option.
   Per kind and overall: requests; errors (a TIMEOUT-second timeout, a reset or refused
   connection, HTTP status 400 or more, a report page saying error); reconnects; p50, p95,
   p99 and max latency of every request, failed ones included; requests per second over
   SECONDS; the clients that asked but never had an answer.  Then lost writes (a board
   whose stored report is neither the last one its phone was told was stored nor one sent
   later without an answer), the CPU time of the clients and of the server, and from the
   server's log how often waitress reached its connection limit and its longest queue of
   requests waiting for a thread.
"""

from __future__ import annotations

import argparse
import http.client
import http.cookies
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from seasons import big_season, synthetic_season  # noqa: E402

from keizer.operations import boards as boards_ops  # noqa: E402
from keizer.operations import competition as ops  # noqa: E402
from keizer.store import Store  # noqa: E402
from keizer.web import create_app, served_gc  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PAGES = ["/", "/c/{c}/attendance", "/c/{c}/pairing", "/c/{c}/results", "/c/{c}/standings", "/c/{c}/crosstable",
         "/c/{c}/print", "/c/{c}/venue", "/c/{c}/venue.json", "/members", "/competitions", "/log"]
TIMEOUT = 30.0  # seconds a load client waits to connect, or for each read of the answer (as the review)
KINDS = ("phones", "screens")
RESULTS = ("1-0", "1/2-1/2", "0-1")


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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Tally:
    """What the clients of one kind saw."""

    latencies: list[float] = field(default_factory=list)  # ms, every request, failed ones included
    errors: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0
    clients: int = 0
    shut_out: int = 0  # clients that asked but never had an answer


class Browser:
    """A browser tab: one keep-alive connection, its cookies, the CSRF token of the last page read."""

    def __init__(self, port: int, tally: Tally, lock: threading.Lock) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
        self.tally = tally
        self.lock = lock
        self.cookies: dict[str, str] = {}
        self.csrf = ""
        self.opened = False
        self.answered = False

    def failed(self, problem: str) -> None:
        with self.lock:
            self.tally.errors[problem] += 1

    def send(self, method: str, path: str, form: dict[str, str] | None = None) -> str | None:
        """The page (with the CSRF token in a form), or None after an error, which is counted
        and closes the connection."""
        start = time.perf_counter()
        problem = None
        try:
            status, page = self._exchange(method, path, form)
            if status >= 400:
                problem = f"HTTP {status}"
        except TimeoutError:
            problem = "timeout"
        except ConnectionRefusedError:
            problem = "refused"
        except ConnectionError:
            problem = "reset"
        except (OSError, http.client.HTTPException) as e:
            problem = type(e).__name__
        with self.lock:
            self.tally.latencies.append((time.perf_counter() - start) * 1000)
        if problem is None:
            self.answered = True
            return page
        self.connection.close()
        self.failed(problem)
        return None

    def _exchange(self, method: str, path: str, form: dict[str, str] | None) -> tuple[int, str]:
        body = None if form is None else urllib.parse.urlencode({"csrf": self.csrf, **form}).encode()
        headers = {"Content-Type": "application/x-www-form-urlencoded"} if body is not None else {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        while True:
            reused = self.connection.sock is not None
            if not reused:
                self._open()
            try:
                self.connection.request(method, path, body, headers)
                response = self.connection.getresponse()
                page = response.read().decode()
                break
            except ConnectionError:  # a kept connection the server had closed: sent again on a new one
                self.connection.close()
                if not reused:
                    raise
        for header in response.headers.get_all("Set-Cookie") or ():
            self.cookies.update((name, morsel.value) for name, morsel in http.cookies.SimpleCookie(header).items())
        found = re.search(r'name="csrf" value="([^"]+)"', page)
        if found:
            self.csrf = found.group(1)
        return response.status, page

    def _open(self) -> None:
        if self.opened:
            with self.lock:
                self.tally.reconnects += 1
        self.opened = True
        self.connection.connect()


def ticks(first: float, interval: float, stop: float) -> Iterator[int]:
    """0, 1, 2, … at ``first``, ``first + interval``, … before ``stop`` (time.monotonic());
    a tick already past when the last one's work is done is skipped."""
    due = first
    n = 0
    while due < stop:
        time.sleep(max(0.0, due - time.monotonic()))
        yield n
        n += 1
        due += interval * ((time.monotonic() - due) // interval + 1)


def raise_open_files(needed: int) -> None:
    """This process's soft limit on open files (which `keizer serve` inherits) at least
    ``needed``, within the hard limit: one socket per client, on either side."""
    if sys.platform == "win32":
        return
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        wanted = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


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


def phone(browser: Browser, board: int, code: str, start: float, stop: float, every: float,
          acknowledged: dict[int, str], unanswered: dict[int, set[str]]) -> None:
    """Opens the board's result link (again while that failed), then reports a new result
    at every tick: ``acknowledged`` the last one stored, ``unanswered`` those sent after
    it without an answer (the server may still have stored them)."""
    for n in ticks(start, every, stop):
        if not browser.csrf:
            browser.send("GET", f"/b/{code}")
            continue
        result = RESULTS[n % len(RESULTS)]
        page = browser.send("POST", f"/b/{code}", {"side": "white", "result": result})
        if page is not None and "error" in page.lower():
            browser.failed("report refused")
        elif page is not None:
            acknowledged[board] = result
            unanswered[board] = set()
        else:
            unanswered.setdefault(board, set()).add(result)


def screen(browser: Browser, comp_id: int, start: float, stop: float, every: float) -> None:
    for _ in ticks(start, every, stop):
        browser.send("GET", f"/c/{comp_id}/venue.json")


def serve_knows(option: str) -> bool:
    shown = subprocess.run([sys.executable, "-m", "keizer", "serve", "--help"], capture_output=True, text=True)
    return option in shown.stdout


def load(seconds: float, phones: int, screens: int, report_every: float, poll_every: float, threads: int,
         connections: int | None) -> None:
    """PHONES players report their board's result through its link, again and again (a new
    result each time, replacing the last); SCREENS venue screens poll; each on one kept
    connection.  Afterwards every board must hold the last result its phone was told was
    stored, or one sent after it that had no answer."""
    raise_open_files(2 * (phones + screens) + 256)
    command = ["--threads", str(threads)]
    if connections is not None and serve_knows("--connections"):
        command += ["--connections", str(connections)]
    elif connections is not None:
        print("  (keizer serve has no --connections yet: served with its default)")
    with tempfile.TemporaryDirectory() as tmp:
        db, comp_id, codes = load_db(Path(tmp), phones)
        port = free_port()
        log = Path(tmp) / "serve.log"
        before = os.times()
        with log.open("w") as err:
            server = subprocess.Popen([sys.executable, "-m", "keizer", "--db", str(db), "serve", "--port", str(port),
                                       *command], stdout=subprocess.DEVNULL, stderr=err)
        lock = threading.Lock()
        tallies = {kind: Tally() for kind in KINDS}
        acknowledged: dict[int, str] = {}  # each board's entries are written by its phone alone
        unanswered: dict[int, set[str]] = {}
        try:
            for _ in range(200):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).close()
                    break
                except OSError:
                    if server.poll() is not None:
                        raise SystemExit(f"keizer serve stopped: {log.read_text()}") from None
                    time.sleep(0.05)
            first = time.monotonic() + 1.0  # every thread started before the first request
            stop = first + seconds
            tabs = {kind: [Browser(port, tallies[kind], lock) for _ in range(n)]
                    for kind, n in zip(KINDS, (phones, screens))}
            clients = [threading.Thread(target=phone, args=(tab, board, code, first + poll_every * k / phones, stop,
                                                            report_every, acknowledged, unanswered))
                       for k, (tab, (board, code)) in enumerate(zip(tabs["phones"], codes.items()))]
            clients += [threading.Thread(target=screen, args=(tab, comp_id, first + poll_every * k / screens, stop,
                                                              poll_every))
                        for k, tab in enumerate(tabs["screens"])]
            for t in clients:
                t.start()
            for t in clients:
                t.join()
            for tab in (tab for kind in KINDS for tab in tabs[kind]):  # open till every client is done
                tab.connection.close()
                tab.tally.clients += 1
                tab.tally.shut_out += tab.opened and not tab.answered
            client_cpu = sum(os.times()[:2]) - sum(before[:2])
            elapsed = time.monotonic() - first
            stopped = server.poll()
        finally:
            server.terminate()
            server.wait(10)
        server_cpu = sum(os.times()[2:4]) - sum(before[2:4])
        summary(tallies, seconds)
        store = Store.open(db)
        number = store.load_season(comp_id).rounds[-1].number
        stored = {r["board"]: r["result"] for r in store.board_reports(comp_id, number) if r["side"] == "white"}
        store.close()
        said = log.read_text()
    lost = [b for b, result in acknowledged.items() if stored.get(b) not in {result, *unanswered[b]}]
    print(f"  lost writes {len(lost)} of {len(acknowledged)} boards with a report stored")
    queued = max((int(n) for n in re.findall(r"Task queue depth is (\d+)", said)), default=0)
    print(f"  CPU: clients {client_cpu:.1f} s, server {server_cpu:.1f} s in {elapsed:.0f} s; waitress: connection "
          f"limit reached {said.count('reached the connection limit')} times, at most {queued} requests waiting "
          "for a thread")
    if stopped is not None:
        last = said.strip().rsplit("\n", 1)[-1]
        print(f"  keizer serve stopped during the run (exit {stopped}); its last words: {last}")


def summary(tallies: dict[str, Tally], seconds: float) -> None:
    print(f"  {'':<8}{'requests':>9}{'errors':>8}{'reconn.':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}"
          f"{'max ms':>9}{'req/s':>7}   no answer at all")
    everything = Tally([t for tally in tallies.values() for t in tally.latencies],
                       sum((tally.errors for tally in tallies.values()), Counter()),
                       sum(tally.reconnects for tally in tallies.values()),
                       sum(tally.clients for tally in tallies.values()),
                       sum(tally.shut_out for tally in tallies.values()))
    for kind, tally in [*tallies.items(), ("all", everything)]:
        times = tally.latencies
        shown = "".join(f"{percentile(times, p):9.0f}" for p in (50, 95, 99, 100)) if times else f"{'-':>36}"
        print(f"  {kind:<8}{len(times):9}{tally.errors.total():8}{tally.reconnects:8}{shown}"
              f"{len(times) / seconds:7.1f}   {tally.shut_out} of {tally.clients} clients")
    for kind, tally in tallies.items():
        if tally.errors:
            print(f"    {kind} errors: " + ", ".join(f"{n} {problem}" for problem, n in tally.errors.most_common()))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--phones", type=int, default=50)
    parser.add_argument("--screens", type=int, default=200)
    parser.add_argument("--scale", type=int, default=1, help="multiplies --phones and --screens")
    parser.add_argument("--connections", type=int, help="passed to keizer serve (its default if not given)")
    parser.add_argument("--threads", type=int, default=16, help="keizer serve --threads")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--report-every", type=float, default=5.0, help="seconds between a phone's reports")
    parser.add_argument("--poll-every", type=float, default=20.0, help="seconds between a screen's polls (venue.js: 20)")
    parser.add_argument("--load-only", action="store_true", help="part 2 only")
    args = parser.parse_args()
    served_gc()  # the pages as `keizer serve` serves them (its garbage collector's thresholds)
    if not args.load_only:
        print("render time, sample club (Keizer, 41 members, 30 rounds):")
        render_times(ROOT / "sample_club.db", 1, args.runs)
        with tempfile.TemporaryDirectory() as tmp:
            print("render time, 600 players, 52 rounds:")
            render_times(big_season(Path(tmp)), 1, max(3, args.runs // 10))
    phones, screens = args.phones * args.scale, args.screens * args.scale
    print(f"load: {phones} phones reporting every {args.report_every:g} s, {screens} venue screens "
          f"polling every {args.poll_every:g} s, each on one keep-alive connection, {args.seconds:.0f} s:")
    load(args.seconds, phones, screens, args.report_every, args.poll_every, args.threads, args.connections)


if __name__ == "__main__":
    main()

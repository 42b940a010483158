"""Pages under siege: a static file and a remembered canned page while the service is besieged.

    python -m bench.siege --url http://127.0.0.1:5099 [--seconds 20] [--slow-sockets 200]
                          [--runaways 10]

Issue 20's figure: beside ``--slow-sockets`` idle or trickling sockets (slowloris, reopened
when the server closes them: :class:`bench.load.SlowClients`, without its hang-ups) and
``--runaways`` runaway queries whose clients stay connected (each re-sent when answered or
refused), one client asks in turn, for ``--seconds``, for ``/static/style.css`` and a canned
page asked once before the siege (so remembered), and the report gives each path's requests,
p50, p99 and slowest time, and how many took more than 1 s (the target: none). Every answer
must be a 200 with a body. Standard library only; loopback only.
"""

from __future__ import annotations

import argparse
import json
import socket
import threading
import time
import urllib.parse
from http.client import HTTPConnection
from pathlib import Path

from bench.load import LOOPBACK, RUNAWAY, BackgroundThreads, SlowClients, _percentile

PATHS = ("/static/style.css", "/queries/bows?role=%E8%B3%93&format=json")


class Runaways(BackgroundThreads):
    """``count`` runaway queries held open: a client that stays until the server answers (a
    503 when the pool is busy, or the time limit), then asks again."""

    join_timeout = 5.0

    def __init__(self, host: str, port: int, count: int):
        super().__init__(*[self._run] * count)
        self.address = (host, port)
        self.sent = 0
        self._count_lock = threading.Lock()  # += from many threads

    def _run(self) -> None:
        request = (
            "GET /sparql?"
            + urllib.parse.urlencode({"query": RUNAWAY})
            + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        ).encode()
        while not self.stop.is_set():
            try:
                with socket.create_connection(self.address, timeout=5) as sock:
                    sock.sendall(request)
                    with self._count_lock:
                        self.sent += 1
                    sock.settimeout(1.0)
                    while not self.stop.is_set():
                        try:
                            if sock.recv(65536) == b"":
                                break  # answered and closed: ask again
                        except TimeoutError:
                            continue
            except OSError:
                self.stop.wait(0.2)


def _get(host: str, port: int, path: str) -> tuple[int, int, float]:
    started = time.perf_counter()
    connection = HTTPConnection(host, port, timeout=30)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        return response.status, len(body), time.perf_counter() - started
    finally:
        connection.close()


def run_siege(url: str, seconds: float = 20.0, slow_sockets: int = 200, runaways: int = 10):
    parts = urllib.parse.urlsplit(url)
    host, port = parts.hostname or "", parts.port or 80
    if host not in LOOPBACK:
        raise SystemExit(f"refusing {host}: the siege runs on loopback only")
    for path in PATHS:  # asked once before: the canned answer is remembered from now on
        status, size, _ = _get(host, port, path)
        if status != 200 or not size:
            raise SystemExit(f"{path}: {status} before the siege")
    times: dict[str, list[float]] = {path: [] for path in PATHS}
    failures: list[str] = []
    with (
        SlowClients(host, port, slow_sockets, hangup_every=1e9) as slow,
        Runaways(host, port, runaways) as held,
    ):
        time.sleep(1.0)  # the sockets open and the runaways reach the pool
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for path in PATHS:
                status, size, took = _get(host, port, path)
                times[path].append(took)
                if status != 200 or not size:
                    failures.append(f"{path}: {status}")
        sent = held.sent
        report = slow.report()
    figures = {
        path: {
            "requests": len(values),
            "p50_ms": round(1000 * (_percentile(values, 50) or 0), 2),
            "p99_ms": round(1000 * (_percentile(values, 99) or 0), 2),
            "max_ms": round(1000 * max(values), 2),
            "over_1s": sum(1 for v in values if v > 1.0),
        }
        for path, values in times.items()
    }
    return {
        "seconds": seconds,
        "slow_sockets": slow_sockets,
        "slow_closed_by_server": report["closed_by_server"],
        "runaways_held": runaways,
        "runaway_requests_sent": sent,
        "failures": failures,
        "paths": figures,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.siege", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--url", default="http://127.0.0.1:5000")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--slow-sockets", type=int, default=200)
    parser.add_argument("--runaways", type=int, default=10)
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args(argv)
    report = run_siege(args.url, args.seconds, args.slow_sockets, args.runaways)
    text = json.dumps(report, ensure_ascii=False, indent=1)
    print(text)
    if args.json:
        Path(args.json).write_text(text)
    ok = not report["failures"] and all(p["over_1s"] == 0 for p in report["paths"].values())
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

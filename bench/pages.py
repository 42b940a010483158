"""The reader's pages over HTTP: first and warm answer times (a figure, not a test).

    python -m bench.pages [--build-dir build] [--repeat 9] [--out build/bench/pages.json]

Serves the built dataset as ``yili-kg serve`` does (the app behind waitress on a free loopback
port), asks each page once (the first answer: the store, the page made) and then ``repeat``
times (warm: what a reader waits for when the page was asked before); prints the median and
the slowest warm answer of each. The target (issue 17): each page ≤ 200 ms warm.
"""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

PAGES = [
    "/",
    "/read",
    "/read/xiangshe",
    "/read/xiangshe/6",
    "/read/xiangyinjiu/7",
    "/search?q=" + urllib.parse.quote("献宾"),
    "/search?q=xianbin",
    "/search?q=offer",
    "/search?q=" + urllib.parse.quote("賓"),
    "/id/role/bin",
    "/id/xiangshe/event/jing-5.1.2-1",
    "/id/xiangshe/phase/06",
    "/pictures?rite=xiangshe&phase=6",
    "/pictures?rite=xiangyinjiu&phase=7&scope=phase",
    "/pictures/steps/xiangshe/6",
    "/editor",
    "/queries/find-term?q=bow",
    "/queries/term-commentary?term=" + urllib.parse.quote("献"),
]


def measure(base: str, repeat: int) -> list[dict]:
    def get(path: str) -> float:
        started = time.perf_counter()
        with urllib.request.urlopen(base + path, timeout=120) as response:
            response.read()
        return (time.perf_counter() - started) * 1000

    rows = []
    for path in PAGES:
        first = get(path)
        warm = [get(path) for _ in range(repeat)]
        rows.append(
            {
                "page": path,
                "first_ms": round(first, 1),
                "warm_p50_ms": round(statistics.median(warm), 1),
                "warm_max_ms": round(max(warm), 1),
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    import waitress

    from yili_kg.service.app import create_app

    parser = argparse.ArgumentParser(prog="python -m bench.pages", description=__doc__)
    parser.add_argument("--build-dir", default="build")
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--out", default="build/bench/pages.json")
    args = parser.parse_args(argv)
    app = create_app({"BUILD_DIR": args.build_dir})
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=4)
    stopping = threading.Event()

    def run() -> None:
        try:
            server.run()
        except OSError:  # its loop polled a socket closed under it by close() below
            if not stopping.is_set():
                raise

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        rows = measure(f"http://127.0.0.1:{server.effective_port}", args.repeat)
    finally:
        stopping.set()
        server.close()
        app.extensions["yili"].pool.close()
    for row in rows:
        print(
            f"{row['page'][:48]:48s} first {row['first_ms']:8.1f} ms · warm p50 "
            f"{row['warm_p50_ms']:6.1f} ms, max {row['warm_max_ms']:6.1f} ms"
        )
    worst = max(r["warm_p50_ms"] for r in rows)
    print(f"slowest warm p50: {worst:.1f} ms (target ≤ 200 ms)")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Every canned question on a build's store, uncached: p50 times, and the answers as sorted rows.

    python -m bench.canned BUILD [--runs 3] [--rites] [--answers FILE] [--only NAME ...]
    python -m bench.canned --compare A.json B.json

The questions are those ``yili-kg answers`` precomputes (its defaults, its header's example
and, with ``--rites``, every rite of the build for each parameter of type ``rite``), each run
on the persisted Oxigraph store with no result cache: one warm-up, then ``--runs`` timed runs
(the p50 is the store's first-ask figure of issue 21 item 4). ``--answers`` writes every
answer as sorted rows (each term's type, value, language and datatype), so that two builds,
or two texts of a query, can be compared row for row (``--compare A B``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path


def _rows(answer) -> list:
    """The answer's rows, sorted, in the store-independent form the tests compare."""
    return json.loads(json.dumps(answer.normalised(), ensure_ascii=False))


def run(
    build_dir: Path, runs: int, rites: bool, only: list[str], queries: Path | None = None
) -> dict:
    from yili_kg.loaders.errors import BadQueryParameter
    from yili_kg.service.precomputed import asked_questions
    from yili_kg.service.queries import bindings_for, load_queries, service_query
    from yili_kg.service.store import open_store

    store = open_store(build_dir, "oxigraph")
    labels = sorted(row["label"].value for row in store.query(service_query("rite-labels")).rows)
    chosen = {n: q for n, q in load_queries(queries).items() if not only or n in only}
    out: dict = {}
    for key, (query, given) in asked_questions(chosen, labels if rites else []).items():
        try:
            bindings = bindings_for(query, given, store)
        except BadQueryParameter:
            continue
        answer = store.query(query.sparql, bindings)  # the warm-up: the store's pages read
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            store.query(query.sparql, bindings)
            times.append((time.perf_counter() - started) * 1000)
        out[key] = {
            "p50_ms": round(statistics.median(times), 2) if times else None,
            "rows": _rows(answer),
        }
        print(f"{out[key]['p50_ms']:>10} ms  {len(answer.rows):>5} rows  {key}", flush=True)
    return out


def compare(a: Path, b: Path) -> int:
    """Questions of A and B whose sorted rows differ (0: identical answers to every one)."""
    left, right = json.loads(a.read_text()), json.loads(b.read_text())
    differ = 0
    for key in sorted(set(left) | set(right)):
        if key not in left or key not in right:
            print(f"only in {'A' if key in left else 'B'}: {key}")
            differ += 1
        elif left[key]["rows"] != right[key]["rows"]:
            print(f"differ ({len(left[key]['rows'])} vs {len(right[key]['rows'])} rows): {key}")
            differ += 1
    print(f"{len(set(left) & set(right))} questions in both, {differ} differ")
    return differ


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", type=Path, nargs="?")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rites", action="store_true", help="every rite for a rite parameter")
    parser.add_argument("--answers", type=Path, help="write the figures and sorted rows here")
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--queries", type=Path, help="the .rq files' folder (the checkout's)")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("A", "B"))
    args = parser.parse_args(argv)
    if args.compare:
        return 1 if compare(*args.compare) else 0
    if args.build is None:
        parser.error("a build folder, or --compare A B")
    print(f"load average {os.getloadavg()}", flush=True)
    out = run(args.build, args.runs, args.rites, args.only, args.queries)
    print(f"load average {os.getloadavg()}", flush=True)
    if args.answers:
        args.answers.write_text(json.dumps(out, ensure_ascii=False, indent=0))
    return 0


if __name__ == "__main__":
    sys.exit(main())

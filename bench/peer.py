"""Raw SPARQL over HTTP: ``yili-kg serve`` beside the native Oxigraph server, on the same data.

The peer a user who outgrows us would pick is the engine we embed, served by its own Rust
HTTP server (``oxigraph serve-read-only --union-default-graph`` on the store the build
persisted, the ``oxigraph`` package). Both get the same SPARQL texts on loopback, from 1, 2,
4 and 8 client threads, in ``runs`` rounds (the order of the two servers alternating), so
that every ratio is taken minutes apart at most on the same load. Two mixes:

- ``repeated``: the canned questions with their defaults, sent again and again. A result
  cache may answer them (ours does, per dataset version; QLever's and Virtuoso's do too);
  the Oxigraph server has none and runs each.
- ``distinct``: canned questions with other parameter values each time (bound as a VALUES
  block, as the service binds them), never the same text twice to the same server: no cache
  can have seen them, only the engine path counts.

Each server gets ``window`` seconds of the repeated mix. The distinct mix comes in four
slices of a quarter of that, which server goes first alternating: the first has the slice's
time (400 texts at most), the second then gets exactly the texts the first was sent, so
that both do the same work whatever each text costs, and a drift of the shared machine's
load falls on both; the ratio is of their throughputs over the four slices.

    python -m bench.peer BUILD_DIR [--clients 1 8] [--runs 3] [--window 2]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from bench.timing import summary

HERE = Path(__file__).resolve().parent
SKIP = {"next-acts"}  # a 1 s path over every event: it would measure one query, not a mix
MIXES = ("repeated", "distinct")
SLICES = 4  # of a distinct window, alternating which server goes first
MAX_TEXTS = 400  # a window's texts at most (the window's seconds end it first when slow)
DATASET = "yili_kg.nq"
SCAN = "SELECT (COUNT(*) AS ?n) (SAMPLE(STR(?o)) AS ?any) WHERE { GRAPH ?g { ?s ?p ?o } }"


def oxigraph_command() -> str:
    found = shutil.which("oxigraph")
    if not found:
        raise RuntimeError("the oxigraph server is not installed (pip install -e '.[bench]')")
    return found


def start_oxigraph(location: Path, port: int) -> subprocess.Popen:
    """The native server, read-only on the build's persisted store (as our workers open it)."""
    return subprocess.Popen(
        [
            oxigraph_command(),
            "serve-read-only",
            "--location",
            str(location),
            "--bind",
            f"127.0.0.1:{port}",
            "--union-default-graph",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def start_oxigraph_memory(port: int) -> subprocess.Popen:
    """The native server on an in-memory store (``oxigraph serve`` without a location, which
    is read-write: the CLI has no read-only in-memory mode); :func:`load_oxigraph_memory`
    then gives it the dataset, as our workers load theirs."""
    return subprocess.Popen(
        [oxigraph_command(), "serve", "--bind", f"127.0.0.1:{port}", "--union-default-graph"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def load_oxigraph_memory(port: int, dataset: Path) -> float:
    """POST the N-Quads to the native server's Graph Store endpoint; seconds it took."""
    started = time.perf_counter()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/store",
        data=dataset.read_bytes(),
        headers={"Content-Type": "application/n-quads"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=600) as response:
        response.read()
    return round(time.perf_counter() - started, 1)


def _values(store, name: str, bindings: dict) -> list:

    answer = store.query((HERE / "rq" / f"{name}.rq").read_text("utf-8"), bindings)
    return [(row["x"], row.get("label")) for row in answer.rows]


def parameter_values(store) -> dict[str, list]:
    """Every value a parameter type can take on this build, as RDF terms (rdflib)."""
    from rdflib import Literal, URIRef

    yl = "https://w3id.org/yili/ontology#"
    out: dict[str, list] = {}
    for kind, cls in (
        ("role", "Role"),
        ("object", "RitualObject"),
        ("place", "Place"),
        ("work", "Work"),
        ("phase", "Phase"),
        ("passage", "Clause"),
    ):
        out[kind] = [
            URIRef(x.value) for x, _ in _values(store, "instances", {"class": URIRef(yl + cls)})
        ]
    out["kind"] = [URIRef(x.value) for x, _ in _values(store, "kinds", {})]
    # words to look for: the zh-Hant labels of roles and objects
    words = []
    for cls in ("Role", "RitualObject", "Place"):
        words += [
            label.value
            for _, label in _values(store, "instances", {"class": URIRef(yl + cls)})
            if label
        ]
    out["text"] = [Literal(w) for w in dict.fromkeys(words)]
    return out


def repeated_texts(store) -> list[str]:
    """The canned questions with their defaults, as the service binds them."""
    from bench.sections import canned_texts

    return [text for name, (_, _, text) in canned_texts(store).items() if name not in SKIP]


def distinct_texts(store) -> list[str]:
    """Canned questions with a new value of their first non-rite parameter each time.

    Round-robin over the queries that have such a parameter, each value used once (other
    parameters at their defaults), until every query has used all its values: thousands
    of texts, no two alike. Queries whose only parameter is the rite are not in this mix
    (one value on a build of one rite: they are the repeated mix's).
    """
    from yili_kg.loaders.errors import BadQueryParameter
    from yili_kg.service.queries import bindings_for, load_queries
    from yili_kg.service.store import bind_values

    values = parameter_values(store)
    streams = []
    for name, query in load_queries().items():
        if name in SKIP:
            continue
        free = [p for p in query.params if p.type != "rite"]
        if not free or free[0].type not in values:
            continue
        try:
            defaults = bindings_for(query, {}, store)
        except BadQueryParameter:  # a default naming another rite
            continue
        param = free[0].name
        streams.append(
            [bind_values(query.sparql, {**defaults, param: v}) for v in values[free[0].type]]
        )
    texts = [t for group in itertools.zip_longest(*streams) for t in group if t is not None]
    assert len(set(texts)) == len(texts)
    return texts


def wait_in_memory(url: str, limit: float = 180.0) -> float | None:
    """Seconds until every worker of ours says (``X-Yili-Workers-In-Memory``) it answers from
    memory; None if they do not by ``limit`` (too large for the cap, or the setting off).
    Each poll is a new text (the result cache would answer a repeated one without a worker),
    from two clients at once so that both workers are asked."""
    if os.environ.get("YILI_MEMORY_STORE") == "0":  # ours started with the setting off
        return None
    started = time.perf_counter()
    count = itertools.count()

    def poll() -> str:
        text = f'ASK {{ ?s ?p "poll {next(count)}" }}'
        with urllib.request.urlopen(url + "?" + urllib.parse.urlencode({"query": text})) as r:
            r.read()
            return r.headers.get("X-Yili-Workers-In-Memory", "")

    while time.perf_counter() - started < limit:
        answers: list[str] = []
        threads = [
            threading.Thread(target=lambda said=answers: said.append(poll())) for _ in range(2)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        said = answers[-1].split("/")
        if len(said) == 2 and said[0] == said[1] != "0":
            return round(time.perf_counter() - started, 1)
        time.sleep(0.2)
    return None


def run_window(
    url: str, texts: list[str], clients: int, seconds: float, keep: bool = False
) -> dict:
    """``clients`` threads sending ``texts`` in order, each text once, for ``seconds``."""
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    feed = iter(texts)
    deadline = time.perf_counter() + seconds

    def client() -> None:
        nonlocal errors
        while time.perf_counter() < deadline:
            with lock:
                text = next(feed, None)
            if text is None:
                return
            request = urllib.request.Request(
                url + "?" + urllib.parse.urlencode({"query": text}),
                headers={"Accept": "application/sparql-results+json"},
            )
            started = time.perf_counter()
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    response.read()
                    ok = response.status == 200
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                ok = False
            elapsed = time.perf_counter() - started
            with lock:
                if ok:
                    latencies.append(elapsed)
                else:
                    errors += 1

    started = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    out = {
        "requests": len(latencies),
        "errors": errors,
        "seconds": round(wall, 3),
        "throughput_rps": round(len(latencies) / wall, 1) if wall else 0.0,
    }
    if latencies:
        out.update(summary(latencies))
    if keep:
        out["latencies"] = latencies
    return out


def merged(windows: list[dict]) -> dict:
    """One window's figures from several slices (latency percentiles from every request)."""
    latencies = [x for w in windows for x in w.pop("latencies", [])]
    requests = sum(w["requests"] for w in windows)
    seconds = sum(w["seconds"] for w in windows)
    out = {
        "requests": requests,
        "errors": sum(w["errors"] for w in windows),
        "seconds": round(seconds, 2),
        "throughput_rps": round(requests / seconds, 1) if seconds else 0.0,
        "slices": len(windows),
    }
    if latencies:
        out.update(summary(latencies))
    return out


def compare(
    build_dir: Path,
    clients=(1, 2, 4, 8),
    runs: int = 3,
    window: float = 2.0,
    workers: int | None = None,
    peer_store: str = "persisted",
) -> dict:
    """Ours vs the Oxigraph server: every (run, clients, mix) window, and each ratio.

    ``peer_store``: the native server on the build's persisted store (read-only), or on an
    in-memory store given the dataset file (``memory``), as our workers answer once loaded."""
    from bench.sections import ASK, _stop, _wait_for, free_port, start_ours
    from yili_kg.service.store import open_store

    store = open_store(build_dir, "oxigraph")
    repeated = repeated_texts(store)
    distinct = distinct_texts(store)
    del store
    ours_port, peer_port = free_port(), free_port()
    # as many /sparql threads as clients: with the default (THREADS - 2 = 6) two of eight
    # clients are refused at once (issue 20: pages never queue behind queries), and the
    # ratio would count refusals; the native server runs a thread per request
    env = {**os.environ}
    env.setdefault("YILI_SPARQL_THREADS", str(max(8, *clients)))
    ours = start_ours(build_dir, ours_port, env=env, **({"workers": workers} if workers else {}))
    if peer_store == "memory":
        peer = start_oxigraph_memory(peer_port)
    else:
        peer = start_oxigraph(build_dir / "oxigraph", peer_port)
    servers = {
        "yili-kg serve": f"http://127.0.0.1:{ours_port}/sparql",
        "oxigraph server": f"http://127.0.0.1:{peer_port}/query",
    }
    result: dict = {
        "clients": list(clients),
        "runs": runs,
        "window_seconds": window,
        "texts": {"repeated": len(repeated), "distinct": len(distinct)},
        "peer_store": peer_store,
        # ours as configured by the environment it inherits (the defaults unless set)
        "ours_settings": {k: v for k, v in env.items() if k.startswith("YILI_")},
        "windows": [],
    }
    try:
        for url, process in zip(servers.values(), (ours, peer), strict=True):
            _wait_for(f"{url}?{ASK}", time.perf_counter(), process)
            if process is peer and peer_store == "memory":
                result["peer_loaded_in_s"] = load_oxigraph_memory(peer_port, build_dir / DATASET)
            # warm-up: every page of the store read (the OS's page cache is shared: the server
            # asked second would otherwise read what the first fetched from disk), then
            # every canned text once
            run_window(url, [SCAN], 1, 60)
            run_window(url, repeated, 2, 60)
        # ours: every worker answering from its in-memory store (loaded after its first
        # query; see service/workers.py MemoryLoad) before anything is timed
        result["ours_in_memory_after_s"] = wait_in_memory(servers["yili-kg serve"])
        used = 0  # distinct texts sent so far: never sent again to either server
        for run in range(runs):
            order = list(servers) if run % 2 == 0 else list(reversed(servers))
            for n in clients:
                for mix in MIXES:
                    entry = {"run": run + 1, "clients": n, "mix": mix}
                    first, second = order
                    if mix == "repeated":  # the canned texts in turn, a window each
                        for name in order:
                            entry[name] = run_window(servers[name], repeated * 5000, n, window)
                    else:
                        # slices, the servers' order alternating: the first has the slice's
                        # time, the second gets exactly the texts the first was sent (the
                        # same work, whatever each text costs); a slow drift of the
                        # machine's load falls on both
                        parts: dict = {name: [] for name in order}
                        for k in range(SLICES):
                            a, b = order if k % 2 == 0 else order[::-1]
                            texts = distinct[used : used + MAX_TEXTS]
                            parts[a].append(run_window(servers[a], texts, n, window / SLICES, True))
                            sent = parts[a][-1]["requests"] + parts[a][-1]["errors"]
                            parts[b].append(run_window(servers[b], texts[:sent], n, 600, True))
                            used += sent
                        for name, windows in parts.items():
                            entry[name] = merged(windows)
                    ours_rps = entry["yili-kg serve"]["throughput_rps"]
                    peer_rps = entry["oxigraph server"]["throughput_rps"]
                    entry["ratio"] = round(ours_rps / peer_rps, 2) if peer_rps else None
                    result["windows"].append(entry)
                    print(
                        f"   run {run + 1} clients {n} {mix}: ours {ours_rps} / oxigraph "
                        f"{peer_rps} req/s = {entry['ratio']}×",
                        file=sys.stderr,
                        flush=True,
                    )
        result["distinct_texts_used"] = used
    finally:
        _stop(ours)
        _stop(peer)
    result["ratios"] = {
        mix: {
            str(n): [w["ratio"] for w in result["windows"] if w["mix"] == mix and w["clients"] == n]
            for n in clients
        }
        for mix in MIXES
    }
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.peer", description=__doc__)
    parser.add_argument("build_dir", type=Path)
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 2, 4, 8])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--window", type=float, default=2.0)
    parser.add_argument("--out")
    parser.add_argument(
        "--peer-store",
        choices=["persisted", "memory"],
        default="persisted",
        help="the native server on the build's persisted store, or on an in-memory one",
    )
    args = parser.parse_args(argv)
    result = compare(
        args.build_dir, tuple(args.clients), args.runs, args.window, peer_store=args.peer_store
    )
    text = json.dumps(result, ensure_ascii=False, indent=1)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    print(json.dumps(result["ratios"], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""A load test of a running ``yili-kg serve``: correct answers under load, with hostile requests.

    python -m bench.load --url http://127.0.0.1:5099 --seconds 30 --clients 8 [--pid PID]

Client threads on loopback send a seeded mix for a bounded time and count: canned queries
(``/queries/NAME?…&format=json``, with their default and example parameters), raw SPARQL on
``/sparql`` (the parameterless canned queries, canned queries with their parameters bound as
the service binds them, a few questions of our own), and a small fraction of hostile
requests: runaway cartesian joins, ``SERVICE`` and ``FROM`` calls to a listener on loopback,
updates, injection strings in canned parameters, oversized bodies, 20 KB of text that made
the tokenizer quadratic, an answer past the byte cap, nesting that crashes the parser, paths no
IRI may hold, a canned question in another case. Beside them, for the whole run
(:class:`SlowClients`): 200 idle or trickling sockets (slowloris) and a runaway every 2 s
whose client hangs up.

Every well-formed request's answer is compared with the answer the same request got once,
sequentially, before the load started; a hostile request must get the refusal it is owed
(an injection in a text parameter: an empty answer). The report gives requests per second,
p50/p95/p99 latency of the well-formed requests, errors by kind, the connections the
listener saw (must be 0), whether the server still answers at the end, and the RSS of the
server process and its workers before and after (``--pid``, read from ``/proc``).

:func:`run_load` does the same for the benchmark runner and returns the figures as a dict.
Standard library only; it refuses any address that is not loopback.
"""

from __future__ import annotations

import argparse
import json
import random
import select
import socket
import statistics
import threading
import time
import urllib.parse
from dataclasses import dataclass
from http.client import HTTPConnection, HTTPException
from pathlib import Path

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
ID = "https://w3id.org/yili/id/"
RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
# a short query whose answer is 2000 rows of 64 KiB (128 MiB): past the answer cap
HUGE_ANSWER = (
    "SELECT ?s ?v12 WHERE { { SELECT ?s WHERE { ?s ?p ?o } LIMIT 2000 } "
    'BIND("0123456789abcdef" AS ?v0) '
    + " ".join(f"BIND(CONCAT(?v{i}, ?v{i}) AS ?v{i + 1})" for i in range(12))
    + " }"
)
OWN_QUERIES = [
    "ASK { <https://w3id.org/yili/id/role/zhuren> ?p ?o }",
    """PREFIX yl: <https://w3id.org/yili/ontology#>
SELECT ?agent (COUNT(?e) AS ?n) WHERE { ?e yl:agent ?agent } GROUP BY ?agent ORDER BY ?agent""",
    """PREFIX yl: <https://w3id.org/yili/ontology#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
SELECT ?i ?label WHERE { ?p a yl:Phase ; yl:phaseIndex ?i ; skos:prefLabel ?label } ORDER BY ?i""",
    "CONSTRUCT { <https://w3id.org/yili/id/role/bin> ?p ?o } "
    "WHERE { <https://w3id.org/yili/id/role/bin> ?p ?o }",
    """PREFIX yl: <https://w3id.org/yili/ontology#>
SELECT ?text WHERE { ?c a yl:Clause ; yl:text ?text . FILTER(CONTAINS(?text, "拜")) }
ORDER BY ?text LIMIT 50""",
]
# canned queries sent raw, with their parameters bound to these terms as the service binds them
RAW_BOUND = [
    ("bows", {"role": ID + "role/bin"}),
    ("role-acts", {"role": ID + "role/zhuren"}),
    ("clause-events", {"passage": ID + "xiangshe/jing/5.13.3"}),
    ("not-done", {"rite": ID + "rite/xiangshe"}),
]


@dataclass(frozen=True)
class Request:
    kind: str  # canned | sparql | hostile:<what>
    method: str
    path: str
    body: bytes | None = None
    headers: tuple[tuple[str, str], ...] = ()
    allowed: tuple[int, ...] = (200,)  # statuses a hostile request may get
    empty: bool = False  # a hostile request that must answer 200 with no rows


class Listener:
    """A TCP listener on loopback that counts the connections made to it (must stay 0)."""

    def __init__(self):
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(64)
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}/"
        self.connections = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            self.connections += 1
            connection.close()

    def count(self) -> int:
        readable, _, _ = select.select([self.socket], [], [], 0.3)  # one waiting in the backlog
        return self.connections + (1 if readable else 0)

    def close(self) -> None:
        self.socket.close()


# ------------------------------------------------------------------------------ requests


def _sparql(query: str, kind: str = "sparql", **extra) -> Request:
    body = urllib.parse.urlencode({"query": query}).encode()
    headers = (
        ("Content-Type", "application/x-www-form-urlencoded"),
        ("Accept", "application/sparql-results+json, application/n-triples;q=0.9"),
    )
    return Request(kind, "POST", "/sparql", body, headers, **extra)


def _canned(name: str, params: dict, kind: str = "canned", **extra) -> Request:
    query = urllib.parse.urlencode({**params, "format": "json"})
    return Request(kind, "GET", f"/queries/{name}?{query}", **extra)


def well_formed_requests() -> list[Request]:
    """Canned queries with default and example parameters, and raw SPARQL."""
    from rdflib import URIRef

    from yili_kg.service.queries import load_queries
    from yili_kg.service.store import bind_values

    out = []
    queries = load_queries()
    for name, query in sorted(queries.items()):
        out.append(_canned(name, {}))
        if query.example:
            out.append(_canned(name, dict(urllib.parse.parse_qsl(query.example))))
        if not query.params:
            out.append(_sparql(query.sparql))
    for name, values in RAW_BOUND:
        bound = {k: URIRef(v) for k, v in values.items()}
        out.append(_sparql(bind_values(queries[name].sparql, bound)))
    out += [_sparql(q) for q in OWN_QUERIES]
    return out


def hostile_requests(target: str) -> list[Request]:
    """Requests that must be refused (or answered empty); ``target`` is the listener's URL."""
    form = (("Content-Type", "application/x-www-form-urlencoded"),)
    refused = (400,)
    out = [
        _sparql(RUNAWAY, "hostile:runaway", allowed=(503,)),
        _sparql(
            f"SELECT * WHERE {{ SERVICE <{target}> {{ ?s ?p ?o }} }}",
            "hostile:service",
            allowed=refused,
        ),
        _sparql(
            f"PREFIX : <{target}> SELECT * {{ SERVICE:x {{ ?s ?p ?o }} }}",
            "hostile:service",
            allowed=refused,
        ),
        _sparql(f"SELECT * FROM <{target}g> WHERE {{ ?s ?p ?o }}", "hostile:from", allowed=refused),
        Request(
            "hostile:update",
            "POST",
            "/sparql",
            urllib.parse.urlencode({"update": "DROP ALL"}).encode(),
            form,
            allowed=(403,),
        ),
        Request(
            "hostile:update",
            "POST",
            "/sparql",
            f"LOAD <{target}x> INTO GRAPH <urn:g>".encode(),
            (("Content-Type", "application/sparql-update"),),
            allowed=(403,),
        ),
        _sparql("INSERT DATA { <urn:a> <urn:b> <urn:c> }", "hostile:update", allowed=(403,)),
        _canned("bows", {"role": '賓" } ; DROP ALL ; #'}, "hostile:injection", allowed=refused),
        _canned(
            "bows",
            {"role": f"{target}> }} UNION {{ ?s ?p ?o }} #"},
            "hostile:injection",
            allowed=refused,
        ),
        _canned("find-term", {"q": '"} UNION {?s ?p ?o} #'}, "hostile:injection", empty=True),
        _canned("find-term", {"q": "x" * 5000}, "hostile:injection", allowed=refused),
        Request(
            "hostile:oversize",
            "POST",
            "/sparql",
            b"ASK {} #" + b"x" * 70_000,
            (("Content-Type", "application/sparql-query"),),
            allowed=(413,),
        ),
        # the faults of issue 20: text that made the tokenizer quadratic, an answer of 128 MiB
        # from a short query, nesting that crashes the parser, paths no IRI may hold, one
        # canned question in another case (answered, from the one remembered answer)
        # (a parse error from the worker, or a 503 when every worker is busy)
        _sparql('"\\' * 9990, "hostile:scan", allowed=(400, 503)),
        _sparql("SELECT * {" + "a." * 9990 + "}", "hostile:scan", allowed=(400, 503)),
        _sparql(HUGE_ANSWER, "hostile:huge_answer", allowed=(503,)),
        _sparql(
            "SELECT * WHERE { FILTER(" + "(" * 9000 + "1" + ")" * 9000 + ") }",
            "hostile:deep_nesting",
            allowed=(503,),
        ),
        Request("hostile:bad_path", "GET", "/id/role/zhu%3C%7Bren", allowed=(404,)),
        Request("hostile:bad_path", "GET", "/id/role/zhu%20ren", allowed=(404,)),
        Request("hostile:bad_path", "GET", "/pictures?phase=%C2%B2", allowed=(200,)),
        _canned("role-acts", {"role": "HoSt"}, "hostile:spelling", allowed=(200,)),
    ]
    return out


class BackgroundThreads:
    """Threads that run beside a measurement: started on entering, told to stop and joined
    (for at most ``join_timeout`` seconds each) on leaving."""

    join_timeout = 10.0

    def __init__(self, *targets):
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=t, daemon=True) for t in targets]

    def __enter__(self):
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_exc):
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=self.join_timeout)


class SlowClients(BackgroundThreads):
    """Hostile clients beside the load, for its whole time: ``sockets`` connections that stay
    idle or trickle a header byte a second (slowloris; each reopened when the server closes
    it), and a runaway query every ``hangup_every`` seconds whose client hangs up after 0.5 s.
    """

    def __init__(self, host: str, port: int, sockets: int, hangup_every: float = 2.0):
        super().__init__(self._slow, self._hangups)
        self.address = (host, port)
        self.count = sockets
        self.hangup_every = hangup_every
        self.opened = self.closed_by_server = self.hangups = 0
        self.sockets: list[socket.socket | None] = []

    def _open(self, number: int) -> socket.socket | None:
        try:
            sock = socket.create_connection(self.address, timeout=5)
            if number % 2:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            sock.setblocking(False)
            self.opened += 1
            return sock
        except OSError:
            return None

    def _slow(self) -> None:
        self.sockets = [self._open(n) for n in range(self.count)]
        while not self.stop.wait(1.0):
            for number, sock in enumerate(self.sockets):
                try:
                    if sock is None:
                        raise OSError
                    if sock.recv(4096) == b"":
                        raise OSError  # closed by the server: as it should, in time
                except BlockingIOError:
                    if number % 2:
                        try:
                            sock.send(b"X")
                        except OSError:
                            pass
                    continue
                except OSError:
                    pass
                if sock is not None:
                    sock.close()
                    self.closed_by_server += 1
                self.sockets[number] = self._open(number)

    def _hangups(self) -> None:
        path = "/sparql?" + urllib.parse.urlencode({"query": RUNAWAY})
        while not self.stop.wait(self.hangup_every):
            try:
                with socket.create_connection(self.address, timeout=5) as sock:
                    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                    time.sleep(0.5)
                self.hangups += 1
            except OSError:
                pass

    def __exit__(self, *exc):
        super().__exit__(*exc)
        for sock in self.sockets:
            if sock is not None:
                sock.close()

    def report(self) -> dict:
        return {
            "slow_sockets": self.count,
            "slow_sockets_opened": self.opened,
            "closed_by_server": self.closed_by_server,
            "hung_up_runaways": self.hangups,
        }


# ------------------------------------------------------------------------------ answers


def _normal(status: int, content_type: str, body: bytes):
    """An answer in a form that does not depend on row order or serialisation details."""
    if status != 200:
        return status
    if "json" in content_type:
        data = json.loads(body)
        if "results" in data:
            rows = sorted(json.dumps(b, sort_keys=True) for b in data["results"]["bindings"])
            return data["head"], rows
        return data
    return sorted(body.decode("utf-8").splitlines())  # N-Triples


class Client:
    """One keep-alive connection to the server, reopened after an error."""

    def __init__(self, host: str, port: int, timeout: float):
        self.host, self.port, self.timeout = host, port, timeout
        self.connection: HTTPConnection | None = None

    def send(self, request: Request) -> tuple[int, str, bytes]:
        for attempt in (1, 2):
            if self.connection is None:
                self.connection = HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                self.connection.request(
                    request.method, request.path, body=request.body, headers=dict(request.headers)
                )
                response = self.connection.getresponse()
                body = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.close()
                return response.status, response.getheader("Content-Type", ""), body
            except (ConnectionError, HTTPException) as exc:
                # the server closed a kept-alive connection (after a 413, say): once more, anew
                self.close()
                if attempt == 2 or isinstance(exc, TimeoutError):
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


# ------------------------------------------------------------------------------ memory


def _children() -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        out.setdefault(ppid, []).append(int(entry.name))
    return out


def rss_of_tree(pid: int | None) -> dict | None:
    """VmRSS (KiB) of a process and of every process below it (its query workers)."""
    if pid is None or not Path(f"/proc/{pid}").exists():
        return None
    children = _children()
    tree, stack = [], [pid]
    while stack:
        current = stack.pop()
        tree.append(current)
        stack.extend(children.get(current, []))
    out = {}
    for process in tree:
        try:
            for line in Path(f"/proc/{process}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    out[process] = int(line.split()[1])
        except OSError:
            continue
    return {
        "server_kib": out.get(pid, 0),
        "total_kib": sum(out.values()),
        "processes": len(out),
        "largest_worker_kib": max((v for k, v in out.items() if k != pid), default=0),
    }


# ------------------------------------------------------------------------------ the run


def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def run_load(
    base_url: str,
    seconds: float = 30.0,
    clients: int = 8,
    hostile_fraction: float = 0.01,
    seed: int = 20260,
    pid: int | None = None,
    max_requests: int = 200_000,
    request_timeout: float = 60.0,
    slow_sockets: int = 200,
) -> dict:
    """Load the server at ``base_url`` (loopback only) and report; see the module docstring."""
    parts = urllib.parse.urlsplit(base_url)
    if parts.hostname not in LOOPBACK:
        raise ValueError(f"{base_url}: the load test only runs against loopback")
    host, port = parts.hostname, parts.port or 80
    listener = Listener()
    try:
        return _run(
            host,
            port,
            listener,
            seconds,
            clients,
            hostile_fraction,
            seed,
            pid,
            max_requests,
            request_timeout,
            slow_sockets,
        )
    finally:
        listener.close()


def _run(
    host,
    port,
    listener,
    seconds,
    clients,
    hostile_fraction,
    seed,
    pid,
    max_requests,
    timeout,
    slow_sockets=0,
) -> dict:
    rss_before = rss_of_tree(pid)
    probe = Client(host, port, timeout)
    expected: dict[Request, object] = {}
    skipped = []
    for request in well_formed_requests():  # each once, sequentially: the expected answers
        status, content_type, body = probe.send(request)
        if status == 200:
            expected[request] = _normal(status, content_type, body)
        else:
            skipped.append((request.path, status))
    mix = list(expected)
    hostile: dict[str, list[Request]] = {}
    for request in hostile_requests(listener.url):
        hostile.setdefault(request.kind, []).append(request)

    lock = threading.Lock()
    latencies: list[float] = []
    counts = {"well_formed": 0, "hostile": 0, "wrong": 0, "lost": 0, "refused": 0}
    errors: dict[str, int] = {}
    hostile_status: dict[str, dict[int, int]] = {}
    examples: list[str] = []
    deadline = time.monotonic() + seconds
    sent = 0

    def note(key: str, detail: str) -> None:
        errors[key] = errors.get(key, 0) + 1
        if len(examples) < 10:
            examples.append(detail)

    def client_loop(number: int) -> None:
        nonlocal sent
        rng = random.Random(seed * 1000 + number)
        client = Client(host, port, timeout)
        while time.monotonic() < deadline:
            with lock:
                if sent >= max_requests:
                    break
                sent += 1
            is_hostile = rng.random() < hostile_fraction
            if is_hostile:  # a kind first, so that each kind (runaways too) comes up
                request = rng.choice(hostile[rng.choice(sorted(hostile))])
            else:
                request = rng.choice(mix)
            started = time.perf_counter()
            try:
                status, content_type, body = client.send(request)
            except (OSError, HTTPException) as exc:  # timeouts and dropped connections
                with lock:
                    counts["lost"] += 1
                    note(f"lost:{request.kind}", f"{request.kind} {request.path[:60]}: {exc}")
                continue
            elapsed = time.perf_counter() - started
            with lock:
                if is_hostile:
                    counts["hostile"] += 1
                    by_status = hostile_status.setdefault(request.kind, {})
                    by_status[status] = by_status.get(status, 0) + 1
                    if request.empty:
                        ok = status == 200 and not json.loads(body)["results"]["bindings"]
                    else:
                        ok = status in request.allowed
                    if not ok:
                        note(
                            f"hostile_not_refused:{request.kind}",
                            f"{request.kind} {request.path[:60]} → {status}",
                        )
                    continue
                counts["well_formed"] += 1
                latencies.append(elapsed)
                if status in (503, 429):  # refused for want of a worker: not answered
                    counts["refused"] += 1
                    note(f"refused_{status}:{request.kind}", f"{request.path[:60]} → {status}")
                elif _normal(status, content_type, body) != expected[request]:
                    counts["wrong"] += 1
                    note(f"wrong:{request.kind}", f"{request.path[:60]} → {status}")
        client.close()

    started = time.perf_counter()
    threads = [threading.Thread(target=client_loop, args=(n,)) for n in range(clients)]
    with SlowClients(host, port, slow_sockets) as slow:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    wall = time.perf_counter() - started

    final = mix[0] if mix else None
    alive = False
    if final is not None:
        try:
            status, content_type, body = probe.send(final)
            alive = _normal(status, content_type, body) == expected[final]
        except (OSError, HTTPException):
            alive = False
    probe.close()
    total = counts["well_formed"] + counts["hostile"] + counts["lost"]
    ms = sorted(x * 1000 for x in latencies)
    return {
        "url": f"http://{host}:{port}",
        "seconds": round(wall, 2),
        "clients": clients,
        "hostile_fraction": hostile_fraction,
        "seed": seed,
        "distinct_requests": {
            "well_formed": len(mix),
            "hostile": sum(len(v) for v in hostile.values()),
        },
        "skipped_requests": skipped,
        "requests": total,
        "requests_per_second": round(total / wall, 1) if wall else 0.0,
        "latency_ms": {
            "p50": _round(_percentile(ms, 50)),
            "p95": _round(_percentile(ms, 95)),
            "p99": _round(_percentile(ms, 99)),
            "max": _round(ms[-1] if ms else None),
        },
        "well_formed": counts["well_formed"],
        "wrong_answers": counts["wrong"],
        "refused_well_formed": counts["refused"],
        "lost": counts["lost"],
        "hostile": counts["hostile"],
        "hostile_by_status": {
            k: dict(sorted(v.items())) for k, v in sorted(hostile_status.items())
        },
        "errors": dict(sorted(errors.items())),
        "error_examples": examples,
        "outbound_connections": listener.count(),
        "alive_at_end": alive,
        "rss_before": rss_before,
        "rss_after": rss_of_tree(pid),
        "slow_clients": slow.report(),
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def render(report: dict) -> str:
    """A small table of the figures."""
    latency = report["latency_ms"]
    rows = [
        ("requests", f"{report['requests']} in {report['seconds']} s, {report['clients']} clients"),
        ("requests/s", report["requests_per_second"]),
        ("latency p50/p95/p99 (ms)", f"{latency['p50']} / {latency['p95']} / {latency['p99']}"),
        ("slowest well-formed (ms)", latency["max"]),
        ("well-formed", report["well_formed"]),
        ("  wrong answers", report["wrong_answers"]),
        ("  refused (no worker free)", report["refused_well_formed"]),
        ("  lost (timeouts, drops)", report["lost"]),
        ("hostile", report["hostile"]),
    ]
    for kind, statuses in report["hostile_by_status"].items():
        rows.append(
            (f"  {kind.split(':', 1)[1]}", ", ".join(f"{s}×{n}" for s, n in statuses.items()))
        )
    rows += [
        ("errors", ", ".join(f"{k}×{v}" for k, v in report["errors"].items()) or "none"),
        ("outbound connections", report["outbound_connections"]),
        ("server alive at the end", "yes" if report["alive_at_end"] else "NO"),
    ]
    slow = report.get("slow_clients") or {}
    if slow:
        rows.append(
            (
                "slow clients beside",
                f"{slow['slow_sockets']} idle/trickling sockets ({slow['closed_by_server']} "
                f"closed by the server, reopened), {slow['hung_up_runaways']} runaways hung up",
            )
        )
    for when in ("before", "after"):
        rss = report[f"rss_{when}"]
        if rss:
            rows.append(
                (
                    f"RSS {when} (MiB)",
                    f"server {rss['server_kib'] / 1024:.0f}, total "
                    f"{rss['total_kib'] / 1024:.0f} in {rss['processes']} processes, "
                    f"largest worker {rss['largest_worker_kib'] / 1024:.0f}",
                )
            )
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k.ljust(width)}  {v}" for k, v in rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.load", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--url", default="http://127.0.0.1:5000", help="the server (loopback)")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--hostile", type=float, default=0.01, help="fraction of hostile requests")
    parser.add_argument("--seed", type=int, default=20260)
    parser.add_argument("--max-requests", type=int, default=200_000)
    parser.add_argument("--pid", type=int, default=None, help="the server's pid, for its RSS")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    parser.add_argument(
        "--slow-sockets", type=int, default=200, help="idle and trickling sockets held beside"
    )
    args = parser.parse_args(argv)
    report = run_load(
        args.url,
        seconds=args.seconds,
        clients=args.clients,
        hostile_fraction=args.hostile,
        seed=args.seed,
        pid=args.pid,
        max_requests=args.max_requests,
        slow_sockets=args.slow_sockets,
    )
    print(render(report))
    if args.json:
        Path(args.json).write_text(json.dumps(report, ensure_ascii=False, indent=1))
    ok = (
        report["wrong_answers"] == 0
        and report["lost"] == 0
        and report["outbound_connections"] == 0
        and report["alive_at_end"]
        and not any(k.startswith("hostile_not_refused") for k in report["errors"])
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

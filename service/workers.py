"""A pool of query processes: the time limit that stops the work, and the concurrency cap.

A SPARQL query cannot be interrupted inside the store, so every query from the endpoint runs
in a worker process of its own store (Oxigraph opened read-only from the build, which takes
milliseconds; or rdflib). A query past the time limit has its process killed and replaced;
the request that sent it gets a 503, and no other request waits on it. At most ``size``
queries run at once; a request that finds every worker busy waits up to ``queue_timeout``
seconds and then gets a 503 (the concurrency cap).

Workers come from a fork server started before the web server's threads, so that replacing a
killed worker never forks a multi-threaded process.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import threading
from dataclasses import dataclass
from pathlib import Path

from yili_kg.loaders.errors import YiliError


class QueryTimeout(YiliError):
    status = 503


class Busy(YiliError):
    status = 503


@dataclass(frozen=True)
class Job:
    sparql: str
    fmt: str  # SELECT/ASK results: json | xml | csv | tsv
    graph_fmt: str  # CONSTRUCT/DESCRIBE results: ttl | nt | jsonld | xml
    max_rows: int
    default_graphs: tuple[str, ...] = ()  # protocol's default-graph-uri (local graphs only)
    named_graphs: tuple[str, ...] = ()


def _serve(connection, build_dir: str, store_kind: str, extra_graphs: dict) -> None:
    """A worker's loop: answer jobs until the pipe closes."""
    from yili_kg.service.store import QueryError, load_extra_graphs, open_store

    store = open_store(Path(build_dir), store_kind)
    if extra_graphs:
        store = load_extra_graphs(store, extra_graphs)
    connection.send(("ready", os.getpid()))
    while True:
        try:
            job = connection.recv()
        except EOFError:
            return
        try:
            answer = store.query(
                job.sparql,
                limit=job.max_rows,
                default_graphs=job.default_graphs,
                named_graphs=job.named_graphs,
            )
            if answer.kind == "graph":
                body = answer.serialise_graph(job.graph_fmt)
                connection.send(("ok", "graph", body, answer.truncated))
            else:
                connection.send(("ok", answer.kind, answer.serialise(job.fmt), answer.truncated))
        except QueryError as exc:
            connection.send(("error", 400, str(exc)))
        except Exception as exc:  # the store failed on a query it accepted: report, go on
            connection.send(("error", 500, f"{type(exc).__name__}: {exc}"))


class Worker:
    def __init__(self, context, build_dir: Path, store_kind: str, extra_graphs: dict):
        parent, child = context.Pipe()
        self.connection = parent
        self.process = context.Process(
            target=_serve, args=(child, str(build_dir), store_kind, dict(extra_graphs)), daemon=True
        )
        self.process.start()
        child.close()
        self.ready = False

    def wait_ready(self, timeout: float = 60.0) -> None:
        if not self.ready:
            if not self.connection.poll(timeout):
                raise YiliError("a query worker did not start")
            self.connection.recv()
            self.ready = True

    def kill(self) -> None:
        self.process.kill()
        self.process.join(timeout=5)
        self.connection.close()


class QueryPool:
    """``size`` worker processes answering queries with a time limit each."""

    def __init__(
        self,
        build_dir: Path,
        store_kind: str = "oxigraph",
        size: int = 2,
        timeout: float = 10.0,
        queue_timeout: float = 5.0,
        extra_graphs: dict | None = None,
    ):
        self.build_dir = Path(build_dir)
        self.extra_graphs = extra_graphs or {}
        self.store_kind = store_kind
        self.size = size
        self.timeout = timeout
        self.queue_timeout = queue_timeout
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(["yili_kg.service.store", "pyoxigraph"])
        self.free: queue.Queue[Worker] = queue.Queue()
        self.lock = threading.Lock()
        self.killed = 0
        self.started = 0
        for _ in range(size):
            self.free.put(self._new())

    def _new(self) -> Worker:
        self.started += 1
        return Worker(self.context, self.build_dir, self.store_kind, self.extra_graphs)

    def run(self, job: Job) -> tuple[str, bytes, bool]:
        """(kind, body, truncated) of a job; QueryTimeout, Busy or a 400 on error."""
        try:
            worker = self.free.get(timeout=self.queue_timeout)
        except queue.Empty as exc:
            raise Busy(f"every query worker is busy ({self.size}); try again shortly") from exc
        try:
            worker.wait_ready()
            worker.connection.send(job)
            if not worker.connection.poll(self.timeout):
                worker.kill()
                with self.lock:
                    self.killed += 1
                worker = self._new()
                raise QueryTimeout(
                    f"the query ran past the time limit ({self.timeout:g} s) and was stopped"
                )
            reply = worker.connection.recv()
        except (EOFError, OSError, BrokenPipeError) as exc:
            worker.kill()
            worker = self._new()
            raise YiliError(f"the query worker died: {exc}") from exc
        finally:
            self.free.put(worker)
        if reply[0] == "error":
            error = YiliError(reply[2])
            error.status = reply[1]
            raise error
        return reply[1], reply[2], reply[3]

    def close(self) -> None:
        while not self.free.empty():
            self.free.get_nowait().kill()

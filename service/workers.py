"""A pool of query processes: the time limit that stops the work, and the concurrency cap.

A SPARQL query cannot be interrupted inside the store, so every query from the endpoint runs
in a worker process of its own store (Oxigraph opened read-only from the build, which takes
milliseconds; or rdflib). A query past the time limit has its process killed and replaced;
the request that sent it gets a 503, and no other request waits on it. Each worker's memory
is capped as well (``memory_mb``): a query past it ends its worker, which is replaced, and
gets a 503 too. At most ``size`` queries run at once; a request that finds every worker busy
waits up to ``queue_timeout`` seconds and then gets a 503 (the concurrency cap).

Workers come from a fork server, so that replacing a killed worker never forks a
multi-threaded process; ``yili-kg serve`` forks its first workers itself, first thing, while it
has a single thread (quicker: see :class:`QueryPool`).

On Linux each worker also moves into a network namespace of its own, which holds no interface
but a loopback that is down: Oxigraph answers ``SERVICE`` by opening an HTTP connection, and
the endpoint's refusal of ``SERVICE`` is a scan of the query's text, so the worker is made
unable to reach any address as well. Where namespaces are not allowed (no privilege, user
namespaces disabled), the worker runs without it and ``isolated`` says so.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import multiprocessing.util
import os
import queue
import resource
import signal
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from yili_kg.loaders.errors import YiliError


class QueryTimeout(YiliError):
    status = 503


class WorkerDied(YiliError):
    """The worker ended under a query: past its memory limit (an allocation failed), or killed."""

    status = 503


class Busy(YiliError):
    status = 503

    def __init__(self, message: str, retry_after: int = 1):
        super().__init__(message)
        self.retry_after = retry_after  # seconds: a worker frees up by the time limit at most


@dataclass(frozen=True)
class Job:
    sparql: str
    fmt: str  # SELECT/ASK results: json | xml | csv | tsv
    graph_fmt: str  # CONSTRUCT/DESCRIBE results: ttl | nt | jsonld | xml
    max_rows: int
    default_graphs: tuple[str, ...] = ()  # protocol's default-graph-uri (local graphs only)
    named_graphs: tuple[str, ...] = ()
    base_iri: str | None = None  # the endpoint's URL: relative IRIs in the query resolve to it


CLONE_NEWNET = 0x40000000
CLONE_NEWUSER = 0x10000000


def isolate_network() -> bool:
    """Move this process into an empty network namespace; whether that succeeded.

    A new network namespace needs CAP_SYS_ADMIN, or an unprivileged user namespace with it
    (the process must be single-threaded then: a fresh worker is). Pipes and sockets opened
    before keep working; any new connection fails with "network is unreachable".
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return False
    for flags in (CLONE_NEWNET, CLONE_NEWUSER | CLONE_NEWNET):
        if libc.unshare(flags) == 0:
            return True
    return False


def limit_memory(megabytes: int) -> None:
    """Cap the process's data segment (heap and private mappings): a query that builds a huge
    value (a string doubled thirty times) fails its allocation and ends the worker, instead
    of taking the machine's memory before the time limit comes."""
    if megabytes > 0:
        size = megabytes << 20
        resource.setrlimit(resource.RLIMIT_DATA, (size, size))


def _serve(
    connection, build_dir: str, store_kind: str, extra_graphs: dict, memory_mb: int = 0
) -> None:
    """A worker's loop: answer jobs until the pipe closes."""
    # Ctrl-C reaches every process of the terminal's group: the server stops, closes the
    # pipes, and that ends the worker (no traceback from each worker)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    isolated = isolate_network()  # first, while the process has a single thread
    limit_memory(memory_mb)
    from yili_kg.service.store import QueryError, load_extra_graphs, open_store

    store = open_store(Path(build_dir), store_kind, verified=True)  # the service checked it
    if extra_graphs:
        store = load_extra_graphs(store, extra_graphs)
    connection.send(("ready", os.getpid(), isolated))
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
                base_iri=job.base_iri,
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


#: imported once in the fork server, so that a worker forked from it starts in milliseconds:
#: the store, and what opening it imports (loaders.built); the command line, because
#: multiprocessing runs the parent's main module again in each worker
PRELOAD = ["yili_kg.service.store", "pyoxigraph", "yili_kg.loaders.built", "yili_kg.service.cli"]


def forkserver_context():
    """The multiprocessing context workers come from, with the store preloaded in its server."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


class Worker:
    def __init__(
        self, context, build_dir: Path, store_kind: str, extra_graphs: dict, memory_mb: int = 0
    ):
        parent, child = context.Pipe()
        self.connection = parent
        # a worker forked from this process (this one, or a later one) gets a copy of this end
        # and must close it, or it would hold its own pipe open and never see the pool go
        multiprocessing.util.register_after_fork(parent, type(parent).close)
        self.process = context.Process(
            target=_serve,
            args=(child, str(build_dir), store_kind, dict(extra_graphs), memory_mb),
            daemon=True,
        )
        self.process.start()
        child.close()
        self.ready = False
        self.isolated = False  # in a network namespace of its own (known once ready)

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def wait_ready(self, timeout: float = 60.0) -> None:
        if not self.ready:
            if not self.connection.poll(timeout):
                raise YiliError("a query worker did not start")
            _, _, self.isolated = self.connection.recv()
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
        memory_mb: int = 0,
        background: bool = False,
        fork: bool = False,
    ):
        """``background``: start the workers from a thread and return at once (a request
        waits for the first free one as for a busy pool).

        ``fork``: fork the first workers from this process, now, instead of from the fork
        server. ``yili-kg serve`` does, first thing: a fork costs a millisecond, where the fork
        server costs a new interpreter, its imports and multiprocessing's resource tracker
        (a third of a cold start, on the core the workers need). Only while this process has
        a single thread, which forking needs; otherwise the fork server is used. Workers
        started later (in place of a killed one) always come from the fork server, started
        when the first of them is needed."""
        self.build_dir = Path(build_dir)
        self.memory_mb = memory_mb  # each worker's data segment, MiB (0: no limit)
        self.extra_graphs = extra_graphs or {}
        self.store_kind = store_kind
        self.size = size
        self.timeout = timeout
        self.queue_timeout = queue_timeout
        self.context = forkserver_context()
        self.free: queue.Queue[Worker] = queue.Queue()
        self.lock = threading.Lock()
        self.killed = 0
        self.started = 0
        self.workers: list[Worker] = []  # every live worker, busy or free
        self._starter = None
        forkable = "fork" in multiprocessing.get_all_start_methods()
        if fork and forkable and threading.active_count() == 1:
            self._start(multiprocessing.get_context("fork"))
        elif background:
            self._starter = threading.Thread(target=self._start, daemon=True, name="yili-pool")
            self._starter.start()
        else:
            self._start()

    def _start(self, context=None) -> None:
        for _ in range(self.size):
            self.free.put(self._new(context))

    def _new(self, context=None) -> Worker:
        worker = Worker(
            context or self.context,
            self.build_dir,
            self.store_kind,
            self.extra_graphs,
            self.memory_mb,
        )
        with self.lock:
            self.started += 1
            self.workers.append(worker)
        return worker

    def _replace(self, worker: Worker) -> Worker:
        """Kill a worker (its query stops with it) and start another in its place."""
        worker.kill()
        with self.lock:
            self.killed += 1
            if worker in self.workers:
                self.workers.remove(worker)
        return self._new()

    def pids(self) -> list[int]:
        """The process ids of the live workers (for tests and the load test's memory figures)."""
        with self.lock:
            return [w.pid for w in self.workers if w.pid is not None]

    def isolated(self) -> bool:
        """Whether every worker runs without network access (waits for each to start)."""
        with self.lock:
            workers = list(self.workers)
        ready = [w for w in workers if w.ready]
        return bool(ready) and all(w.isolated for w in ready)

    def run(self, job: Job) -> tuple[str, bytes, bool]:
        """(kind, body, truncated) of a job; QueryTimeout, Busy or a 400 on error."""
        try:
            worker = self.free.get(timeout=self.queue_timeout)
        except queue.Empty as exc:
            raise Busy(
                f"every query worker is busy ({self.size}); try again shortly",
                retry_after=max(1, round(self.timeout)),
            ) from exc
        try:
            worker.wait_ready()
            worker.connection.send(job)
            if not worker.connection.poll(self.timeout):
                worker = self._replace(worker)
                raise QueryTimeout(
                    f"the query ran past the time limit ({self.timeout:g} s) and was stopped"
                )
            reply = worker.connection.recv()
        except (EOFError, OSError) as exc:  # the worker died under the query
            dead, worker = worker, self._replace(worker)
            code = dead.process.exitcode
            raise WorkerDied(
                f"the query stopped its worker (exit code {code}): it needed more memory "
                f"than a query may have ({self.memory_mb} MiB), or the worker was killed"
            ) from exc
        except YiliError as exc:
            if not isinstance(exc, QueryTimeout):  # it did not start: never hand it out again
                worker = self._replace(worker)
            raise
        finally:
            self.free.put(worker)
        if reply[0] == "error":
            error = YiliError(reply[2])
            error.status = reply[1]
            raise error
        return reply[1], reply[2], reply[3]

    def close(self) -> None:
        if self._starter is not None:
            self._starter.join()  # every worker it starts is then in the queue
        while not self.free.empty():
            worker = self.free.get_nowait()
            worker.kill()
            with self.lock:
                if worker in self.workers:
                    self.workers.remove(worker)

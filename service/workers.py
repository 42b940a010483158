"""A pool of query processes: the time limit that stops the work, and the concurrency cap.

A SPARQL query cannot be interrupted inside the store, so every query from the endpoint runs
in a worker process of its own store (Oxigraph opened read-only from the build, which takes
milliseconds; or rdflib). A query past the time limit has its process killed and replaced;
the request that sent it gets a 503, and no other request waits on it. Each worker's memory
is capped as well (``memory_mb``): a query past it ends its worker, which is replaced, and
gets a 503 too. At most ``size`` queries run at once; a request that finds every worker busy
waits up to ``queue_timeout`` seconds and then gets a 503 (the concurrency cap). A worker
that dies idle (killed, or taken by the system for want of memory) costs no request a 503:
each worker says when it has taken a job, and a job whose worker died before that goes to the
worker started in its place (see :meth:`QueryPool._run`).

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

import contextlib
import ctypes
import multiprocessing
import multiprocessing.util
import os
import queue
import resource
import signal
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from yili_kg.loaders.errors import YiliError

# The store is imported inside the worker process, after the fork: the parent, which never
# queries, keeps a light start (≤ 0.5 s).


class QueryTimeout(YiliError):
    status = 503


class WorkerDied(YiliError):
    """The worker ended under a query: past its memory limit (an allocation failed), or killed."""

    status = 503


class DatasetChanged(YiliError):
    """A new worker opened another dataset than the one this server started on."""

    status = 503


class ClientGone(YiliError):
    """The client hung up while its query waited or ran: the query was stopped."""

    status = 499  # nginx's "client closed request": nobody reads it


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
    # whether the query names its own dataset (FROM): the endpoint has read it already
    dataset_clause: bool | None = None


#: seconds between looks at a client while its query waits or runs
TICK = 0.1

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


PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int = 0) -> None:
    """Have the kernel kill this process when the process that forked it ends (Linux
    ``PR_SET_PDEATHSIG``): a worker must not outlive the server or the fork server, whatever
    killed them (kill -9 runs no cleanup). ``parent``: its pid if known, to catch a parent
    that ended before the request was made."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if (parent and os.getppid() != parent) or os.getppid() == 1:
        os._exit(1)  # the parent is already gone
    # multiprocessing hands each process of the fork server the write end of the pipe by
    # which the fork server learns that the server is gone: held here, it would keep the fork
    # server alive as long as this worker, and this worker (killed with the fork server)
    # alive as long as the fork server — a busy worker would outlive a killed server
    import multiprocessing.forkserver

    fork_server: Any = multiprocessing.forkserver._forkserver
    # (its private alive descriptor: the standard library offers no public way to drop it)
    if fork_server._forkserver_alive_fd is not None:
        try:
            os.close(fork_server._forkserver_alive_fd)
        except OSError:
            pass
        fork_server._forkserver_alive_fd = None


#: bytes of an in-memory store per byte of the N-Quads it holds, about (the whole book: a
#: 200 MB file, 540 MB more resident memory once loaded)
MEMORY_PER_BYTE = 3


class MemoryLoad:
    """The dataset loaded into an in-memory Oxigraph store, in a thread of the worker.

    The persisted store (RocksDB, read-only) opens in milliseconds, so a worker answers from
    it at once; the same engine evaluates the same texts about ten times faster on its
    in-memory store (40 distinct canned texts on the whole book, one at a time: 4.3 s against
    46.7 s read-only, and 35.6 s for the native Oxigraph server on the persisted store), which
    takes seconds to load. So the worker starts loading once it has answered its first query
    (a worker started in place of a killed one does not load while nobody asks it anything),
    at a lower priority than its queries, and answers from memory once loaded. The file is
    checked against the manifest's sha256 before it is loaded. Only when the store fits well
    under the worker's memory cap (half of it, by :data:`MEMORY_PER_BYTE`): the queries keep
    the rest; else the worker stays on the persisted store.
    """

    def __init__(self, build_dir: Path, memory_mb: int):
        self.build_dir = build_dir
        self.memory_mb = memory_mb
        self.store: Any = None  # the OxigraphStore in memory, once loaded
        self.thread: threading.Thread | None = None

    @classmethod
    def wanted(
        cls, build_dir: Path, memory_mb: int, wanted: bool, store_kind: str, extra_graphs: dict
    ) -> MemoryLoad | None:
        """A load to make, if wanted, on Oxigraph's persisted store (extra graphs are in
        memory already; rdflib is the reference store, as it is), and the store fits."""
        if not wanted or store_kind != "oxigraph" or extra_graphs:
            return None
        load = cls(build_dir, memory_mb)
        return load if load.fits() else None

    @staticmethod
    def taken(load: MemoryLoad | None, store: Any, where: str) -> tuple[Any, str, Any]:
        """(store, where, load): the in-memory store once loaded (then no load is left)."""
        if load is not None and load.store is not None:
            return load.store, "memory", None
        return store, where, load

    @staticmethod
    def begin(load: MemoryLoad | None) -> None:
        if load is not None:
            load.start()

    def fits(self) -> bool:
        from yili_kg.loaders.built import DATASET_NAME

        try:
            size = (self.build_dir / DATASET_NAME).stat().st_size
        except OSError:
            return False
        return not self.memory_mb or size * MEMORY_PER_BYTE <= (self.memory_mb << 20) // 2

    def start(self) -> None:
        if self.thread is None:
            self.thread = threading.Thread(target=self._load, daemon=True, name="yili-memory")
            self.thread.start()

    def _load(self) -> None:
        import pyoxigraph as ox

        from yili_kg.loaders.built import check_dataset
        from yili_kg.service.store import OxigraphStore

        with contextlib.suppress(OSError):  # this thread only (Linux): queries come first
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
        try:
            path = check_dataset(self.build_dir)  # the file is the one the build wrote
            memory = ox.Store()
            memory.bulk_load(path=str(path), format=ox.RdfFormat.N_QUADS)
        except Exception:  # noqa: BLE001 (a damaged file, a failed read: stay persisted)
            return
        self.store = OxigraphStore(memory, path, triple_terms=False)  # the build's dataset


def _serve(
    connection,
    build_dir: str,
    store_kind: str,
    extra_graphs: dict,
    memory_mb: int = 0,
    time_limit: float = 0.0,
    parent: int = 0,
    max_bytes: int = 0,
    in_memory: bool = False,
) -> None:
    """A worker's loop: answer jobs until the pipe closes.

    ``time_limit``: seconds a job may take here, answer sent included; past it the kernel ends
    the process (SIGALRM, whose default action is to terminate), whether or not the server is
    there to kill it: the server's own limit comes first, this one holds when it cannot (the
    server stopped, or the fork server killed).
    """
    die_with_parent(parent)
    # Ctrl-C reaches every process of the terminal's group: the server stops, closes the
    # pipes, and that ends the worker (no traceback from each worker)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    # an allocation past the memory cap aborts the engine (Rust's OOM handler): with a
    # backtrace asked for in the environment it spent seconds symbolising one, past the time
    # limit, so the 503 said "time" for what was memory. The exit code tells the death.
    os.environ["RUST_BACKTRACE"] = "0"
    isolated = isolate_network()  # first, while the process has a single thread
    limit_memory(memory_mb)
    from yili_kg.loaders.built import dataset_sha256, read_manifest
    from yili_kg.service.store import (
        AnswerTooLarge,
        QueryError,
        Unwritable,
        load_extra_graphs,
        open_store,
        serialised_answer,
    )

    version = dataset_sha256(read_manifest(Path(build_dir)))  # what it opens, told the pool
    store = open_store(Path(build_dir), store_kind, verified=True)  # the service checked it
    if extra_graphs:
        store = load_extra_graphs(store, extra_graphs)
    connection.send(("ready", os.getpid(), isolated, version))
    # ``in_memory``: answer from an in-memory copy once loaded
    memory = MemoryLoad.wanted(Path(build_dir), memory_mb, in_memory, store_kind, extra_graphs)
    where = "memory" if extra_graphs else "persisted"
    while True:
        try:
            job = connection.recv()
            # taken: from now on a death of this process is the query's (see QueryPool._run)
            connection.send(("taken",))
        except (EOFError, OSError):  # the server is gone
            return
        store, where, memory = MemoryLoad.taken(memory, store, where)
        if time_limit > 0:
            signal.setitimer(signal.ITIMER_REAL, time_limit)
        try:
            # written by the engine's result writers: bytes cross the pipe, no terms
            kind, body, truncated = serialised_answer(
                store,
                job.sparql,
                job.fmt,
                job.graph_fmt,
                job.max_rows,
                default_graphs=job.default_graphs,
                named_graphs=job.named_graphs,
                base_iri=job.base_iri,
                dataset_clause=job.dataset_clause,
                max_bytes=max_bytes,
            )
            connection.send(("ok", kind, body, truncated, where))
        except AnswerTooLarge as exc:  # never sent: the web process stays small
            connection.send(("error", 503, _too_large(exc.size, max_bytes)))
        except Unwritable as exc:
            connection.send(("error", 406, _unwritable(job.graph_fmt, exc)))
        except QueryError as exc:
            connection.send(("error", 400, str(exc)))
        except Exception as exc:  # the store failed on a query it accepted: report, go on
            connection.send(("error", 500, f"{type(exc).__name__}: {exc}"))
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        MemoryLoad.begin(memory)  # after the first answer, once


def _unwritable(fmt: str, exc: Exception) -> str:
    return (
        f"the answer cannot be written as {fmt} ({exc}); ask for it as Turtle, N-Triples "
        "or JSON-LD (Accept: text/turtle)"
    )


def _too_large(size: int, limit: int) -> str:
    return (
        f"the answer is {size / (1 << 20):.1f} MiB, more than an answer may be "
        f"({limit / (1 << 20):g} MiB): ask for fewer rows (LIMIT) or shorter values"
    )


#: imported once in the fork server, so that a worker forked from it starts in milliseconds:
#: the store, and what opening it imports (loaders.built); the command line, because
#: multiprocessing runs the parent's main module again in each worker
PRELOAD = ["yili_kg.service.store", "pyoxigraph", "yili_kg.loaders.built", "yili_kg.service.cli"]


def forkserver_context():
    """The multiprocessing context workers come from, with the store preloaded in its server."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


#: seconds a worker's own limit allows past the server's (which kills it first when it can)
OWN_LIMIT_GRACE = 2.0

#: workers a job is handed to in turn while each dies before it has taken the job (killed
#: idle, or taken by the system for want of memory): the job never ran, the next one takes it
HANDOVERS = 3


class Worker:
    def __init__(
        self,
        context,
        build_dir: Path,
        store_kind: str,
        extra_graphs: dict,
        memory_mb: int = 0,
        time_limit: float = 0.0,
        max_bytes: int = 0,
        in_memory: bool = False,
    ):
        parent, child = context.Pipe()
        self.connection = parent
        # a worker forked from this process (this one, or a later one) gets a copy of this end
        # and must close it, or it would hold its own pipe open and never see the pool go
        multiprocessing.util.register_after_fork(parent, type(parent).close)
        self.process = context.Process(
            target=_serve,
            args=(child, str(build_dir), store_kind, dict(extra_graphs), memory_mb),
            kwargs={
                "time_limit": time_limit,
                # forked from here: this process is its parent (from the fork server: unknown)
                "parent": os.getpid() if context.get_start_method() == "fork" else 0,
                "max_bytes": max_bytes,
                "in_memory": in_memory,
            },
            daemon=True,
        )
        self.process.start()
        child.close()
        self.ready = False
        self.isolated = False  # in a network namespace of its own (known once ready)
        self.version: str | None = None  # the dataset's sha256 it opened (known once ready)
        self.where = "persisted"  # the store its last answer came from: persisted | memory

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def wait_ready(self, timeout: float = 60.0) -> None:
        if not self.ready:
            if not self.connection.poll(timeout):
                raise YiliError("a query worker did not start")
            _, _, self.isolated, self.version = self.connection.recv()
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
        max_callers: int = 0,
        max_answer_bytes: int = 0,
        in_memory: bool = False,
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
        from yili_kg.loaders.built import dataset_sha256, read_manifest

        # the dataset this server serves, from start to end: a worker on another is refused
        self.version = dataset_sha256(read_manifest(self.build_dir))
        self.memory_mb = memory_mb  # each worker's data segment, MiB (0: no limit)
        self.max_answer_bytes = max_answer_bytes  # one serialised answer (0: no limit)
        self.in_memory = in_memory  # workers load an in-memory copy (see MemoryLoad)
        self.extra_graphs = extra_graphs or {}
        self.store_kind = store_kind
        self.size = size
        self.timeout = timeout
        self.queue_timeout = queue_timeout
        # requests inside run() at once (running or waiting); more get a 503 at once, so
        # that the web threads left answer pages (0: size + 4)
        self.max_callers = max(size, max_callers or size + 4)
        self.callers = 0
        self.closed = False
        self.stale = ""  # why the pool answers no more (its build changed), once it does
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
            time_limit=self.timeout + OWN_LIMIT_GRACE if self.timeout > 0 else 0.0,
            max_bytes=self.max_answer_bytes,
            in_memory=self.in_memory,
        )
        with self.lock:
            self.started += 1
            self.workers.append(worker)
        return worker

    def _replace(self, worker: Worker) -> Worker:
        """Kill a worker (its query stops with it) and start another in its place (none once
        the pool is closed)."""
        worker.kill()
        with self.lock:
            self.killed += 1
            if worker in self.workers:
                self.workers.remove(worker)
            if self.closed:
                return worker
        return self._new()

    def pids(self) -> list[int]:
        """The process ids of the live workers (for tests and the load test's memory figures)."""
        with self.lock:
            return [w.pid for w in self.workers if w.pid is not None]

    def in_memory_count(self) -> tuple[int, int]:
        """(workers whose last answer came from their in-memory store, live workers)."""
        with self.lock:
            return sum(w.where == "memory" for w in self.workers), len(self.workers)

    def isolated(self) -> bool:
        """Whether every worker runs without network access (waits for each to start)."""
        with self.lock:
            workers = list(self.workers)
        ready = [w for w in workers if w.ready]
        return bool(ready) and all(w.isolated for w in ready)

    def run(self, job: Job, cancelled=None) -> tuple[str, bytes, bool]:
        """(kind, body, truncated) of a job; QueryTimeout, Busy or a 400 on error.

        ``cancelled()``, if given, says whether the client has gone (waitress's
        ``client_disconnected``): asked every :data:`TICK` while the job waits for a worker or
        runs, and then the job is dropped, its worker killed and replaced (a query cannot be
        stopped otherwise), and :class:`ClientGone` raised.
        """
        if self.stale:  # from now on every query would need a worker on the new dataset
            raise DatasetChanged(self.stale)
        with self.slot():
            return self._run(job, cancelled or (lambda: False))

    @contextlib.contextmanager
    def slot(self):
        """One of the ``max_callers`` web threads that may do heavy work at once: a query
        here, or a canned question asked for the first time (run in the web process); past
        them a request gets a 503 at once, so that the other threads answer pages, static
        files and remembered answers."""
        with self.lock:
            crowded = self.callers >= self.max_callers
            if not crowded:
                self.callers += 1
        if crowded:
            raise Busy(
                f"{self.max_callers} queries are running or waiting for the {self.size} query "
                "workers; try again shortly",
                retry_after=max(1, round(self.timeout)),
            )
        try:
            yield
        finally:
            with self.lock:
                self.callers -= 1

    def _take(self, cancelled) -> Worker:
        deadline = time.monotonic() + self.queue_timeout
        while True:
            left = deadline - time.monotonic()
            try:
                return self.free.get(timeout=max(0.0, min(TICK, left)))
            except queue.Empty as exc:
                if cancelled():
                    raise ClientGone("the client hung up before a worker was free") from exc
                if left <= TICK:
                    raise Busy(
                        f"every query worker is busy ({self.size}); try again shortly",
                        retry_after=max(1, round(self.timeout)),
                    ) from exc

    def _answered(self, worker: Worker, cancelled, deadline: float) -> bool:
        """Wait for the worker's next message: True when it came (or its pipe closed); False
        past ``deadline``. ClientGone when the client hung up first."""
        while True:
            left = deadline - time.monotonic()
            if worker.connection.poll(max(0.0, min(TICK, left))):
                return True
            if left <= TICK:
                return False
            if cancelled():
                raise ClientGone("the client hung up: its query was stopped")

    def _handed(self, worker: Worker, job: Job, cancelled) -> float | None:
        """Send ``job`` to a started ``worker`` and wait until it says it has taken it: the
        deadline of its answer (the time limit runs from the send), or None past it already.
        EOFError or OSError: the worker died before it took the job."""
        worker.wait_ready()
        if worker.version != self.version:  # a worker started after a rebuild
            self._mark_stale(worker.version)
            raise DatasetChanged(self.stale)
        worker.connection.send(job)
        deadline = time.monotonic() + self.timeout
        if not self._answered(worker, cancelled, deadline):
            return None
        worker.connection.recv()  # ("taken",)
        return deadline

    def _run(self, job: Job, cancelled) -> tuple[str, bytes, bool]:
        """A job on a worker, and its answer.

        A worker killed while idle is not always seen dead before its job is sent: a process
        whose first thread has exited stays unreported to waitpid (``is_alive()`` is True)
        until its other threads have exited too (its store's, its in-memory load's: a while,
        for a large memory). So the worker says when it has taken a job, before running it: a
        death before that is no fault of the query, which goes to the worker started in its
        place (up to :data:`HANDOVERS` workers); a death after it is the query's (a
        runaway's worker killed, a query past the memory cap): :class:`WorkerDied`.
        """
        worker = self._take(cancelled)
        try:
            for handover in range(1, HANDOVERS + 1):
                # ended while idle (killed), whether or not it had said it was ready: its pipe
                # may still hold that message, and a job sent to it would only find it dead
                if not worker.process.is_alive():
                    worker = self._replace(worker)
                try:
                    deadline = self._handed(worker, job, cancelled)
                    break
                except (EOFError, OSError):  # it died before it took the job: the next one
                    if handover == HANDOVERS or self.closed or cancelled():
                        raise
                    worker = self._replace(worker)
            if deadline is None or not self._answered(worker, cancelled, deadline):
                worker = self._replace(worker)
                raise QueryTimeout(
                    f"the query ran past the time limit ({self.timeout:g} s) and was stopped"
                )
            reply = worker.connection.recv()
        except ClientGone:
            worker = self._replace(worker)
            raise
        except (EOFError, OSError) as exc:  # the worker died under the query
            dead, worker = worker, self._replace(worker)
            if self._rebuilt():  # killed for the new build: say that, not just the death
                raise DatasetChanged(self.stale) from exc
            raise WorkerDied(self._death(dead.process.exitcode)) from exc
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
        worker.where = reply[4]
        return reply[1], reply[2], reply[3]

    def _mark_stale(self, version: str | None) -> None:
        self.stale = (
            f"the build in {self.build_dir}/ changed under this server (dataset "
            f"{(self.version or '?')[:12]} → {(version or '?')[:12]}); one "
            "server never answers from two datasets: restart `yili-kg serve`"
        )

    def _rebuilt(self) -> bool:
        """Whether the build folder now holds another dataset than the one this server serves
        (read from its manifest: a worker that died may have been one a rebuild outdated)."""
        from yili_kg.loaders.built import dataset_sha256, read_manifest

        try:
            version = dataset_sha256(read_manifest(self.build_dir))
        except OSError:
            return False
        if version is None or version == self.version:
            return False  # the same, or a manifest being written or damaged: unknown
        self._mark_stale(version)
        return True

    def _death(self, code: int | None) -> str:
        """What ended a worker under a query, from its exit code, for the 503."""
        signals = {signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGFPE}
        if code is not None and code < 0 and -code in signals:
            return (
                f"the query crashed its worker ({signal.Signals(-code).name}; a query nested "
                "too deeply for the parser's stack does this); a new worker took its place"
            )
        if code == -signal.SIGALRM:
            return f"the query ran past the time limit ({self.timeout:g} s) and was stopped"
        if code == -signal.SIGKILL:
            return (
                "the query's worker was killed (from outside, or by the system for want of "
                "memory); a new worker took its place"
            )
        return (
            f"the query needed more memory than a query may have ({self.memory_mb} MiB) and "
            f"ended its worker (exit code {code}); a new worker took its place"
        )

    def close(self) -> None:
        """Kill every worker, busy ones too (a query still running is stopped with it)."""
        if self._starter is not None:
            self._starter.join()  # every worker it starts is then in the queue
        while not self.free.empty():
            self.free.get_nowait()
        with self.lock:
            self.closed = True
            workers, self.workers = list(self.workers), []
        for worker in workers:
            worker.kill()

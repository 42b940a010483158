"""The service under hostile clients, as ``yili-kg serve`` runs it (a real process on
loopback): slow and idle sockets, runaways whose clients hang up, kills of every process.

Waits are bounded generously (a loaded 2-core machine); the assertions are on behaviour: a
client answered rather than shut out, a process gone rather than left running.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
HOST_ACTS = (
    "PREFIX yl: <https://w3id.org/yili/ontology#> "
    "ASK { ?e yl:agent <https://w3id.org/yili/id/role/zhuren> }"
)


# ---------------------------------------------------------------- a served process


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def children(pid: int) -> set[int]:
    """The live processes whose parent is ``pid``."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] not in ("Z", "X"):
            found.add(int(stat.parent.name))
    return found


def descendants(pid: int) -> set[int]:
    found, todo = set(), [pid]
    while todo:
        for child in children(todo.pop()):
            found.add(child)
            todo.append(child)
    return found


def running(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (FileNotFoundError, ProcessLookupError):  # gone before or while its stat is read
        return False


def wait_until(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


class Served:
    """``yili-kg serve`` on a free loopback port, with ``YILI_*`` settings from ``env``."""

    def __init__(self, build_dir: Path, *options: str, **env):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # every query reaches a worker (the /sparql result cache, tested in test_answer_path,
        # would answer a repeated one from memory): these tests are about the workers
        env.setdefault("RESULT_CACHE", 0)
        environ = {**os.environ, **{f"YILI_{k}": str(v) for k, v in env.items()}}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "yili_kg.service.cli", "serve", "--build-dir", str(build_dir)]
            + ["--no-build", "--port", str(self.port), *options],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=environ,
            start_new_session=True,  # its own process group: the test can end all of it
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                assert self.sparql(HOST_ACTS)["boolean"] is True
                break
            except OSError:
                assert self.process.poll() is None, self.process.stderr.read().decode()
                assert time.monotonic() < deadline, "yili-kg serve did not answer in 60 s"
                time.sleep(0.05)

    def get(self, path: str, timeout: float = 30, headers: dict | None = None):
        """(status, headers, body)."""
        request = urllib.request.Request(self.url + path, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()

    def sparql(self, query: str, timeout: float = 30) -> dict:
        path = "/sparql?" + urllib.parse.urlencode({"query": query})
        request = urllib.request.Request(
            self.url + path, headers={"Accept": "application/sparql-results+json"}
        )
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.loads(response.read())

    def tree(self) -> set[int]:
        return {self.process.pid, *descendants(self.process.pid)}

    def stop(self) -> str:
        """Stop it (and anything of its group left), its standard error."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # the group is the test's own
        except ProcessLookupError:
            pass
        self.process.wait()
        if not self.process.stderr.closed:
            with self.process.stderr:
                self.log = self.process.stderr.read().decode(errors="replace")
        return self.log


@pytest.fixture()
def served(build_dir):
    made: list[Served] = []

    def start(*options, **env) -> Served:
        made.append(Served(build_dir, *options, **env))
        return made[-1]

    yield start
    for each in made:
        each.stop()


def answered(served: Served, path: str, headers=None) -> tuple[int, bytes, float]:
    started = time.perf_counter()
    status, _, body = served.get(path, timeout=10, headers=headers)
    return status, body, time.perf_counter() - started


# ---------------------------------------------------------------- 1. connections


def test_slowloris_sockets_neither_shut_clients_out_nor_stay_open(served):
    server = served(RECEIVE_TIMEOUT=3, CHANNEL_TIMEOUT=3)
    canned = "/queries/bows?role=%E8%B3%93&format=json"
    assert server.get(canned)[0] == 200  # remembered from now on
    assert server.get("/", headers={"Accept": "text/html"}, timeout=120)[0] == 200  # its own too
    idle, trickling = [], []
    for number in range(200):
        sock = socket.create_connection(("127.0.0.1", server.port))
        if number % 2:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            trickling.append(sock)
        else:
            idle.append(sock)
    stop = threading.Event()

    def trickle():  # one header byte a second on each: never idle, never whole
        while not stop.wait(0.5):
            for sock in trickling:
                try:
                    sock.send(b"X")
                except OSError:
                    pass

    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    try:
        time.sleep(0.5)
        for path, headers in [
            ("/static/style.css", None),
            (canned, None),
            ("/", {"Accept": "text/html"}),
        ]:
            status, body, seconds = answered(server, path, headers)
            assert status == 200 and body, path
        assert server.sparql(HOST_ACTS, timeout=10)["boolean"] is True

        def closed(sock) -> bool:
            sock.settimeout(0.01)
            try:
                return sock.recv(65536) == b"" or closed(sock)
            except TimeoutError:
                return False
            except OSError:
                return True

        # every slow socket is closed by the server in bounded time: idle ones after the
        # channel timeout, trickling ones after the receive timeout (a cleanup pass later)
        assert wait_until(lambda: all(closed(s) for s in idle + trickling), 30)
    finally:
        stop.set()
        thread.join()
        for sock in idle + trickling:
            sock.close()


# ---------------------------------------------------------------- 2. runaways


def send_query(port: int, query: str) -> socket.socket:
    """A GET of ``query`` on a raw socket, left open (the caller hangs up or reads)."""
    sock = socket.create_connection(("127.0.0.1", port))
    path = "/sparql?" + urllib.parse.urlencode({"query": query})
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n\r\n".encode())
    return sock


def reply_of(sock: socket.socket, seconds: float) -> bytes:
    sock.settimeout(seconds)
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    except TimeoutError:
        pass
    return data


def heads_of(sockets: list[socket.socket], seconds: float, enough: int | None = None) -> list:
    """The reply heads (status line and headers) that arrive on ``sockets`` within ``seconds``,
    read from all of them at once (b"" for a socket that sent nothing); done early once
    ``enough`` of them have come."""
    import selectors

    data = {sock: b"" for sock in sockets}
    waiting = selectors.DefaultSelector()
    for sock in sockets:
        waiting.register(sock, selectors.EVENT_READ)
    deadline = time.monotonic() + seconds
    try:
        while waiting.get_map() and (
            enough is None or len(sockets) - len(waiting.get_map()) < enough
        ):
            left = deadline - time.monotonic()
            if left <= 0:
                break
            for key, _ in waiting.select(left):
                try:
                    chunk = key.fileobj.recv(65536)
                except OSError:
                    chunk = b""
                data[key.fileobj] += chunk
                if not chunk or b"\r\n\r\n" in data[key.fileobj]:
                    waiting.unregister(key.fileobj)
    finally:
        waiting.close()
    return [data[sock] for sock in sockets]


def test_clients_that_hang_up_stop_their_runaways_and_free_the_workers(served):
    server = served("--query-timeout", "120", "--workers", "2")
    workers = descendants(server.process.pid)
    assert len(workers) == 2
    sockets = [send_query(server.port, RUNAWAY) for _ in range(10)]
    time.sleep(0.5)
    for sock in sockets:
        sock.close()
    # both runaways were stopped with their workers (not after the 120 s limit) ...
    assert wait_until(lambda: not any(running(pid) for pid in workers), 20)
    # ... and fresh workers answer
    assert server.sparql(HOST_ACTS, timeout=30)["boolean"] is True
    assert len(descendants(server.process.pid) - workers) >= 2


def test_pages_never_queue_behind_runaways_and_waiting_queries_get_503(served):
    server = served("--query-timeout", "120", "--workers", "2")
    canned = "/queries/bows?role=%E8%B3%93&format=json"
    assert server.get(canned)[0] == 200  # remembered from now on
    assert server.get("/", headers={"Accept": "text/html"}, timeout=120)[0] == 200  # its own too
    sockets = [send_query(server.port, RUNAWAY) for _ in range(10)]
    try:
        time.sleep(0.5)
        for path, headers in [
            ("/static/style.css", None),
            (canned, None),
            ("/", {"Accept": "text/html"}),
        ]:
            status, body, _ = answered(server, path, headers)
            assert status == 200 and body, path
        # two run; the others waited a short while (or found the queue full) and got a 503
        # saying when to come back (read from all at once: the two running ones never answer
        # within the 120 s limit, so waiting on each in turn only added their waits)
        replies = heads_of(sockets, 20, enough=8)
        refused = [r for r in replies if r.startswith(b"HTTP/1.1 503")]
        assert len(refused) == 8, [r[:40] for r in replies]
        assert all(b"\r\nRetry-After: " in r for r in refused)
        # ... and the two others run: still no reply from them after the queue's wait again
        running_ones = [sock for sock, reply in zip(sockets, replies, strict=True) if not reply]
        assert len(running_ones) == 2 and heads_of(running_ones, 3) == [b"", b""]
    finally:
        for sock in sockets:
            sock.close()
    assert server.sparql(HOST_ACTS, timeout=30)["boolean"] is True


# ---------------------------------------------------------------- 5. no process outlives


def whole_reply(sock: socket.socket, seconds: float) -> bytes:
    """Everything the server sends until it closes the connection."""
    sock.settimeout(seconds)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    return data


def fork_server_of(pid: int) -> int:
    (found,) = [
        child
        for child in children(pid)
        if b"forkserver" in Path(f"/proc/{child}/cmdline").read_bytes()
    ]
    return found


def test_sigterm_answers_requests_in_flight_then_ends_every_worker(served):
    server = served("--query-timeout", "3", "--workers", "2", QUEUE_TIMEOUT=30, SHUTDOWN_GRACE=40)
    sockets = [send_query(server.port, RUNAWAY) for _ in range(2)]
    time.sleep(0.3)
    sockets += [send_query(server.port, HOST_ACTS) for _ in range(3)]
    time.sleep(0.3)
    every = server.tree()
    server.process.send_signal(signal.SIGTERM)
    replies = [whole_reply(sock, 60) for sock in sockets]
    for sock in sockets:
        sock.close()
    # none was cut off: the runaways got their 503, the queries behind them their answer
    for reply in replies[:2]:
        assert reply.startswith(b"HTTP/1.1 503") and b"time limit" in reply, reply[:200]
    for reply in replies[2:]:
        assert reply.startswith(b"HTTP/1.1 200"), reply[:200]
        assert json.loads(reply.partition(b"\r\n\r\n")[2])["boolean"] is True
    assert server.process.wait(timeout=60) == 0
    assert wait_until(lambda: not any(running(pid) for pid in every), 5), [
        pid for pid in every if running(pid)
    ]


def test_kill_9_of_any_process_of_the_service_leaves_none_running(served):
    server = served("--query-timeout", "120", "--workers", "2")

    def kill_idle(workers: set[int]) -> None:
        for pid in sorted(workers):
            os.kill(pid, signal.SIGKILL)
            assert wait_until(lambda pid=pid: not running(pid), 5)
            for _ in range(2):
                assert server.sparql(HOST_ACTS)["boolean"] is True

    # each worker in turn (idle): gone, replaced from the fork server, nobody gets an error
    # (not running is not yet reaped: a process whose first thread has exited is reported to
    # waitpid only once its other threads have too; the job goes to a new worker)
    kill_idle(children(server.process.pid))
    # ... and each worker the fork server started in their place: the same
    forkserver = fork_server_of(server.process.pid)
    kill_idle(children(forkserver))
    # the fork server, while one of its workers runs a runaway: its workers end with it
    its_workers = children(forkserver)
    assert len(its_workers) == 2
    runaway = send_query(server.port, RUNAWAY)
    time.sleep(1)
    os.kill(forkserver, signal.SIGKILL)
    assert wait_until(lambda: not any(running(p) for p in {forkserver, *its_workers}), 5)
    assert reply_of(runaway, 30).startswith(b"HTTP/1.1 503")  # (kept alive: not closed)
    runaway.close()
    for _ in range(2):  # a new fork server, new workers
        assert server.sparql(HOST_ACTS)["boolean"] is True
    # the server itself, with a runaway in flight: everything of it ends
    runaway = send_query(server.port, RUNAWAY)
    time.sleep(1)
    every = server.tree()
    assert len(every) >= 4  # server, fork server, two workers (and the resource tracker)
    os.kill(server.process.pid, signal.SIGKILL)
    assert wait_until(lambda: not any(running(p) for p in every), 5), [
        (p, Path(f"/proc/{p}/cmdline").read_bytes()[:80]) for p in every if running(p)
    ]
    runaway.close()


def test_a_worker_keeps_its_own_time_limit_when_the_server_cannot_stop_it(served):
    server = served("--query-timeout", "2", "--workers", "2")
    workers = children(server.process.pid)
    runaway = send_query(server.port, RUNAWAY)
    time.sleep(0.5)
    os.kill(server.process.pid, signal.SIGSTOP)  # the server can kill nothing now
    try:
        # the worker running the runaway ends by itself, past the limit and its grace
        assert wait_until(lambda: any(not running(pid) for pid in workers), 30)
    finally:
        os.kill(server.process.pid, signal.SIGCONT)
    # its head: the connection is kept alive after the 503, waiting for its close took 15 s
    assert reply_of(runaway, 30).startswith(b"HTTP/1.1 503")
    runaway.close()
    for _ in range(2):
        assert server.sparql(HOST_ACTS)["boolean"] is True


# ---------------------------------------------------------------- 3. linear scans


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_adversarial_query_text_costs_the_web_process_little(served):
    server = served()
    pid = server.process.pid
    texts = ['"\\' * 10000, "a." * 10000, "'\\" * 10000, "SELECT * {" + "a." * 9990 + "}"]
    before = cpu_seconds(pid)
    threads = []
    for number in range(8):  # 8 clients at once, 20 KB each (the size limit)
        query = texts[number % len(texts)]
        thread = threading.Thread(
            target=server.get, args=("/sparql?" + urllib.parse.urlencode({"query": query}),)
        )
        thread.start()
        threads.append(thread)
    status, body, _ = answered(server, "/static/style.css")
    assert status == 200 and body
    for thread in threads:
        thread.join()
    # the quadratic tokenizer took 2-3 s of CPU for each of these; linear, it takes ms
    assert cpu_seconds(pid) - before < 4.0


# ---------------------------------------------------------------- 4. bounded answers


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_an_answer_past_the_byte_cap_is_refused_by_the_worker(served):
    server = served(MAX_ANSWER_MB=4)
    doublings = " ".join(f"BIND(CONCAT(?v{i}, ?v{i}) AS ?v{i + 1})" for i in range(12))
    # a short query, a 64 MiB answer: 1000 rows of 64 KiB
    query = (
        "SELECT ?s ?v12 WHERE { { SELECT ?s WHERE { ?s ?p ?o } LIMIT 1000 } "
        f'BIND("0123456789abcdef" AS ?v0) {doublings} }}'
    )
    before = rss_mib(server.process.pid)
    status, headers, body = server.get("/sparql?" + urllib.parse.urlencode({"query": query}))
    assert status == 503 and b"MiB" in body and b"LIMIT" in body, body[:300]
    assert rss_mib(server.process.pid) - before < 32  # it never reached the web process
    small = query.replace("LIMIT 1000", "LIMIT 10")  # 640 KiB: answered
    status, _, body = server.get("/sparql?" + urllib.parse.urlencode({"query": small}))
    assert status == 200 and len(json.loads(body)["results"]["bindings"]) == 10


def test_case_spellings_of_one_canned_question_are_one_remembered_answer(served):
    import itertools

    server = served()
    spellings = ["".join(s) for s in itertools.product(*[(c, c.upper()) for c in "host"])]
    first = server.get("/queries/role-acts?role=host&format=json", timeout=120)
    assert first[0] == 200 and len(json.loads(first[2])["results"]["bindings"]) > 100
    before = rss_mib(server.process.pid)
    for rite in ["鄉射禮", "乡射礼", "district archery rite", "DISTRICT ARCHERY RITE"]:
        for role in spellings:
            path = "/queries/role-acts?" + urllib.parse.urlencode(
                {"role": role, "rite": rite, "format": "json"}
            )
            status, _, body = server.get(path, timeout=120)
            assert status == 200 and body == first[2]
    assert rss_mib(server.process.pid) - before < 32  # 64 spellings, one answer kept


def test_remembered_answers_are_bounded_in_bytes(store):
    from yili_kg.service.queries import CannedAnswers

    roles = ["主人", "HOST", "Host", "賓", "司射", "司馬", "大夫"]
    # what each answer costs held (its JSON and CSV made): the bound holds the largest one, not
    # the two largest together (the mini dataset's answers are small: 1 MiB held them all)
    unbounded = CannedAnswers(store)
    costs = []
    for role in roles:
        entry = unbounded._entry("role-acts", {"role": role})
        unbounded.serialised("role-acts", {"role": role}, "json")
        unbounded.serialised("role-acts", {"role": role}, "csv")
        costs.append(entry[3])
    largest, second = sorted(costs)[-2:][::-1]
    assert second > 64 << 10  # 主人's and 賓's acts: answers worth bounding
    bound = largest + second // 2
    canned = CannedAnswers(store, size=512, max_bytes=bound)
    for role in roles:
        canned.serialised("role-acts", {"role": role}, "json")
        canned.serialised("role-acts", {"role": role}, "csv")
        assert canned.bytes <= bound
    # HOST and Host were 主人 again: no new answer, whatever the spelling; the oldest went
    assert canned.misses == 5 and len(canned._entries) < 5
    assert sum(entry[3] for entry in canned._entries.values()) == canned.bytes
    held = {dict(key[1])["role"].strip("<>").rsplit("/", 1)[-1] for key in canned._entries}
    assert "zhuren" not in held and {"bin", "dafu"} <= held  # the newest stay


# ---------------------------------------------------------------- 8. bad paths, clear 503s


def test_bad_paths_are_4xx_and_leave_no_traceback_in_the_log(served):
    server = served()
    paths = [f"/id/role/zhu{c}ren" for c in ["%3C", "%3E", "%22", "%7B", "%7D", "%7C", "%5E"]]
    paths += ["/id/role/zhu%60ren", "/id/role/zhu%20ren", "/id/a%5Cb", "/ontology/term/a%20b"]
    for path in paths:
        for accept in ["text/html", "text/turtle", "application/json"]:
            status, _, body = server.get(path, headers={"Accept": accept})
            assert status == 404 and b"not an IRI" in body, (path, accept, status)
    for path in ["/pictures?phase=%C2%B2", "/pictures/plan.svg?phase=%C2%B2"]:
        status, _, body = server.get(path, headers={"Accept": "text/html"})
        assert status == 200 and b"<svg" in body, path  # the default phase's plan
    # RDF/XML cannot name a predicate that has no QName: 406, saying to ask otherwise
    query = "CONSTRUCT { <urn:a> <urn:b:> 1 } WHERE {}"
    status, _, body = server.get(
        "/sparql?" + urllib.parse.urlencode({"query": query}),
        headers={"Accept": "application/rdf+xml"},
    )
    assert status == 406 and b"Turtle" in body
    # nesting that overflows the parser's stack kills its worker: the 503 says it crashed
    deep = "SELECT * WHERE { FILTER(" + "(" * 9000 + "1" + ")" * 9000 + ") }"
    status, _, body = server.get("/sparql?" + urllib.parse.urlencode({"query": deep}))
    assert status == 503 and b"crashed" in body and b"memory" not in body, body
    assert server.sparql(HOST_ACTS)["boolean"] is True  # replaced
    log = server.stop()
    assert "Traceback" not in log, log[-3000:]


# ---------------------------------------------------------------- 6, 7. one dataset, a sound one


@pytest.fixture()
def build_copy(build_dir, tmp_path) -> Path:
    import shutil

    copy = tmp_path / "build"
    shutil.copytree(build_dir, copy, ignore=shutil.ignore_patterns("downloads", ".build.lock"))
    return copy


def refused(build: Path, *options: str) -> str:
    """``yili-kg serve`` on ``build`` must exit 1 with one clear line: that line."""
    run = subprocess.run(
        [sys.executable, "-m", "yili_kg.service.cli", "serve", "--build-dir", str(build)]
        + ["--port", str(free_port()), *options],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1, run.stderr[-2000:]
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), lines
    return lines[0]


def flip(path: Path, offset: int, count: int = 64) -> None:
    data = bytearray(path.read_bytes())
    for i in range(offset, offset + count):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))


def test_a_damaged_store_or_manifest_is_refused_with_a_clear_message(build_copy):
    sst = max((build_copy / "oxigraph").glob("*.sst"), key=lambda p: p.stat().st_size)
    original = sst.read_bytes()
    flip(sst, len(original) // 2)  # opens and serves, short of facts: only checksums see it
    line = refused(build_copy, "--no-build")
    assert sst.name in line and "yili-kg build" in line
    flip(sst, 0, 4096)  # the head of the file: RocksDB may fail to open it at all
    assert "yili-kg build" in refused(build_copy, "--no-build")
    sst.write_bytes(original)
    manifest = build_copy / "manifest.json"
    good = manifest.read_text(encoding="utf-8")
    for damaged in [b"{}", b"[]", b'{"dataset": {}}', b'{"dataset": null}', b"", b"\xff{"]:
        manifest.write_bytes(damaged)
        assert "yili-kg build" in refused(build_copy, "--no-build"), damaged
    manifest.write_text(good, encoding="utf-8")


def test_a_build_folder_takes_one_build_at_a_time(build_copy):
    import fcntl

    with open(build_copy / ".build.lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a build in progress holds it
        lock.write("process 4242")
        lock.flush()
        line = refused(build_copy)  # serve brings the build up to date first: not beside it
        assert "being built by process 4242" in line
        run = subprocess.run(
            [sys.executable, "-m", "yili_kg.service.cli", "build", "--build-dir", str(build_copy)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 1 and "being built by process 4242" in run.stderr


def test_a_server_never_answers_from_two_datasets(build_copy):
    server = Served(build_copy, "--workers", "2")
    try:
        count = server.sparql("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }")
        # another build lands in the folder: a new dataset (here: the same triples under a
        # new checksum; a real rebuild changes both), and a worker must be replaced
        manifest = json.loads((build_copy / "manifest.json").read_text(encoding="utf-8"))
        manifest["dataset"]["sha256"] = "0" * 64
        (build_copy / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
        for pid in children(server.process.pid):
            os.kill(pid, signal.SIGKILL)
            assert wait_until(lambda pid=pid: not running(pid), 5)
        status, _, body = server.get("/sparql?" + urllib.parse.urlencode({"query": HOST_ACTS}))
        assert status == 503 and b"changed under this server" in body, (status, body)
        status, _, body = server.get("/sparql?" + urllib.parse.urlencode({"query": HOST_ACTS}))
        assert status == 503 and b"restart" in body
        assert count["results"]["bindings"]  # it had answered from the first one
    finally:
        server.stop()


def test_a_worker_killed_under_a_query_after_a_rebuild_says_the_build_changed(build_copy):
    """The death of a worker in the middle of a query, once another build has landed, is
    answered as the change it is (503, restart), not as a death a new worker repairs: the new
    worker would be on the other dataset (the race that made the test above flaky)."""
    server = Served(build_copy, "--workers", "1", "--query-timeout", "60")
    try:
        assert server.sparql("ASK { ?s ?p ?o }")["boolean"]
        manifest = json.loads((build_copy / "manifest.json").read_text(encoding="utf-8"))
        manifest["dataset"]["sha256"] = "0" * 64
        (build_copy / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
        reply: dict = {}

        def ask():
            query = urllib.parse.urlencode({"query": RUNAWAY})
            reply["answer"] = server.get("/sparql?" + query, timeout=60)

        asking = threading.Thread(target=ask)
        asking.start()
        time.sleep(1.0)  # the runaway is in its worker
        for pid in children(server.process.pid):
            os.kill(pid, signal.SIGKILL)
        asking.join(60)
        status, _, body = reply["answer"]
        assert status == 503 and b"changed under this server" in body, (status, body)
    finally:
        server.stop()


# ---------------------------------------------------------------- found by attacking further


def test_first_asks_of_canned_questions_share_the_cap_on_heavy_work(served):
    # a canned question asked for the first time runs in the web process, with no time limit:
    # many distinct ones at once (a role, a rite, a spelling each) held every web thread
    server = served("--query-timeout", "120", QUEUE_TIMEOUT=120)
    remembered = "/queries/bows?role=%E8%B3%93&format=json"
    assert server.get(remembered)[0] == 200
    # a question never precomputed (`yili-kg answers` reads one of those from its file)
    fresh = "/queries/role-acts?" + urllib.parse.urlencode({"role": "司馬", "format": "json"})
    sockets = [send_query(server.port, RUNAWAY) for _ in range(6)]  # 2 run, 4 wait
    try:
        time.sleep(1)
        status, headers, body = server.get(fresh)
        assert status == 503 and headers["Retry-After"], body
        for path in [remembered, "/static/style.css"]:
            assert answered(server, path)[0] == 200, path
    finally:
        for sock in sockets:
            sock.close()  # hung up: their queries stop
    assert wait_until(lambda: server.get(fresh, timeout=120)[0] == 200, 60)

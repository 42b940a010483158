"""The command line, through click's runner (the commands the README lists)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from yili_kg.service.cli import main


def test_help_lists_only_working_commands():
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for command in ("build", "export", "collate", "manifest"):
        assert command in result.output


def test_build_prints_a_one_line_summary(build_dir):
    result = CliRunner().invoke(main, ["build", "--build-dir", str(build_dir)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("built ") and "up to date" in result.output


def test_export_to_stdout_and_file(build_dir, tmp_path):
    result = CliRunner().invoke(
        main, ["export", "--build-dir", str(build_dir), "--format", "nt", "--graph", "ontology"]
    )
    assert result.exit_code == 0
    assert "<https://w3id.org/yili/ontology#agent>" in result.output
    out = tmp_path / "o.ttl"
    result = CliRunner().invoke(
        main,
        [
            "export",
            "--build-dir",
            str(build_dir),
            "--format",
            "ttl",
            "--graph",
            "ontology",
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 0 and "yl:agent" in out.read_text(encoding="utf-8")


def test_export_without_a_build_says_what_to_do(tmp_path):
    result = CliRunner().invoke(main, ["export", "--build-dir", str(tmp_path / "none")])
    assert result.exit_code == 1
    assert "yili-kg build" in result.output


def test_answers_without_a_build_says_what_to_do(tmp_path):
    result = CliRunner().invoke(main, ["answers", "--build-dir", str(tmp_path / "none")])
    assert result.exit_code == 1 and "yili-kg build" in result.output
    assert not (tmp_path / "none").exists()  # nothing made where there was no build


def test_collate_summary():
    result = CliRunner().invoke(main, ["collate", "--summary"])
    assert result.exit_code == 0 and result.output.startswith("summary: ")


def test_manifest_check():
    result = CliRunner().invoke(main, ["manifest"])
    assert result.exit_code == 0 and "match the manifest" in result.output


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children(pid: int) -> set[int]:
    """The live processes whose parent is ``pid`` (from /proc: Linux)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended while we looked
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(stat.parent.name))
    return found


def _descendants(pid: int) -> set[int]:
    found, todo = set(), [pid]
    while todo:
        for child in _children(todo.pop()):
            found.add(child)
            todo.append(child)
    return found


def _serve(build_dir: Path, *options: str, **popen) -> subprocess.Popen:
    """``yili-kg serve`` as a process, on a free port (``process.port``)."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "yili_kg.service.cli", "serve", "--build-dir", str(build_dir)]
        + ["--no-build", "--port", str(port), *options],
        stdout=subprocess.DEVNULL,
        **popen,
    )
    process.port = port
    return process


def _sparql(process: subprocess.Popen, query: str) -> dict:
    url = f"http://127.0.0.1:{process.port}/sparql?" + urllib.parse.urlencode(
        {"query": "PREFIX yl: <https://w3id.org/yili/ontology#> " + query}
    )
    request = urllib.request.Request(url, headers={"Accept": "application/sparql-results+json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def _first_answer(process: subprocess.Popen, query: str, why=lambda: "") -> dict:
    """The answer to ``query`` once the server is up (60 s at most)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            return _sparql(process, query)
        except urllib.error.HTTPError:
            raise
        except OSError:
            assert process.poll() is None, why()
            assert time.monotonic() < deadline, "yili-kg serve did not answer in 60 s"
            time.sleep(0.05)


def _wait_gone(pids: set[int], what: str) -> None:
    deadline = time.monotonic() + 20
    while left := [pid for pid in pids if Path(f"/proc/{pid}/stat").exists()]:
        assert time.monotonic() < deadline, f"{what}: {left}"
        time.sleep(0.1)


HOST_ACTS = "ASK { ?e yl:agent <https://w3id.org/yili/id/role/zhuren> }"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_serve_forks_its_workers_replaces_them_and_none_outlives_it(build_dir, tmp_path):
    # the real process: `yili-kg serve` forks its first query workers itself, before it
    # imports Flask (cold start); a worker killed under a runaway query is replaced from the
    # fork server; and when the server is stopped, no worker is left running
    log = tmp_path / "serve.log"
    with open(log, "wb") as sink:
        process = _serve(build_dir, "--workers", "2", "--query-timeout", "2", stderr=sink)
    try:
        answer = _first_answer(process, HOST_ACTS, lambda: log.read_text(encoding="utf-8"))
        assert answer["boolean"] is True
        forked = _children(process.pid)
        assert len(forked) == 2, forked  # the two workers, and no fork server yet

        runaway = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
        with pytest.raises(urllib.error.HTTPError) as stopped:
            _sparql(process, runaway)
        assert stopped.value.code == 503 and b"time limit" in stopped.value.read()
        assert _sparql(process, HOST_ACTS)["boolean"] is True
        # the pool hands its workers out in turn: this one goes to the killed one's successor
        assert _sparql(process, HOST_ACTS)["boolean"] is True
        after = _descendants(process.pid)
        assert len(forked & after) == 1  # one forked worker was killed ...
        assert len(after - _children(process.pid)) == 1  # ... its successor: the fork server's
    finally:
        every = _descendants(process.pid)
        process.terminate()
        process.wait(timeout=20)
    _wait_gone(every, "processes of yili-kg serve outlived it")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_stops_serve_and_its_workers_without_a_traceback(build_dir):
    # Ctrl-C goes to the terminal's whole process group: the server and every worker. A
    # terminal starts it with Ctrl-C heeded; a pytest run in a shell's background (CI under
    # nohup) ignores it, and the server would inherit that: given its default here
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        process = _serve(
            build_dir,
            stderr=subprocess.PIPE,
            start_new_session=True,  # a process group of its own, as a terminal gives
        )
    finally:
        signal.signal(signal.SIGINT, previous)
    try:
        assert _first_answer(process, HOST_ACTS)["boolean"] is True
        workers = _descendants(process.pid)
        assert len(workers) == 2
        for pid in workers:  # a worker leaves Ctrl-C to the server: it answers on
            os.kill(pid, signal.SIGINT)
        time.sleep(0.5)
        for _ in workers:
            assert _sparql(process, HOST_ACTS)["boolean"] is True
        assert _descendants(process.pid) == workers  # none died, none was replaced
        os.killpg(process.pid, signal.SIGINT)
        try:  # a liveness bound, not a timing: generous for a loaded CI machine
            _, stderr = process.communicate(timeout=90)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGUSR1)  # its threads' stacks: where it waits
            time.sleep(3)
            os.killpg(process.pid, signal.SIGKILL)
            _, stderr = process.communicate()
            pytest.fail("yili-kg serve did not stop in 90 s after Ctrl-C:\n" + stderr.decode())
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()  # read and close the pipe: none left open for the next test
    assert b"Traceback" not in stderr, stderr.decode()
    _wait_gone(workers, "a worker outlived Ctrl-C")


def test_sigusr1_prints_the_servers_stacks_and_it_serves_on(build_dir):
    """kill -USR1 shows what every thread of a running server is doing (faulthandler), the
    way to see where a server that will not stop waits; the server answers on."""
    process = _serve(build_dir, stderr=subprocess.PIPE, start_new_session=True)
    try:
        assert _first_answer(process, HOST_ACTS)["boolean"] is True
        os.kill(process.pid, signal.SIGUSR1)
        time.sleep(1)
        assert _sparql(process, HOST_ACTS)["boolean"] is True
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        _, stderr = process.communicate()
    text = stderr.decode()
    assert "Current thread" in text or "Thread 0x" in text, text
    assert "serve_until_stopped" in text, text  # the main thread, in the web server's loop


def test_serve_started_with_ctrl_c_ignored_says_sigterm_stops_it(build_dir):
    """In the background of a shell or under nohup Ctrl-C cannot stop the server: it says
    that SIGTERM does, and SIGTERM does."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        process = _serve(build_dir, stderr=subprocess.PIPE, start_new_session=True)
    finally:
        signal.signal(signal.SIGINT, previous)
    try:
        assert _first_answer(process, HOST_ACTS)["boolean"] is True
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=90)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert b"SIGTERM stops" in stderr and b"Ctrl-C" not in stderr, stderr.decode()


def test_serve_without_a_build_says_what_to_do(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "yili_kg.service.cli", "serve", "--no-build"]
        + ["--build-dir", str(tmp_path / "none"), "--port", str(_free_port())],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "yili-kg build" in result.stderr

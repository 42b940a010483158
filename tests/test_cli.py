"""The command line, through click's runner (the commands the README lists)."""

from __future__ import annotations

import os
import sys
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
    from pathlib import Path

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


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_serve_forks_its_workers_replaces_them_and_none_outlives_it(build_dir, tmp_path):
    # the real process: `yili-kg serve` forks its first query workers itself, before it
    # imports Flask (cold start); a worker killed under a runaway query is replaced from the
    # fork server; and when the server is stopped, no worker is left running
    import json
    import subprocess
    import time
    import urllib.error
    import urllib.parse
    import urllib.request

    port = _free_port()
    log = tmp_path / "serve.log"
    with open(log, "wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "yili_kg.service.cli", "serve", "--build-dir", str(build_dir)]
            + ["--no-build", "--port", str(port), "--workers", "2", "--query-timeout", "2"],
            stdout=subprocess.DEVNULL,
            stderr=sink,
        )

    def ask(query: str):
        url = f"http://127.0.0.1:{port}/sparql?" + urllib.parse.urlencode(
            {"query": "PREFIX yl: <https://w3id.org/yili/ontology#> " + query}
        )
        request = urllib.request.Request(url, headers={"Accept": "application/sparql-results+json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    host_offers = "ASK { ?e yl:agent <https://w3id.org/yili/id/role/zhuren> }"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                assert ask(host_offers)["boolean"] is True
                break
            except OSError:
                assert process.poll() is None, log.read_text(encoding="utf-8")
                assert time.monotonic() < deadline, "yili-kg serve did not answer in 60 s"
                time.sleep(0.05)
        forked = _children(process.pid)
        assert len(forked) == 2, forked  # the two workers, and no fork server yet

        runaway = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
        try:
            ask(runaway)
            raise AssertionError("the runaway query was answered")
        except urllib.error.HTTPError as exc:
            assert exc.code == 503 and b"time limit" in exc.read()
        assert ask(host_offers)["boolean"] is True
        # the pool hands its workers out in turn: this one goes to the killed one's successor
        assert ask(host_offers)["boolean"] is True
        after = _descendants(process.pid)
        assert len(forked & after) == 1  # one forked worker was killed ...
        assert len(after - _children(process.pid)) == 1  # ... its successor: the fork server's
    finally:
        every = _descendants(process.pid)
        process.terminate()
        process.wait(timeout=20)
    deadline = time.monotonic() + 20
    while any(Path(f"/proc/{pid}").exists() for pid in every) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in every if Path(f"/proc/{pid}/stat").exists()]
    assert not left, f"processes of yili-kg serve outlived it: {left}"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_stops_serve_and_its_workers_without_a_traceback(build_dir):
    # Ctrl-C goes to the terminal's whole process group: the server and every worker
    import signal
    import subprocess
    import time
    import urllib.request

    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "yili_kg.service.cli", "serve", "--build-dir", str(build_dir)]
        + ["--no-build", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # a process group of its own, as a terminal gives
    )
    url = f"http://127.0.0.1:{port}/sparql?query=ASK%7B%3Fs%20%3Fp%20%3Fo%7D"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url, timeout=10) as response:
                    assert response.status == 200
                    break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline
                time.sleep(0.05)
        workers = _descendants(process.pid)
        assert len(workers) == 2
        for pid in workers:  # a worker leaves Ctrl-C to the server: it answers on
            os.kill(pid, signal.SIGINT)
        time.sleep(0.5)
        for _ in workers:
            with urllib.request.urlopen(url, timeout=10) as response:
                assert response.status == 200
        assert _descendants(process.pid) == workers  # none died, none was replaced
        os.killpg(process.pid, signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert b"Traceback" not in stderr, stderr.decode()
    deadline = time.monotonic() + 20
    while any(Path(f"/proc/{pid}/stat").exists() for pid in workers):
        assert time.monotonic() < deadline, "a worker outlived Ctrl-C"
        time.sleep(0.1)


def test_serve_without_a_build_says_what_to_do(tmp_path):
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "yili_kg.service.cli", "serve", "--no-build"]
        + ["--build-dir", str(tmp_path / "none"), "--port", str(_free_port())],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "yili-kg build" in result.stderr

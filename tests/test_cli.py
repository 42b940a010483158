"""The command line, through click's runner (the commands the README lists)."""

from __future__ import annotations

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


def test_serve_answers_from_workers_it_started_before_flask(build_dir, tmp_path):
    # the real process: `yili-kg serve` starts its query workers from a thread before it
    # imports Flask, and hands them to the application (service/config.py)
    import json
    import subprocess
    import sys
    import time
    import urllib.parse
    import urllib.request

    port = _free_port()
    log = tmp_path / "serve.log"
    with open(log, "wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "yili_kg.service.cli", "serve", "--build-dir", str(build_dir)]
            + ["--no-build", "--port", str(port), "--workers", "2"],
            stdout=subprocess.DEVNULL,
            stderr=sink,
        )
    query = "ASK { ?e yl:agent <https://w3id.org/yili/id/role/zhuren> }"
    url = f"http://127.0.0.1:{port}/sparql?" + urllib.parse.urlencode(
        {"query": "PREFIX yl: <https://w3id.org/yili/ontology#> " + query}
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                request = urllib.request.Request(
                    url, headers={"Accept": "application/sparql-results+json"}
                )
                with urllib.request.urlopen(request, timeout=10) as response:
                    assert json.loads(response.read())["boolean"] is True
                    break
            except OSError:
                assert process.poll() is None, log.read_text(encoding="utf-8")
                assert time.monotonic() < deadline, "yili-kg serve did not answer in 60 s"
                time.sleep(0.05)
    finally:
        process.terminate()
        process.wait(timeout=20)


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

"""One configuration: the settings table (service/config.py) feeds the environment, the
options of ``yili-kg serve`` and the README; an option wins only when it is given."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from yili_kg.loaders.errors import YiliError
from yili_kg.service.config import DEFAULTS, SETTINGS, resolve_config

README = Path(__file__).resolve().parents[1] / "README.md"
RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"


def test_every_setting_is_documented_in_the_readme():
    # one row of the README's table per setting: its variable, its option, its default
    rows = [line for line in README.read_text(encoding="utf-8").splitlines() if "`YILI_" in line]
    for setting in SETTINGS:
        row = [line for line in rows if f"`{setting.env}`" in line]
        assert len(row) == 1, f"{setting.env} is not in the README's settings table"
        if setting.option:
            assert f"`{setting.option}`" in row[0], (setting.option, row[0])
        if setting.default not in (None, {}):
            assert f"| {setting.default} |" in row[0], (setting.default, row[0])


def test_the_environment_is_typed_and_a_bad_value_names_its_variable():
    config = resolve_config(environ={"YILI_QUERY_TIMEOUT": "3", "YILI_WORKERS": "4"})
    assert config["QUERY_TIMEOUT"] == 3.0 and isinstance(config["QUERY_TIMEOUT"], float)
    assert config["WORKERS"] == 4 and config["MAX_ROWS"] == DEFAULTS["MAX_ROWS"]
    with pytest.raises(YiliError, match="YILI_WORKERS='many'"):
        resolve_config(environ={"YILI_WORKERS": "many"})
    with pytest.raises(YiliError, match="YILI_STORE='sqlite': one of oxigraph, rdflib"):
        resolve_config(environ={"YILI_STORE": "sqlite"})


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _runaway_answer(port: int, process: subprocess.Popen) -> tuple[int, str]:
    """(status, body) of a runaway query, once the server answers (60 s for it to start)."""
    url = f"http://127.0.0.1:{port}/sparql?" + urllib.parse.urlencode({"query": RUNAWAY})
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url, timeout=120) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()
        except OSError:
            assert process.poll() is None, "yili-kg serve ended"
            assert time.monotonic() < deadline, "yili-kg serve did not answer in 60 s"
            time.sleep(0.1)


@pytest.mark.parametrize(
    "environment,options,limit",
    [
        ({"YILI_QUERY_TIMEOUT": "3"}, [], "3 s"),  # the environment, no option: 3 s, not 10
        ({"YILI_QUERY_TIMEOUT": "3"}, ["--query-timeout", "5"], "5 s"),  # the option given wins
    ],
    ids=["environment", "option-wins"],
)
def test_serve_runs_with_the_environment_unless_an_option_is_given(
    build_dir, environment, options, limit
):
    # the real command: a runaway query is stopped at the limit the server was given, and
    # the 503 says which (the limit is not timed here: a loaded machine only makes it later)
    port = _free_port()
    env = {**os.environ, **environment}
    command = [sys.executable, "-m", "yili_kg.service.cli", "serve", "--no-build"]
    command += ["--build-dir", str(build_dir), "--port", str(port), "--workers", "1", *options]
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        status, body = _runaway_answer(port, process)
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert status == 503, body
    assert f"the query ran past the time limit ({limit})" in body, body

"""The service's configuration, resolved without Flask, and the query pool it describes.

The settings are one table (:data:`SETTINGS`): their defaults, types and help feed the
configuration, the environment (``YILI_<KEY>``), ``yili-kg serve``'s options (given ones win)
and the README's table.

Kept apart from :mod:`yili_kg.service.app` so that ``yili-kg serve`` can start the query
workers before it imports Flask: the workers' start (a fork and opening the store) then runs
beside the web framework's import instead of after it (cold start). The keys are documented
in :data:`SETTINGS`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from yili_kg.loaders.errors import YiliError
from yili_kg.service.workers import QueryPool

if TYPE_CHECKING:  # imported when a pool starts: not before the fork (cold start)
    from yili_kg.service.workers import QueryPool

PREFIX = "YILI_"


@dataclass(frozen=True)
class Setting:
    """One setting of the service: the config key, its default, type and help, and the
    ``yili-kg serve`` option that sets it (if any). Its environment variable is ``YILI_<KEY>``.

    >>> QUERY_TIMEOUT = next(s for s in SETTINGS if s.key == "QUERY_TIMEOUT")
    >>> QUERY_TIMEOUT.env, QUERY_TIMEOUT.option, QUERY_TIMEOUT.default
    ('YILI_QUERY_TIMEOUT', '--query-timeout', 10.0)
    """

    key: str
    default: Any
    type: Callable[[Any], Any] | None  # applied to a value from the environment; None: as read
    help: str
    option: str | None = None
    choices: tuple[str, ...] = ()

    @property
    def env(self) -> str:
        return PREFIX + self.key


def _optional_float(value: Any) -> float | None:
    return None if value is None else float(value)


#: The service's settings: one table for the config keys (:mod:`yili_kg.service.app`), the
#: environment, ``yili-kg serve``'s options and the README's table (a test checks the README).
SETTINGS: tuple[Setting, ...] = (
    Setting("BUILD_DIR", "build", str, "the built dataset (--build-dir)"),
    Setting(
        "STORE",
        "oxigraph",
        str,
        "store behind the endpoint: oxigraph, or rdflib (plain rdflib, slow: a cross-check)",
        "--store",
        ("oxigraph", "rdflib"),
    ),
    Setting(
        "QUERY_TIMEOUT",
        10.0,
        float,
        "seconds a /sparql query may run; then its worker is killed and replaced, 503",
        "--query-timeout",
    ),
    Setting(
        "MAX_ROWS",
        10000,
        int,
        "rows (or triples) an answer may hold; more are cut off, header X-Yili-Truncated",
        "--max-rows",
    ),
    Setting("MAX_QUERY_CHARS", 20000, int, "longest accepted query text, characters; else 400"),
    Setting("MAX_CONTENT_LENGTH", 65536, int, "largest accepted request body, bytes; else 413"),
    Setting(
        "WORKERS",
        2,
        int,
        "query worker processes for /sparql: the queries that run at once",
        "--workers",
    ),
    Setting(
        "QUEUE_TIMEOUT",
        2.0,
        _optional_float,
        "seconds a request waits for a free worker, then 503 with Retry-After",
    ),
    Setting(
        "WORKER_MEMORY",
        2048,
        int,
        "MiB of data a query worker may hold; past it the worker ends, is replaced; 503",
    ),
    Setting(
        "MEMORY_STORE",
        1,
        int,
        "1: each query worker loads the dataset into memory after its first query and answers "
        "from there once loaded (if under half WORKER_MEMORY); 0: the persisted store only",
    ),
    Setting(
        "THREADS", 8, int, "web server threads; waitress queues further connections", "--threads"
    ),
    Setting("EXTRA_GRAPHS", {}, None, "{graph IRI: file} loaded beside the dataset (W3C tests)"),
    Setting("CANNED_CACHE", 512, int, "canned answers remembered per dataset version (an LRU)"),
    Setting("RESULT_CACHE", 64, int, "MiB of /sparql answers remembered per version; 0: none"),
    Setting(
        "SPARQL_THREADS",
        None,
        _optional_float,
        "web threads /sparql may hold at once (default THREADS - 2): pages never queue behind it",
    ),
    Setting("CANNED_CACHE_MB", 128, int, "MiB of remembered canned answers, beside their count"),
    Setting("MAX_ANSWER_MB", 64, int, "MiB one /sparql answer may take, serialised; else 503"),
    Setting("CONNECTION_LIMIT", 1000, int, "open connections before waitress stops accepting"),
    Setting("CHANNEL_TIMEOUT", 15, int, "seconds a connection may stay idle before it is closed"),
    Setting("RECEIVE_TIMEOUT", 10.0, float, "seconds a request may take to arrive whole"),
    Setting("CLEANUP_INTERVAL", 1, int, "seconds between checks of idle and slow connections"),
    Setting(
        "SHUTDOWN_GRACE",
        None,
        _optional_float,
        "seconds SIGTERM lets requests in flight finish (default: the query time limit + 2 s)",
    ),
)

DEFAULTS = {s.key: s.default for s in SETTINGS}
_BY_KEY = {s.key: s for s in SETTINGS}


def resolve_config(overrides: dict | None = None, environ: Mapping[str, str] | None = None) -> dict:
    """DEFAULTS, then ``YILI_<KEY>`` from the environment, then ``overrides`` (the command
    line's options that were given, a test's configuration).

    An environment value is JSON-parsed when it parses (``YILI_QUERY_TIMEOUT=5`` is the number
    5) and kept as a string otherwise, then made the setting's type (a value that is not one
    is refused, naming the variable); ``__`` in a name sets a key of a dict
    (``YILI_EXTRA_GRAPHS__<key>``), as Flask's ``Config.from_prefixed_env`` reads them.

    >>> resolve_config({"MAX_ROWS": 5}, {"YILI_QUERY_TIMEOUT": "3"})["QUERY_TIMEOUT"]
    3.0
    """
    config = {k: (dict(v) if isinstance(v, dict) else v) for k, v in DEFAULTS.items()}
    environ = os.environ if environ is None else environ
    for name in sorted(environ):
        if not name.startswith(PREFIX):
            continue
        raw = environ[name]
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
        *path, last = name[len(PREFIX) :].split("__")
        if not path and last in _BY_KEY:
            value = _typed(_BY_KEY[last], name, value)
        target = config
        for part in path:
            target = target.setdefault(part, {})
        target[last] = value
    config.update(overrides or {})
    return config


def _typed(setting: Setting, name: str, value: Any) -> Any:
    try:
        value = setting.type(value) if setting.type else value
    except (TypeError, ValueError) as exc:
        raise YiliError(f"{name}={value!r}: {setting.help} ({exc})") from exc
    if setting.choices and value not in setting.choices:
        raise YiliError(f"{name}={value!r}: one of {', '.join(setting.choices)}")
    return value


def start_pool(config: dict, background: bool = False, fork: bool = False) -> QueryPool:
    """The query worker pool the configuration describes (its workers start now; from a
    thread with ``background``; forked from this process with ``fork``, see
    :class:`~yili_kg.service.workers.QueryPool`)."""

    timeout = float(config["QUERY_TIMEOUT"])
    queue_timeout = config["QUEUE_TIMEOUT"]
    callers = config.get("SPARQL_THREADS") or max(1, int(config.get("THREADS", 8)) - 2)
    return QueryPool(
        Path(config["BUILD_DIR"]),
        config["STORE"],
        size=int(config["WORKERS"]),
        timeout=timeout,
        queue_timeout=float(queue_timeout) if queue_timeout is not None else timeout + 1.0,
        extra_graphs=config["EXTRA_GRAPHS"],
        memory_mb=int(config["WORKER_MEMORY"]),
        max_answer_bytes=int(config["MAX_ANSWER_MB"]) << 20,
        background=background,
        fork=fork,
        max_callers=int(callers),
        in_memory=bool(int(config["MEMORY_STORE"])),
    )

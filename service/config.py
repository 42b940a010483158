"""The service's configuration, resolved without Flask, and the query pool it describes.

Kept apart from :mod:`yili_kg.service.app` so that ``yili-kg serve`` can start the query
workers before it imports Flask: the workers' start (a fork and opening the store) then runs
beside the web framework's import instead of after it (cold start). The keys are documented
in :mod:`yili_kg.service.app`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

DEFAULTS = {
    "BUILD_DIR": "build",
    "STORE": "oxigraph",
    "QUERY_TIMEOUT": 10.0,
    "MAX_ROWS": 10000,
    "MAX_QUERY_CHARS": 20000,
    "MAX_CONTENT_LENGTH": 65536,
    "WORKERS": 2,
    "QUEUE_TIMEOUT": None,  # None: QUERY_TIMEOUT + 1
    "WORKER_MEMORY": 2048,
    "EXTRA_GRAPHS": {},
    "CANNED_CACHE": 512,
}

PREFIX = "YILI_"


def resolve_config(overrides: dict | None = None, environ=None) -> dict:
    """DEFAULTS, then ``YILI_<KEY>`` from the environment, then ``overrides``.

    An environment value is JSON-parsed when it parses (``YILI_QUERY_TIMEOUT=5`` is the number
    5) and kept as a string otherwise; ``__`` in a name sets a key of a dict
    (``YILI_EXTRA_GRAPHS__<key>``), as Flask's ``Config.from_prefixed_env`` reads them.
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
        target = config
        for part in path:
            target = target.setdefault(part, {})
        target[last] = value
    config.update(overrides or {})
    return config


def start_pool(config: dict, background: bool = False, fork: bool = False):
    """The query worker pool the configuration describes (its workers start now; from a
    thread with ``background``; forked from this process with ``fork``, see
    :class:`~yili_kg.service.workers.QueryPool`)."""
    from yili_kg.service.workers import QueryPool

    timeout = float(config["QUERY_TIMEOUT"])
    queue_timeout = config["QUEUE_TIMEOUT"]
    return QueryPool(
        Path(config["BUILD_DIR"]),
        config["STORE"],
        size=int(config["WORKERS"]),
        timeout=timeout,
        queue_timeout=float(queue_timeout) if queue_timeout is not None else timeout + 1.0,
        extra_graphs=config["EXTRA_GRAPHS"],
        memory_mb=int(config["WORKER_MEMORY"]),
        background=background,
        fork=fork,
    )

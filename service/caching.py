"""HTTP caching and transport for every answer: ETag, Last-Modified, Cache-Control, 304, gzip.

Every GET answer is a function of the dataset's version, the URL, the negotiated format and
the encoding, so its entity tag is made of them: the dataset's sha256 (which changes with
every build that changes a triple) and a hash of the rest. ``If-None-Match`` and
``If-Modified-Since`` are answered 304 by Werkzeug's ``make_conditional`` (RFC 9110, 13).
Answers larger than :data:`GZIP_MIN` bytes are gzipped for a client that accepts it;
downloads are files sent as they are (their own ETag and ranges, from ``send_file``).
"""

from __future__ import annotations

import gzip
import hashlib
from datetime import datetime

from flask import Flask, Response, request

GZIP_MIN = 4096  # bytes: below this the header costs more than it saves
MAX_AGE = 300  # seconds a client may reuse an answer without asking (the data changes by build)
#: answers not cached: the description names the downloads written so far
UNCACHED = ("/void",)


def install(app: Flask, built: str, version: str) -> None:
    """Add the headers to every answer of ``app``; ``built``: the build's ISO time."""
    last_modified = datetime.fromisoformat(built.replace("Z", "+00:00")) if built else None

    @app.after_request
    def transport(response: Response) -> Response:
        if request.method not in ("GET", "HEAD") or response.status_code != 200:
            return response
        if response.direct_passthrough:  # a file (a download): send_file did its headers
            response.headers.setdefault("Cache-Control", f"public, max-age={MAX_AGE}")
            return response
        _gzip(response)
        if request.path.startswith(UNCACHED):
            response.headers["Cache-Control"] = "no-cache"
            return response
        key = "\n".join(
            (
                request.full_path,
                request.host,
                response.headers.get("Content-Type", ""),
                response.headers.get("Content-Encoding", ""),
            )
        )
        digest = hashlib.sha256(key.encode()).hexdigest()[:16]
        response.set_etag(f"{version[:16]}-{digest}")
        if last_modified is not None:
            response.last_modified = last_modified
        response.headers["Cache-Control"] = f"public, max-age={MAX_AGE}"
        response.make_conditional(request)  # in place (it returns the same response)
        return response


def _gzip(response: Response) -> None:
    if "gzip" not in request.headers.get("Accept-Encoding", "").lower():
        return
    if response.headers.get("Content-Encoding") or response.is_streamed:
        return
    body = response.get_data()
    if len(body) < GZIP_MIN:
        return
    response.set_data(gzip.compress(body, compresslevel=6, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")

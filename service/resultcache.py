"""Answers of ``/sparql`` remembered per request, for one dataset version (結果快取).

The served dataset never changes while the application lives (a new build is a new
application), so an answer stays right for as long as it is kept: a request asked again —
the same query text, result format, protocol graphs, base IRI and row cap — is answered
from memory without a worker, as QLever's and Virtuoso's result caches answer repeated
queries. Only answers that came back whole are kept (errors, refusals and time-outs never),
each at most ``max_body`` bytes, all together at most ``max_bytes`` (least recently used go
first).

>>> cache = ResultCache(max_bytes=10, max_body=6)
>>> cache.put("a", ("select", b"12345", False)); cache.get("a")
('select', b'12345', False)
>>> cache.put("b", ("select", b"123456", False)); cache.get("a") is None  # over 10 bytes
True
>>> cache.put("c", ("select", b"1234567", False)); cache.get("c") is None  # over max_body
True
"""

from __future__ import annotations

import threading
from collections import OrderedDict


class ResultCache:
    def __init__(self, max_bytes: int = 64 << 20, max_body: int = 4 << 20):
        self.max_bytes = max_bytes
        self.max_body = max_body
        self._entries: OrderedDict = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key) -> tuple[str, bytes, bool] | None:
        """The remembered (kind, body, truncated) of a request, or None."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return found

    def put(self, key, value: tuple[str, bytes, bool]) -> None:
        size = len(value[1])
        if size > self.max_body or size > self.max_bytes:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= len(old[1])
            self._entries[key] = value
            self._bytes += size
            while self._bytes > self.max_bytes:
                _, dropped = self._entries.popitem(last=False)
                self._bytes -= len(dropped[1])

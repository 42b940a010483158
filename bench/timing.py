"""Timing helpers: medians and tails over repeated runs after a warm-up, and peak memory."""

from __future__ import annotations

import resource
import statistics
import time
from collections.abc import Callable


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0–100) by nearest rank."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


def summary(seconds: list[float]) -> dict:
    """Median, p95, p99 and count of a list of durations, in milliseconds."""
    ms = [s * 1000 for s in seconds]
    return {
        "p50_ms": round(statistics.median(ms), 3),
        "p95_ms": round(percentile(ms, 95), 3),
        "p99_ms": round(percentile(ms, 99), 3),
        "n": len(ms),
    }


def measure(
    run: Callable[[], object], repeat: int = 20, warmup: int = 2, budget: float = 10.0
) -> dict:
    """Run ``run`` ``warmup`` times untimed, then up to ``repeat`` times or ``budget`` seconds."""
    for _ in range(warmup):
        run()
    times: list[float] = []
    deadline = time.perf_counter() + budget
    while len(times) < repeat and (not times or time.perf_counter() < deadline):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return summary(times)


class OverLimit(Exception):
    """A single run took longer than its cap (see :func:`capped`)."""


def capped(run: Callable[[], object], seconds: float) -> Callable[[], object]:
    """``run``, interrupted by SIGALRM after ``seconds`` (raises :class:`OverLimit`).

    For the pure-Python peer (rdflib's SPARQL engine), whose slowest canned queries run for
    minutes: the interpreter checks for signals between bytecodes, so the run stops there.
    Main thread only, Unix only.
    """
    import signal

    def on_alarm(signum, frame):
        raise OverLimit(f"over {seconds:g} s")

    def wrapped():
        previous = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return run()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    return wrapped


def timed(run: Callable[[], object]) -> tuple[float, object]:
    """(seconds, result) of one call."""
    started = time.perf_counter()
    result = run()
    return time.perf_counter() - started, result


def peak_rss_mb() -> float:
    """This process's peak resident memory so far, MB.

    On Linux from /proc (VmHWM: the peak of this address space): ``ru_maxrss`` survives
    fork and exec, so a child started by a 800 MB benchmark reported 800 MB whatever it used.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)  # kB
    except OSError:
        pass
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)  # KiB on Linux


def ratio(slow: float, fast: float) -> float | None:
    return round(slow / fast, 1) if fast else None

"""Run the benchmark: ``python -m bench [--quick] [--only SECTION ...] [--out FILE]``.

Prints a table of the headline figures and writes every figure as JSON
(``build/bench/results.json`` by default). See bench/README.md for what each section measures.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench import sections

SECTIONS = ["build", "reasoning", "cold_start", "latency", "http", "growth", "load"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--only", nargs="+", choices=SECTIONS, default=SECTIONS)
    parser.add_argument(
        "--quick", action="store_true", help="skip the plain owlrl closure (minutes) and growth ×16"
    )
    parser.add_argument("--out", default="build/bench/results.json")
    parser.add_argument(
        "--rites",
        default="xiangshe",
        help="the rites of the build every section but the all-rites ones runs on "
        "($YILI_RITES form: xiangshe, a comma-separated list, or all)",
    )
    args = parser.parse_args(argv)

    started = time.perf_counter()
    results: dict = {"environment": sections.environment(), "quick": args.quick}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)

    def save() -> None:  # after every section: an interrupted run keeps what it measured
        out.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")

    with tempfile.TemporaryDirectory() as folder:
        # two builds: the seventeen chapters, and 鄉射禮 alone (YILI_RITES=xiangshe), on which
        # every section runs; the whole book's figures (latency, cold start, the peer server,
        # load) beside them
        build_all = Path(folder) / "build-all"
        # (--rites all: the one build of every rite serves both)
        build_dir = build_all if args.rites == "all" else Path(folder) / "build-rites"
        results["rites"] = args.rites
        if "build" in args.only:
            _section(results, "build", lambda: sections.build(build_all, "all"))
            save()
            if build_dir != build_all:
                _section(results, "build_xiangshe", lambda: sections.build(build_dir, args.rites))
                save()
        else:
            _quiet_build(build_all, "all")
            if build_dir != build_all:
                _quiet_build(build_dir, args.rites)
        dataset = build_dir / "yili_kg.nq"
        factors = (1, 4) if args.quick else (1, 4, 16)
        # The reasoners (one process each, one core) run while the latency sections and the
        # store half of growth measure in this process (single-threaded, the other core):
        # every reasoner runs beside the same kind of load, each section's ratios are taken
        # within it, and the run saves the minutes of the plain owlrl closure and of our
        # reasoner on ×16 (the 10-minute target). --only reasoning runs it alone.
        beside = "reasoning" in args.only and "latency" in args.only
        lane: dict = {}  # the background lane: name → what it runs, in this order
        if beside:
            lane["reasoning"] = lambda: sections.reasoning(dataset, plain=not args.quick)
            if "growth" in args.only:
                lane["growth_reasoning"] = lambda: sections.growth_reasoning(build_dir, factors)
        plan = {
            "reasoning": lambda: sections.reasoning(dataset, plain=not args.quick),
            "cold_start": lambda: sections.cold_start(build_dir, all_rites=build_all),
            "latency": lambda: sections.latency(build_dir),
            "latency_all_rites": lambda: sections.latency(build_all, rdflib=False, repeat=3),
            "growth": (
                (lambda: sections.growth_store(build_dir, factors))
                if "growth_reasoning" in lane
                else (lambda: sections.growth(build_dir, factors=factors))
            ),
            "http": lambda: sections.http(
                build_dir,
                duration=10.0,
                peer_clients=(1, 8) if args.quick else (1, 2, 4, 8),
                peer_runs=1 if args.quick else 3,
            ),
            "http_all_rites": lambda: sections.http_peer(
                build_all, clients=(1, 8), runs=1 if args.quick else 3
            ),
            "load": lambda: sections.hostile_load(build_all, seconds=15.0 if args.quick else 20.0),
        }
        pending: dict = {}  # the background lane's figures, merged once it has ended

        def background() -> None:
            for name, run in lane.items():
                _section(pending, name, run)

        lane_thread = threading.Thread(target=background, name="beside")
        try:
            for name, run in plan.items():
                if name.split("_all")[0] not in args.only or name in lane:
                    continue
                if name.endswith("_all_rites") and build_dir == build_all:
                    continue  # --rites all: the section itself ran on the whole book
                if name == "latency" and lane:
                    lane_thread.start()
                if name == "http" and lane and not pending.get("merged"):
                    _merge(results, pending, lane_thread, factors)  # http wants both cores
                _section(results, name, run)
                save()
        finally:
            if lane_thread.is_alive() or (lane and not pending.get("merged")):
                _merge(results, pending, lane_thread, factors)
            save()
            sections.stop_peers()
    results["total_seconds"] = round(time.perf_counter() - started, 1)
    save()
    print(render(results))
    print(f"\nall figures: {out} ({results['total_seconds']} s)")
    return 0


def _merge(results: dict, pending: dict, lane: threading.Thread, factors) -> None:
    """The background lane's figures into ``results``, once it has ended."""
    if lane.ident is not None:
        lane.join()
    pending["merged"] = True
    beside = "latency, latency_all_rites, growth (store half)"
    if "reasoning" in pending:
        results["reasoning"] = pending["reasoning"]
        results["reasoning"]["ran_beside"] = beside
    if "growth_reasoning" in pending and "growth" in results:
        runs = pending["growth_reasoning"]
        for factor, entry in results["growth"].items():
            if isinstance(entry, dict) and factor in runs:
                entry["reasoning"] = {**runs[factor], "ran_beside": beside}
        if "error" not in results["growth"]:
            sections.growth_ratios(results["growth"], factors)


def _quiet_build(build_dir: Path, rites: str) -> None:
    """A build for the sections that need one (not timed): ``$YILI_RITES`` set while it runs;
    then ``yili-kg answers`` (the first asks the latency section times read them)."""
    import os

    from yili_kg.loaders.build import run_build
    from yili_kg.service.precomputed import precompute

    before = os.environ.get("YILI_RITES")
    os.environ["YILI_RITES"] = rites
    try:
        run_build(build_dir)
        precompute(build_dir)
    finally:
        if before is None:
            del os.environ["YILI_RITES"]
        else:
            os.environ["YILI_RITES"] = before


def _section(results: dict, name: str, run) -> None:
    print(f"== {name} …", file=sys.stderr, flush=True)
    begun = time.perf_counter()
    try:
        results[name] = run()
    except Exception as exc:  # report the failure, go on with the other sections
        results[name] = {"error": f"{type(exc).__name__}: {exc}"}
    print(f"   {name}: {time.perf_counter() - begun:.1f} s", file=sys.stderr, flush=True)


def render(r: dict) -> str:
    """The headline figures, one line each, with the target beside them."""
    lines = ["figure                                         value        target"]

    def add(label: str, value, target: str = "") -> None:
        lines.append(f"{label:<46} {str(value):<12} {target}")

    for key, label, target in (
        ("build", "the seventeen chapters", "≤ 120"),
        ("build_xiangshe", "鄉射禮 alone", ""),
    ):
        if key in r and "seconds" in r[key]:
            add(f"build from clean, {label} (s)", r[key]["seconds"], target)
            add("  peak memory (MB)", r[key]["peak_rss_mb"])
    if "reasoning" in r:
        rs = r["reasoning"]
        add("reasoning, ours (s)", rs.get("ours", {}).get("seconds"))
        for peer in ("owlrl", "reasonable"):
            p = rs.get(peer, {})
            if "seconds" in p:
                add(f"reasoning, {peer} (s)", p["seconds"])
                add(
                    f"  speed-up vs {peer} (×)",
                    rs.get(f"speedup_vs_{peer}"),
                    "≥ 10×" if peer == "owlrl" else "",
                )
                add(
                    f"  same contract inferences as {peer}",
                    p["same_contract_as_ours"],
                    f"(missing {p['missing_vs_ours']}, extra {p['extra_vs_ours']})",
                )
            elif p:
                add(f"reasoning, {peer}", p.get("error"))
    if "cold_start" in r:
        for name, c in r["cold_start"].items():
            if not isinstance(c, dict):  # a note, not a server
                continue
            add(
                f"cold start, {name} (s)",
                c.get("seconds", c.get("error")),
                "≤ 0.5" if name == "yili-kg serve" else "",
            )
    for key, label in (("latency", "鄉射禮"), ("latency_all_rites", "all rites")):
        if key not in r or "queries" not in r[key]:
            continue
        lt = r[key]
        n = lt["count"]
        add(
            f"canned, {label}: store worst/median p50 (ms)",
            lt["worst_p50_ms_ours"],
            f"median {lt['median_p50_ms_ours']} ms; {lt['queries_under_2ms_ours']}/{n} ≤ 2 ms",
        )
        add("  worst ratio ours / bare pyoxigraph", lt["worst_ours_vs_bare"], "≤ 2×")
        if "worst_p50_ms_in_memory" in lt:
            over = lt["over_20ms_in_memory"]
            add(
                "  in memory (the workers' store): worst p50",
                lt["worst_p50_ms_in_memory"],
                f"median {lt['median_p50_ms_in_memory']} ms; over 20 ms: "
                + (", ".join(over) if over else "none"),
            )
        add(
            "  canned answers, remembered: worst p50 (ms)",
            lt["worst_p50_ms_canned"],
            f"≤ 2 ({lt['queries_under_2ms_canned']}/{n})",
        )
        if "worst_p50_ms_first_ask_flask" in lt:
            add(
                "  canned pages via Flask, first ask: worst p50",
                lt["worst_p50_ms_first_ask_flask"],
                f"{lt['queries_under_2ms_first_ask_flask']}/{n} ≤ 2 ms (precomputed)",
            )
        add(
            "  canned pages via Flask, cached: worst p50",
            lt["worst_p50_ms_cached"],
            f"{lt['queries_under_2ms_cached']}/{n} ≤ 2 ms",
        )
        if lt.get("left_out"):
            add("  left out (defaults name another rite)", len(lt["left_out"]))
    for key, label in (("http", ""), ("http_all_rites", ", all rites")):
        ox = r.get(key, {}).get("oxigraph", {})
        if "ratios" in ox:
            for mix, by_clients in ox["ratios"].items():
                for n, values in by_clients.items():
                    add(
                        f"HTTP /sparql {mix}{label}, {n} clients: ours/oxigraph",
                        " ".join(str(v) for v in values),
                        "≥ 5× (a cache answers)" if mix == "repeated" else "≥ 1.0× each run",
                    )
            worse = [
                f"{w['clients']}c run {w['run']}"
                for w in ox.get("windows", [])
                if w["mix"] == "distinct"
                and not (
                    w["yili-kg serve"].get("p99_ms", float("inf"))
                    <= w["oxigraph server"].get("p99_ms", 0.0)
                )
            ]
            add(f"  distinct p99 ours ≤ oxigraph{label}", not worse, ", ".join(worse))
        elif "error" in ox:
            add(f"HTTP vs oxigraph server{label}", ox["error"])
    if "http" in r:
        h = r["http"]
        for name in (
            "yili-kg serve",
            "rdflib-endpoint --store default",
            "rdflib-endpoint --store Oxigraph",
        ):
            x = h.get(name, {})
            if "throughput_rps" in x:
                add(
                    f"HTTP {name} (req/s, p50/p99 ms)",
                    x["throughput_rps"],
                    f"{x.get('p50_ms')}/{x.get('p99_ms')} ms, {x['errors']} errors",
                )
        for store in ("default", "Oxigraph"):
            if f"throughput_ratio_vs_{store}" in h:
                add(
                    f"  throughput ours / rdflib-endpoint {store}",
                    h[f"throughput_ratio_vs_{store}"],
                    "≥ 10×",
                )
    if "growth" in r:
        for factor, g in r["growth"].items():
            if "quads" not in g:
                continue
            reason = g.get("reasoning", {})
            add(
                f"growth {factor}: quads, load s, canned p50 ms",
                g["quads"],
                f"{g['load_seconds']} s, {g['canned_p50_ms_median']} ms (remembered worst "
                f"{g.get('canned_remembered_p50_ms_worst')} ms), reasoning "
                f"{reason.get('seconds', reason.get('error'))} s / "
                f"{reason.get('peak_rss_mb')} MB",
            )
    if "load" in r and "error" not in r["load"]:
        from bench.load import render as render_load

        lines.append("")
        lines.append("load test (1% hostile requests):")
        lines.append(render_load(r["load"]))
    for name in SECTIONS:
        if isinstance(r.get(name), dict) and "error" in r[name] and len(r[name]) == 1:
            add(f"{name}: FAILED", r[name]["error"])
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())

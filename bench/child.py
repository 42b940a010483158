"""Work the benchmark runs in a process of its own, so that time and peak memory are its own.

    python -m bench.child reason [--no-contract] {ours|owlrl|reasonable} DATASET.nq OUT.json
    python -m bench.child build BUILD_DIR OUT.json

Each writes its measurements (and, for reasoning, the contract inferences) as JSON.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import time
from pathlib import Path

from bench.contract import contract_triples, events_of, noise_count
from bench.timing import peak_rss_mb

GRAPHS = "https://w3id.org/yili/graph/"


def _input_graphs(dataset: Path):
    """The asserted graph and the ontology: what every reasoner is given.

    Read with pyoxigraph's parser and turned into rdflib terms: rdflib's own N-Quads parser
    took 6 of the 7 minutes of the ×16 growth run (bench time, not the reasoners' figures).
    """
    import pyoxigraph as ox
    from rdflib import BNode, Graph, Literal, URIRef

    string = "http://www.w3.org/2001/XMLSchema#string"
    iris: dict[str, URIRef] = {}
    literals: dict[tuple, Literal] = {}  # the copies of the growth section share their texts

    def term(node):
        if isinstance(node, ox.NamedNode):
            value = node.value
            found = iris.get(value)
            if found is None:
                found = iris[value] = URIRef(value)
            return found
        if isinstance(node, ox.BlankNode):
            return BNode(node.value)
        key = (node.value, node.language, node.datatype.value)
        found = literals.get(key)
        if found is None:
            if node.language:
                found = Literal(node.value, lang=node.language)
            else:
                datatype = None if key[2] == string else term(node.datatype)
                found = Literal(node.value, datatype=datatype)
            literals[key] = found
        return found

    wanted = {GRAPHS + "asserted": Graph(), GRAPHS + "ontology": Graph()}
    for quad in ox.parse(path=str(dataset), format=ox.RdfFormat.N_QUADS):
        graph = wanted.get(getattr(quad.graph_name, "value", None))
        if graph is not None:
            graph.add((term(quad.subject), term(quad.predicate), term(quad.object)))
    return wanted[GRAPHS + "asserted"], wanted[GRAPHS + "ontology"]


def reason(which: str, dataset: Path, contract: bool = True) -> dict:
    """One reasoner on the dataset's asserted and ontology graphs, in this process.

    ``contract=False`` (growth): skip picking the contract triples out of the closure, which
    at ×16 took longer than the reasoning it follows.
    """
    gc.disable()  # reading the input (bench time, not the reasoner's): millions of objects
    try:
        asserted, ontology = _input_graphs(dataset)
    finally:
        gc.enable()  # each reasoner runs as a user would run it
    events = events_of(asserted) if contract else set()
    loaded_rss = peak_rss_mb()
    if which == "ours":
        from yili_kg.loaders.reason import materialize, tbox_entailments

        started = time.perf_counter()
        tbox = tbox_entailments(ontology)
        inferred = materialize(asserted, ontology, tbox)
        seconds = time.perf_counter() - started
        closure = [*asserted, *ontology, *tbox, *inferred] if contract else []
        added = len(inferred) + len(tbox)
        noise = noise_count(inferred) if contract else {}
    elif which == "owlrl":
        import owlrl
        from rdflib import Graph

        graph = Graph()
        for t in asserted:
            graph.add(t)
        for t in ontology:
            graph.add(t)
        before = len(graph)
        started = time.perf_counter()
        owlrl.DeductiveClosure(owlrl.OWLRL_Semantics).expand(graph)
        seconds = time.perf_counter() - started
        closure = list(graph)
        added = len(graph) - before
        noise = noise_count(closure)
    elif which == "reasonable":
        import reasonable

        reasoner = reasonable.PyReasoner()
        started = time.perf_counter()
        reasoner.from_graph(asserted)
        reasoner.from_graph(ontology)
        closure = reasoner.reason()
        seconds = time.perf_counter() - started
        added = len(closure) - len(asserted) - len(ontology)
        noise = {"literal_subjects": None, "same_as_self": None}
    else:
        raise SystemExit(f"unknown reasoner {which!r}")
    picked = sorted(" ".join(t) for t in contract_triples(closure, events)) if contract else []
    return {
        "reasoner": which,
        "input_triples": len(asserted) + len(ontology),
        "seconds": round(seconds, 3),
        "added_triples": added,
        "noise": noise,
        "peak_rss_mb": peak_rss_mb(),
        "rss_after_loading_mb": loaded_rss,
        "contract": picked,
    }


def build(build_dir: Path) -> dict:
    from yili_kg.loaders.build import run_build

    stages: dict[str, dict] = {}
    started: dict[str, float] = {}

    def progress(stage: str, state: str) -> None:
        if state == "start":
            started[stage] = time.perf_counter()
        elif state == "done":
            stages[stage] = {
                "seconds": round(time.perf_counter() - started[stage], 3),
                "peak_rss_mb_so_far": peak_rss_mb(),
            }

    begun = time.perf_counter()
    report = run_build(build_dir, progress=progress, force=True)
    seconds = round(time.perf_counter() - begun, 3)
    peak = peak_rss_mb()
    # then `yili-kg answers` (not part of the build): the latency section's first asks read them
    from yili_kg.service.precomputed import precompute

    answers = precompute(build_dir)
    return {
        "seconds": seconds,
        "peak_rss_mb": peak,
        "stages": stages,
        "summary": report.summary(),
        "answers": {k: answers[k] for k in ("questions", "seconds")},
    }


def main(argv: list[str]) -> None:
    if argv[0] == "reason":
        contract = argv[1] != "--no-contract"
        which, dataset, out = argv[1 if contract else 2 :]
        result = reason(which, Path(dataset), contract=contract)
        Path(out).write_text(json.dumps(result, ensure_ascii=False), encoding="utf-8")
    elif argv[0] == "build":
        result = build(Path(argv[1]))
        Path(argv[2]).write_text(json.dumps(result, ensure_ascii=False), encoding="utf-8")
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
    # the figures are written: skip freeing the graphs one object at a time (seconds at ×16)
    sys.stdout.flush()
    os._exit(0)

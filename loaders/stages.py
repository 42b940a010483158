"""The stages of the build, in order, each a pure function from graphs to a graph.

Kept apart from :mod:`yili_kg.loaders.build` (which only schedules, caches and writes) so
that each stage can be run and tested alone.
"""

from __future__ import annotations

from rdflib import Graph

from yili_kg.loaders.build import Stage, corpus_files, files_digest, ontology_files


def text_stage(_inputs: dict) -> Graph:
    """Witnesses → text layer → RDF (passages, phases, notes, works, witnesses, persons)."""
    from yili_kg.loaders import rdf
    from yili_kg.loaders.ontology import add_generated_labels
    from yili_kg.loaders.textlayer import build_text_layer

    graph = rdf.text_layer_graph(build_text_layer())
    rdf.witnesses_graph(graph)
    rdf.persons_graph(graph)
    rdf.works_graph(graph)
    return add_generated_labels(graph)


def ontology_stage(_inputs: dict) -> Graph:
    """The ontology modules, with zh-Hans and pinyin labels generated from the zh-Hant ones."""
    from yili_kg.loaders.ontology import load_ontology

    return load_ontology()


STAGES = [
    Stage("ontology", "ontology", (), lambda: files_digest(ontology_files()), ontology_stage),
    Stage("text", "asserted", (), lambda: files_digest(corpus_files()), text_stage),
]


def events_stage(_inputs: dict) -> Graph:
    """Reviewed annotation layer (automatic reading where unreviewed) → RDF events."""
    from yili_kg.loaders.events import events_graph
    from yili_kg.loaders.lexicon import default_lexicon
    from yili_kg.loaders.review import compose
    from yili_kg.loaders.textlayer import build_text_layer

    layer = build_text_layer()
    lexicon = default_lexicon()
    records, _ = compose(layer, lexicon)
    phases = {cid: layer.passage_phases[cid][0] for cid in (r.id for r in records)}
    return events_graph(records, phases, lexicon)


STAGES.append(
    Stage(
        "events",
        "asserted",
        (),
        lambda: files_digest(corpus_files() + ontology_files()),
        events_stage,
    )
)


def tbox_stage(inputs: dict) -> Graph:
    """owlrl's closure of the ontology's axioms (kept apart: it changes only with the ontology)."""
    from yili_kg.loaders.reason import tbox_entailments

    return tbox_entailments(inputs["ontology"])


def inferred_stage(inputs: dict) -> Graph:
    """The OWL 2 RL entailments of the asserted graph, noise removed, consistency checked."""
    from yili_kg.loaders.reason import materialize

    asserted = Graph()
    for name in ("text", "events"):
        asserted.addN((*t, asserted) for t in inputs[name])
    return materialize(asserted, inputs["ontology"], inputs["tbox"])


STAGES.extend(
    [
        Stage("tbox", "inferred", ("ontology",), lambda: "", tbox_stage),
        Stage(
            "inferred",
            "inferred",
            ("ontology", "tbox", "text", "events"),
            lambda: "",
            inferred_stage,
        ),
    ]
)

"""The stages of the build, in order, each a pure function from graphs to a graph.

Kept apart from :mod:`yili_kg.loaders.build` (which only schedules, caches and writes) so
that each stage can be run and tested alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rdflib import RDF, Graph, Literal, URIRef

from yili_kg.loaders import iris
from yili_kg.loaders.annotation.review import compose
from yili_kg.loaders.annotation.stepalign import alignment_graph
from yili_kg.loaders.build import Stage, corpus_files, files_digest, ontology_files
from yili_kg.loaders.corpus import corpus_dir
from yili_kg.loaders.graph import rdf
from yili_kg.loaders.graph.citelinks import quote_links
from yili_kg.loaders.graph.definitions import glosses_of
from yili_kg.loaders.graph.events import events_graph
from yili_kg.loaders.graph.liji import citation_links, liji_graph
from yili_kg.loaders.graph.mourning import RITE as MOURNING_RITE
from yili_kg.loaders.graph.mourning import TABLE as MOURNING_TABLE
from yili_kg.loaders.graph.mourning import mourning_graph, read_obligations, term_index
from yili_kg.loaders.graph.ritegraph import rite_graph
from yili_kg.loaders.graph.shortcuts import shortcuts_graph
from yili_kg.loaders.iris import YL
from yili_kg.loaders.reason import materialize, tbox_entailments
from yili_kg.loaders.subset import describe, restrict, selected_phases
from yili_kg.loaders.terms.lexicon import default_lexicon
from yili_kg.loaders.terms.ontology import add_generated_labels, load_ontology
from yili_kg.loaders.text.rites import build_rite_layer, selected_rites
from yili_kg.loaders.text.textlayer import build_text_layer

if TYPE_CHECKING:
    from yili_kg.loaders.text.textlayer import TextLayer


def text_layer(inputs: dict) -> TextLayer:
    """鄉射禮's text layer (cut to ``$YILI_PHASES``), built once per build: the text, events and
    glosses stages all read it, and the build hands each stage the same ``inputs["values"]``."""
    values = inputs.setdefault("values", {})
    if "text_layer" not in values:
        values["text_layer"] = restrict(build_text_layer())
    return values["text_layer"]


def text_stage(inputs: dict) -> Graph:
    """Witnesses → text layer → RDF (passages, phases, notes, works, witnesses, persons)."""

    graph = rdf.text_layer_graph(text_layer(inputs))
    rdf.witnesses_graph(graph)
    rdf.persons_graph(graph)
    rdf.works_graph(graph)
    return add_generated_labels(graph)


def ontology_stage(_inputs: dict) -> Graph:
    """The ontology modules, with zh-Hans and pinyin labels generated from the zh-Hant ones."""

    return load_ontology()


def events_stage(inputs: dict) -> Graph:
    """Reviewed annotation layer (automatic reading where unreviewed) → RDF events."""

    layer = text_layer(inputs)
    lexicon = default_lexicon()
    records, _ = compose(layer, lexicon)
    phases = {cid: layer.passage_phases[cid][0] for cid in (r.id for r in records)}
    return events_graph(records, phases, lexicon)


def rites_stage(_inputs: dict) -> Graph:
    """鄉飲酒禮, 燕禮 and 大射儀 from their Kanripo witnesses: text layer and automatic events."""

    graph = Graph()
    for slug in selected_rites():
        rite_graph(slug, graph, layer=restrict(build_rite_layer(slug)))
    return add_generated_labels(graph)


def links_stage(inputs: dict) -> Graph:
    """Links between rites: aligned steps and phases, quotations resolved to passages."""

    graph, _ = alignment_graph([inputs["events"], inputs["rites"]], default_lexicon())
    quote_links([inputs["text"], inputs["rites"]], graph)
    return graph


def liji_stage(inputs: dict) -> Graph:
    """The 禮記 chapters that explain the rites, linked to them; the notes' quotations of them."""

    graphs = [inputs["text"], inputs["rites"]]
    rites = {str(r).rsplit("/", 1)[-1] for g in graphs for r in g.subjects(RDF.type, YL.Rite)}
    graph = liji_graph(rites)
    citation_links(graphs, into=graph)
    return add_generated_labels(graph)


def mourning_stage(inputs: dict) -> Graph:
    """喪服's table of mourning obligations (corpus/mourning-obligations.tsv) as RDF, when 喪服 is
    among the rites built; of a 喪服 cut to some phases, the rows of the clauses kept."""

    if MOURNING_RITE not in selected_rites():
        return Graph()
    rows = read_obligations(corpus_dir() / MOURNING_TABLE)
    if MOURNING_RITE in selected_phases():
        kept = {p.id for p in restrict(build_rite_layer(MOURNING_RITE)).passages}
        rows = [row for row in rows if row.clause in kept]
    return mourning_graph(rows, term_index(inputs["ontology"]), MOURNING_TABLE)


def tbox_stage(inputs: dict) -> Graph:
    """owlrl's closure of the ontology's axioms (kept apart: it changes only with the ontology)."""

    return tbox_entailments(inputs["ontology"])


#: the stages whose graphs are the asserted graph
ASSERTED = ("text", "events", "glosses", "rites", "links", "liji", "mourning")


def inferred_stage(inputs: dict) -> Graph:
    """The OWL 2 RL entailments of the asserted graph, noise removed, consistency checked."""

    asserted = _Union([inputs[n] for n in ASSERTED])
    return materialize(asserted, inputs["ontology"], inputs["tbox"])


def shortcuts_stage(inputs: dict) -> Graph:
    """What the slow canned queries joined on every call, once (loaders/graph/shortcuts.py)."""

    return shortcuts_graph([inputs[n] for n in ("ontology", *ASSERTED, "inferred")])


class _Union:
    """The triples of several graphs, iterated in turn (the reasoner only reads them)."""

    def __init__(self, graphs: list[Graph]):
        self.graphs = graphs

    def __iter__(self):
        for graph in self.graphs:
            yield from graph


def glosses_stage(inputs: dict) -> Graph:
    """鄭玄's glosses of the ontology's terms (主人，州長也), each with its note as source."""

    layer = text_layer(inputs)
    lexicon = default_lexicon()
    graph = Graph()
    for note in layer.notes:
        kind = rdf.note_class(note.kind)
        if kind != YL.Zhu:  # 鄭玄's notes only
            continue
        source = iris.commentary(layer.rite, note.segment, kind, note.ordinal)
        span = layer.segment_spans.get(note.segment) if note.segment is not None else None
        glossed = layer.raw[span[0] : span[1]] if span else ""
        for number, gloss in enumerate(glosses_of(note.text, lexicon, glossed), start=1):
            node = URIRef(f"{source}/gloss/{number}")
            term = lexicon.iri[gloss.category][gloss.label]
            graph.add((node, RDF.type, YL.Definition))
            graph.add((node, YL.defines, term))
            graph.add((node, YL.text, Literal(gloss.gloss, lang="lzh")))
            graph.add((node, YL.definedIn, source))
            graph.add((term, YL.definition, node))
    return graph


def _phases() -> str:

    return describe(selected_phases())


def _corpus_and_ontology() -> str:
    return files_digest(corpus_files() + ontology_files()) + "|" + _phases()


def _rites_inputs() -> str:

    return _corpus_and_ontology() + "|" + ",".join(selected_rites())


#: The pipeline, in order: (name, named graph, stages it reads, its own inputs, function).
STAGES = [
    Stage("ontology", "ontology", (), lambda: files_digest(ontology_files()), ontology_stage),
    Stage("text", "asserted", (), lambda: files_digest(corpus_files()) + _phases(), text_stage),
    Stage("events", "asserted", (), _corpus_and_ontology, events_stage),
    Stage("glosses", "asserted", (), _corpus_and_ontology, glosses_stage),
    Stage("rites", "asserted", (), _rites_inputs, rites_stage),
    Stage("links", "asserted", ("text", "events", "rites"), lambda: "", links_stage),
    Stage("liji", "asserted", ("text", "rites"), lambda: files_digest(corpus_files()), liji_stage),
    Stage("mourning", "asserted", ("ontology",), _rites_inputs, mourning_stage),
    Stage("tbox", "inferred", ("ontology",), lambda: "", tbox_stage),
    Stage(
        "inferred",
        "inferred",
        ("ontology", "tbox", *ASSERTED),
        lambda: "",
        inferred_stage,
    ),
    Stage(
        "shortcuts", "inferred", ("ontology", *ASSERTED, "inferred"), lambda: "", shortcuts_stage
    ),
]

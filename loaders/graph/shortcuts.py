"""Shortcuts: what the canned queries would otherwise join on every call, computed once here.

Two kinds, both written to the inferred graph (after reasoning: nothing here is an OWL
entailment, and no rule of the reasoner fires on them), so that a remote store that is given
the dataset (``yili-kg push``, the downloads) answers the rewritten queries the same:

- ``note yl:span "…"``: the characters a note's target selects, the path
  ``oa:hasTarget/oa:hasSelector/oa:exact`` as one triple (clause-commentary: Oxigraph answered
  the path inside an OPTIONAL by reading it for every note of the book, 1.4 s a clause);
- a ``yl:ActTally`` for each rite, kind of act and agent: how many events of that kind that
  agent does in the rite, not negated, the least ``yl:sequenceIndex`` among them, and each
  rite that has no such act by such an agent (``yl:absentFrom``, by the labels the query
  lists them by) (rite-difference: 12.7k events joined with their phases, rites and labels
  on every call, 2.6 s on the whole book, for a list of a few hundred rows).

Each counts exactly what its query's long path counts (a row per phase, index and rite the
path reaches), so the rewritten queries give the same answers; ``tests/test_shortcuts.py``
compares the shortcuts with the long path on the mini build.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable

from rdflib import RDF, SKOS, XSD, Graph, Literal, URIRef

from yili_kg.loaders.iris import OA, YL

FALSE = Literal(False)


def _objects(graphs: Iterable[Graph], predicate: URIRef) -> dict:
    """subject → every object of ``predicate`` in any of the graphs."""
    found: dict = defaultdict(set)
    for graph in graphs:
        for s, o in graph.subject_objects(predicate):
            found[s].add(o)
    return found


def spans(graphs: list[Graph], into: Graph) -> None:
    """``note yl:span text`` for each text a note's target's selectors give (oa:exact)."""
    targets = _objects(graphs, OA.hasTarget)
    selectors = _objects(graphs, OA.hasSelector)
    exact = _objects(graphs, OA.exact)
    for note, its_targets in targets.items():
        for target in its_targets:
            for selector in selectors.get(target, ()):
                for text in exact.get(selector, ()):
                    into.add((note, YL.span, text))


def tally_iri(rite: URIRef, kind: URIRef, agent: URIRef) -> URIRef:
    """A tally's IRI, from the three IRIs it counts (stable across builds)."""
    digest = hashlib.sha256(f"{kind} {agent}".encode()).hexdigest()[:16]
    return URIRef(f"{rite}/tally/{digest}")


def act_tallies(graphs: list[Graph], into: Graph) -> None:
    """A yl:ActTally for each (rite, kind, agent) of the events that are not negated.

    An event counts once for each phase it is in, sequence index it has and rite its phase
    is part of, as the rows of ``yl:inPhase ?phase ; yl:sequenceIndex ?i . ?phase yl:partOf
    ?rite`` do (each is one in this dataset).
    """
    rites = {r for g in graphs for r in g.subjects(RDF.type, YL.Rite)}
    part_of = _objects(graphs, YL.partOf)
    phases = _objects(graphs, YL.inPhase)
    indexes = _objects(graphs, YL.sequenceIndex)
    agents = _objects(graphs, YL.agent)
    negated = _objects(graphs, YL.negated)
    counts: dict[tuple, int] = defaultdict(int)
    first: dict[tuple, Literal] = {}
    for event, kinds in _objects(graphs, YL.kind).items():
        if FALSE not in negated.get(event, ()) or event not in agents:
            continue
        for phase in phases.get(event, ()):
            for rite in part_of.get(phase, set()) & rites:
                for index in indexes.get(event, ()):
                    for kind in kinds:
                        for agent in agents[event]:
                            key = (rite, kind, agent)
                            counts[key] += 1
                            if key not in first or index.toPython() < first[key].toPython():
                                first[key] = index
    _absences(graphs, counts, rites, into)
    for (rite, kind, agent), times in counts.items():
        node = tally_iri(rite, kind, agent)
        into.add((node, RDF.type, YL.ActTally))
        into.add((node, YL.tallyRite, rite))
        into.add((node, YL.tallyKind, kind))
        into.add((node, YL.tallyAgent, agent))
        into.add((node, YL.times, Literal(times, datatype=XSD.integer)))
        into.add((node, YL.firstIndex, first[(rite, kind, agent)]))


def _absences(graphs: list[Graph], counts: dict, rites: set, into: Graph) -> None:
    """``tally yl:absentFrom rite`` for each rite with no tally of the same act and agent, as
    their labels name them (skos:prefLabel: the acts are listed by label, and two kinds of
    one label count as one act)."""
    labels = _objects(graphs, SKOS.prefLabel)
    named: dict = defaultdict(set)  # rite → the (act, agent) label pairs it has
    pairs = {}
    for rite, kind, agent in counts:
        pairs[rite, kind, agent] = {(a, b) for a in labels[kind] for b in labels[agent]}
        named[rite] |= pairs[rite, kind, agent]
    for (rite, kind, agent), its_pairs in pairs.items():
        for other in rites:
            if not its_pairs & named[other]:
                into.add((tally_iri(rite, kind, agent), YL.absentFrom, other))


def shortcuts_graph(graphs: list[Graph]) -> Graph:
    """Every shortcut of the asserted and inferred graphs given."""
    graph = Graph()
    spans(graphs, graph)
    act_tallies(graphs, graph)
    return graph

"""Reasoning: the OWL 2 RL entailments of the asserted graph, into their own graph.

A plain owlrl closure of the whole dataset costs about 1.4 ms a triple and compares every pair
of literals (shared/DESIGN.md), so the work is split the way the rules allow:

1. **TBox.** owlrl's OWL-RL closure of the ontology's axioms alone (no labels, no
   definitions: the literals owlrl would compare pairwise). This gives the full class and
   property hierarchies, inverses, domains, ranges, chains and disjointness, and owlrl's own
   consistency messages.
2. **ABox.** The OWL 2 RL rules that can fire on individuals with these axioms — cax-sco
   (types by superclass), prp-spo1 (superproperties), prp-inv1/2 (inverses), prp-dom and
   prp-rng, prp-trp (transitive 部分), prp-spo2 (property chains) — applied to a fixpoint in
   Python over the individuals' links, compiled from the TBox closure. Literal-valued triples
   only feed prp-dom. The result is checked against a plain owlrl closure in ``bench/``.
3. **Noise.** owlrl's tautologies and literal subjects never enter the inferred graph
   (:func:`is_noise`), and nothing asserted is repeated there.
4. **Consistency.** cax-dw / cax-adc (disjoint classes sharing an individual), cls-nothing2,
   and owlrl's error messages on the TBox fail the build, naming the resources.
"""

from __future__ import annotations

import contextlib
import gc
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

import owlrl
from rdflib import OWL, RDF, RDFS, XSD, BNode, Graph, Literal, URIRef
from rdflib.collection import Collection
from rdflib.term import Node

from yili_kg.loaders.errors import InconsistencyError

#: predicates that carry axioms (everything else in the ontology is annotation or ABox)
AXIOM_PREDICATES = {
    RDFS.subClassOf,
    RDFS.subPropertyOf,
    RDFS.domain,
    RDFS.range,
    OWL.inverseOf,
    OWL.equivalentClass,
    OWL.equivalentProperty,
    OWL.propertyChainAxiom,
    OWL.disjointWith,
    OWL.members,
    RDF.first,
    RDF.rest,
    OWL.AllDisjointClasses,
}
AXIOM_TYPES = {
    OWL.Class,
    RDFS.Class,
    OWL.ObjectProperty,
    OWL.DatatypeProperty,
    OWL.TransitiveProperty,
    OWL.FunctionalProperty,
    OWL.SymmetricProperty,
    OWL.AnnotationProperty,
    OWL.Ontology,
    OWL.AllDisjointClasses,
    RDF.Property,
    OWL.InverseFunctionalProperty,
}
BUILTIN = (str(OWL), str(RDF), str(RDFS), str(XSD))


def tbox_axioms(ontology: Graph) -> Graph:
    """The axioms of the ontology (class and property triples), without labels."""
    axioms = Graph()
    for s, p, o in ontology:
        if p in AXIOM_PREDICATES or (p == RDF.type and o in AXIOM_TYPES):
            axioms.add((s, p, o))
    return axioms


def tbox_closure(ontology: Graph) -> tuple[Graph, list[str]]:
    """owlrl's OWL-RL closure of the ontology's axioms, and its error messages."""

    graph = tbox_axioms(ontology)
    closure = owlrl.DeductiveClosure(owlrl.OWLRL_Semantics)
    closure.expand(graph)
    errors = list(getattr(closure, "error_messages", []) or [])
    return graph, errors


@dataclass
class Rules:
    """The ABox rules compiled from a TBox closure."""

    superclasses: dict[URIRef, set[URIRef]] = field(default_factory=lambda: defaultdict(set))
    # the property axioms' terms as the TBox has them (owl:inverseOf may name any node)
    superproperties: dict[Node, set[Node]] = field(default_factory=lambda: defaultdict(set))
    inverses: dict[Node, set[Node]] = field(default_factory=lambda: defaultdict(set))
    domains: dict[Node, set[URIRef]] = field(default_factory=lambda: defaultdict(set))
    ranges: dict[Node, set[URIRef]] = field(default_factory=lambda: defaultdict(set))
    transitive: set[Node] = field(default_factory=set)
    chains: list[tuple[tuple[Node, ...], Node]] = field(default_factory=list)
    disjoint: list[tuple[Node, Node]] = field(default_factory=list)


def compile_rules(tbox: Graph) -> Rules:
    """The ABox rules of a TBox closure: hierarchies, inverses, domains and ranges, chains,
    disjointness (the order of each rule's entries is the TBox's)."""
    rules = Rules()
    _class_rules(tbox, rules)
    _property_rules(tbox, rules)
    _domain_range_rules(tbox, rules)
    rules.transitive = set(tbox.subjects(RDF.type, OWL.TransitiveProperty))
    for p, head in tbox.subject_objects(OWL.propertyChainAxiom):
        rules.chains.append((tuple(Collection(tbox, head)), p))
    _disjoint_rules(tbox, rules)
    return rules


def _class_rules(tbox: Graph, rules: Rules) -> None:
    """cax-sco: superclasses, an equivalent class counting as one (named classes only)."""
    for c, d in tbox.subject_objects(RDFS.subClassOf):
        if isinstance(c, URIRef) and isinstance(d, URIRef) and c != d:
            rules.superclasses[c].add(d)
    for c, d in tbox.subject_objects(OWL.equivalentClass):
        if isinstance(c, URIRef) and isinstance(d, URIRef) and c != d:
            rules.superclasses[c].add(d)


def _property_rules(tbox: Graph, rules: Rules) -> None:
    """prp-spo1 and prp-inv1/2: superproperties (an equivalent one counting as one), inverses."""
    for p, q in tbox.subject_objects(RDFS.subPropertyOf):
        if isinstance(p, URIRef) and isinstance(q, URIRef) and p != q:
            rules.superproperties[p].add(q)
    # owl:equivalentProperty and owl:inverseOf are taken as the TBox has them, any node
    for p, q in tbox.subject_objects(OWL.equivalentProperty):
        if p != q:
            rules.superproperties[p].add(q)
    for p, q in tbox.subject_objects(OWL.inverseOf):
        rules.inverses[p].add(q)
        rules.inverses[q].add(p)


def _domain_range_rules(tbox: Graph, rules: Rules) -> None:
    """prp-dom and prp-rng: named classes only, and no datatype range (xsd:…, rdfs:Literal)."""
    for p, c in tbox.subject_objects(RDFS.domain):
        if isinstance(c, URIRef):
            rules.domains[p].add(c)
    for p, c in tbox.subject_objects(RDFS.range):
        if isinstance(c, URIRef) and not str(c).startswith(str(XSD)) and c != RDFS.Literal:
            rules.ranges[p].add(c)


def _disjoint_rules(tbox: Graph, rules: Rules) -> None:
    """cax-dw and cax-adc: the pairs of disjoint classes, each owl:AllDisjointClasses's pairs."""
    for c, d in tbox.subject_objects(OWL.disjointWith):
        rules.disjoint.append((c, d))
    for node in tbox.subjects(RDF.type, OWL.AllDisjointClasses):
        for head in tbox.objects(node, OWL.members):
            members = list(Collection(tbox, head))
            rules.disjoint.extend((a, b) for i, a in enumerate(members) for b in members[i + 1 :])


REFLEXIVE = {
    OWL.sameAs,
    RDFS.subClassOf,
    OWL.equivalentClass,
    RDFS.subPropertyOf,
    OWL.equivalentProperty,
}
TOP = {OWL.Thing, RDFS.Resource}


def is_noise(triple) -> bool:
    """owlrl's tautologies and literal subjects: never useful in the inferred graph.

    >>> from rdflib import Literal
    >>> is_noise((Literal("x"), RDF.type, RDFS.Resource))
    True
    >>> is_noise((OWL.Thing, OWL.sameAs, OWL.Thing)), is_noise((RDF.type, RDF.type, RDF.Property))
    (True, True)
    >>> is_noise((URIRef("urn:e"), RDF.type, URIRef("urn:C")))
    False
    """
    s, p, o = triple
    if isinstance(s, Literal) or (isinstance(s, BNode) and p == RDF.type):
        return True
    if s == o and p in REFLEXIVE:
        return True
    if o in TOP and (p == RDF.type or p == RDFS.subClassOf):
        return True
    if s == OWL.Nothing:
        return True
    return str.startswith(s, BUILTIN)  # URIRef.startswith does not take a tuple


def tbox_entailments(ontology: Graph) -> Graph:
    """What owlrl derives from the ontology's axioms (noise removed); cached by the build.

    Raises:
        InconsistencyError: owlrl reports an error in the ontology.
    """
    closure, errors = tbox_closure(ontology)
    if errors:
        raise InconsistencyError("the ontology is inconsistent: " + "; ".join(errors[:20]))
    out = Graph()
    out.addN((*t, out) for t in closure if t not in ontology and not is_noise(t))
    return out


def materialize(asserted: Iterable, ontology: Graph, tbox: Graph | None = None) -> Graph:
    """The inferred graph: the ABox entailments not asserted, noise removed.

    Args:
        asserted: the asserted facts (text layer and events).
        ontology: the ontology graph.
        tbox: :func:`tbox_entailments` of the ontology, if already computed.

    Raises:
        InconsistencyError: disjoint classes share an individual (the resources are named).
    """
    with _collector_paused():
        return _materialize(asserted, ontology, tbox)


@contextlib.contextmanager
def _collector_paused():
    """Python's cycle collector off while the closure is built: the rules allocate millions
    of tuples and sets, none of them in cycles, and each full collection walks them all
    (the ×4 replica of 鄉射禮 reasoned in 29 s with it, 17 s without; bench growth)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _materialize(asserted: Iterable, ontology: Graph, tbox: Graph | None) -> Graph:
    """:func:`materialize`, the collector paused."""
    if tbox is None:
        tbox = tbox_entailments(ontology)
    full = tbox_axioms(ontology)
    for triple in tbox:
        full.add(triple)
    rules = compile_rules(full)
    types, links = _abox(asserted, ontology, rules)
    _links_fixpoint(links, rules)
    _link_types(links, rules, types)
    closure = _superclass_closure(rules)
    for classes in types.values():
        for c in list(classes):
            classes |= closure.get(c, set())
    _check_consistency(types, rules)
    # asserted is iterated a second time here: it must be a graph or _Union, not an iterator
    known = set(asserted) | set(ontology)
    candidates: list[tuple[Node, Node, Node]]
    candidates = [(node, RDF.type, c) for node, classes in types.items() for c in classes]
    candidates += [(s, p, o) for p, pairs in links.items() for s, o in pairs]
    known |= set(tbox)
    inferred = Graph()
    inferred.addN((*t, inferred) for t in set(candidates) if t not in known and not is_noise(t))
    return inferred


def _abox(asserted: Iterable, ontology: Graph, rules: Rules) -> tuple[dict, dict[Node, set]]:
    """The individuals' asserted types and links (property → {(s, o)}); a literal value only
    types its subject by the property's domain (prp-dom)."""
    types: dict = defaultdict(set)
    links: dict[Node, set] = defaultdict(set)
    for s, p, o in _triples(asserted, ontology):
        if p == RDF.type:
            if isinstance(o, URIRef) and not isinstance(s, Literal):
                types[s].add(o)
        elif isinstance(o, Literal):
            for d in rules.domains.get(p, ()):
                types[s].add(d)
        else:
            links[p].add((s, o))
    return types, links


def _link_types(links: dict[Node, set], rules: Rules, types: dict) -> None:
    """prp-dom and prp-rng on the closed links: subjects typed by domains, objects by ranges."""
    for p, pairs in links.items():
        for d in rules.domains.get(p, ()):
            for s, _ in pairs:
                types[s].add(d)
        for r in rules.ranges.get(p, ()):
            for _, o in pairs:
                if not isinstance(o, Literal):
                    types[o].add(r)


def _check_consistency(types: dict, rules: Rules) -> None:
    """Raise :class:`InconsistencyError` naming the individuals of :func:`_disjointness`."""
    violations = _disjointness(types, rules)
    if violations:
        raise InconsistencyError(
            f"the graph is inconsistent ({len(violations)} violations): "
            + "; ".join(violations[:20]),
            [v.split(" ")[0] for v in violations],
        )


def _triples(*graphs: Iterable) -> Iterable:
    for graph in graphs:
        yield from graph


def _links_fixpoint(links: dict[Node, set], rules: Rules) -> None:
    """Superproperties, inverses, transitivity and chains, until nothing new follows."""
    changed = True
    while changed:
        changed = False
        for p in list(links):
            pairs = links[p]
            for q in rules.superproperties.get(p, ()):
                changed |= _add_all(links[q], pairs)
            for q in rules.inverses.get(p, ()):
                changed |= _add_all(links[q], {(o, s) for s, o in pairs})
        for p in rules.transitive:
            changed |= _add_all(links[p], _transitive(links.get(p, set())))
        for chain, p in rules.chains:
            changed |= _add_all(links[p], _compose(links, chain))


def _add_all(target: set, new: set) -> bool:
    before = len(target)
    target |= new
    return len(target) != before


def _transitive(pairs: set) -> set:
    successors: dict = defaultdict(set)
    for s, o in pairs:
        successors[s].add(o)
    out = set()
    for start in list(successors):
        stack, seen = list(successors[start]), set()
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            stack.extend(successors.get(node, ()))
        out |= {(start, o) for o in seen}
    return out


def _compose(links: dict, chain: tuple) -> set:
    current = set(links.get(chain[0], set()))
    for p in chain[1:]:
        successors: dict = defaultdict(set)
        for s, o in links.get(p, set()):
            successors[s].add(o)
        current = {(s, o2) for s, o in current for o2 in successors.get(o, ())}
    return current


def _superclass_closure(rules: Rules) -> dict:
    closure: dict = {}
    for c in list(rules.superclasses):
        stack, seen = list(rules.superclasses[c]), set()
        while stack:
            d = stack.pop()
            if d in seen:
                continue
            seen.add(d)
            stack.extend(rules.superclasses.get(d, ()))
        closure[c] = seen
    return closure


def _disjointness(types: dict, rules: Rules) -> list[str]:
    out = []
    for node, classes in types.items():
        if OWL.Nothing in classes:
            out.append(f"{node} is an owl:Nothing")
        for a, b in rules.disjoint:
            if a in classes and b in classes:
                out.append(f"{node} is both {a} and {b}, which are disjoint")
    return out

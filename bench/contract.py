"""The inferences the contract needs (shared/DESIGN.md), picked out of any closure.

The benchmark compares reasoners on these triples, not only on time: the types of every
event by its kind's superclasses, ``yl:performs`` (the inverse of ``yl:agent``) and
``yl:partOf`` (transitive) between passages, phases and rites.
"""

from __future__ import annotations

from collections.abc import Iterable

from rdflib import RDF, Literal, URIRef

YL = "https://w3id.org/yili/ontology#"
KIND = URIRef(YL + "kind")
PERFORMS = URIRef(YL + "performs")
PART_OF = URIRef(YL + "partOf")


def events_of(asserted: Iterable) -> set:
    """Everything the asserted graph gives a ``yl:kind``: the events."""
    return {s for s, p, _ in asserted if p == KIND}


def contract_triples(triples: Iterable, events: set) -> set[tuple[str, str, str]]:
    """The contract's inferences among ``triples``, as N-Triples strings (comparable across
    reasoners that return rdflib terms or plain strings)."""
    out = set()
    for s, p, o in triples:
        s, p, o = _term(s), _term(p), _term(o)
        if p == RDF.type and s in events and str(o).startswith(YL):
            out.add((s.n3(), p.n3(), o.n3()))
        elif p in (PERFORMS, PART_OF):
            out.add((s.n3(), p.n3(), o.n3()))
    return out


def noise_count(triples: Iterable) -> dict:
    """Triples no one wants: literal subjects and ``x owl:sameAs x``."""
    literal_subjects = same_as_self = 0
    for s, p, o in triples:
        if isinstance(s, Literal):
            literal_subjects += 1
        elif str(p).endswith("#sameAs") and s == o:
            same_as_self += 1
    return {"literal_subjects": literal_subjects, "same_as_self": same_as_self}


def _term(value):
    if isinstance(value, (URIRef, Literal)) or not isinstance(value, str):
        return value
    return URIRef(value)  # reasonable returns IRIs as plain strings

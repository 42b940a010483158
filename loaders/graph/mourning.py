"""喪服 as data: the table of mourning obligations (``corpus/mourning-obligations.tsv``) in RDF.

Each row is one obligation: a mourner (none named: the speaker) wears a grade of mourning dress
for a person, under a condition, as a clause of the 經 of 喪服 states it. The grades, the kin
terms and the roles the table names are the ontology's (``ontology/mourning.ttl``,
``ontology/kinship.ttl``, ``ontology/roles.ttl``), found by their zh-Hant labels: a kin term
first, then a role (舅 in the table is the mother's brother of kinship.ttl, not the
father-in-law of roles.ttl), so that the table is written in the text's own words.

>>> from yili_kg.loaders.corpus import corpus_dir
>>> rows = read_obligations(corpus_dir() / TABLE)
>>> len({row.grade for row in rows})
11
>>> rows[0].clause, rows[0].text
('jing/6.1.1', '父')
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from rdflib import RDF, RDFS, XSD, Graph, Literal, URIRef

from yili_kg.loaders import iris
from yili_kg.loaders.corpus import read_rows
from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.iris import YL

TABLE = "mourning-obligations.tsv"
RITE = "sangfu"
FIELDS = (
    "clause",
    "text",
    "grade",
    "mourner",
    "mourned",
    "via",
    "condition",
    "months",
    "note",
)
LZH = "lzh"


@dataclass(frozen=True)
class Obligation:
    """One row of the table: the clause and its characters, the grade, the persons by their
    zh-Hant labels (``""``: none named), the condition, months where not the grade's."""

    line: int
    clause: str
    text: str
    grade: str
    mourner: str
    mourned: str
    via: str
    condition: str
    months: int | None
    note: str


def read_obligations(path: Path) -> list[Obligation]:
    """The rows of the table at ``path``; a row with no grade, no person at all or months that
    are not a number is a :class:`SourceError` naming its line."""
    rows = []
    for number, row in read_rows(path, FIELDS):
        months = row["months"].strip()
        if months and not months.isdigit():
            raise SourceError(path, f"months must be a whole number, not {months!r}", number)
        if not row["grade"] or not (row["mourner"] or row["mourned"]):
            raise SourceError(path, "a row needs a grade and a mourner or a mourned", number)
        rows.append(
            Obligation(
                number,
                row["clause"],
                row["text"],
                row["grade"],
                row["mourner"],
                row["mourned"],
                row["via"],
                row["condition"],
                int(months) if months else None,
                row["note"],
            )
        )
    return rows


def clause_problems(rows: Iterable[Obligation], texts: Mapping[str, str]) -> list[str]:
    """Rows whose clause is not a clause of the text (``texts``: clause id → characters) or
    whose characters are not that clause's, one message each (empty: the table agrees).

    >>> row = Obligation(3, "jing/6.1.1", "母", "斬衰三年", "", "父", "", "", None, "")
    >>> clause_problems([row], {"jing/6.1.1": "父"})
    ["line 3: jing/6.1.1 reads '父', not '母'"]
    """
    problems = []
    for row in rows:
        text = texts.get(row.clause)
        if text is None:
            problems.append(f"line {row.line}: no clause {row.clause} in the text")
        elif text != row.text:
            problems.append(f"line {row.line}: {row.clause} reads {text!r}, not {row.text!r}")
    return problems


def term_index(ontology: Graph) -> dict[str, dict[str, URIRef]]:
    """zh-Hant label → term, for the grades (``grade``) and the persons (``person``: the kin
    terms, then the roles a kin term does not already name)."""
    index: dict[str, dict[str, URIRef]] = {"grade": {}, "person": {}}
    for kind, cls in (("grade", YL.MourningGrade), ("person", YL.KinTerm), ("person", YL.Role)):
        nodes = (n for n in ontology.subjects(RDF.type, cls) if isinstance(n, URIRef))
        for node in sorted(nodes):
            for label in ontology.objects(node, RDFS.label):
                if isinstance(label, Literal) and label.language == "zh-Hant":
                    index[kind].setdefault(str(label), node)
    return index


def obligation_iri(row: Obligation) -> URIRef:
    """The obligation's IRI, from its clause and content, never from the row's place:
    ``id/sangfu/jing/6.1.1/mourning/<digest of mourner, mourned, via, condition>``."""
    key = "|".join((row.mourner, row.mourned, row.via, row.condition))
    digest = hashlib.sha1(key.encode()).hexdigest()[:10]
    return URIRef(f"{iris.passage(RITE, row.clause)}/mourning/{digest}")


def mourning_graph(
    rows: Iterable[Obligation], terms: Mapping[str, Mapping[str, URIRef]], path: Path | str = TABLE
) -> Graph:
    """The obligations as RDF: one ``yl:MourningObligation`` per row, with its grade, mourner,
    mourned, the person they are kin through, condition, months and ``yl:statedIn`` clause.
    A label that names no term is a :class:`SourceError` naming the row's line."""
    graph = Graph()
    seen: dict[URIRef, int] = {}
    for row in rows:
        node = obligation_iri(row)
        if node in seen:
            raise SourceError(path, f"the same obligation as line {seen[node]}", row.line)
        seen[node] = row.line
        graph.add((node, RDF.type, YL.MourningObligation))
        graph.add((node, YL.grade, _term(terms["grade"], row.grade, path, row.line)))
        for prop, label in ((YL.mourner, row.mourner), (YL.mourned, row.mourned)):
            if label:
                graph.add((node, prop, _term(terms["person"], label, path, row.line)))
        if row.via:
            graph.add((node, YL.through, _term(terms["person"], row.via, path, row.line)))
        if row.condition:
            graph.add((node, YL.mourningCondition, Literal(row.condition, lang=LZH)))
        if row.months is not None:
            graph.add((node, YL.durationMonths, Literal(row.months, datatype=XSD.integer)))
        graph.add((node, YL.statedIn, iris.passage(RITE, row.clause)))
        if row.note:
            graph.add((node, RDFS.comment, Literal(row.note)))
    return graph


def _term(index: Mapping[str, URIRef], label: str, path: Path | str, line: int) -> URIRef:
    node = index.get(label)
    if node is None:
        raise SourceError(path, f"{label!r} names no term of the ontology", line)
    return node

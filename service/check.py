"""``yili-kg check``: the built dataset against the contract, the layer, and the witnesses.

* SHACL shapes (``ontology/checks/shapes.ttl``) with pySHACL, over the triples the shapes
  look at (types, the constrained properties, labels): the whole dataset would only be slower.
* QC queries (``ontology/checks/*-violation.rq``) on the embedded store: each must return no
  row (the ODK convention).
* The reviewed annotation layer: review coverage, records whose clause text is no longer
  the corpus's, and records naming what the graph does not take (a word that is no term).
* 喪服's table of mourning (``corpus/mourning-obligations.tsv``): every row's clause a clause of
  the 喪服 text, with that clause's characters.
* The collation report's summary (information, not a violation).

Every violation is listed; the exit status is non-zero if there is any.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import pyshacl
from rdflib import RDF, Graph, URIRef

from yili_kg.loaders.annotation.review import compose, review_layer, review_status
from yili_kg.loaders.build import check_dataset
from yili_kg.loaders.corpus import corpus_dir
from yili_kg.loaders.graph.events import refused_terms
from yili_kg.loaders.graph.mourning import RITE, TABLE, clause_problems, read_obligations
from yili_kg.loaders.text.collate import collate_all
from yili_kg.service.store import open_store

SHAPED = {
    "https://w3id.org/yili/ontology#" + name
    for name in (
        "derivedFrom",
        "sequenceIndex",
        "inPhase",
        "agent",
        "recipient",
        "theme",
        "facing",
        "negated",
        "noAgentReason",
        "kind",
        "text",
        "witness",
        "startOffset",
        "endOffset",
        "author",
        "commentsOn",
        "phaseIndex",
        "partOf",
        "tallyRite",
        "tallyKind",
        "tallyAgent",
        "times",
        "firstIndex",
        "grade",
        "statedIn",
        "mourner",
        "mourned",
    )
} | {"http://www.w3.org/2004/02/skos/core#prefLabel"}


@dataclass
class CheckReport:
    violations: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.violations

    def render(self) -> str:
        lines = [*self.notes]
        lines += [f"VIOLATION: {v}" for v in self.violations]
        lines.append(
            f"check: {len(self.violations)} violations" if self.violations else "check: clean"
        )
        return "\n".join(lines)


def checks_dir() -> Path:
    return Path(str(resources.files("yili_kg.ontology"))) / "checks"


def shape_data(dataset_path: Path) -> Graph:
    """The triples the shapes look at, from the dataset file (all graphs together)."""
    graph = Graph()
    with open(dataset_path, encoding="utf-8") as handle:
        lines = [line for line in handle if _wanted(line)]
    graph.parse(data="".join(_triple(line) for line in lines), format="nt")
    return graph


def _wanted(line: str) -> bool:
    predicate = line.split(" ", 2)[1][1:-1] if line.startswith(("<", "_:")) else ""
    return (
        predicate in SHAPED
        or predicate == str(RDF.type)
        or predicate.endswith("rdf-schema#subClassOf")
    )


def _triple(quad_line: str) -> str:
    """An N-Quads line without its graph (the last term before the final dot)."""
    body = quad_line.rstrip()[:-1].rstrip()
    return body[: body.rfind(" <")] + " .\n"


def run_shapes(dataset_path: Path, report: CheckReport) -> None:

    shapes = Graph().parse(checks_dir() / "shapes.ttl", format="turtle")
    conforms, results, _ = pyshacl.validate(
        shape_data(dataset_path), shacl_graph=shapes, inference="none", advanced=True
    )
    if conforms:
        report.notes.append("shapes: the dataset conforms")
        return
    sh = "http://www.w3.org/ns/shacl#"
    for result in results.subjects(RDF.type, URIRef(sh + "ValidationResult")):
        focus = results.value(result, URIRef(sh + "focusNode"))
        path = results.value(result, URIRef(sh + "resultPath"))
        message = results.value(result, URIRef(sh + "resultMessage"))
        report.violations.append(f"shape: {focus} {path or ''}: {message}")


def run_qc_queries(store, report: CheckReport) -> None:
    for path in sorted(checks_dir().glob("*-violation.rq")):
        answer = store.query(path.read_text(encoding="utf-8"))
        for row in answer.rows[:50]:
            values = ", ".join(f"{k}={v.value}" for k, v in row.items())
            report.violations.append(f"{path.name}: {values}")
        if len(answer.rows) > 50:
            report.violations.append(f"{path.name}: … {len(answer.rows) - 50} more")
    report.notes.append(f"qc queries: {len(list(checks_dir().glob('*-violation.rq')))} run")


def run_layer(report: CheckReport) -> None:
    """Each reviewed rite's coverage, stale and unknown records, and records naming no term the
    graph takes; a rite marked complete must have every clause reviewed."""

    for rite, status in review_status().items():
        text, lexicon = review_layer(rite)
        records, layer = compose(text, lexicon, rite)
        report.notes.append(f"{rite} ({status}): {layer.render()}")
        for record, why in refused_terms(records, lexicon):
            report.violations.append(f"annotation record {rite}/{record.id}: {why}")
        for pid in layer.stale:
            report.violations.append(
                f"annotation record {rite}/{pid}: its text is no longer the corpus's"
            )
        for pid in layer.unknown:
            report.violations.append(f"annotation record {rite}/{pid}: no such clause")
        if status == "complete" and layer.reviewed < layer.clauses:
            report.violations.append(
                f"{rite}: review coverage {layer.reviewed}/{layer.clauses}: every clause must "
                "be reviewed"
            )


def run_collation(report: CheckReport) -> None:

    report.notes.append("collation " + collate_all().render().splitlines()[-1])


def run_check(build_dir: Path) -> CheckReport:

    report = CheckReport()
    dataset = check_dataset(build_dir)
    run_shapes(dataset, report)
    run_qc_queries(open_store(build_dir), report)
    run_layer(report)
    run_mourning(report)
    run_collation(report)
    return report


def run_mourning(report: CheckReport) -> None:
    """The table of mourning against the 喪服 text: each row's clause and its characters."""
    rows = read_obligations(corpus_dir() / TABLE)
    layer, _ = review_layer(RITE)  # the text run_layer has just read (cached)
    texts = {clause.id: clause.text for clause in layer.clauses}
    problems = clause_problems(rows, texts)
    report.violations.extend(f"{TABLE}: {problem}" for problem in problems)
    report.notes.append(f"{TABLE}: {len(rows)} obligations, {len(problems)} not as the text reads")

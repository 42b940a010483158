"""Evaluate the automatic annotator alone against a hand-written gold set.

The gold set (``tests/gold/<rite>.tsv``, the record format of :mod:`annotations`) is written
by hand, independently of the annotator and of the reviewed layer. For each field the
comparison is over multisets of ``(clause, value)`` pairs, so that two events of the same
clause count twice and order inside a clause does not matter:

* kind: the event's kind; negation: the kind of each event with ``neg=1``;
* agent, recipient (``to``), theme, location (``at``), facing (``face``): each value.

Values are compared in their canonical label (an altLabel counts as its term).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from yili_kg.loaders.annotation.annotate import annotate_clauses, commentary_of
from yili_kg.loaders.annotation.annotations import Event, Record, read_layer, read_records
from yili_kg.loaders.annotation.goldmatch import match
from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.terms.lexicon import Lexicon, default_lexicon, lexicon_for
from yili_kg.loaders.text.rites import OTHER_RITES, build_rite_layer
from yili_kg.loaders.text.textlayer import build_text_layer

FIELDS = {
    "agent": "agent",
    "kind": None,
    "recipient": "to",
    "theme": "theme",
    "location": "at",
    "facing": "face",
    "negation": "neg",
}
CATEGORY = {"agent": "role", "to": "role", "theme": "object", "at": "place", "face": "direction"}


@dataclass(frozen=True)
class Score:
    field: str
    gold: int
    predicted: int
    correct: int

    @property
    def precision(self) -> float:
        return self.correct / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.correct / self.gold if self.gold else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def _canonical(lexicon: Lexicon, key: str, value: str) -> str:
    if key == "kind":
        return lexicon.forms["action"].get(value, value)
    if key == "at":
        return lexicon.forms["place"].get(value) or lexicon.forms["object"].get(value, value)
    category = CATEGORY.get(key)
    return lexicon.forms[category].get(value, value) if category else value


def _pairs(records: dict[str, Record], field: str, lexicon: Lexicon) -> Counter:
    key = FIELDS[field]
    pairs: Counter = Counter()
    for cid, record in records.items():
        for event in record.events:
            for value in _values(event, field, key):
                pairs[(cid, _canonical(lexicon, key or "kind", value))] += 1
    return pairs


def _values(event: Event, field: str, key: str | None) -> tuple[str, ...]:
    if field == "kind":
        return () if event.modifier else (event.kind,)
    if field == "negation":
        return (event.kind,) if event.get("neg") == "1" else ()
    return event.fields.get(key, ()) if key else ()


def score(
    gold: dict[str, Record], predicted: dict[str, Record], lexicon: Lexicon | None = None
) -> list[Score]:
    """Per-field scores of ``predicted`` against ``gold`` on the gold's clauses."""
    lexicon = lexicon or default_lexicon()
    predicted = {cid: predicted[cid] for cid in gold if cid in predicted}
    scores = []
    for field in FIELDS:
        g = _pairs(gold, field, lexicon)
        p = _pairs(predicted, field, lexicon)
        scores.append(Score(field, sum(g.values()), sum(p.values()), sum((g & p).values())))
    return scores


def read_gold(path: Path) -> dict[str, Record]:
    return {r.id: r for r in read_records(path)}


def gold_path(rite: str = "xiangshe") -> Path:
    """The gold set of a checkout (run from the repository root), ``tests/gold/<rite>.tsv``."""
    return Path("tests") / "gold" / f"{rite}.tsv"


def rite_of(path: Path) -> str:
    """The rite a gold file is for, from its name: ``xiangyinjiu.tsv``, ``xiangshe-heldout.tsv``.

    Any rite slug (``shiguan.tsv``, ``pin.tsv``) names its rite; a name that is no rite's is
    鄉射禮's.
    """

    slug = Path(path).stem.split("-")[0]
    return slug if slug in OTHER_RITES or slug in CHAPTER_SLUGS else "xiangshe"


#: The slugs of the seventeen chapters (shared/DESIGN.md "The whole 儀禮"), for naming a gold
#: file's rite before the rite's text is in the pipeline.
CHAPTER_SLUGS = (
    "shiguan shihun shixiangjian xiangyinjiu xiangshe yan dashe pin gongshidafu jin sangfu "
    "shisang jixi shiyu teshengkuishi shaolaokuishi yousiche"
).split()


@dataclass(frozen=True)
class Measurement:
    scores: list[Score]
    clauses: int  # gold records scored
    unmatched: tuple[str, ...]  # gold records whose characters no clause edge matches


def rite_layer(rite: str, path: Path):
    """The text layer the annotator reads for ``rite``, or a clear error naming the gold file."""

    if rite == "xiangshe":
        return build_text_layer()
    try:
        return build_rite_layer(rite)
    except (KeyError, FileNotFoundError) as exc:
        raise SourceError(path, f"rite {rite!r} is not in the text pipeline yet ({exc})") from exc


def measure(
    gold: Path | None = None, rite: str | None = None, of: str = "annotator"
) -> Measurement:
    """Run the annotator over the rite and score it against the gold set; ``of="review"`` scores
    the rite's reviewed layer instead (a blind reading of docs/checks/ checks the review).

    The rite is the gold file's (:func:`rite_of`) unless given. Gold records are matched to
    the rite's clauses by id where the id is a clause's with the same characters, otherwise
    by their characters (:mod:`goldmatch`): a gold set keyed by its place in the punctuated
    edition (``pos/…``) is scored on whatever clauses the pipeline cuts, and records and
    clauses split differently over the same characters are scored together.
    """

    path = gold or gold_path(rite or "xiangshe")
    rite = rite or rite_of(path)
    records = read_gold(path)
    layer = rite_layer(rite, path)
    matching = match(list(records.values()), layer.clauses)
    if not matching.units:
        raise SourceError(path, f"no gold clause matches a clause of {rite}: wrong rite?")

    lexicon = lexicon_for(rite)
    predicted = read_layer(rite) if of == "review" else _automatic(layer, lexicon)
    gold_units, predicted_units = {}, {}
    for unit in matching.units:
        key = unit.gold[0]
        gold_units[key] = _merged(key, [records[g] for g in unit.gold])
        predicted_units[key] = _merged(key, [predicted[c] for c in unit.clauses if c in predicted])
    scored = sum(len(u.gold) for u in matching.units)
    return Measurement(score(gold_units, predicted_units), scored, tuple(matching.unmatched))


def _automatic(layer, lexicon: Lexicon) -> dict[str, Record]:
    """The automatic annotator's record of every clause of a text layer, by clause id."""
    return {r.id: r for r in annotate_clauses(layer.clauses, lexicon, notes=commentary_of(layer))}


def _merged(key: str, records: list[Record]) -> Record:
    if len(records) == 1:
        return records[0]
    events = [e for r in records for e in r.events]
    return Record(key, "".join(r.text for r in records), events)


def evaluate(gold: Path | None = None, rite: str | None = None) -> tuple[list[Score], int]:
    """Scores and the number of gold clauses scored (see :func:`measure`)."""
    result = measure(gold, rite)
    return result.scores, result.clauses


def render(scores: list[Score], clauses: int, unmatched: tuple[str, ...] = ()) -> str:
    lines = [f"{'field':10} {'gold':>5} {'pred':>5} {'ok':>5} {'P':>6} {'R':>6} {'F1':>6}"]
    for s in scores:
        lines.append(
            f"{s.field:10} {s.gold:5d} {s.predicted:5d} {s.correct:5d} "
            f"{s.precision:6.3f} {s.recall:6.3f} {s.f1:6.3f}"
        )
    lines.append(f"({clauses} gold clauses)")
    if unmatched:
        shown = ", ".join(unmatched[:8]) + (" …" if len(unmatched) > 8 else "")
        lines.append(f"{len(unmatched)} gold clauses match no clause edges of the text: {shown}")
    return "\n".join(lines)


def gold_sets(rite: str, directory: Path | None = None) -> list[Path]:
    """The gold files of a rite in a checkout's ``tests/gold/`` (``xiangshe.tsv``,
    ``xiangshe-heldout.tsv`` …): the clauses a development score must leave out."""
    directory = directory or Path("tests") / "gold"
    return sorted(p for p in directory.glob("*.tsv") if rite_of(p) == rite)


def measure_review(rite: str, gold: list[Path] | None = None) -> Measurement:
    """The automatic annotator against the reviewed layer of ``rite``, on the reviewed clauses
    no gold set covers: the development score rules are written on, so that the held-out gold
    stays unseen (README, "How well the annotator reads")."""

    layer = rite_layer(rite, Path("corpus") / "annotations" / rite)
    held: set[str] = set()
    for path in gold if gold is not None else gold_sets(rite):
        for unit in match(list(read_gold(path).values()), layer.clauses).units:
            held.update(unit.clauses)
    lexicon = lexicon_for(rite)
    predicted = _automatic(layer, lexicon)
    reviewed = {
        cid: r
        for cid, r in read_layer(rite).items()
        if cid not in held and r.review != "auto" and cid in predicted
    }
    if not reviewed:
        raise SourceError(Path("corpus") / "annotations" / rite, f"no reviewed clause of {rite}")
    return Measurement(score(reviewed, predicted, lexicon), len(reviewed), ())

"""Annotation records: one line per clause, the clause's characters beside its events.

The reviewed layer lives in ``corpus/annotations/<rite>/<NN>-<phase>.tsv``, one file per phase,
one line per clause, so that a scholar can read and diff it::

    id	text	events	review	note
    jing/5.1.1	主人坐取爵于上篚	坐 agent=主人 ; 取 agent=主人 theme=爵 from=上篚	ok

``events`` is ``—`` (no event: a condition, a heading, a description folded into another
clause) or events separated by `` ; ``. An event is its kind (the zh-Hant label of an action
class) followed by ``key=value`` fields; a value may list several terms with ``,``; a term
ending in ``?`` is implied (not in the text: the one bowed to), ending in ``^`` is carried over
from an earlier clause (an omitted subject). ``+ key=value`` adds fields to the previous
clause's last event (南面 after 乃席賓). Keys:

    agent with to theme from dest at via face upper manner count neg cond round say like
    repeats role noagent

``review`` is ``auto`` (the annotator's reading, not yet reviewed), ``ok`` (reviewed and
confirmed) or ``fixed`` (reviewed and corrected).

>>> e = parse_events("坐 agent=主人 ; 取 agent=主人^ theme=爵 from=上篚")
>>> e[1].kind, e[1].agent, e[1].marks["agent"], e[1].fields["from"]
('取', ('主人',), '^', ('上篚',))
>>> format_events(e)
'坐 agent=主人 ; 取 agent=主人^ theme=爵 from=上篚'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from yili_kg.loaders.built import atomic_write
from yili_kg.loaders.corpus import corpus_dir
from yili_kg.loaders.errors import SourceError

KEYS = (
    "agent",
    "with",
    "to",
    "theme",
    "from",
    "dest",
    "at",
    "via",
    "face",
    "upper",
    "manner",
    "count",
    "neg",
    "cond",
    "round",
    "say",
    "like",
    "repeats",
    "role",
    "noagent",
)
#: Fields whose values are terms of the ontology, by category.
TERM_KEYS = {
    "agent": "role",
    "with": "role",
    "to": "role",
    "role": "role",
    "theme": "object",
    "from": "place|object",
    "dest": "place|object",
    "at": "place|object",
    "via": "place|object",
    "face": "direction",
    "upper": "direction",
}
REVIEW = ("auto", "ok", "fixed", "blind")
#: a reading written without seeing any other (docs/checks/): scored against, never in a layer
BLIND = "blind"
FIELDS = ("id", "text", "events", "review", "note")
NONE = "—"


@dataclass
class Event:
    """One act of a clause: its kind and fields; ``marks[key]`` is "?" (implied) or "^"."""

    kind: str
    fields: dict[str, tuple[str, ...]] = field(default_factory=dict)
    marks: dict[str, str] = field(default_factory=dict)
    modifier: bool = False  # a "+ …" entry: adds fields to the previous clause's last event

    @property
    def agent(self) -> tuple[str, ...]:
        return self.fields.get("agent", ())

    def get(self, key: str) -> str | None:
        values = self.fields.get(key)
        return values[0] if values else None

    def set(self, key: str, values, mark: str = "") -> None:
        if isinstance(values, str):
            values = (values,)
        values = tuple(v for v in values if v)
        if not values:
            return
        self.fields[key] = values
        if mark:
            self.marks[key] = mark
        else:
            self.marks.pop(key, None)

    def unset(self, key: str) -> None:
        """Drop a field and its mark (an implied party or thing a later rule takes back)."""
        self.fields.pop(key, None)
        self.marks.pop(key, None)

    def open_to_guess(self, key: str) -> bool:
        """Whether a rule may still give the field: absent, or only implied (``?``); a value the
        clause names (no mark) or carries over (``^``) stays.

        >>> named, implied = Event("拜", {"to": ("賓",)}), Event("拜", {"to": ("賓",)}, {"to": "?"})
        >>> named.open_to_guess("to"), implied.open_to_guess("to"), Event("拜").open_to_guess("to")
        (False, True, True)
        """
        return key not in self.fields or self.marks.get(key) == "?"

    def no_doer(self) -> None:
        """The act is no one's the text names (未旅, 醢以豆): no agent, ``noagent=unstated``."""
        self.unset("agent")
        self.fields["noagent"] = ("unstated",)


def sentence_of(clause_id: str) -> str:
    """The sentence a clause id is in (``jing/12.1.3`` → ``jing/12.1``)."""
    return clause_id.rsplit(".", 1)[0]


def paragraph_of(clause_id: str) -> str:
    """The paragraph, the passage, a clause id is in (``jing/12.1.3`` → ``jing/12``)."""
    return clause_id.rsplit(".", 2)[0]


@dataclass
class Record:
    """The annotation of one clause."""

    id: str
    text: str
    events: list[Event]
    review: str = "auto"
    note: str = ""
    line: int = 0
    reason: str = ""  # why a clause has no event (after the —)
    path: Path | None = None  # the file of a reviewed record (read_layer sets it)


def _value(raw: str) -> tuple[tuple[str, ...], str]:
    items = raw.split(",")
    mark = ""
    values = []
    for item in items:
        if item.endswith(("?", "^")):
            mark = item[-1]
            item = item[:-1]
        values.append(item)
    return tuple(values), mark


def parse_events(text: str, where: str | Path = "", line: int = 0) -> list[Event]:
    """Events of a record's ``events`` cell (see the module docstring)."""
    text = text.strip()
    if not text or text.startswith(NONE):
        return []
    events = []
    for chunk in text.split(" ; "):
        parts = chunk.split()
        if not parts:
            raise SourceError(where, f"empty event in {text!r}", line)
        head, rest = parts[0], parts[1:]
        event = Event(kind="" if head == "+" else head, modifier=head == "+")
        for part in rest:
            if "=" not in part:
                raise SourceError(where, f"field {part!r} is not key=value", line)
            key, raw = part.split("=", 1)
            if key not in KEYS:
                raise SourceError(where, f"unknown field {key!r} (known: {' '.join(KEYS)})", line)
            if key in ("say", "cond", "like", "noagent", "repeats"):
                event.fields[key] = (raw,)
                continue
            if key == "round" and raw not in ("1", "2", "3"):
                raise SourceError(where, f"round={raw}: an archery round is 1, 2 or 3", line)
            values, mark = _value(raw)
            event.set(key, values, mark)
        events.append(event)
    return events


def format_event(event: Event) -> str:
    parts = ["+" if event.modifier else event.kind]
    for key in KEYS:
        if key not in event.fields:
            continue
        values = event.fields[key]
        if key in ("say", "cond", "like", "noagent", "repeats"):
            parts.append(f"{key}={values[0]}")
            continue
        mark = event.marks.get(key, "")
        parts.append(f"{key}={','.join(values)}{mark}")
    return " ".join(parts)


def format_events(events: list[Event], reason: str = "") -> str:
    if not events:
        return f"{NONE} {reason}".strip()
    return " ; ".join(format_event(e) for e in events)


def read_records(path: Path) -> Iterator[Record]:
    """Records of one annotation file."""
    with open(path, encoding="utf-8", newline="") as handle:
        lines = handle.read().split("\n")
    header_seen = False
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if not header_seen:
            if tuple(cells) != FIELDS:
                raise SourceError(path, f"header must be {' | '.join(FIELDS)}", number)
            header_seen = True
            continue
        if len(cells) != len(FIELDS):
            raise SourceError(
                path, f"{len(cells)} columns, expected {len(FIELDS)} (tab-separated)", number
            )
        pid, text, events, review, note = cells
        if review not in REVIEW:
            raise SourceError(
                path, f"review must be one of {', '.join(REVIEW)}, not {review!r}", number
            )
        reason = events[len(NONE) :].strip() if events.startswith(NONE) else ""
        yield Record(pid, text, parse_events(events, path, number), review, note, number, reason)


def write_records(path: Path, records: Iterable[Record], title: str = "") -> None:

    def write(handle) -> None:
        if title:
            handle.write(f"# {title}\n")
        handle.write("\t".join(FIELDS) + "\n")
        for r in records:
            events = format_events(r.events, r.reason)
            handle.write("\t".join([r.id, r.text, events, r.review, r.note]) + "\n")

    atomic_write(path, write)


def annotation_dir(rite: str = "xiangshe") -> Path:

    return corpus_dir() / "annotations" / rite


def read_layer(rite: str = "xiangshe") -> dict[str, Record]:
    """Every record of a rite's reviewed layer, by clause id."""
    records: dict[str, Record] = {}
    folder = annotation_dir(rite)
    if not folder.exists():
        return records
    for path in sorted(folder.glob("*.tsv")):
        for record in read_records(path):
            if record.id in records:
                raise SourceError(path, f"clause {record.id} annotated twice", record.line)
            if record.review == BLIND:
                raise SourceError(
                    path, "a blind reading is a check, not a layer's record", record.line
                )
            record.note = record.note or ""
            records[record.id] = record
            record.path = path
    return records

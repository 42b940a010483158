"""Step alignment (儀節對應): which act of one rite corresponds to which act of another.

鄉射禮 repeats whole procedures of 鄉飲酒禮 (主人獻賓, 賓酢主人, 主人酬賓 …) and its archery
mirrors 大射儀's. Each rite's events, in order, are a sequence of encoded steps (kind, agent,
recipient, theme); a global alignment (Needleman–Wunsch, linear gaps) of two sequences pairs
the steps that correspond. The similarity of two steps, 0 to 1:

* kind: the same action class 1, one a subclass of the other (再拜 / 拜) 0.6, else the steps
  do not match;
* agent, recipient, theme: shared (or both unstated) each adds its weight.

A pair is recorded (``yl:parallelTo`` and a reified ``yl:Alignment`` with its score and
method) when its similarity is at least :data:`MIN_SCORE`; two phases are aligned when enough
of their steps are (the Dice share of aligned steps, :data:`MIN_PHASE`).

>>> a = [Step("e1", 1, "獻", ("主人",), ("賓",), ("爵",))]
>>> a.append(Step("e2", 1, "酢", ("賓",), ("主人",), ()))
>>> b = [Step("f0", 1, "揖", ("主人",), (), ()), *a]
>>> [(x.iri, y.iri, round(s, 2)) for x, y, s in align_steps(a, b, lambda k, l: k == l)]
[('e1', 'e1', 1.0), ('e2', 'e2', 1.0)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from rdflib import RDF, XSD, Graph, Literal, URIRef
from rdflib.term import Node

from yili_kg.loaders.iris import ID, YL

METHOD = "Needleman–Wunsch global alignment over (kind, agent, recipient, theme); yili-kg"
MIN_SCORE = 0.6
MIN_PHASE = 0.25
GAP = -0.2
WEIGHTS = {"kind": 0.5, "agent": 0.25, "recipient": 0.15, "theme": 0.1}
#: the pairs of rites aligned: (earlier chapter, later chapter)
PAIRS = (("xiangyinjiu", "xiangshe"), ("xiangshe", "dashe"), ("yan", "dashe"))


@dataclass(frozen=True)
class Step:
    """An event as the alignment sees it."""

    iri: str
    phase: int
    kind: str
    agent: tuple[str, ...]
    recipient: tuple[str, ...]
    theme: tuple[str, ...]


def similarity(a: Step, b: Step, related: Callable[[str, str], bool]) -> float:
    """How alike two steps are (0 … 1); 0 when their kinds are unrelated."""
    if a.kind == b.kind:
        kind = 1.0
    elif related(a.kind, b.kind) or related(b.kind, a.kind):
        kind = 0.6
    else:
        return 0.0
    score = WEIGHTS["kind"] * kind
    for name in ("agent", "recipient", "theme"):
        x, y = set(getattr(a, name)), set(getattr(b, name))
        if x == y or (x & y):
            score += WEIGHTS[name]
    return score


def align_steps(a: list[Step], b: list[Step], related) -> list[tuple[Step, Step, float]]:
    """The aligned pairs of a global alignment of ``a`` and ``b`` (with their similarity)."""
    n, m = len(a), len(b)
    kinds_b: dict[str, list[int]] = {}
    for j, step in enumerate(b):
        kinds_b.setdefault(step.kind, []).append(j)
    candidates: dict[str, list[int]] = {}
    back: list[bytearray] = []  # 0 diagonal, 1 up (gap in b), 2 left (gap in a)
    previous = [GAP * j for j in range(m + 1)]
    for i in range(1, n + 1):
        step = a[i - 1]
        match = [-1.0] * m
        if step.kind not in candidates:
            candidates[step.kind] = [
                j for kind, js in kinds_b.items() if _maybe(step.kind, kind, related) for j in js
            ]
        for j in candidates[step.kind]:
            s = similarity(step, b[j], related)
            if s:
                match[j] = 2 * s - 0.7
        current = [GAP * i] + [0.0] * m
        pointer = bytearray(m + 1)
        pointer[0] = 1
        for j in range(1, m + 1):
            diagonal = previous[j - 1] + match[j - 1]
            up = previous[j] + GAP
            left = current[j - 1] + GAP
            if diagonal >= up and diagonal >= left:
                current[j] = diagonal
            elif up >= left:
                current[j], pointer[j] = up, 1
            else:
                current[j], pointer[j] = left, 2
        back.append(pointer)
        previous = current
    pairs = []
    i, j = n, m
    while i > 0 and j > 0:
        move = back[i - 1][j]
        if move == 0:
            s = similarity(a[i - 1], b[j - 1], related)
            if s >= MIN_SCORE:
                pairs.append((a[i - 1], b[j - 1], s))
            i, j = i - 1, j - 1
        elif move == 1:
            i -= 1
        else:
            j -= 1
    return pairs[::-1]


_RELATED: dict[tuple[str, str], bool] = {}


def _maybe(x: str, y: str, related) -> bool:
    if x == y:
        return True
    key = (x, y)
    if key not in _RELATED:
        _RELATED[key] = related(x, y) or related(y, x)
    return _RELATED[key]


def steps_of(graphs: list[Graph], rite: str, labels: dict[Node, str]) -> list[Step]:
    """A rite's events in order, as steps (labels: term → zh-Hant label)."""
    prefix = str(ID[f"{rite}/event/"])
    events = next(
        (g for g in graphs for s in g.subjects(YL.sequenceIndex) if str(s).startswith(prefix)),
        Graph(),
    )
    found = []
    for node, index in events.subject_objects(YL.sequenceIndex):
        if not str(node).startswith(prefix):
            continue
        if events.value(node, YL.negated) == Literal(True):
            continue  # what is not done is not a step
        kind_node = events.value(node, YL.kind)
        kind = labels.get(kind_node, "") if kind_node is not None else ""

        def terms(prop, node=node):
            return tuple(sorted(labels.get(t, str(t)) for t in events.objects(node, prop)))

        phase = events.value(node, YL.inPhase)
        found.append(
            (
                int(str(index)),
                Step(
                    str(node),
                    int(str(phase).rsplit("/", 1)[1]),
                    kind,
                    terms(YL.agent),
                    terms(YL.recipient),
                    terms(YL.theme),
                ),
            )
        )
    return [step for _, step in sorted(found)]


def alignment_graph(events: list[Graph], lexicon) -> tuple[Graph, dict[tuple[str, str], int]]:
    """The aligned steps and phases of every pair of :data:`PAIRS`, and the count per pair.

    ``events``: the graphs holding the rites' events (each rite's events in one of them).
    """
    labels = {iri: label for category in lexicon.iri.values() for label, iri in category.items()}
    g = Graph()
    counts = {}
    for first, second in PAIRS:
        a, b = steps_of(events, first, labels), steps_of(events, second, labels)
        pairs = align_steps(a, b, lexicon.is_a)
        counts[(first, second)] = len(pairs)
        for x, y, score in pairs:
            _record(g, URIRef(x.iri), URIRef(y.iri), score, first, second, "step")
        phase_pairs = Counter((x.phase, y.phase) for x, y, _ in pairs)
        size_a, size_b = Counter(s.phase for s in a), Counter(s.phase for s in b)
        for (p, q), count in phase_pairs.items():
            dice = 2 * count / (size_a[p] + size_b[q])
            if count >= 2 and dice >= MIN_PHASE:
                pa, pb = ID[f"{first}/phase/{p:02d}"], ID[f"{second}/phase/{q:02d}"]
                _record(g, pa, pb, dice, first, second, "phase")
    return g, counts


def _decimal(score: float) -> str:
    """The canonical xsd:decimal form of a score to 3 places (1, 0.8, 0.897): every store
    gives back the same characters.

    >>> _decimal(1.0), _decimal(0.8), _decimal(0.8966)
    ('1', '0.8', '0.897')
    """

    return format(Decimal(f"{score:.3f}").normalize(), "f")


def _record(g: Graph, x: URIRef, y: URIRef, score: float, first, second, what) -> None:
    local_x = str(x).rsplit(f"/{first}/", 1)[1].replace("/", "-")
    local_y = str(y).rsplit(f"/{second}/", 1)[1].replace("/", "-")
    node = ID[f"alignment/{first}-{second}/{local_x}--{local_y}"]
    g.add((x, YL.parallelTo, y))
    g.add((node, RDF.type, YL.Alignment))
    g.add((node, YL.alignedFrom, x))
    g.add((node, YL.alignedTo, y))
    g.add((node, YL.alignmentScore, Literal(_decimal(score), datatype=XSD.decimal)))
    g.add((node, YL.alignmentMethod, Literal(METHOD)))
    g.add((node, YL.alignmentOf, Literal(what)))

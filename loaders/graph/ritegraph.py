"""A rite's asserted graph (每禮之圖): its text layer in RDF, its events (reviewed where a
record is, automatic otherwise), the 宰夫 who plays the 主人, the officers made others."""

from __future__ import annotations

from rdflib import RDF, RDFS, Literal

from yili_kg.loaders import iris
from yili_kg.loaders.annotation.annotate import annotate_clauses, commentary_of
from yili_kg.loaders.annotation.review import compose
from yili_kg.loaders.annotation.rules import one_word, word_class
from yili_kg.loaders.graph import rdf
from yili_kg.loaders.graph.events import Placed, events_graph, ontology_modules, place_events
from yili_kg.loaders.iris import YL
from yili_kg.loaders.terms.lexicon import lexicon_for
from yili_kg.loaders.text.rites import OTHER_RITES, build_rite_layer


def rite_records(slug: str, lexicon=None):
    """The automatic annotator's records of every clause of a rite (no review layer)."""

    layer = build_rite_layer(slug)
    return annotate_clauses(layer.clauses, lexicon_for(slug, lexicon), commentary_of(layer))


def rite_graph(slug: str, into=None, layer=None):
    """The asserted triples of a rite: its text layer (``layer``, else built) and its events,
    reviewed where ``corpus/annotations/<slug>/`` has a record, automatic otherwise."""

    layer = layer or build_rite_layer(slug)
    graph = rdf.text_layer_graph(layer, into)
    lexicon = lexicon_for(slug)  # 侑 the person in 有司徹, the act in 特牲 (rite-senses.tsv)
    # the automatic reading with the 注 on each clause, as rite_records reads them: the rules
    # that read 鄭玄's words (zhu-names-party: 再拜，拜賓許也) apply in the graph too
    records, _ = compose(layer, lexicon, slug)
    phases = {r.id: layer.passage_phases[r.id][0] for r in records}
    events_graph(records, phases, lexicon, rite=slug, assignments=False, into=graph)
    if slug in HOST_IS_STEWARD:
        steward_as_host(graph, layer, lexicon)
    officers_as_persons(graph, records, phases, lexicon, slug)
    return graph


def officers_as_persons(graph, records, phases, lexicon, rite: str) -> None:
    """The man behind an officer made another officer: a yl:Person with his roles over phases.

    As :mod:`events` records 鄉射禮's 相 → 司正 (作相為司正), for every 為 of the text, not
    conditional nor denied, that makes one officer (司事者) another: 鄉飲酒禮 作相為司正,
    燕禮 射人遂為司正, 大射儀 擯者遂為司正. He holds his first role from the first act that
    names it to the 為, then the new one (``yl:assignedBy`` the 為) until the next 為 of his
    or the last phase of the 經; a chain of 為 (司正為司馬, 司馬反為司正) is one man.
    """

    placed = place_events(records, phases, rite)
    chains = _officer_chains(placed, lexicon)
    if not chains:
        return
    last_phase = max(item.phase for item in placed if item.clause.startswith("jing/"))
    info = OTHER_RITES[rite]
    texts = {record.id: record.text for record in records}
    for first, steps in chains:
        named = next(
            (
                item.phase
                for item in placed
                if first in item.event.agent or first in item.event.fields.get("with", ())
            ),
            steps[1][1].phase,
        )
        slug = str(lexicon.iri["role"][first]).rsplit("/", 1)[-1]
        person = iris.person(f"{rite}-{slug}")
        word = _written_form(lexicon, first, texts[steps[1][1].clause])
        graph.add((person, RDF.type, YL.Person))
        of = one_word("genitive")  # 之: 鄉射禮之司射
        graph.add((person, RDFS.label, Literal(f"{info.hant}{of}{word}", lang="zh-Hant")))
        graph.add((person, RDFS.label, Literal(f"the {word} of the {info.en}", lang="en")))
        _role_spans(graph, lexicon, rite, slug, person, steps, named, last_phase)


#: one man's chain of 為: (his first role, [(role, the 為 making it)…]), the first step's 為
#: None (the list untyped: every later step has its 為, which mypy cannot know)
_Chain = tuple[str, list]


def _officer_chains(placed: list[Placed], lexicon) -> list[_Chain]:
    """The chains of 為 making one officer another, in text order: a 為 whose agent is the
    role the last 為 of a chain made him continues that chain (司正為司馬, 司馬反為司正)."""
    chains: list[_Chain] = []
    for item in placed:
        event = item.event
        if not _makes_officer(event, lexicon):
            continue
        agent, role = event.agent[0], event.fields["role"][0]
        chain = next((c for c in chains if c[1][-1][0] == agent), None)
        if chain is None:
            chain = (agent, [(agent, None)])
            chains.append(chain)
        chain[1].append((role, item))
    return chains


def _makes_officer(event, lexicon) -> bool:
    """Whether an event is a 為 (yl:takesRole), neither denied nor conditional, making one
    officer (司事者) another: one agent, one role, both officers, not the same."""
    agent, role = event.agent, event.fields.get("role", ())
    if not (lexicon.has(event.kind, "takesRole") and len(agent) == 1 and len(role) == 1):
        return False
    if event.get("neg") == "1" or event.get("cond") or agent == role:
        return False
    return _is_officer(lexicon, agent[0]) and _is_officer(lexicon, role[0])


def _is_officer(lexicon, role: str) -> bool:
    """Whether a role is of the class 司事者 (yl:Officiant, the officers of a rite)."""
    node = lexicon.iri["role"].get(role)
    return node is not None and (node, RDF.type, YL.Officiant) in ontology_modules()


def _role_spans(graph, lexicon, rite: str, slug: str, person, steps, named: int, last: int) -> None:
    """A person's yl:RoleAssignments: each role of his chain from the 為 that made it (the
    first: from the phase that first names him) to the next 為, the last to ``last``."""
    for n, (role, change) in enumerate(steps):
        start = named if change is None else change.phase
        following = steps[n + 1][1] if n + 1 < len(steps) else None
        end = following.phase if following is not None else last
        node = iris.ID[f"{rite}/assignment/{slug}-{n + 1}"]
        graph.add((node, RDF.type, YL.RoleAssignment))
        graph.add((node, YL.person, person))
        graph.add((node, YL.role, lexicon.iri["role"][role]))
        for phase in range(start, max(start, end) + 1):
            graph.add((node, YL.inPhase, iris.phase(rite, phase)))
        if change is not None:
            graph.add((node, YL.assignedBy, change.iri))


def _written_form(lexicon, role: str, text: str) -> str:
    """The role as the clause writes it (擯者遂為司正: 擯者, a form of 相, with the word after
    it of annotation-words.tsv's role-suffix)."""
    forms = sorted(
        (f for f, label in lexicon.forms["role"].items() if label == role and f in text),
        key=len,
        reverse=True,
    )
    if not forms:
        return role
    form = forms[0]
    at = text.index(form) + len(form)
    suffix = next(
        (w for w in word_class("role-suffix") if text[at:].startswith(w) and not form.endswith(w)),
        "",
    )
    return form + suffix


#: the rites whose 主人 is the ruler's steward, offering in his stead (注: 主人，宰夫也)
HOST_IS_STEWARD = ("yan", "dashe")


def steward_as_host(graph, layer, lexicon) -> None:
    """The 宰夫 of the ruler's rites plays the 主人 throughout: a yl:Person with two roles.

    Recorded as :mod:`events` records the man behind 相/司正/司馬 in 鄉射禮: a ``yl:Person``
    and ``yl:RoleAssignment``s over every phase, one in the role 宰夫 (his office) and one in
    the role 主人 (what the text calls him).
    """

    rite = layer.rite
    person = iris.person(f"{rite}-zaifu")
    graph.add((person, RDF.type, YL.Person))
    info = OTHER_RITES[rite]
    office = iris.term("role", "zaifu")
    word = next(label for label, node in lexicon.iri["role"].items() if node == office)
    of = one_word("genitive")  # 之: 燕禮之宰夫
    graph.add((person, RDFS.label, Literal(f"{info.hant}{of}{word}", lang="zh-Hant")))
    graph.add((person, RDFS.label, Literal(f"the steward of the {info.en}", lang="en")))
    for name, role in (("office", "zaifu"), ("host", "zhuren")):
        node = iris.ID[f"{rite}/assignment/{name}"]
        graph.add((node, RDF.type, YL.RoleAssignment))
        graph.add((node, YL.person, person))
        graph.add((node, YL.role, iris.term("role", role)))
        for phase in layer.phases:
            graph.add((node, YL.inPhase, iris.phase(rite, phase.index)))

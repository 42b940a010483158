"""喪服 as data: the table of mourning obligations, its terms, its graph and its canned queries.

The facts are read in the 經 of 喪服 (corpus/kanripo-raw/KR1d0028; the grade headings
jing/2 斬衰裳…, jing/24 疏衰裳齊…三年者, jing/33 …期者, jing/43 不杖，麻屨者,
jing/84 疏衰裳齊，牡麻絰，無受者, jing/104 and 108 the 殤大功, jing/109 大功…九月者,
jing/135 繐衰, jing/139 the 殤小功, jing/146 小功…五月者, jing/164 緦麻，三月者)
and looked for in the answers of ``mourning-for`` and ``mourning-grade``, run on a small
graph made by the real loader: the ontology, the table's obligations and the clauses' texts
(no whole-book build: the same queries on the full build are in tests/test_queries.py).
"""

from __future__ import annotations

import pytest
from rdflib import RDF, RDFS, Dataset, Literal, URIRef

from yili_kg.loaders import iris
from yili_kg.loaders.corpus import corpus_dir
from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.graph.mourning import (
    RITE,
    TABLE,
    clause_problems,
    mourning_graph,
    read_obligations,
    term_index,
)
from yili_kg.loaders.iris import YL
from yili_kg.service.queries import bindings_for, load_queries
from yili_kg.service.store import OxigraphStore, RdflibStore

KIN = "https://w3id.org/yili/id/kin/"
GRADES = [
    "斬衰三年",
    "齊衰三年",
    "齊衰杖期",
    "齊衰不杖期",
    "齊衰三月",
    "殤大功",
    "大功",
    "繐衰",
    "殤小功",
    "小功",
    "緦麻",
]


@pytest.fixture(scope="module")
def ontology():
    from yili_kg.loaders.terms.ontology import load_ontology

    return load_ontology()


@pytest.fixture(scope="module")
def layer():
    from yili_kg.loaders.text.rites import build_rite_layer

    return build_rite_layer(RITE)


@pytest.fixture(scope="module")
def rows():
    return read_obligations(corpus_dir() / TABLE)


@pytest.fixture(scope="module")
def graph(ontology, rows, layer):
    """The ontology, the obligations and the texts of the 喪服's clauses, in one dataset."""
    dataset = Dataset(default_union=True)
    named = dataset.graph(URIRef("urn:test:mourning"))
    for triple in ontology:
        named.add(triple)
    for triple in mourning_graph(rows, term_index(ontology)):
        named.add(triple)
    for clause in layer.clauses:
        named.add((iris.passage(RITE, clause.id), YL.text, Literal(clause.text, lang="lzh")))
    return dataset


@pytest.fixture(scope="module", params=["oxigraph", "rdflib"])
def store(request, graph):
    if request.param == "rdflib":
        return RdflibStore(graph)
    import pyoxigraph as ox

    memory = ox.Store()
    memory.load(graph.serialize(format="nquads").encode(), format=ox.RdfFormat.N_QUADS)
    return OxigraphStore(memory)


def _rows(store, name: str, **values: str) -> list[dict[str, str]]:
    query = load_queries()[name]
    answer = store.query(query.sparql, bindings_for(query, values, store))
    return [{key: term.value for key, term in row.items()} for row in answer.rows]


def _grades(store, kin: str) -> set[str]:
    return {row["grade"] for row in _rows(store, "mourning-for", kin=kin)}


# ------------------------------------------------------------------------------ the table


def test_every_row_is_a_clause_of_the_text_with_its_characters(rows, layer):
    texts = {clause.id: clause.text for clause in layer.clauses}
    assert clause_problems(rows, texts) == []


def test_the_checker_names_a_wrong_clause_and_wrong_characters(rows):
    texts = {"jing/6.1.1": "父"}
    first = rows[0]
    moved = type(first)(**{**first.__dict__, "clause": "jing/999.1.1"})
    changed = type(first)(**{**first.__dict__, "text": "母"})
    assert clause_problems([first, moved, changed], texts) == [
        f"line {first.line}: no clause jing/999.1.1 in the text",
        f"line {first.line}: jing/6.1.1 reads '父', not '母'",
    ]


def test_the_table_covers_the_eleven_grades_in_the_order_of_the_text(rows):
    seen: list[str] = []
    for row in rows:
        if row.grade not in seen:
            seen.append(row.grade)
    assert seen == GRADES
    assert len(rows) > 200  # one row per mourner and mourned of every entry of the 經


def test_every_label_of_the_table_names_a_term(rows, ontology):
    mourning_graph(rows, term_index(ontology))  # raises SourceError otherwise


def test_a_label_that_names_no_term_is_an_error_with_its_line(rows, ontology):
    row = rows[0]
    bad = type(row)(**{**row.__dict__, "mourned": "無此親"})
    with pytest.raises(SourceError, match=f"無此親.*names no term|line {row.line}"):
        mourning_graph([bad], term_index(ontology))


# ------------------------------------------------------------------------------ the terms


def test_grades_and_kin_terms_have_labels_in_four_languages(ontology):
    nodes = set(ontology.subjects(RDF.type, YL.MourningGrade))
    nodes |= set(ontology.subjects(RDF.type, YL.KinTerm))
    assert len(nodes) >= 11 + 50
    for node in nodes:
        languages = {lab.language for lab in ontology.objects(node, RDFS.label)}
        assert {"zh-Hant", "zh-Hans", "zh-Latn-pinyin", "en"} <= languages, node


def test_grade_labels_and_months(ontology):
    zicui = URIRef("https://w3id.org/yili/id/grade/zicui-buzhangqi")
    labels = {(lab.language, str(lab)) for lab in ontology.objects(zicui, RDFS.label)}
    assert ("zh-Hant", "齊衰不杖期") in labels and ("zh-Hans", "齐衰不杖期") in labels
    assert ("zh-Latn-pinyin", "zī cuī bú zhàng jī") in labels
    months = {
        str(ontology.value(g, RDFS.label)): ontology.value(g, YL.durationMonths)
        for g in ontology.subjects(RDF.type, YL.MourningGrade)
    }
    assert len(months) == 11


def test_kin_terms_stay_out_of_the_annotators_lexicon(ontology):
    from yili_kg.loaders.terms.lexicon import build_lexicon

    lexicon = build_lexicon(ontology)
    assert "從父昆弟" not in lexicon.forms["role"]  # a kin term of 喪服, no role of a rite
    assert lexicon.resolve("role", "舅") != URIRef(KIN + "jiu-maternaluncle")


# ------------------------------------------------------------------------------ mourning-for


def test_for_the_father_zhancui_three_years(store):
    rows = _rows(store, "mourning-for", kin="父")
    plain = [row for row in rows if "mourner" not in row and "condition" not in row]
    assert [(r["grade"], r["months"], r["clauseId"], r["text"]) for r in plain] == [
        ("斬衰三年", "25", "jing/6.1.1", "父")
    ]
    # 女子子在室為父 (jing/18.1.1), 子嫁，反在父之室，為父三年 (jing/21.1.3): 斬衰 as well
    daughters = {(r["mourner"], r["condition"]) for r in rows if "mourner" in r}
    assert ("女子子", "在室") in daughters


def test_the_father_is_not_mourned_in_sima(store):
    assert "緦麻" not in _grades(store, "父")
    assert _grades(store, "父") == {"斬衰三年"}


def test_a_wife_for_her_husband_zhancui(store):
    rows = _rows(store, "mourning-for", kin="夫")
    assert ("斬衰三年", "妻", "jing/16.1.1") in {
        (r["grade"], r.get("mourner"), r["clauseId"]) for r in rows
    }


def test_grandparents_qicui_a_year_without_staff(store):
    rows = _rows(store, "mourning-for")  # default: 祖父母
    first = rows[0]
    assert (first["grade"], first["months"], first["clauseId"]) == (
        "齊衰不杖期",
        "12",
        "jing/44.1.1",
    )
    assert "mourner" not in first  # 祖父母: the entry names no mourner, the grandson
    # 女子子為祖父母 (jing/76.1.1), 大夫為祖父母 (jing/80.1.1): 不杖期 too;
    # 夫之祖父母: 大功 (jing/122.1.1)
    assert {(r["grade"], r.get("mourner"), r.get("through")) for r in rows} >= {
        ("齊衰不杖期", "女子子", None),
        ("齊衰不杖期", "大夫", None),
        ("大功", "妻", "夫"),
    }


def test_great_grandparents_qicui_three_months_never_zhancui(store):
    grades = _grades(store, "曾祖父母")
    assert grades == {"齊衰三月"}  # jing/95.1.1, 101.1.1, 102.1.1
    assert "斬衰三年" not in grades
    months = {row["months"] for row in _rows(store, "mourning-for", kin="曾祖父母")}
    assert months == {"3"}


def test_first_cousins_dagong(store):
    rows = _rows(store, "mourning-for", kin="從父昆弟")
    assert ("大功", "9", "jing/113.1.1") in {(r["grade"], r["months"], r["clauseId"]) for r in rows}


def test_a_sisters_son_and_a_daughters_child_sima(store):
    assert _grades(store, "甥") == {"緦麻"}  # jing/184.1.1
    assert _grades(store, "外孫") == {"緦麻"}  # jing/169.1.1
    # by pinyin and by English, as any parameter
    assert _grades(store, "wài sūn") == {"緦麻"}


def test_a_role_of_the_rites_is_mourned_too(store):
    rows = _rows(store, "mourning-for", kin="天子")
    assert {(r["grade"], r.get("mourner")) for r in rows} == {
        ("斬衰三年", "諸侯"),
        ("繐衰", "大夫"),
    }


def test_the_middle_youth_dead_are_mourned_seven_months(store):
    rows = _rows(store, "mourning-for", kin="叔父")
    months = {(r["grade"], r.get("condition"), r["months"]) for r in rows if "mourner" not in r}
    assert months == {("殤大功", "長殤", "9"), ("殤大功", "中殤", "7"), ("殤小功", "下殤", "5")}


# ------------------------------------------------------------------------------ mourning-grade


def test_who_is_mourned_in_zhancui(store):
    rows = _rows(store, "mourning-grade")  # default: 斬衰三年
    mourned = {(r.get("mourner"), r["mourned"]) for r in rows}
    assert mourned == {
        (None, "父"),
        ("諸侯", "天子"),
        (None, "君"),
        ("父", "長子"),
        ("為人後者", "所後者"),
        ("妻", "夫"),
        ("妾", "君"),
        ("女子子", "父"),
        ("衆臣", "君"),
    }
    assert rows[0]["clauseId"] == "jing/6.1.1"  # in the order of the 經


def test_for_whom_a_wife_mourns_in_qicui_a_year_without_staff(store):
    rows = _rows(store, "mourning-grade", grade="不杖期")
    wife = {(r["mourned"], r.get("through")) for r in rows if r.get("mourner") == "妻"}
    # 為夫之君 (jing/63.1.1), 夫之昆弟之子 (jing/72.1.1)
    assert wife == {("君", "夫"), ("昆弟之子", "夫")}


def test_which_kin_are_mourned_in_dagong(store):
    mourned = {r.get("mourned") for r in _rows(store, "mourning-grade", grade="大功")}
    assert {"從父昆弟", "庶孫", "適婦", "姪", "姑", "姊妹", "女子子"} <= mourned
    assert "父" not in mourned


def test_a_grade_by_its_short_name_and_in_english(store):
    short = _rows(store, "mourning-grade", grade="緦")
    assert short == _rows(store, "mourning-grade", grade="緦麻")
    assert {"甥", "外孫", "曾孫", "壻", "舅"} <= {r.get("mourned") for r in short}
    assert {r["months"] for r in short} == {"3"}
    assert _rows(store, "mourning-grade", grade="fine hemp, three months") == short
    assert _rows(store, "mourning-grade", grade="sima") == short  # pinyin without tones

"""The ontology modules, loaded as one graph, with generated labels.

Every term has a hand-written ``rdfs:label`` in zh-Hant (and en). This module adds what can
be derived from it: the zh-Hans label (OpenCC ``t2s``) and the pinyin label (pypinyin, with
the readings of the pinyin witness where it gives one, e.g. 鄉 xiāng). A pinyin label
written by hand in the Turtle (for readings that depend on the rite: 說 tuō in 說決拾,
樂 yuè in 樂正, 縣 xuán) is kept and not generated.
"""

from __future__ import annotations

from functools import cache

import opencc
from pypinyin import Style, load_phrases_dict, load_single_dict
from pypinyin import pinyin as to_pinyin
from rdflib import RDFS, Graph, Literal
from rdflib.namespace import SKOS

from yili_kg.loaders.corpus import corpus_dir, ontology_files, read_rows
from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.iris import YL
from yili_kg.loaders.witnesses.pinyin import reading_of

HANS, PINYIN = "zh-Hans", "zh-Latn-pinyin"


@cache
def _t2s():

    return opencc.OpenCC("t2s")


def simplified(text: str) -> str:
    """The zh-Hans form of a zh-Hant label.

    >>> simplified("鄉射禮")
    '乡射礼'
    """
    return _t2s().convert(text)


READING_FIELDS = ("word", "pinyin", "note")


@cache
def _load_readings() -> None:
    """Teach pypinyin the rite's readings (``corpus/readings.tsv``), once."""

    path = corpus_dir() / "readings.tsv"
    phrases, singles = {}, {}
    for number, row in read_rows(path, READING_FIELDS):
        syllables = row["pinyin"].split()
        if len(syllables) != len(row["word"]):
            raise SourceError(path, f"{row['word']}: one syllable a character", number)
        if len(row["word"]) == 1:
            singles[ord(row["word"])] = syllables[0]
        else:
            phrases[row["word"]] = [[s] for s in syllables]
    load_single_dict(singles)
    load_phrases_dict(phrases)


def pinyin(text: str) -> str:
    """Tone-marked pinyin of a label, syllables separated by spaces.

    The project's readings (``corpus/readings.tsv``) come first; the pinyin witness's reading
    of a character wins over pypinyin's where it gives one.

    >>> pinyin("鄉射禮")
    'xiāng shè lǐ'
    >>> pinyin("樂正")
    'yuè zhèng'
    """

    _load_readings()

    syllables = []
    # errors=list: a character without a reading is kept as itself (pypinyin's documented
    # callable, which its stubs type as returning str)
    readings = to_pinyin(text, style=Style.TONE, errors=list)  # type: ignore[arg-type]
    for char, (reading, *_) in zip(text, readings, strict=False):
        if reading == char:  # not a Chinese character: punctuation, Latin letters
            continue
        syllables.append(reading_of(char) or reading)
    return " ".join(syllables)


def parse_modules() -> Graph:
    graph = Graph()
    graph.bind("yl", YL)
    for path in ontology_files():
        try:
            graph.parse(path, format="turtle")
        except Exception as exc:  # rdflib raises bare Exceptions and pyparsing errors
            raise SourceError(path, f"not valid Turtle: {exc}") from exc
    return graph


def add_generated_labels(graph: Graph) -> Graph:
    """Add zh-Hans and pinyin labels to every node with a zh-Hant label and none of its own.

    The zh-Hant label is also the node's ``skos:prefLabel``: one label a node, so that a query
    can fetch it without filtering the four languages of ``rdfs:label``.
    """

    additions = []
    for node, label in graph.subject_objects(RDFS.label):
        if not isinstance(label, Literal) or label.language != "zh-Hant":
            continue
        additions.append((node, SKOS.prefLabel, label))
        languages = {
            lab.language for lab in graph.objects(node, RDFS.label) if isinstance(lab, Literal)
        }
        if HANS not in languages:
            additions.append((node, RDFS.label, Literal(simplified(str(label)), lang=HANS)))
        if PINYIN not in languages:
            additions.append((node, RDFS.label, Literal(pinyin(str(label)), lang=PINYIN)))
    for triple in additions:
        graph.add(triple)
    return graph


def load_ontology() -> Graph:
    return add_generated_labels(parse_modules())

"""The function words, by class: ``corpus/annotation-words.tsv`` (``word  class  value  note``).

The prepositions, negations, numerals, the adverbs skipped before a verb, the words of relative
place and the other small words the annotator, the tokenizer and the graph read, with what
each one marks (``value``). Here, in the vocabulary stage, so that the tokens
(:mod:`yili_kg.loaders.terms.tokens`) read them as the annotator does; the annotator's rule
table (:mod:`yili_kg.loaders.annotation.rules`) reads its own file with the same reader.

>>> word_class("negation")
('不', '無', '未', '弗', '毋')
>>> word_values("preposition")["自"], one_word("genitive")
('from', '之')
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from yili_kg.loaders.corpus import corpus_dir, read_rows
from yili_kg.loaders.errors import SourceError

WORD_FIELDS = ("word", "class", "value", "note")


def table_path(name: str) -> Path:
    """``corpus/annotation-<name>.tsv``."""
    return corpus_dir() / f"annotation-{name}.tsv"


@cache
def _word_table() -> dict[str, dict[str, str]]:
    path = table_path("words")
    classes: dict[str, dict[str, str]] = {}
    for _, row in read_rows(path, WORD_FIELDS):
        classes.setdefault(row["class"], {})[row["word"]] = row["value"]
    return classes


def word_class(name: str) -> tuple[str, ...]:
    """The function words of one class, in the table's order."""
    return tuple(_word_table()[name])


def word_values(name: str) -> dict[str, str]:
    """The function words of one class with their values (preposition → the field it marks)."""
    return dict(_word_table()[name])


def is_function_word(text: str) -> bool:
    """Whether ``text`` is a function word of any class (而, 于, 之 …)."""
    return any(text in words for words in _word_table().values())


def one_word(name: str) -> str:
    """The word of a class of one word (則 of ``condition-then``); a class of several words is
    refused, so that a word added to it is not silently left unread."""
    words = word_class(name)
    if len(words) != 1:
        raise SourceError(table_path("words"), f"class {name!r} must have one word, has {words}")
    return words[0]

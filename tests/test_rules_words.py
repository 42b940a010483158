"""The classes of corpus/annotation-words.tsv that no rule row's example exercises: each one
read where its module reads it, with the reading it makes."""

from __future__ import annotations

import pytest

from yili_kg.loaders.errors import SourceError
from yili_kg.loaders.terms.lexicon import default_lexicon
from yili_kg.loaders.terms.tokens import tokenize
from yili_kg.loaders.terms.words import one_word, word_class


def test_a_class_of_one_word_is_read_as_one_word_and_a_larger_one_refused():
    assert one_word("genitive") == "之"
    with pytest.raises(SourceError, match="must have one word"):
        one_word("negation")


def test_genitive_a_role_before_it_is_not_cut_from_a_place():
    """tokens.py: 主人之席 stays the place; 賓席末 at a clause's start is cut to the subject 賓."""
    lexicon = default_lexicon()
    first = tokenize("主人之席前", lexicon)[0]
    assert first.text == "主人之席前" and first.of("place")
    assert tokenize("賓席末答拜", lexicon)[0].of("role") == "賓"
    assert word_class("genitive") == ("之",)

"""Property-based tests (hypothesis): the clause splitter, the variant folding and the
annotator hold their contracts on any string of the text's characters and punctuation,
not only on the chapter they were written for.

The strings are drawn from the characters of the real base text, the variant table, the
punctuation the splitter cuts at, the quotation marks, and any CJK ideograph.
"""

from __future__ import annotations

import os
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yili_kg.loaders.annotation.annotations import KEYS, format_events, parse_events
from yili_kg.loaders.variants import PUNCTUATION, fold, strip_punctuation, variant_pairs
from yili_kg.loaders.witnesses.texts import CLAUSE_BREAK, SENTENCE_END, normalise, split_passages

# 150 examples a test keep the file under ten seconds; YILI_HYPOTHESIS_EXAMPLES=5000 digs deeper
SETTINGS = settings(
    max_examples=int(os.environ.get("YILI_HYPOTHESIS_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@cache
def text_characters() -> str:
    """The distinct characters of the base text and of the variant table."""
    from yili_kg.loaders.witnesses.texts import read_base

    raw, _ = read_base()
    chars = {c for c in raw if not c.isspace() and c not in PUNCTUATION}
    for variant, base in variant_pairs().items():
        chars |= {variant, base}
    return "".join(sorted(chars))


MARKS = SENTENCE_END + CLAUSE_BREAK + "「」、"


def characters() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(text_characters()),
        st.sampled_from(MARKS),
        st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF),  # any CJK ideograph
        st.sampled_from("觯适迎宾 \u3000"),  # simplified forms, the spaces the witness has
    )


cjk_text = st.text(alphabet=characters(), max_size=60)
# a clause, as the annotator gets it: no clause break inside (quotations aside)
clause_text = st.text(
    alphabet=st.one_of(
        st.sampled_from(text_characters()),
        st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF),
        st.sampled_from("「」"),
    ),
    min_size=1,
    max_size=24,
)


# ---------------------------------------------------------------- the clause splitter


@st.composite
def witnesses(draw) -> str:
    """A base-text witness: the page title, 原文, paragraphs (one may be the 記), 簡介."""
    paragraphs = draw(st.lists(cjk_text, min_size=1, max_size=6))
    if draw(st.booleans()):
        paragraphs.append("記。" + draw(cjk_text))
    body = "\n\n".join(paragraphs)
    return f"鄉射禮:頁\n\n原文\n\n{body}\n\n簡介\n\n今人之說。"


@SETTINGS
@given(witnesses())
def test_splitter_offsets_lie_inside_the_text_and_give_its_characters(raw):
    passages = list(split_passages(raw))
    reading = normalise(raw)
    assert len(reading) == len(raw)  # corrections are one character for one
    begin, finish = raw.index("原文") + 2, raw.index("簡介")
    ids = [p.id for p in passages]
    assert len(ids) == len(set(ids))  # ids are unique
    by_id = {p.id: p for p in passages}
    for p in passages:
        assert begin <= p.start <= p.end <= finish, p
        assert p.witness_text == raw[p.start : p.end]
        assert p.text == reading[p.start : p.end]
        if p.level in ("clause", "sentence", "paragraph"):
            assert p.text and p.text.strip() == p.text  # never empty, never padded
        if p.parent is not None:
            parent = by_id[p.parent]  # a clause lies inside its sentence, a sentence in its
            assert parent.start <= p.start and p.end <= parent.end  # paragraph
        if p.level == "clause":
            outside = _outside_quotes(p.text)
            assert not any(c in CLAUSE_BREAK for c in outside), p.text  # cut at every break
            assert p.speech == tuple(_quotes(p.text))


@SETTINGS
@given(witnesses())
def test_clauses_cover_every_character_between_the_breaks(raw):
    """Nothing of the text is lost: every non-punctuation character of the 經 and 記 lies in
    one clause, in order."""
    clauses = [p for p in split_passages(raw) if p.level == "clause"]
    covered = set()
    last_end = -1
    for clause in clauses:
        assert clause.start >= last_end  # in text order, not overlapping
        last_end = clause.end
        covered |= set(range(clause.start, clause.end))
    begin, finish = raw.index("原文") + 2, raw.index("簡介")
    for offset in range(begin, finish):
        char = raw[offset]
        if char.isspace() or char in SENTENCE_END + CLAUSE_BREAK + "「」":
            continue
        if _is_ji_heading(raw, offset):
            continue
        assert offset in covered, (offset, char, raw[max(offset - 5, 0) : offset + 5])


def _is_ji_heading(raw: str, offset: int) -> bool:
    """The 記 of a line opening with 記。 is a heading, not a clause."""
    return raw[offset] == "記" and raw[offset + 1 : offset + 2] == "。" and raw[offset - 1] == "\n"


def _outside_quotes(text: str) -> str:
    depth, out = 0, []
    for char in text:
        if char == "「":
            depth += 1
        elif char == "」":
            depth = max(depth - 1, 0)
        elif depth == 0:
            out.append(char)
    return "".join(out)


def _quotes(text: str) -> list[str]:
    depth, begin, out = 0, 0, []
    for index, char in enumerate(text):
        if char == "「":
            if depth == 0:
                begin = index + 1
            depth += 1
        elif char == "」" and depth:
            depth -= 1
            if depth == 0:
                out.append(text[begin:index])
    return out


# ---------------------------------------------------------------- variant folding


@SETTINGS
@given(cjk_text)
def test_folding_is_idempotent_and_keeps_offsets(text):
    folded = fold(text)
    assert fold(folded) == folded
    assert len(folded) == len(text)  # offsets in the folded text are offsets in the text
    for char, base in zip(text, folded, strict=True):
        assert (char in PUNCTUATION) <= (base == char)  # punctuation is never folded


@SETTINGS
@given(cjk_text)
def test_stripping_punctuation_keeps_each_characters_offset(text):
    kept, offsets = strip_punctuation(text)
    assert len(kept) == len(offsets)
    assert all(text[i] == c for i, c in zip(offsets, kept, strict=True))
    assert offsets == sorted(set(offsets))
    assert not any(c in PUNCTUATION for c in kept)
    assert len(kept) == sum(1 for c in text if c not in PUNCTUATION)


def test_folding_settles_every_pair_of_the_table():
    """Exhaustive on the table (small): a variant and its base fold to the same character."""
    for variant, base in variant_pairs().items():
        assert fold(variant) == fold(base)
        assert fold(fold(variant)) == fold(variant)


# ---------------------------------------------------------------- the annotator


@cache
def lexicon():
    """The ontology's labels (a plain function, not a fixture: hypothesis would print it)."""
    from yili_kg.loaders.terms.lexicon import default_lexicon

    return default_lexicon()


@SETTINGS
@given(st.lists(clause_text, min_size=1, max_size=4))
def test_annotator_gives_well_formed_records_for_any_clause(texts):
    from yili_kg.loaders.annotation.annotate import Context, annotate_clause

    context = Context()  # the clauses of one sentence, with the context running through
    for number, text in enumerate(texts, start=1):
        record = annotate_clause(f"jing/1.1.{number}", text, lexicon(), context)
        assert record.id == f"jing/1.1.{number}" and record.text == text
        if not record.events:
            assert record.reason  # a clause without events says why
        for event in record.events:
            assert event.modifier or event.kind in lexicon().forms["action"], event.kind
            assert set(event.fields) <= set(KEYS), event.fields
            assert set(event.marks) <= set(event.fields)
            assert set(event.marks.values()) <= {"?", "^"}
            for key, values in event.fields.items():
                assert isinstance(values, tuple) and values and all(values), (key, values)
        # the record can be written to its TSV line and read back unchanged
        line = format_events(record.events, record.reason)
        assert "\t" not in line and "\n" not in line
        again = parse_events(line)
        assert format_events(again, record.reason) == line
        assert [(e.kind, e.fields, e.marks) for e in again] == [
            (e.kind, e.fields, e.marks) for e in record.events
        ]

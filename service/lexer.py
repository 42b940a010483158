"""One tokenizer of SPARQL text for the service's checks (詞法): what a query names, where its
WHERE group is, whether it names a dataset.

It is not a parser (the store parses); it only has to agree with the parser on where
comments, strings and IRIs begin and end, so that a keyword or a brace inside them is not
taken for one outside. The endpoint's refusal of ``SERVICE`` does not rely on it
(:mod:`sparql` scans the raw text for the word as well).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

# Linear on any text (tested on 20 KB of every shape that made it quadratic): each
# quantifier is possessive, so a failed match never backtracks; a string that does not
# close runs to the end of its line (or of the text), where the parser fails too, instead of
# failing here and being tried again from every quote after it (so a lone backslash is
# taken, too, not failed on); a run of name characters
# is taken whole once, and split below when no colon makes it a prefixed name.
_TOKEN = re.compile(
    r"""(?P<comment>\#[^\n]*+)
      | (?P<string>\"\"\"(?:[^"\\]|\\.?|"(?!""))*+(?:\"\"\"|\Z)
                  |'\'\'(?:[^'\\]|\\.?|'(?!''))*+(?:'\'\'|\Z)
                  |"(?:[^"\\\n]|\\.?)*+(?:"|(?=\n)|\Z)
                  |'(?:[^'\\\n]|\\.?)*+(?:'|(?=\n)|\Z))
      | (?P<iri><[^<>"{}|^`\\\s]*+>)
      | (?P<var>[?$]\w++)
      | (?P<word>(?:[^\W\d][\w.\-]*+)?:(?:[\w.\-:%]|\\.)*+  # a prefixed name (escapes too)
                |[^\W\d][\w.\-]*+)  # a keyword, or a run of them split by _RUN
      | (?P<other>\S)""",
    re.X,
)
#: a run of name characters that holds no colon, as the parser reads it: words and the
#: characters between them (``a.b`` is ``a``, ``.``, ``b``)
_RUN = re.compile(r"[^\W\d][\w\-]*+|\S")
#: what may hold a # that starts no comment, then a comment: the tokenizer's own patterns,
#: possessive as they are (linear on any text)
_COMMENT = re.compile(
    r"""(?P<string>\"\"\"(?:[^"\\]|\\.?|"(?!""))*+(?:\"\"\"|\Z)
                  |'\'\'(?:[^'\\]|\\.?|'(?!''))*+(?:'\'\'|\Z)
                  |"(?:[^"\\\n]|\\.?)*+(?:"|(?=\n)|\Z)
                  |'(?:[^'\\\n]|\\.?)*+(?:'|(?=\n)|\Z))
      | (?P<iri><[^<>"{}|^`\\\s]*+>)
      | (?P<comment>\#[^\n]*+)""",
    re.X,
)


def without_comments(text: str) -> str:
    """The text with its comments blanked, strings and IRIs kept (a # in them is no comment).

    >>> without_comments('SELECT * { ?s <a:b#c> "#d" } # with FROM')
    'SELECT * { ?s <a:b#c> "#d" }  '
    """
    if "#" not in text:
        return text
    return _COMMENT.sub(lambda m: " " if m.lastgroup == "comment" else m.group(), text)


#: keywords that Oxigraph still reads as such when a prefixed name is glued to them (FROM:g)
GLUED = {"SERVICE", "FROM", "NAMED"}
FORMS = ("SELECT", "CONSTRUCT", "ASK", "DESCRIBE")


class Token(NamedTuple):
    kind: str  # string | iri | var | word (keyword or prefixed name) | other (one character)
    value: str
    start: int


def tokens(text: str) -> Iterator[Token]:
    """The tokens of ``text``, comments left out; ``FROM:g`` comes as ``FROM`` and ``:g``.

    >>> [t.value for t in tokens('SELECT * FROM:g { ?s <a:b> "}" } # }')]
    ['SELECT', '*', 'FROM', ':g', '{', '?s', '<a:b>', '"}"', '}']
    """
    for match in _TOKEN.finditer(text):
        kind, value, start = match.lastgroup or "", match.group(), match.start()
        if kind == "comment":
            continue
        head, colon, rest = value.partition(":")
        if kind == "word" and colon and head.upper() in GLUED:
            yield Token("word", head, start)
            yield Token("word", ":" + rest, start + len(head))
        elif kind == "word" and not colon and "." in value:
            for part in _RUN.finditer(value):
                word = part.group()
                is_word = word[0].isalpha() or word[0] == "_"
                yield Token("word" if is_word else "other", word, start + part.start())
        else:
            yield Token(kind, value, start)


def keywords(text: str) -> list[tuple[str, int]]:
    """The query's words in upper case, with the depth of braces each stands at.

    >>> keywords("SELECT * { { SELECT ?x {} ORDER BY ?x } } ORDER BY ?y")[-2:]
    [('ORDER', 0), ('BY', 0)]
    """
    out, depth = [], 0
    for token in tokens(text):
        if token.kind == "other" and token.value in "{}":
            depth += 1 if token.value == "{" else -1
        elif token.kind == "word":
            out.append((token.value.upper(), depth))
    return out


#: the comment that says where in a query's WHERE group its parameters are bound (the
#: canned queries that Oxigraph answers faster so: :func:`yili_kg.service.store.bind_values`)
VALUES_MARK = "# VALUES here"


@lru_cache(maxsize=256)
def values_mark(text: str) -> int:
    """Offset of the comment ``# VALUES here`` in ``text`` (a comment, not the same characters
    in a string or an IRI), or -1.

    >>> values_mark('SELECT * { # VALUES here: first\\n ?s ?p "# VALUES here" }')
    11
    >>> values_mark('SELECT * { ?s ?p "# VALUES here" }')
    -1
    """
    if VALUES_MARK not in text:
        return -1
    for match in _COMMENT.finditer(text):
        if match.lastgroup == "comment" and match.group().startswith(VALUES_MARK):
            return match.start()
    return -1


# Both answers below are remembered per query text: the canned queries ask them of the same
# texts on every call, and tokenizing was most of the store's own cost on a fast query (bench
# latency: act-agents 2.5 ms vs 1.3 ms on bare pyoxigraph).
@lru_cache(maxsize=256)
def has_dataset_clause(text: str) -> bool:
    """Whether the query names its own dataset (``FROM``, ``FROM NAMED``).

    >>> has_dataset_clause("SELECT * FROM <g> WHERE { ?s ?p ?o }")
    True
    >>> has_dataset_clause('SELECT ?from WHERE { ?s ex:from "from" } # from')
    False
    """
    return any(word == "FROM" for word, _ in keywords(text))


#: the words by which a query's own text may make an RDF 1.2 triple term (``SERVICE``: a
#: remote answer may hold them)
TRIPLE_MAKERS = {"TRIPLE", "SERVICE"}


@lru_cache(maxsize=256)
def makes_triple_terms(text: str) -> bool:
    """Whether a query may make RDF 1.2 triple terms of its own (the data aside): it calls
    ``TRIPLE(…)``, writes a triple term ``<<( … )>>`` (or ``<< … >>``) or asks a ``SERVICE``.
    A query that does none of these can bind a variable to a triple term only from the data
    (``SUBJECT``/``OBJECT`` need one to begin with). Conservative: ``<<`` in a string counts.

    >>> makes_triple_terms('SELECT ?t { BIND(triple(<a:s>, <a:p>, "o") AS ?t) }')
    True
    >>> makes_triple_terms("SELECT ?t { VALUES ?t { <<( <a:s> <a:p> 1 )>> } }")
    True
    >>> makes_triple_terms('SELECT ?s { ?s <a:triple> "TRIPLE(" } # after every triple')
    False
    """
    upper = text.upper()
    if "<<" not in text and not any(word in upper for word in TRIPLE_MAKERS):
        return False  # most queries: no tokenizing
    if "<<" in without_comments(text):
        return True
    return any(word in TRIPLE_MAKERS for word, _ in keywords(text))


@lru_cache(maxsize=256)
def where_group(text: str) -> tuple[int, int]:
    """Offsets of the braces that open and close the query's WHERE group (-1 if none).

    >>> q = 'CONSTRUCT { ?s ?p "{" } WHERE { ?s ?p ?o } # }'
    >>> start, end = where_group(q)
    >>> q[start:end + 1]
    '{ ?s ?p ?o }'
    """
    form, depth, opening = None, 0, -1
    stream = list(tokens(text))
    for i, token in enumerate(stream):
        if token.kind == "word" and form is None and token.value.upper() in FORMS:
            form = token.value.upper()
        if token.kind != "other" or form is None:
            continue
        if token.value == "{":
            if depth == 0 and opening < 0:
                opening = token.start
            depth += 1
        elif token.value == "}" and opening >= 0:
            depth -= 1
            if depth == 0:
                after = stream[i + 1] if i + 1 < len(stream) else None
                template = (
                    form == "CONSTRUCT"
                    and after is not None
                    and (after.value == "{" or after.value.upper() == "WHERE")
                )
                if not template:
                    return opening, token.start
                opening = -1  # that was the template; the WHERE group follows
    return opening, -1

"""Other forms of a value a reader typed (異體): the same words in the other script.

A canned query's ``text`` parameter is matched as written (``term-commentary`` looks for the
words in the notes, which are in traditional characters): given 献 it would find nothing.
When an answer is empty, the query is asked again with each other form of its text values —
traditional (OpenCC ``s2t``) and simplified (``t2s``) — and the page says which forms were
tried and which one answered. A label that names no term says the same (see ``Resolver``).
"""

from __future__ import annotations

from functools import cache

import opencc


@cache
def _opencc(config: str):

    return opencc.OpenCC(config)


def alternatives(value: str) -> list[tuple[str, str]]:
    """(form, how) for each other script of ``value``, without repeats.

    >>> alternatives("献")
    [('獻', 'traditional')]
    >>> alternatives("bow")
    []
    """
    seen, out = {value}, []
    for config, how in (("s2t", "traditional"), ("t2s", "simplified")):
        form = _opencc(config).convert(value)
        if form not in seen:
            seen.add(form)
            out.append((form, how))
    return out


def answer_in_forms(canned, name: str, values: dict[str, str]):
    """(query, values answered, forms tried) of a canned query: when the answer is empty, the
    first other form of a text value that has an answer; ``tried`` lists every (parameter,
    form, how) asked, the given forms first (empty when the first answer had rows). The
    answer itself is ``canned.answer(name, values answered)``, remembered by then.
    """
    query, empty = canned.empty(name, values)
    if not empty:
        return query, values, []
    given = {p.name: values.get(p.name, p.default) for p in query.params}
    tried = [(p.name, given[p.name], "as given") for p in query.params if p.type == "text"]
    for p in query.params:
        if p.type != "text":
            continue
        for form, how in alternatives(given[p.name]):
            tried.append((p.name, form, how))
            other = {**values, p.name: form}
            if not canned.empty(name, other)[1]:
                return query, other, tried
    return query, values, tried

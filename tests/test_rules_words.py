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


def test_a_piece_s_title_is_one_word_whatever_terms_its_characters_spell():
    """tokens.py: the titles the punctuated edition marks 《…》 are one token of category title
    where the text has no marks (鄉飲酒禮 歌南有嘉魚: no direction 南; 笙入…樂南陔、白華、華黍),
    so that 魚 and 黍 can be terms of things without reading the songs as fish and millet."""
    lexicon = default_lexicon()
    tokens = tokenize("歌南有嘉魚", lexicon)
    assert [(t.text, t.of("title")) for t in tokens] == [("歌", None), ("南有嘉魚", "南有嘉魚")]
    assert [
        t.of("title") for t in tokenize("樂南陔、白華、華黍", lexicon) if "title" in t.kinds
    ] == [
        "南陔",
        "白華",
        "華黍",
    ]
    assert tokenize("乃奏《騶虞》以射", lexicon)[2].of("title") == "騶虞"
    assert "勺" not in word_class("title")  # one character: also the ladle


def test_a_label_matches_the_text_as_the_text_is_read():
    """tokens.py: the text is read through the variants table and OpenCC (棁, outside Big5, is
    read 梲; 御 is read 禦), so a label is matched in that reading too: 坐棁手 is 坐 and the act
    棁手 (鄉飲酒禮 賓…坐棁手), 御 the role."""
    lexicon = default_lexicon()
    tokens = tokenize("坐棁手", lexicon)
    assert [t.of("action") for t in tokens] == ["坐", "棁手"]
    assert tokenize("御于公", lexicon)[0].of("role") == "御"


def test_the_annotator_names_classes_by_their_labels_and_postures_by_their_frame():
    """annotate.py: the speech acts (yl:Speech), 曰 (yl:Yue), the officers (yl:Officiant) …
    are the ontology's classes by their zh-Hant labels; the postures that take a facing named
    after them are yl:takesLaterFacing (進 is no posture: it keeps no facing)."""
    from yili_kg.loaders.annotation.annotate import annotate_text, quote_unmarked
    from yili_kg.loaders.annotation.annotations import format_events
    from yili_kg.loaders.iris import YL

    lexicon = default_lexicon()
    assert [lexicon.label(c) for c in (YL.Speech, YL.Yue, YL.Ci, YL.Salutation)] == [
        "辭令",
        "曰",
        "辭",
        "拜揖",
    ]
    assert [lexicon.label(c) for c in (YL.Officiant, YL.Attendant, YL.Archer, YL.Zhu)] == [
        "司事者",
        "執事",
        "射者",
        "注",
    ]
    with pytest.raises(KeyError):
        lexicon.label(YL.agent)  # a property, no class
    assert lexicon.frames["takesLaterFacing"] == {"坐", "立"}
    read = format_events(annotate_text(["司射進，坐，南面取弓"])[0])
    assert read == "進 agent=司射 ; 坐 agent=司射 face=南 ; 取 agent=司射 theme=弓 face=南"
    assert quote_unmarked("司射命上射曰某御於子") == "司射命上射曰「某御於子」"


def test_a_role_after_jin_is_the_one_it_is_done_to_not_a_place():
    """annotate.py: 進 is a yl:goalObject movement (進 + a place is where one goes), but a role
    after it is yl:roleIsRecipient: the one the cup is brought to (執膳爵者酌以進公); so is 視
    (視侯中: what is looked at; 視上射: the one looked at), 就 (就物: where one goes; 就其耦:
    the one gone to) and 出迎 (聘禮 出迎勞者: the one gone out to meet)."""
    from yili_kg.loaders.annotation.annotate import annotate_text
    from yili_kg.loaders.annotation.annotations import format_events

    lexicon = default_lexicon()
    assert lexicon.frames["roleIsRecipient"] == {"進", "視", "就", "出迎"} and lexicon.has(
        "進", "goalObject"
    )
    read = format_events(annotate_text(["執膳爵者酌以進公"])[0])
    assert "進 " in read and "to=公" in read and "dest=公" not in read


@pytest.mark.parametrize("suffix", word_class("place-suffix"))
def test_place_suffix_after_an_object_at_the_clause_end_is_one_place(suffix):
    """annotate.py (noun_phrase): 奠爵于篚下 is set down below the basket, a place as written."""
    from yili_kg.loaders.annotation.annotate import annotate_text
    from yili_kg.loaders.annotation.annotations import format_events

    read = format_events(annotate_text([f"奠爵于篚{suffix}"])[0])
    assert read == f"奠 theme=爵 dest=篚{suffix} noagent=unstated"
    assert set(word_class("place-suffix")) == set("上下前後中")


def test_place_inside_after_a_place_is_one_place_not_after_a_thing():
    """annotate.py (suffix_place): 少牢饋食禮 立于户内, 户内北面拜: inside the chamber door, one
    place as written, at the clause's end or before a facing; 以巾内拂矢 wipes inward; 户外坐
    (特牲饋食禮): outside it, as 户内."""
    from yili_kg.loaders.annotation.annotate import annotate_text
    from yili_kg.loaders.annotation.annotations import format_events

    inside = word_class("place-inside")[0]
    assert format_events(annotate_text([f"祝立于户{inside}"])[0]) == f"立 agent=祝 at=户{inside}"
    read = format_events(annotate_text([f"主婦户{inside}北面拜"])[0])
    assert read == f"拜 agent=主婦 at=户{inside} face=北"
    assert "at=" not in format_events(annotate_text([f"小臣師以巾{inside}拂矢"])[0])
    assert word_class("place-inside") == ("内", "外")  # (the text writes 内; 內 is read as 内)
    outside = word_class("place-inside")[1]  # 特牲饋食禮 户外坐: outside the door, as 户内
    read = format_events(annotate_text([f"宗婦户{outside}坐"])[0])
    assert read == f"坐 agent=宗婦 at=户{outside}"


def test_the_reader_s_helpers_read_genitive_and_the_words_of_the_rules_they_defer_to():
    """annotate.py: X之Y of a role and a place is one place (the genitive 之); a compass word
    before 面 or 上 (the facing and upper rules' words) is not joined to the place before it;
    a role after 與 or 、 (one-more's words, the and-token) belongs to the act before it."""
    from yili_kg.loaders.annotation.annotate import annotate_text
    from yili_kg.loaders.annotation.annotations import format_events

    read = [format_events(e) for e in annotate_text(["司射適堂西", "立于三耦之北"])]
    assert read[1] == "立 agent=司射^ at=三耦之北"
    for joined in (
        "主人獻工與笙拜",
        "主人獻工及笙拜",
        "主人獻工、笙拜",
    ):  # 笙: offered to, no subject
        assert format_events(annotate_text([joined])[0]) == "獻 agent=主人 to=工,笙 ; 拜 agent=主人"
    assert (
        format_events(annotate_text(["主人阼階東西面拜"])[0]) == "拜 agent=主人 at=阼階東 face=西"
    )


def test_description_a_clause_beginning_with_it_has_no_act():
    """annotate.py: 南北以堂深 measures a thing (— description), whatever its words."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    assert word_class("description") == ("南北", "東西", "言")
    for text in ("南北以堂深", "東西當東榮", "言使臣"):
        record, _ = annotate_example(text)
        assert (record.events, record.reason) == ([], "description"), text
    # a list of the pieces played (class pieces): the 卷 of 卷耳 is no act
    assert word_class("pieces") == ("周南", "召南")
    record, _ = annotate_example("乃合樂，周南關雎葛覃卷耳，召南鵲巢采蘩采蘋")
    assert (record.events, record.reason) == ([], "description")
    record, _ = annotate_example("乃合樂，周南關雎葛覃卷耳")
    assert (record.events, record.reason) == ([], "description")


def test_a_clause_saying_who_does_an_act_is_a_description():
    """annotate.py: X者 (said-who) before a clause that is only a person and 也 (said-who-end)
    says who does X (記 羞卿者，小膳宰也, 注: 膳宰之佐也): no act of the X者."""
    from yili_kg.loaders.annotation.annotate import _annotate, example_clauses

    assert (one_word("said-who"), one_word("said-who-end")) == ("者", "也")
    clauses, notes = example_clauses("記：羞膳者與執冪者，皆士也。羞卿者，小膳宰也")
    read = {r.text: (r.events, r.reason) for r, _ in _annotate(clauses, default_lexicon(), notes)}
    assert read["羞卿者"] == ([], "description")


def test_condition_words_the_clause_stating_it_and_the_clauses_it_governs():
    """annotate.py: a clause with 若 (the rule if's word) and no 則 (condition-then) only states
    a condition, and so does one followed by 則Y; 其X，則… (condition-topic) is about X; 若飲君
    (the 記 of 鄉射禮 and 燕禮: the ruler made to drink, 注 謂君在不勝之黨) is a condition too."""
    from yili_kg.loaders.annotation.annotate import annotate_example, is_condition
    from yili_kg.loaders.annotation.annotations import format_events

    assert (one_word("condition-then"), one_word("condition-topic")) == ("則", "其")
    assert is_condition("若矢不備") and is_condition("大夫若有遵者")
    assert not is_condition("若矢不備則司馬命取矢") and is_condition("若飲君")
    cases = {
        "若矢不備，則司馬命取矢": "命 agent=司馬 cond=若矢不備",
        "大夫若有遵者，則入門左": "入 agent=大夫^ dest=門左 cond=若有遵者",
        "主人獻工。其笙，則獻諸西階上": "獻 agent=主人^ to=笙? at=西階上 cond=其笙",
        "主人獻工。大師則為之洗": "洗 agent=主人^ to=大師",
        "若飲君，如燕": "如 cond=若飲君 like=燕 noagent=unstated",
    }
    for example, expected in cases.items():
        record, _ = annotate_example(example)
        assert format_events(record.events, record.reason) == expected, example
    first, _ = annotate_example("若矢不備")
    assert first.reason == "cond"


def test_the_examples_format_reads_the_division_and_the_note_kind_from_the_data():
    """annotate.py: 記： (the division ji's name) puts an example in the 記, 〔注：…〕 (yl:Zhu's
    label) is the 注 on its clause; the marks around them are the format."""
    from yili_kg.loaders.annotation.annotate import example_clauses

    clauses, notes = example_clauses("記：主人拜〔注：拜賓也〕。賓答拜")
    assert [(c.id, c.text) for c in clauses] == [("ji/2.1.1", "主人拜"), ("ji/2.2.1", "賓答拜")]
    assert notes == {"ji/2.1.1": ("拜賓也",)}


def test_no_vocabulary_literal_in_the_annotator_s_and_tokens_code():
    """Issue 16: annotate.py, discourse.py and tokens.py hold the mechanism only; a Chinese
    string in their code (not a docstring) is a mark of the text's format (「」, 〔〕, ，；。 …),
    never a word."""
    import ast
    import re
    from pathlib import Path

    import yili_kg.loaders.annotation.annotate as annotate
    import yili_kg.loaders.annotation.discourse as discourse
    import yili_kg.loaders.terms.tokens as tokens

    marks = set("「」〔〕《》：，。；、！？·") | {".", "*", "?"}
    for module in (annotate, discourse, tokens):
        tree = ast.parse(Path(str(module.__file__)).read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        words = [
            (node.lineno, node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and re.search(r"[\u3400-\u9fff]", node.value)
            and not set(node.value) <= marks
        ]
        assert words == [], (module.__name__, words)


def test_arrangement_words_after_an_adverb_are_no_act():
    """annotate.py (is_description): 少牢饋食禮 皆進下, 亦進下, 進腴: which end of the meat lies
    forward on the stand, no act of going forward, after 皆 or 亦 too."""
    from yili_kg.loaders.annotation.annotate import annotate_text
    from yili_kg.loaders.annotation.annotations import format_events

    assert {"進下", "進腴", "進末", "進腠"} <= set(word_class("arrangement"))
    for text in ("體其載于俎，皆進下", "亦進下", "進腴"):
        assert format_events(annotate_text(text.split("，"))[-1]) == "—"


@pytest.mark.parametrize(
    ("text", "place"),
    [("賓西階上北鄉", "西階上"), ("公當楣北鄉", "楣"), ("賓西階上北面", "西階上")],
)
def test_a_compass_word_before_xiang_is_a_facing_not_the_end_of_the_place(text, place):
    """北鄉 faces north as 北面 does (rule facing: 面, 鄉): after a place, the compass word is
    the facing, not a side of the place (西階上北, 楣北)."""
    from yili_kg.loaders.annotation.annotate import annotate_example

    record, _ = annotate_example(text)
    (event,) = record.events
    assert event.fields["at"] == (place,) and event.fields["face"] == ("北",)

"""The web 注疏 seeds (卷十三, 卷十一) read and collated against the Kanripo TSV: real files."""

import pytest

from yili_kg.loaders.corpus import witness_path
from yili_kg.loaders.witnesses.kanripo import rite_rows
from yili_kg.loaders.witnesses.webzhushu import WebBlock, collate_web, read_web_zhushu

WEB13, WEB11 = "xiangshe-zhushu-web-13", "xiangshe-zhushu-web-11"
ROWS = {r.row: r for r in rite_rows("xiangshe")}


@pytest.fixture(scope="module")
def collations():
    return {witness: collate_web(witness) for witness in (WEB13, WEB11)}


def _match(collation, opening):
    return next(m for m in collation.matches if m.block.text.startswith(opening))


def test_reader_skips_the_page_debris_and_starts_mid_sentence():
    blocks = read_web_zhushu(witness_path(WEB13))
    text = "、脅、肩、肺。主人俎，脊、脅、臂、肺。肺皆離。皆右體也。進腠。"
    assert blocks[0] == WebBlock("經", text, 6)
    assert blocks[1].kind == "注" and blocks[1].text.startswith("以骨名肉，貴骨也。")
    assert blocks[2].kind == "疏" and blocks[2].line == 18


def test_the_page_captured_twice_is_read_once(collations):
    assert collations[WEB13].repeated == (206, 404)  # lines 206-404 repeat lines 7-205
    assert collations[WEB11].repeated == (185, 362)  # lines 185-362 repeat lines 7-184
    texts = [b.text for b in collations[WEB13].blocks]
    assert sum(t.startswith("“賓俎”至“進腠”。") for t in texts) == 1


def test_web11_begins_inside_a_shu():
    first = read_web_zhushu(witness_path(WEB11))[0]
    assert (first.kind, first.line) == ("疏", 6)
    assert first.spans == (("經", "興少", "觯南"), ("注", "立觯", "擯位"))


def test_a_shu_ends_where_the_next_jing_begins():
    blocks = read_web_zhushu(witness_path(WEB11))
    i = next(i for i, b in enumerate(blocks) if b.text.startswith("“主人”至“序東”。"))
    assert blocks[i].text.endswith("此主人弓矢如上也。")
    after = blocks[i + 1]
    assert (after.kind, after.line) == ("經", 125)
    assert after.text.startswith("司射不釋弓矢，遂以比三耦于堂西。")
    assert after.text.endswith("命下射曰：“子與某子射。”")
    # ``” 司射降自西階`` (line 95): the ” closes the 疏's quotation; two 經 segments follow
    jing = [b for b in blocks if b.kind == "經" and b.line in (94, 95)]
    assert [b.text for b in jing] == [
        "司射?阼階上，東北面告于主人，曰：“請射于賓，賓許。”",
        "司射降自西階，階前西面，命弟子納射器。",
    ]


def test_span_quotes_of_one_phrase_and_of_the_note_alone():
    blocks = read_web_zhushu(witness_path(WEB13))
    spans = {b.text.split("。")[0]: b.spans for b in blocks if b.kind == "疏"}
    assert spans["“凡奠者于左”"] == (("經", "凡奠者于左", ""),)
    assert spans["注“謂獻”至“有薦”"] == (("注", "謂獻", "有薦"),)
    assert spans["“凡畫者質丹”"] == (("經", "凡畫者質丹", ""), ("注", "賓射", "于赤"))


def test_every_shu_with_a_span_quote_matches_a_kanripo_shu_row(collations):
    for collation in collations.values():
        shu = [m for m in collation.matches if m.block.kind == "疏" and m.block.spans]
        assert shu
        for m in shu:
            assert m.row is not None and ROWS[m.row].kind == "疏", m.block.text[:20]
        assert set(collation.span_quotes) == {m.row for m in shu}


def test_binzu_shu_maps_to_its_row_with_its_span_quotes(collations):
    m = _match(collations[WEB13], "“賓俎”至“進腠”。")
    assert m.row == 1092
    jing = ROWS[1089]
    assert jing.kind == "經" and jing.text.startswith("賓俎脊脅肩肺")
    assert ROWS[1092].kind == "疏" and ROWS[1092].segment == jing.segment
    assert collations[WEB13].span_quotes[1092] == (("經", "賓俎", "進腠"), ("注", "以骨", "體也"))


def test_almost_every_note_and_shu_is_matched(collations):
    notes = [m for c in collations.values() for m in c.matches if m.block.kind in ("注", "疏")]
    matched = sum(m.row is not None for m in notes)
    assert len(notes) == 66
    assert matched / len(notes) >= 0.95  # measured: 66 of 66


def test_unmatched_blocks_are_reported(collations):
    # the 注 of 旌各以其物 lost its （ and is cut off where the captured page ends
    assert [(b.line, b.text) for b in collations[WEB13].unmatched] == [
        (204, "旌，總名也。"),
        (205, "雜帛為物，大夫士之"),
    ]
    assert collations[WEB11].unmatched == ()


def test_yun_for_yun_is_a_transcription_fault_not_a_variant(collations):
    m = _match(collations[WEB13], "“賓俎”至“進腠”。")
    yun = [d for d in m.differences if d.web == "雲"]
    assert len(yun) == 12
    assert all(d.kind == "s2t" and d.fault and d.kanripo == "云" for d in yun)
    every = [d for c in collations.values() for m in c.matches for d in m.differences]
    assert not any(d.web == "雲" and d.kanripo == "云" and not d.fault for d in every)


def test_lost_and_split_characters_are_faults(collations):
    differences = _match(collations[WEB13], "“賓俎”至“進腠”。").differences
    found = {(d.web, d.kanripo): d.kind for d in differences}
    assert found[("?", "臑")] == "lost"
    assert found[("?專", "膞")] == "lost"
    assert found[("扌奎", "㨒")] == "split"
    assert found[("即", "既")] == "variant"  # 所食即肉 / 所食既肉: a reading, not a fault


def test_real_differences_point_into_both_texts(collations):
    m = _match(collations[WEB13], "“将舉者于右”。")
    assert m.row == 1103
    (d,) = [d for d in m.differences if not d.fault]
    assert (d.kind, d.web, d.kanripo) == ("variant", "後", "便")  # 于薦右後舉之 / 於薦右便舉之
    for collation in collations.values():
        for m in collation.matches:
            for d in m.differences:
                assert m.block.text[d.web_start : d.web_end] == d.web
                assert ROWS[m.row].text[d.row_start : d.row_end] == d.kanripo


def test_shu_divided_otherwise_between_jing_and_zhu_is_a_label(collations):
    # web: “衆賓”至“賓禮”。○注“尊之于其黨”。○釋曰：此獻三賓…; Kanripo: 釋曰此獻三賓…
    m = _match(collations[WEB13], "“衆賓”至“賓禮”。")
    assert [(d.kind, d.web, d.kanripo) for d in m.differences] == [("label", "注", "")]

"""The message table (messages.py, with each variant's MESSAGES and labels.py's texts) as a whole, and how a
message names seats and teams.

mutmut 3 mutates function bodies only: the table's texts are never mutated, so the checks that read the table
as a whole are here (every text in both languages, no key defined twice, the placeholders the two languages
share); the receipts themselves are compared whole, in both languages, by the golden and render tests.
"""

from __future__ import annotations

import re
import string

import pytest

from settlement.rules import baifen, biaofen, draws, erguai, gunzi, hongxingwu, pairs, shengji
from settlement.rules.base import Msg, SeatName, TeamName
from settlement.rules.entry import options_spec
from settlement.rules.labels import FIELD_TEXTS, OPTION_TEXTS
from settlement.rules.messages import COMMON, TABLE, render
from settlement.rules.registry import VARIANTS

SOURCES = [
    COMMON,
    baifen.MESSAGES,
    erguai.MESSAGES,
    biaofen.MESSAGES,
    hongxingwu.MESSAGES,
    gunzi.MESSAGES,
    OPTION_TEXTS,
    FIELD_TEXTS,
    shengji.MESSAGES,
    draws.MESSAGES,
    pairs.MESSAGES,
]
# Texts whose languages word a figure differently: the ordinal (`第 {nth} 个` / `the {bidder}`), the joker count
# (`{j} 张` / `{cards} cards`); the callers pass both.
OWN_PLACEHOLDERS = {
    "error.bid.place_minimum",
    "error.forced.place",
    "gunzi.next.jokers_capture",
    "gunzi.next.jokers_declaring",
}
# zh-Hans texts made of symbols and figures only.
# A seat and its figure, and a list of them: names and numbers, the list joined with a full-width comma.
SYMBOLS_ONLY = {
    "erguai.multiplier",
    "biaofen.band.ge55",
    "biaofen.band.lt55",
    "biaofen.seat_total",
    "biaofen.seat_totals",
}
CJK = re.compile(r"[\u4e00-\u9fff]")


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def test_no_key_is_defined_twice_across_the_merged_tables():
    assert sum(len(source) for source in SOURCES) == len(TABLE)


def test_every_text_is_in_both_languages_and_the_chinese_one_is_chinese():
    for key, texts in TABLE.items():
        assert isinstance(texts, tuple) and len(texts) == 2, key
        zh, en = texts
        assert isinstance(zh, str) and isinstance(en, str) and zh.strip() and en.strip(), key
        assert "None" not in zh and "None" not in en, key  # a value left out when the table was built
        assert key in SYMBOLS_ONLY or CJK.search(zh), key


def test_both_languages_of_a_text_take_the_same_parameters():
    differ = {key for key, (zh, en) in TABLE.items() if _placeholders(zh) != _placeholders(en)}
    assert differ == OWN_PLACEHOLDERS


# labels.py: the `unit_value` help of each variant with a money value names the unit it scores in (its rule file).
UNIT_EN = {"分": "point", "注": "注", "档": "档"}


@pytest.mark.parametrize("variant", ["baifen.classic", "erguai", "biaofen", "gunzi"])
def test_the_unit_value_help_names_the_variants_unit_in_both_languages(variant):
    rules = VARIANTS[variant]
    zh = next(o for o in options_spec(rules, "zh-Hans").options if o.key == "unit_value")
    en = next(o for o in options_spec(rules, "en").options if o.key == "unit_value")
    assert zh.help == f"结账时每{rules.unit}折合多少钱"
    assert en.help == f"money per {UNIT_EN[rules.unit]}, for the settle-up"


@pytest.mark.parametrize(
    ("lang", "names", "expected"),
    [
        # hongxingwu.md's `declarer.free` inside COMMON's `redeal`, a team inside `levels.stop.no_skip`
        ("en", (), "redealt (free declarer: seat 2 (rotation: seat 1)), no score | seat 1·seat 3 may not skip"),
        ("zh-Hans", (), "重新发牌（自由坐庄：2号位（轮庄应为1号位）），不计分 | 1号位·3号位逢"),
        ("en", ("甲", "乙", "丙", "丁"), "redealt (free declarer: 乙 (rotation: 甲)), no score | 甲·丙 may not skip"),
    ],
)
def test_seats_and_teams_are_named_at_any_depth_in_the_language_asked_for(lang, names, expected):
    inner = Msg(key="declarer.free", params={"seat": SeatName(1), "expected": SeatName(0)})
    outer = render(Msg(key="redeal", params={"reason": inner}), lang, names)
    team = render(
        Msg(key="levels.stop.no_skip", params={"team": TeamName((0, 2)), "level": "K", "moved": 1}), lang, names
    )
    prefix = expected.split(" | ")[1]
    assert outer == expected.split(" | ")[0] and team.startswith(prefix)


@pytest.mark.parametrize(("lang", "column"), [("zh-Hans", 0), ("en", 1)])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_variants_options_and_presets_are_labelled_from_the_option_table(variant, lang, column):
    # labels.py: `option.<option_texts>.<name>` (and `.help`, `.<value>`), `preset.<variant>.<key>` (and `.help`,
    # which a preset whose label says it all leaves out: no help then)
    rules = VARIANTS[variant]
    spec = options_spec(rules, lang)
    assert (spec.key, spec.name, spec.unit, spec.zero_sum, spec.player_counts) == (
        variant,
        rules.name["zh-Hans" if column == 0 else "en"],
        rules.unit,
        rules.zero_sum,
        tuple(sorted(rules.player_counts)),
    )
    for option in spec.options:
        base = f"option.{rules.option_texts}.{option.key}"
        assert (option.label, option.help) == (OPTION_TEXTS[base][column], OPTION_TEXTS[f"{base}.help"][column])
        for choice in option.choices:
            label = OPTION_TEXTS.get(f"{base}.{choice.value}", (choice.value, choice.value))[column]
            assert choice.label == label, (option.key, choice.value)
    for preset in spec.presets:
        key = f"preset.{variant}.{preset.key}"
        assert preset.label == OPTION_TEXTS[key][column]
        assert preset.help == OPTION_TEXTS.get(f"{key}.help", ("", ""))[column]
        assert preset.overrides == rules.presets[preset.key]


def test_a_key_the_table_does_not_have_reads_as_itself_in_either_language():
    assert render(Msg(key="no.such.key", params={"n": 1}), "en") == "no.such.key"
    assert render(Msg(key="no.such.key"), "zh-Hans") == "no.such.key"

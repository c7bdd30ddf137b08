"""The engine's message table: receipt steps and error messages in zh-Hans and English.

Keys are stable; `error.<code>` keys hold the texts of `RulesError` codes.
Each variant module keeps its own steps in a `MESSAGES` dict of the same
shape, merged here explicitly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from . import baifen, biaofen, draws, erguai, gunzi, hongxingwu, pairs, shengji
from .base import Lang, Msg, SeatName, TeamName
from .labels import FIELD_TEXTS, OPTION_TEXTS

# key -> (zh-Hans, en)
COMMON: Mapping[str, tuple[str, str]] = {
    "error.document.not_object": ("应为 JSON 对象", "must be a JSON object"),
    "error.field.unknown": ("不认识的字段 {name}（此玩法不用）", "unknown field {name} (this variant does not use it)"),
    "error.field.required": ("必填", "is required"),
    "error.field.not_on_redeal": (
        "重新发牌的一局只能填 dealer、redeal",
        "a redeal hand carries only dealer and redeal",
    ),
    "error.variant.unknown": ("不认识的玩法；可选：{choices}", "unknown variant; one of: {choices}"),
    "error.players.count": ("人数应为 {counts}", "needs {counts} players"),
    "error.players.name": ("玩家名字不能为空", "a player's name must be non-empty text"),
    "error.players.duplicate": ("玩家名字重复", "player names must differ"),
    "error.option.unknown": ("不认识的选项 {name}", "unknown option {name}"),
    "error.preset.unknown": (
        "此玩法没有预设 {name}；可选：{choices}",
        "this variant has no preset {name}; one of: {choices}",
    ),
    "error.option.invalid": ("应为：{expected}", "must be: {expected}"),
    "error.value.not_integer": ("应为整数", "must be an integer"),
    "error.value.not_count": ("应为不小于 0 的整数", "must be an integer ≥ 0"),
    "error.value.not_bool": ("应为 true 或 false", "must be true or false"),
    "error.value.not_choice": ("应为 {choices} 之一", "must be one of {choices}"),
    "error.value.not_list": ("应为列表", "must be a list"),
    "error.value.not_object": ("应为对象", "must be an object"),
    "error.value.not_text": ("应为文字", "must be text"),
    "error.value.not_date": ("应为日期 YYYY-MM-DD", "must be a date YYYY-MM-DD"),
    "error.seat.invalid": ("座位应为 0–{last} 的整数", "must be a seat, an integer 0–{last}"),
    "error.points.not_multiple_of_5": ("分数 {value} 不是 5 的倍数", "points {value} are not a multiple of 5"),
    "error.points.over_deck": ("{value} 分超过整副牌的 {total} 分", "{value} points are more than the deck's {total}"),
    "error.multiplier.not_power_of_two": ("倍数应为 2 的幂（2、4、8……）", "must be a power of two ≥ 2 (2, 4, 8 …)"),
    "error.jokers.out_of_range": ("应为 0–3", "must be 0–3"),
    "error.bid.required": ("必须填叫分", "a bid is required"),
    "error.bid.out_of_range": ("叫分应为 {low}–{high}，5 的倍数", "the bid must be {low}–{high} in steps of 5"),
    "error.partner.is_declarer": ("朋家不能是庄家本人", "the partner cannot be the declarer"),
    "error.redeal.reason": (
        "此玩法不允许这种重发理由；可选：{choices}",
        "this variant does not allow that redeal reason; one of: {choices}",
    ),
    "error.options.inconsistent": ("选项不一致：{detail}", "inconsistent options: {detail}"),
    # The details of an inconsistent level ladder (levels.check_ladder), naming the option as the form does.
    "options.ladder_rising": ("级牌顺序应从低到高，至少两级", "ladder must rise strictly, at least 2 levels"),
    "options.level_below_last": (
        "{option}的 {name} 应在级牌顺序上，且不是最后一级",
        "{option} level {name} must be on the ladder, not its last level",
    ),
    "options.level_on_ladder": ("{option} {name} 不在级牌顺序上", "{option} {name} is not on the ladder"),
    "options.must_defend": ("必打关卡", "must_defend"),
    "options.no_skip": ("不许越级", "no_skip"),
    "options.start_level": ("起始级", "start_level"),
    "redeal": ("重新发牌（{reason}），不计分", "redealt ({reason}), no score"),
    "redeal.all_pass": ("无人叫分", "all passed"),
    "redeal.no_trump_no_points": ("无主无分", "no trump and no points"),
    "redeal.misdeal": ("发错牌", "misdeal"),
    # What a number field allows (`number_rule`), said beside the field when what was typed is not that.
    "number.range": ("{label}只能填 {low} 到 {high} 的整数", "{label}: a whole number from {low} to {high}"),
    "number.range_step": (
        "{label}只能填 {low} 到 {high} 之间 {step} 的倍数",
        "{label}: a multiple of {step} from {low} to {high}",
    ),
    "number.at_least": ("{label}只能填不小于 {low} 的整数", "{label}: a whole number of at least {low}"),
    "number.at_least_step": (
        "{label}只能填不小于 {low} 的 {step} 的倍数",
        "{label}: a multiple of {step} of at least {low}",
    ),
    "number.any": ("{label}只能填整数", "{label}: a whole number"),
}

TABLE: Mapping[str, tuple[str, str]] = {
    **COMMON,
    **baifen.MESSAGES,
    **erguai.MESSAGES,
    **biaofen.MESSAGES,
    **hongxingwu.MESSAGES,
    **gunzi.MESSAGES,
    **OPTION_TEXTS,
    **FIELD_TEXTS,
    **shengji.MESSAGES,
    **draws.MESSAGES,
    **pairs.MESSAGES,
}


@cache
def is_english(lang: str) -> bool:
    # Asked for every message rendered: a receipt renders a few a hand, a long session thousands.
    return lang == Lang.EN or str(lang).lower().startswith("en")


def text(key: str, lang: str = Lang.ZH, **params: Any) -> str:
    """The message `key` in `lang` with `params`."""
    return render(Msg(key=key, params=params), lang)


def _figure(n: int) -> str:
    return str(n).replace("-", "\u2212")  # a true minus sign, as every figure on the pages


def number_rule(*, label: str, minimum: int | None, maximum: int | None, step: int = 1, lang: str = Lang.ZH) -> str:
    """What a number field of the engine's description (an `EntryField`, an `OptionSpec`) allows, in words:
    the one message a form shows beside the field when what was typed is not that.

    >>> number_rule(label="抓分", minimum=0, maximum=100, step=5)
    '抓分只能填 0 到 100 之间 5 的倍数'
    >>> number_rule(label="Bombs", minimum=0, maximum=4, lang="en")
    'Bombs: a whole number from 0 to 4'
    >>> number_rule(label="Target", minimum=-5, maximum=None, lang="en")
    'Target: a whole number of at least \u22125'
    """
    stepped = "_step" if step != 1 else ""
    if minimum is not None and maximum is not None:
        key = f"number.range{stepped}"
    elif minimum is not None:
        key = f"number.at_least{stepped}"
    else:
        key = "number.any"
    low, high = (_figure(n) if n is not None else "" for n in (minimum, maximum))
    return text(key, lang, label=label, low=low, high=high, step=step)


def seat_name(seat: int, lang: str = Lang.ZH, players: Sequence[str] = ()) -> str:
    """The player at `seat`, or, without names, the seat counted from 1 (`2号位`, `seat 2`)."""
    if 0 <= seat < len(players):
        return players[seat]
    return text("seat.number", lang, n=seat + 1)


def render(msg: Msg, lang: str = Lang.ZH, players: Sequence[str] = ()) -> str:
    """One message in `lang` (`zh-Hans` or `en`; anything else falls back to zh-Hans), naming seats by `players`."""
    zh, en = TABLE.get(msg.key, (msg.key, msg.key))
    template = en if is_english(lang) else zh
    # Plain values (most parameters) go in as they are; seats, teams and nested messages are named.
    params: dict[str, Any] = {
        key: value if type(value) in _PLAIN else _param(value, lang, players) for key, value in msg.params.items()
    }
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


_PLAIN = frozenset({str, int, float, bool, type(None)})


def _param(value: Any, lang: str, players: Sequence[str]) -> Any:
    if isinstance(value, Msg):
        return render(value, lang, players)
    if isinstance(value, SeatName):
        return seat_name(value.seat, lang, players)
    if isinstance(value, TeamName):
        return "·".join(seat_name(seat, lang, players) for seat in value.seats)
    return value

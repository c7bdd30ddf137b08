"""Records and achievements (成就) in words: what each record and badge is called, its figure, its hand (no queries).

`selectors.streaks` and `selectors.achievements` read them; the pages (`records.html`, `_player_records.html`)
lay these lines out. The players' own terms (抠底, 光头, 出锅, 包场) stand in both languages, as the rules
reference uses them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext_lazy, ngettext

from ..models import Player, engine_lang, variant_label
from ..rules.families import group_label
from ..rules.registry import VARIANTS
from ..selectors.achievements import Achievement
from ..selectors.streaks import BIGGEST, RUN, HandRef, RecordGroup
from .formats import signed
from .sessions import hand_label

# Per kind: the club page's name and the player page's.
RECORD_NAMES = {
    "run": (gettext_lazy("Longest run of hands won"), gettext_lazy("Longest run of hands won")),
    "biggest": (gettext_lazy("Biggest hand"), gettext_lazy("Biggest hand")),
    "koudi": (gettext_lazy("Most 抠底"), gettext_lazy("抠底 (on the capture side)")),
    "guangtou": (gettext_lazy("Most 光头"), gettext_lazy("光头 (on the declaring side)")),
    "chuguo": (gettext_lazy("Most 出锅"), gettext_lazy("出锅 (games won)")),
    "baochang": (gettext_lazy("Most 包场 paid (as declarer)"), gettext_lazy("包场 paid (as declarer)")),
}

# Per badge: its name and what earned it.
BADGE_WORDS = {
    "first_koudi": (gettext_lazy("First 抠底"), gettext_lazy("On the capture side that won the last trick (抠底).")),
    "koudi_three": (gettext_lazy("Three 抠底 in a day"), gettext_lazy("Three 抠底 on one day's play.")),
    "first_guangtou": (
        gettext_lazy("First 光头"),
        gettext_lazy("On the declaring side that held the capture side to nothing (光头)."),
    ),
    "baochang_survived": (
        gettext_lazy("包场 survived"),
        gettext_lazy("Partner of a declarer who paid 包场 alone: the partner paid nothing."),
    ),
    "first_chuguo": (gettext_lazy("First 出锅"), gettext_lazy("A game won by 出锅.")),
    "comeback": (
        gettext_lazy("Comeback"),
        gettext_lazy("A 盘 won after the team stood at minus half the target or lower."),
    ),
    "run_five": (gettext_lazy("Five in a row"), gettext_lazy("Five hands won in a row in one session.")),
    "run_ten": (gettext_lazy("Ten in a row"), gettext_lazy("Ten hands won in a row in one session.")),
}


@dataclass(frozen=True, kw_only=True)
class HandLine:
    """A linked hand: its session and number (for the link) and its words (`2026-11-01 · 本溪 · 第 4 局`)."""

    session_id: int
    number: int
    text: str


@dataclass(frozen=True, kw_only=True)
class RecordLine:
    kind: str
    name: str
    value: str
    player: Player
    hand: HandLine


@dataclass(frozen=True, kw_only=True)
class RecordSection:
    label: str  # the group's family and unit
    lines: tuple[RecordLine, ...]


@dataclass(frozen=True, kw_only=True)
class BadgeLine:
    badge: str
    name: str
    why: str
    hand: HandLine


def hand_line(hand: HandRef) -> HandLine:
    number = hand_label(hand.variant, hand.number) if hand.variant in VARIANTS else str(hand.number)
    return HandLine(
        session_id=hand.session_id,
        number=hand.number,
        text=f"{hand.date:%Y-%m-%d} · {variant_label(hand.variant)} · {number}",
    )


def record_value(kind: str, value: int, hand: HandRef) -> str:
    """`5 hands` · `+300 分` · `3 times`."""
    if kind == RUN:
        return ngettext("%(n)s hand", "%(n)s hands", value) % {"n": value}
    if kind == BIGGEST:
        variant = VARIANTS.get(hand.variant)
        return f"{signed(value)} {variant.unit if variant else ''}".strip()
    return ngettext("%(n)s time", "%(n)s times", value) % {"n": value}


def record_sections(groups: Sequence[RecordGroup], *, lang: str, club_page: bool) -> list[RecordSection]:
    """The records of each (family, unit), named for the club's page or the player's."""
    which = 0 if club_page else 1
    return [
        RecordSection(
            label=group_label(group.group, engine_lang(lang)),
            lines=tuple(
                RecordLine(
                    kind=record.kind,
                    name=str(RECORD_NAMES[record.kind][which]),
                    value=record_value(record.kind, record.value, record.hand),
                    player=record.player,
                    hand=hand_line(record.hand),
                )
                for record in group.records
            ),
        )
        for group in groups
    ]


def badge_lines(achievements: Sequence[Achievement]) -> list[BadgeLine]:
    return [
        BadgeLine(
            badge=achievement.badge,
            name=str(BADGE_WORDS[achievement.badge][0]),
            why=str(BADGE_WORDS[achievement.badge][1]),
            hand=hand_line(achievement.hand),
        )
        for achievement in achievements
    ]

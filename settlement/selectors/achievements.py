"""Achievements (成就): named badges a player earns from the stored rows, each with the hand that earned it.

Rule-aware: each badge is earned only where its rule exists (抠底 in 打百分, 标分 and 升级; 光头 in 打二鬼 and 升级;
包场 in 打二鬼; 出锅 in 打百分's regions and 打滚子; a comeback in 打百分's regions, whose 盘 has a target). Who
earns a tag is as `streaks` counts it. A badge is earned once, by the first hand that qualifies (in date, session
and hand order); its hand is linked from the player page. One query a badge, whatever the number of sessions.

- `first_koudi` 首个抠底: the player's side won the last trick for the capture side (抠底);
- `koudi_three` 一天三抠底: three 抠底 in one day (one evening, one session or several);
- `first_guangtou` 首个光头: the player's declaring side held the capture side to nothing;
- `baochang_survived` 包场幸存: partner of a declarer who paid 包场 alone (打二鬼): the partner pays nothing;
- `first_chuguo` 首次出锅: a game won by 出锅;
- `comeback` 绝地反击: a 盘 won after the player's team stood at half the target below zero, or lower;
- `run_five`, `run_ten` 五连胜, 十连胜: five, ten hands won in a row in one session.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F, IntegerField, Min, OuterRef, QuerySet, Subquery, Window
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, RowNumber

from ..models import Club, GameRow, Player, Session, SettlementRow
from ..rules.families import SCORING
from .streaks import CHUGUO_WON, EARNED, GUANGTOU, KOUDI, HandRef

# The badges, in the pages' order.
BADGES = (
    "first_koudi",
    "koudi_three",
    "first_guangtou",
    "baochang_survived",
    "first_chuguo",
    "comeback",
    "run_five",
    "run_ten",
)
# The 盘 games with a target, whose comeback is from below minus half of it.
TARGET_VARIANTS = ("baifen.benxi", "baifen.fushun", "baifen.shenyang")


@dataclass(frozen=True, kw_only=True)
class Achievement:
    badge: str  # one of BADGES
    hand: HandRef


def _first(rows: QuerySet[SettlementRow], badge: str) -> Achievement | None:
    row = (
        rows.order_by("session__date", "session_id", "number")
        .values("session_id", "number", "session__date", "session__variant")
        .first()
    )
    return None if row is None else Achievement(badge=badge, hand=_ref(row, "number"))


def _ref(row: dict, number: str) -> HandRef:
    return HandRef(
        session_id=row["session_id"], number=row[number], date=row["session__date"], variant=row["session__variant"]
    )


def player_achievements(*, club: Club, player: Player) -> list[Achievement]:
    """The badges the player has earned, in `BADGES` order, each with its hand: eight queries."""
    sessions = Session.objects.filter(club=club, variant__in=list(SCORING))
    rows = SettlementRow.objects.filter(session__in=sessions, player=player)
    games = GameRow.objects.filter(session__in=sessions, player=player)
    found: list[Achievement | None] = [_first(rows.filter(EARNED[KOUDI]), "first_koudi")]
    # The third 抠底 of a day: numbered within the day, in order.
    third = (
        rows.filter(EARNED[KOUDI])
        .annotate(
            nth=Window(
                RowNumber(), partition_by=[F("session__date")], order_by=[F("session_id").asc(), F("number").asc()]
            )
        )
        .filter(nth=3)
        .order_by("session__date")
        .values("session_id", "number", "session__date", "session__variant")
        .first()
    )
    found.append(None if third is None else Achievement(badge="koudi_three", hand=_ref(third, "number")))
    found.append(_first(rows.filter(EARNED[GUANGTOU]), "first_guangtou"))
    found.append(_first(rows.filter(baochang=True, declaring_side=True, is_declarer=False), "baochang_survived"))
    chuguo = (
        games.filter(CHUGUO_WON)
        .order_by("session__date", "session_id", "game")
        .values("session_id", "last_hand", "session__date", "session__variant")
        .first()
    )
    found.append(None if chuguo is None else Achievement(badge="first_chuguo", hand=_ref(chuguo, "last_hand")))
    # The team's lowest total in the game, against the session's target (a frozen option).
    lowest = (
        SettlementRow.objects.filter(session=OuterRef("session"), game=OuterRef("game"), player=OuterRef("player"))
        .values("session")
        .annotate(low=Min("total"))
        .values("low")
    )
    comeback = (
        games.filter(won=True, session__variant__in=TARGET_VARIANTS)
        .alias(
            low=Subquery(lowest, output_field=IntegerField()),
            target=Cast(KeyTextTransform("target", "session__options"), IntegerField()),
        )
        .alias(twice_low=F("low") * 2)
        .filter(twice_low__lte=-F("target"))
        .order_by("session__date", "session_id", "game")
        .values("session_id", "last_hand", "session__date", "session__variant")
        .first()
    )
    found.append(None if comeback is None else Achievement(badge="comeback", hand=_ref(comeback, "last_hand")))
    found.append(_first(rows.filter(run__gte=5), "run_five"))
    found.append(_first(rows.filter(run__gte=10), "run_ten"))
    return [achievement for achievement in found if achievement is not None]

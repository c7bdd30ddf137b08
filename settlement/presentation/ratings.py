"""Ratings and the players' audit trail in words and figures (no queries)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from ..ledger.ratings import family_label
from .revisions import when_label


def rating_text(value: float) -> str:
    """A rating with one decimal and a true minus sign: `12.3`, `−4.0`."""
    return f"{value:.1f}".replace("-", "−")


@dataclass(frozen=True, kw_only=True)
class LeaderboardRow:
    rank: int
    player: Any
    rating: str  # the ordinal, mu − 3σ
    uncertainty: str  # σ
    mu: str
    outcomes: int


def leaderboard_rows(board: Any) -> list[LeaderboardRow]:
    return [
        LeaderboardRow(
            rank=entry.rank,
            player=entry.player,
            rating=rating_text(entry.ordinal),
            uncertainty=rating_text(entry.sigma),
            mu=rating_text(entry.mu),
            outcomes=entry.outcomes,
        )
        for entry in board.entries
    ]


@dataclass(frozen=True, kw_only=True)
class HistoryLine:
    session: Any
    what: str  # `game 2` or `session`
    rank: int
    rating: str
    uncertainty: str


@dataclass(frozen=True, kw_only=True)
class RatingHistory:
    family: str
    label: str
    rating: str
    uncertainty: str
    lines: list[HistoryLine]


def rating_histories(histories: Sequence[Any]) -> list[RatingHistory]:
    """A player's `FamilyHistory` list (selectors.ratings.player_ratings) for the player page."""
    return [
        RatingHistory(
            family=history.family,
            label=family_label(history.family),
            rating=rating_text(history.current.ordinal),
            uncertainty=rating_text(history.current.sigma),
            lines=[
                HistoryLine(
                    session=row.session,
                    what=_("game %(n)s") % {"n": row.game} if row.game else _("session"),
                    rank=row.rank,
                    rating=rating_text(row.ordinal),
                    uncertainty=rating_text(row.sigma),
                )
                for row in history.history
            ],
        )
        for history in histories
    ]


@dataclass(frozen=True, kw_only=True)
class PlayerEventLine:
    text: str
    reason: str
    author: str
    when: str


def event_lines(events: Sequence[Any], *, player: Any, lang: str = "zh-Hans") -> list[PlayerEventLine]:
    """`PlayerEvent` rows (oldest first) in words: `renamed 小王 → 王强`, `小王 merged into 王强`."""
    lines = []
    for event in events:
        if event.kind == "renamed":
            text = _("renamed %(old)s → %(new)s") % {"old": event.old_name, "new": event.new_name}
        else:
            text = _("%(old)s merged into %(new)s") % {"old": event.old_name, "new": event.into.name}
        lines.append(
            PlayerEventLine(
                text=text,
                reason=event.reason,
                author=event.user.get_full_name() or event.user.get_username(),
                when=when_label(event.created_at, lang),
            )
        )
    return lines

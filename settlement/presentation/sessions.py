"""A session in words: its closings and reopenings, and why its final standings are in that order."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ..ledger import django_lang
from ..rules.registry import VARIANTS
from .revisions import when_label


@dataclass(frozen=True, kw_only=True)
class EventLine:
    kind: str  # closed, reopened
    action: str  # in the reader's language
    author: str
    when: str
    created_at: datetime.datetime


def event_lines(*, events: Sequence[Any], lang: str) -> list[EventLine]:
    """`SessionEvent` rows (oldest first) in words, in `lang`."""
    with translation.override(django_lang(lang)):
        return [
            EventLine(
                kind=event.kind,
                action=str(event.get_kind_display()),
                author=event.user.get_full_name() or event.user.get_username(),
                when=when_label(event.created_at, lang),
                created_at=event.created_at,
            )
            for event in events
        ]


def game_label(variant: str, n: int) -> str:
    """What the variant's players call a game: a round (轮) of 标分, else a game (盘), as in docs/rules/README.md."""
    if variant == "biaofen":
        return _("Round %(n)s") % {"n": n}
    return _("Game %(n)s") % {"n": n}


def game_columns(variant: str) -> dict[str, Any]:
    """Column heads for a game's totals: a round of 标分, else a game (盘)."""
    if variant == "biaofen":
        return {"this_game_head": _("This round"), "game_head": _("round"), "rounds": True}
    return {"this_game_head": _("This game"), "game_head": _("game"), "rounds": False}


def hand_label(variant: str, n: int, what: str = "hand", message: str = "") -> str:
    """A hand named as the variant's players name it, in the active language.

    `第 3 局` in the 打百分 games, 打二鬼 and 标分; `第 3 副` in the level games (红星五, 打滚子, 升级), as
    their rules' own texts say (下一副 …). English says "hand" in every game: the level games' texts
    are the same msgids under the context "level game". `what`: `hand` (a heading), `fix` (the
    correction form's heading), `corrected` (a correction's receipt), `recorded`, `fixed`, `voided` (notices),
    `refused` (another hand's refusal, `message`), `next` (the share page's next hand), `record_as` (the
    Record button of a hand that moved on).
    """
    if VARIANTS[variant].has_levels:
        texts = {
            "hand": pgettext("level game", "Hand %(n)s"),
            "fix": pgettext("level game", "Fix hand %(n)s"),
            "corrected": pgettext("level game", "Hand %(n)s, corrected"),
            "recorded": pgettext("level game", "Hand %(n)s recorded."),
            "fixed": pgettext("level game", "Hand %(n)s fixed; the totals after it are settled again."),
            "voided": pgettext("level game", "Hand %(n)s voided; the totals after it are settled again."),
            "refused": pgettext("level game", "Hand %(n)s: %(message)s"),
            "next": pgettext("level game", "Next: hand %(n)s"),
            "record_as": pgettext("level game", "Record as hand %(n)s"),
        }
    else:
        texts = {
            "hand": _("Hand %(n)s"),
            "fix": _("Fix hand %(n)s"),
            "corrected": _("Hand %(n)s, corrected"),
            "recorded": _("Hand %(n)s recorded."),
            "fixed": _("Hand %(n)s fixed; the totals after it are settled again."),
            "voided": _("Hand %(n)s voided; the totals after it are settled again."),
            "refused": _("Hand %(n)s: %(message)s"),
            "next": _("Next: hand %(n)s"),
            "record_as": _("Record as hand %(n)s"),
        }
    return texts[what] % {"n": n, "message": message}


@dataclass(frozen=True, kw_only=True)
class StandingsNote:
    rule: str  # how the final standings are ordered
    unfinished: str  # "" or what happened to a game left unfinished


def standings_note(*, view: Any, lang: str) -> StandingsNote:
    """Why the final standings are in their order (the order `selectors.table_view` ranks them in).

    Zero-sum variants rank by the session's total. The others are played for games: a game's points
    start again from 0 : 0 when it ends (docs/rules/README.md, "Seats, teams and games"; a 盘 is won by
    出锅 or 后门走, docs/rules/baifen.md), so games won come first and the total breaks a tie.
    """
    rules = VARIANTS[view.session.variant]
    with translation.override(django_lang(lang)):
        if rules.zero_sum or not view.has_games:
            rule = _("Ranked by the session total.")
        else:
            rule = _("Ranked by games won; with as many games won, by the session total.")
        unfinished = ""
        last = view.last_game
        if view.has_games and last is not None and not last["finished"]:
            unfinished = _("%(label)s was not finished: nobody won it.") % {
                "label": game_label(view.session.variant, last["n"])
            }
        return StandingsNote(rule=rule, unfinished=unfinished)

"""Small builders for rules tests: a document from a few hands, and its results."""

from __future__ import annotations

from typing import Any

from settlement.rules.session import session_settle

NAMES = ("甲", "乙", "丙", "丁")


def document(
    variant: str, hands: list[dict[str, Any]], *, options: dict[str, Any] | None = None, players: int = 4
) -> dict[str, Any]:
    doc: dict[str, Any] = {"variant": variant, "players": list(NAMES[:players]), "hands": hands}
    if options is not None:
        doc["options"] = options
    return doc


def settle(variant: str, hands: list[dict[str, Any]], **kwargs: Any) -> dict[str, Any]:
    lang = kwargs.pop("lang", "zh-Hans")
    return session_settle(document(variant, hands, **kwargs), lang=lang)


def settle_hand(variant: str, hand: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """The results of a one-hand session: that hand's document."""
    return settle(variant, [hand], **kwargs)["hands"][0]

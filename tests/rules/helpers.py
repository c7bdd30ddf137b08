"""Small builders for rules tests: a document from a few hands, and its results."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from settlement.rules.base import RulesError
from settlement.rules.session import session_settle

NAMES = ("甲", "乙", "丙", "丁")


def document(
    variant: str,
    hands: list[dict[str, Any]],
    *,
    options: dict[str, Any] | None = None,
    players: int = 4,
    names: Sequence[str] = NAMES,
) -> dict[str, Any]:
    doc: dict[str, Any] = {"variant": variant, "players": list(names[:players]), "hands": hands}
    if options is not None:
        doc["options"] = options
    return doc


def settle(variant: str, hands: list[dict[str, Any]], **kwargs: Any) -> dict[str, Any]:
    lang = kwargs.pop("lang", "zh-Hans")
    return session_settle(document(variant, hands, **kwargs), lang=lang)


def settle_hand(variant: str, hand: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """The results of a one-hand session: that hand's document."""
    return settle(variant, [hand], **kwargs)["hands"][0]


def refused(variant: str, hands: list[dict[str, Any]], **kwargs: Any) -> RulesError:
    """The RulesError a session refuses with."""
    with pytest.raises(RulesError) as caught:
        settle(variant, hands, **kwargs)
    return caught.value

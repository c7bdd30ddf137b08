"""What-if: a session's hands settled again under another preset or other options, beside its real result.

Nothing is written: the stored hands (void ones left out) are played through the engine again with the other
options, and both results documents come back. A hand the other rules do not allow (a bid the preset does not
offer, say) is a refusal naming that hand and its field, as an import would be; an option is refused by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..ledger import LedgerError, log_load, log_replay
from ..models import Session
from ..rules.base import RulesError
from ..rules.entry import preset_overrides
from ..rules.registry import VARIANTS


@dataclass(frozen=True, kw_only=True)
class WhatIf:
    """The session's real results and the same hands' under other options (both as `settle` prints them)."""

    actual: dict[str, Any]
    alternative: dict[str, Any]
    changed: tuple[str, ...]  # the options whose value differs from the session's, in the variant's order


def what_if_options(*, session: Session, preset: str | None, options: Any) -> dict[str, Any]:
    """The options document to settle again under.

    With `preset`: the variant's defaults under that preset, then `options`. Without: the session's own
    options, then `options`. Each option given replaces its whole value, as in a session document.
    """
    if options is not None and not isinstance(options, Mapping):
        raise LedgerError.from_rules(RulesError("document.not_object", field="options"))
    if preset is not None:
        try:
            base = preset_overrides(VARIANTS[session.variant], preset)
        except RulesError as error:
            raise LedgerError.from_rules(error) from error
    else:
        base = dict(session.options)
    return {**base, **(options or {})}


def session_what_if(
    *, session: Session, preset: str | None = None, options: Any = None, lang: str = "zh-Hans"
) -> WhatIf:
    """Settle the session's hands again under `preset` and/or `options`: two queries, nothing written."""
    other = what_if_options(session=session, preset=preset, options=options)
    log = log_load(session=session)
    hands = log.hands()
    actual = log_replay(session=session, players=log.players, hands=hands).render(lang)
    alternative = log_replay(session=session, players=log.players, hands=hands, options=other).render(lang)
    changed = tuple(key for key, value in alternative["options"].items() if actual["options"].get(key) != value)
    return WhatIf(actual=actual, alternative=alternative, changed=changed)

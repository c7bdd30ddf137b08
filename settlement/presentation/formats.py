"""Numbers as the pages write them: a true minus sign (−5), and with `signed` always a sign (+5, −5, 0).

The engine writes its receipts' figures with `rules.base.signed` / `minus` (it imports no Django);
everything on the Django side formats through this module, which accepts what a template may pass.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ..rules.base import minus as _minus
from ..rules.base import signed as _signed


def signed(value: Any) -> str:
    """+5, −5, 0 for an int; anything else as text ("" for None)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return _signed(value)
    return "" if value is None else str(value)


def minus(value: Any) -> str:
    """−5 for a negative number (an average too: −16.7), plain otherwise ("" for None)."""
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return _minus(value)  # type: ignore[arg-type] # a float's or a Decimal's minus sign is written the same way
    return "" if value is None else str(value)

"""What may come in: JSON values of bounded depth, text a database can store, clean names.

Every value a client sends — a hand, a session document, option overrides, a
reason, a venue, a key, a player's name — passes through here before a
service uses it, so that bad input is a `LedgerError` naming the field and
never a crash further in: Python's `json` gives up with `RecursionError`
only around a thousand levels deep (a 10 KB body), and a lone surrogate
(`"\\ud800"`, valid JSON) cannot be encoded to UTF-8 for the database or the
response. No field needs a control character (tabs and newlines included),
so none is accepted anywhere.

Names are compared the way people read them: NFC, trimmed, without
invisible characters; two names that look alike (the same after NFKC and
case folding: `Ａ` and `a`) are the same person at one table.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from .log import LedgerError

# Deeper than any hand (3) or session document (5) nests; small enough to walk without recursion worries.
JSON_DEPTH_MAX = 32

# Zero-width characters and bidi controls: invisible, so a name carrying one looks like another name.
ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"
BIDI_CONTROLS = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
INVISIBLE = frozenset(ZERO_WIDTH + BIDI_CONTROLS)
_INVISIBLE_RE = re.compile("[" + "".join(sorted(INVISIBLE)) + "]")
# C0, DEL, C1 controls and UTF-16 surrogates (only lone ones reach a Python str).
_BAD_CHAR_RE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_JSON_STRING_RE = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_JSON_BRACKET_RE = re.compile(r"[\[\]{}]")


def text_bad(text: str) -> bool:
    """True when `text` holds a control character or a lone surrogate."""
    return _BAD_CHAR_RE.search(text) is not None


def json_text_too_deep(text: str, limit: int = JSON_DEPTH_MAX) -> bool:
    """True when JSON `text` nests arrays/objects deeper than `limit` — found without parsing it.

    Strings are blanked first (a bracket inside one does not count); only the brackets are walked.
    """
    depth = 0
    for bracket in _JSON_BRACKET_RE.findall(_JSON_STRING_RE.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        if depth > limit:
            return True
    return False


def json_check(value: Any, *, field: str, prefix: str = "") -> None:
    """Refuse a decoded value nested deeper than `JSON_DEPTH_MAX`, or with a bad character in any string or key.

    Walked without recursion. Errors name the path inside the value (`prefix` + `penalties[0].kind`),
    or `field` for the value itself: `value.too_deep`, `value.bad_character`.
    """
    stack: list[tuple[Any, str, int]] = [(value, prefix, 0)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, str):
            if text_bad(item):
                raise LedgerError("value.bad_character", field=path or field)
            continue
        if isinstance(item, dict | list | tuple):
            if depth >= JSON_DEPTH_MAX:
                raise LedgerError("value.too_deep", field=path or field, limit=JSON_DEPTH_MAX)
            if isinstance(item, dict):
                for key, sub in item.items():
                    where = f"{path}.{key}" if path else str(key)
                    if isinstance(key, str) and text_bad(key):
                        raise LedgerError("value.bad_character", field=path or field)
                    stack.append((sub, where, depth + 1))
            else:
                stack.extend((sub, f"{path}[{i}]", depth + 1) for i, sub in enumerate(item))


def json_clean(value: Any, *, field: str, prefix: str = "") -> Any:
    """`json_check`, then a JSON round trip: what is stored is what is compared (tuples become lists, …)."""
    json_check(value, field=field, prefix=prefix)
    try:
        return json.loads(json.dumps(value, ensure_ascii=False, allow_nan=False))
    except (TypeError, ValueError):
        raise LedgerError("value.not_json", field=field) from None


def text_clean(value: Any, *, field: str, limit: int, too_long: str = "value.too_long") -> str:
    """A one-line text (a reason, a key): NFC, trimmed, no bad characters, at most `limit` characters.

    Anything but a string is the empty text (the caller refuses an empty one where it needs one).
    """
    text = value if isinstance(value, str) else ""
    if text_bad(text):
        raise LedgerError("value.bad_character", field=field)
    text = unicodedata.normalize("NFC", text).strip()
    if len(text) > limit:
        raise LedgerError(too_long, field=field, limit=limit)
    return text


def name_clean(value: str, *, field: str, limit: int, too_long: str = "value.too_long") -> str:
    """A name (a player's, a venue): `text_clean` with zero-width characters and bidi controls removed.

    Removed rather than refused: they come along unseen when a name is pasted, and say nothing.
    """
    if text_bad(value):
        raise LedgerError("value.bad_character", field=field)
    return text_clean(_INVISIBLE_RE.sub("", value), field=field, limit=limit, too_long=too_long)


def name_key(name: str) -> str:
    """What two names are compared by: look-alikes (full-width letters, ligatures, case) share a key."""
    return unicodedata.normalize("NFKC", name).casefold()

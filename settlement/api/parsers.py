"""JSON request bodies, refused when they nest too deep or a string holds a character nothing can store.

Python's `json` only gives up on nesting with a `RecursionError` about a
thousand levels deep, and a 10 KB body gets there; the depth is checked on
the text before it is parsed (`values.json_loads`), and again on the value.
PostgreSQL cannot store NUL in text or jsonb, and Django's form fields refuse
it for the same reason (`ProhibitNullCharactersValidator`); other control
characters and lone surrogates (`"\\ud800"`: valid JSON, but not encodable
as UTF-8) are refused as well. Each refusal names where it was.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.validators import ProhibitNullCharactersValidator
from django.utils.translation import gettext
from rest_framework.exceptions import ErrorDetail, ParseError, ValidationError
from rest_framework.parsers import JSONParser
from rest_framework.utils import json as drf_json

from settlement.ledger import LedgerError
from settlement.ledger.values import JSON_DEPTH_MAX, json_check, json_text_too_deep


class JSONWithoutNulParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        parse_constant = drf_json.strict_constant if self.strict else None
        try:
            text = codecs.getreader(encoding)(stream).read()
            if json_text_too_deep(text):
                raise LedgerError("value.too_deep", field="body", limit=JSON_DEPTH_MAX)
            data = json.loads(text, parse_constant=parse_constant)
        except RecursionError:  # not after the check above; kept so that no body is ever a crash
            raise LedgerError("value.too_deep", field="body", limit=JSON_DEPTH_MAX) from None
        except ValueError as exc:
            raise ParseError(_json_error_message(exc)) from exc
        where = nul_path(data)
        if where is not None:
            nul_refuse(where)
        json_check(data, field="body")
        return data


def _json_error_message(exc: ValueError) -> str:
    """Where the body stops being JSON, in the request's language (Python's own text is English only)."""
    if isinstance(exc, json.JSONDecodeError):
        return gettext("The body is not valid JSON (line %(line)d, column %(column)d).") % {
            "line": exc.lineno,
            "column": exc.colno,
        }
    return gettext("The body is not valid JSON (NaN and Infinity are not JSON numbers).")


def nul_refuse(where: str) -> None:
    validator = ProhibitNullCharactersValidator()
    raise ValidationError({where: [ErrorDetail(str(validator.message), code=validator.code)]})


def nul_path(value: Any, path: str = "") -> str | None:
    """Where the first NUL is (`players[0]`, `hand.kou`, `` for the body itself), or None."""
    if isinstance(value, str):
        return path if "\x00" in value else None
    if isinstance(value, dict):
        for key, item in value.items():
            sub = f"{path}.{key}" if path else str(key)
            if "\x00" in str(key):
                return sub
            found = nul_path(item, sub)
            if found is not None:
                return found
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = nul_path(item, f"{path}[{i}]")
            if found is not None:
                return found
    return None

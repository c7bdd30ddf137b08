"""JSON request bodies, refused when a string holds a NUL character.

PostgreSQL cannot store NUL in text or jsonb, and Django's form fields refuse
it for the same reason (`ProhibitNullCharactersValidator`); the API refuses it
before anything reaches a service, naming where it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.parsers import JSONParser


class JSONWithoutNulParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None) -> Any:
        data = super().parse(stream, media_type, parser_context)
        where = nul_path(data)
        if where is not None:
            nul_refuse(where)
        return data


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

"""Standings as CSV: UTF-8 with a byte-order mark, so spreadsheet programs read Chinese names."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer

from settlement.rules.registry import VARIANTS

BOM = "\ufeff"
UNITS = tuple(dict.fromkeys(rules.unit for rules in VARIANTS.values()))  # 分, 注, 档, 级


class StandingsCSVRenderer(BaseRenderer):
    """One row per player; a column per unit, empty where the player has no session in that unit."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Mapping[str, Any] | None = None
    ) -> bytes:
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(
            [
                _("player id"),
                _("player"),
                _("sessions played"),
                _("hands played"),
                _("hands declared"),
                _("won as declarer"),
                _("games won"),
                *(_("total ({unit})").format(unit=unit) for unit in UNITS),
                _("money"),
            ]
        )
        # Rows are a list; anything else (OPTIONS' description of the view) has no rows, only the header.
        for row in data if isinstance(data, list) else []:
            totals = row["totals"]
            writer.writerow(
                [
                    row["player"],
                    _cell_text(row["name"]),
                    row["sessions"],
                    row["hands"],
                    row["declared"],
                    row["declarer_won"],
                    row["games_won"],
                    *(totals.get(unit, "") for unit in UNITS),
                    "" if row["money"] is None else row["money"],
                ]
            )
        return (BOM + out.getvalue()).encode(self.charset)


def _cell_text(text: str) -> str:
    """A name that a spreadsheet would read as a formula (`=…`, `+…`, `-…`, `@…`) is kept as text."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


class FormatNegotiation(DefaultContentNegotiation):
    """DRF's negotiation, but `?format=` naming a format the address does not give is a 400, not a 404.

    The 404 would read as "no such address"; the refusal names `format` and the formats there are.
    """

    def filter_renderers(self, renderers: Sequence[BaseRenderer], format: str) -> list[BaseRenderer]:
        found = [renderer for renderer in renderers if renderer.format == format]
        if not found:
            formats = ", ".join(str(renderer.format) for renderer in renderers)
            message = _("“{format}” is not a format this address gives; it gives: {formats}")
            raise ValidationError(
                {"format": [ErrorDetail(message.format(format=format, formats=formats), code="format.unknown")]}
            )
        return found

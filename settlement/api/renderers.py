"""Standings as CSV: UTF-8 with a byte-order mark, so spreadsheet programs read Chinese names."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer

from settlement.presentation.stats import BOM, cell_text, standings_header

# The header row: the JSON's keys (a nested one by its path), whatever the request's language, so code reading the
# CSV keys on `total` as it would on the JSON; `?labels=zh-Hans` (or `en`) asks for the labels instead.
STANDINGS_KEYS = (
    "label",
    "rank",
    "player.id",
    "player.name",
    "sessions",
    "sessions_won",
    "hands",
    "declared",
    "declarer_won",
    "games_won",
    "total",
    "per_session",
    "per_hand",
)


class StandingsCSVRenderer(BaseRenderer):
    """A row per player per group (family and unit): `presentation.stats.standings_csv`'s table."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Mapping[str, Any] | None = None
    ) -> bytes:
        out = io.StringIO()
        writer = csv.writer(out)
        request = (renderer_context or {}).get("request")
        labels = request.query_params.get("labels") if request is not None else None
        if labels:  # validated by the view (`StandingsFilterSerializer`)
            with translation.override(labels):
                writer.writerow(standings_header())
        else:
            writer.writerow(STANDINGS_KEYS)
        # Groups are a list; anything else (OPTIONS' description of the view, an error) has no rows, only the header.
        for group in data if isinstance(data, list) else []:
            for row in group["rows"]:
                writer.writerow(
                    [
                        group["label"],
                        row["rank"],
                        row["player"]["id"],
                        cell_text(row["player"]["name"]),
                        row["sessions"],
                        row["sessions_won"],
                        row["hands"],
                        row["declared"],
                        row["declarer_won"],
                        row["games_won"],
                        row["total"],
                        "" if row["per_session"] is None else row["per_session"],
                        "" if row["per_hand"] is None else row["per_hand"],
                    ]
                )
        return (BOM + out.getvalue()).encode(self.charset)


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

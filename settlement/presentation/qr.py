"""A share link drawn as a QR code, for the table page's panel and the printable card."""

from __future__ import annotations

import segno


def share_qr_svg(*, url: str, title: str = "") -> str:
    """The link as a QR code, an inline SVG drawn here (no outside service): black on white with
    the standard 4-module quiet zone, so it scans on a dark page too; sized by CSS."""
    qr = segno.make(url, error="m", micro=False)
    return qr.svg_inline(
        scale=1, border=4, svgclass="qr", lineclass=None, omitsize=True, light="#fff", title=title or None
    )

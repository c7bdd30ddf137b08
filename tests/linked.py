"""What a page makes the browser fetch: its style sheets, scripts, icons, images, manifest and service worker."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urlsplit


class LinkFinder(HTMLParser):
    """The same-site URLs of `<link href>`, `<script src>`, `<img src>` and offline.js's `data-sw`, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        found = [names.get("href")] if tag == "link" else [names.get("src")] if tag in ("script", "img") else []
        found.append(names.get("data-sw"))
        for url in found:
            if url and not urlsplit(url).netloc and not url.startswith(("data:", "#")):
                self.urls.append(url)


def linked(html: str) -> list[str]:
    """Every same-site URL the page links (a script with no `src` links nothing)."""
    finder = LinkFinder()
    finder.feed(html)
    return list(dict.fromkeys(finder.urls))


def linked_static(html: str, static_url: str = "/static/") -> list[str]:
    return [url for url in linked(html) if url.startswith(static_url)]

"""The project's docs stand on their own and keep up with the engine.

docs/rules/ covers every variant and every option the engine describes (`rules/entry.py`, `options_spec`), and
its generated blocks (options tables, worked examples) are what `docs/rules/tables.py` writes from the engine
today; README.md and docs/ never send a reader to `../shared` (a club's clone does not have it); the README
stays a front door of at most 300 lines; every relative link and image in them resolves, anchors included.
"""

from __future__ import annotations

import importlib.util
import re
import unicodedata
from functools import cache
from pathlib import Path
from types import ModuleType
from urllib.parse import unquote

import pytest

from settlement.rules.entry import options_spec
from settlement.rules.registry import VARIANTS

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
RULES = DOCS / "rules"
README_MAX_LINES = 300


def _markdown_files() -> list[Path]:
    return [README, *sorted(DOCS.rglob("*.md"))]


@cache
def _tables() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_rules_tables", RULES / "tables.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _options_block(key: str) -> str | None:
    """The text of the `options <key>` block, on whichever page of docs/rules/ holds it."""
    pattern = re.compile(rf"<!-- BEGIN options {re.escape(key)} -->\n(.*?)<!-- END options {re.escape(key)} -->", re.S)
    for page in sorted(RULES.glob("*.md")):
        match = pattern.search(page.read_text(encoding="utf-8"))
        if match:
            return match.group(1)
    return None


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_every_variant_has_its_options_table_in_docs_rules(key):
    block = _options_block(key)
    assert block is not None, f"docs/rules/ has no `<!-- BEGIN options {key} -->` block"


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_every_option_and_preset_the_engine_describes_is_in_docs_rules(key):
    block = _options_block(key) or ""
    spec = options_spec(VARIANTS[key], "en")
    missing = [option.key for option in spec.options if f"| `{option.key}` |" not in block]
    missing += [f"preset {preset.key}" for preset in spec.presets if f"| `{preset.key}`: " not in block]
    assert not missing, f"{key}: docs/rules/ does not describe {missing}"


def test_the_generated_blocks_of_docs_rules_are_what_the_engine_gives_today():
    tables = _tables()
    texts = {page.name: page.read_text(encoding="utf-8") for page in tables.pages()}
    stale = [name for name, text in texts.items() if tables.render(text) != text]
    assert not stale, f"out of date: {stale}; run .venv/bin/python docs/rules/tables.py"


def test_every_worked_example_is_a_session_document_kept_in_the_project():
    pages = "".join(page.read_text(encoding="utf-8") for page in RULES.glob("*.md"))
    examples = re.findall(r"<!-- BEGIN example (\S+) -->", pages)
    assert examples
    for path in examples:
        assert path.startswith(("tests/golden/", "settlement/demo/")) and (ROOT / path).is_file(), path


def test_each_variant_family_has_a_page_with_an_example():
    for key in VARIANTS:
        page = RULES / f"{key.split('.')[0]}.md"
        text = page.read_text(encoding="utf-8")
        assert f"`{key}`" in text and "<!-- BEGIN example " in text, page


@pytest.mark.parametrize("path", _markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_doc_sends_a_reader_to_the_shared_folder(path):
    text = path.read_text(encoding="utf-8")
    assert "../shared" not in text, f"{path.relative_to(ROOT)} mentions ../shared"


def test_the_readme_is_a_front_door_of_at_most_300_lines():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines"


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    anchors: set[str] = set()
    seen: dict[str, int] = {}
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (match := re.match(r"#{1,6} (.+)", line)):
            slug = _slug(match.group(1))
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def _links(text: str) -> list[str]:
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # code blocks hold no links
    targets = re.findall(r"\]\(([^)\s]+)\)", text) + re.findall(r'<img [^>]*src="([^"]+)"', text)
    return [t for t in targets if not re.match(r"[a-z]+:", t)]  # http:, https:, mailto: are not relative


def test_the_link_checker_finds_anchors_as_github_makes_them():
    assert _slug("The classic friend-card game: `baifen.classic`") == "the-classic-friend-card-game-baifenclassic"
    assert _slug("打百分: 本溪, 抚顺") == "打百分-本溪-抚顺"
    text = '[a](b.md#c) ![x](d.png) [web](https://e.example) <img src="f.png">'
    assert _links(text) == ["b.md#c", "d.png", "f.png"]


@pytest.mark.parametrize("path", _markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(path):
    broken = []
    for link in _links(path.read_text(encoding="utf-8")):
        target, _, anchor = unquote(link).partition("#")
        file = (path.parent / target).resolve() if target else path
        if not file.exists() or (anchor and file.suffix == ".md" and anchor not in _anchors(file)):
            broken.append(link)
    assert not broken, f"{path.relative_to(ROOT)}: broken links {broken}"

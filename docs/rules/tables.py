"""Write the generated parts of docs/rules/: each variant's presets and options, and the worked examples.

The pages hold blocks between `<!-- BEGIN name -->` and `<!-- END name -->`; this script rewrites them from
the engine itself, so a page never states a default or a figure the engine does not give:

    .venv/bin/python docs/rules/tables.py           # rewrite the blocks
    .venv/bin/python docs/rules/tables.py --check   # exit 1 when a block is out of date (tests/test_docs.py)

Blocks: `options <variant>` (presets, then options with their defaults per player count) and
`example <file>` (a session document from tests/golden/ or settlement/demo/, played by the engine).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from settlement.rules.entry import as_data, options_spec  # noqa: E402
from settlement.rules.registry import VARIANTS  # noqa: E402
from settlement.rules.session import session_settle  # noqa: E402

DOCS = Path(__file__).resolve().parent
BLOCK = re.compile(r"(<!-- BEGIN (\w+) ([^ ]+) -->\n)(.*?)(<!-- END \2 \3 -->)", re.S)


def _value(value: Any) -> str:
    """An option value as JSON, in a table cell."""
    if value is None:
        return "null (derived)"
    text = json.dumps(as_data(value), ensure_ascii=False, separators=(", ", ": "))
    return "`" + text.replace("|", "\\|") + "`"


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def options_block(key: str) -> str:
    variant = VARIANTS[key]
    en, zh = options_spec(variant, "en"), options_spec(variant, "zh-Hans")
    counts = en.player_counts
    lines = [
        f"`{key}` — {zh.name} · {en.name}; unit {en.unit}; "
        f"{' or '.join(str(n) for n in counts)} players; {'zero-sum' if en.zero_sum else 'not zero-sum'}.",
        "",
        "| preset | 中文 | sets |",
        "|---|---|---|",
    ]
    for preset, preset_zh in zip(en.presets, zh.presets, strict=True):
        sets = ", ".join(f"`{name}` = {_value(v)}" for name, v in preset.overrides.items()) or "the defaults"
        note = f" ({_cell(preset.help)})" if preset.help else ""
        lines.append(f"| `{preset.key}`: {_cell(preset.label)}{note} | {_cell(preset_zh.label)} | {sets} |")
    heads = " | ".join(f"default ({n} players)" for n in counts) if len(counts) > 1 else "default"
    lines += ["", f"| option | kind | {heads} | meaning | 中文 |", "|---|---|" + "---|" * len(counts) + "---|---|"]
    for option, option_zh in zip(en.options, zh.options, strict=True):
        defaults = " | ".join(_value(option.defaults[n]) for n in counts)
        kind = str(option.kind)
        if option.choices and option.kind in ("choice", "choice_list", "keyed_integers"):
            kind += ": " + ", ".join(f"`{c.value}`" for c in option.choices)
        elif option.minimum is not None or option.maximum is not None:
            kind += f" {option.minimum if option.minimum is not None else '…'}–"
            kind += f"{option.maximum if option.maximum is not None else '…'}"
            kind += f", step {option.step}" if option.step != 1 else ""
        meaning = _cell(f"{option.label}: {option.help}".strip(": "))
        lines.append(f"| `{option.key}` | {kind} | {defaults} | {meaning} | {_cell(option_zh.label)} |")
    return "\n".join(lines) + "\n"


def _hand_input(hand: dict[str, Any]) -> str:
    return _cell(", ".join(f"{name} {json.dumps(v, ensure_ascii=False)}" for name, v in hand.items()))


def example_block(path: str) -> str:
    raw = json.loads((ROOT / path).read_text(encoding="utf-8"))
    doc = raw.get("input", raw)
    doc = {k: v for k, v in doc.items() if k in ("variant", "options", "players", "hands")}
    result = session_settle(doc, lang="en")
    players = doc["players"]
    options = doc.get("options") or {}
    lines = [
        f"From `{path}`: {doc['variant']}, players {' · '.join(f'{i} {p}' for i, p in enumerate(players))}"
        + (f", options {_value(options)}" if options else ", default options")
        + ". The figures are the engine's (this block is written by `docs/rules/tables.py`).",
        "",
        "| # | game | entered | outcome | deltas | totals after | receipt |",
        "|---|---|---|---|---|---|---|",
    ]
    for entered, hand in zip(doc["hands"], result["hands"], strict=True):
        outcome = hand["outcome"] + (" · " + " ".join(hand["tags"]) if hand["tags"] else "")
        steps = " · ".join(hand["steps"])
        lines.append(
            f"| {hand['n']} | {hand['game']} | {_hand_input(entered)} | {_cell(outcome)} | "
            f"{hand['deltas']} | {hand['totals']} | {_cell(steps)} |"
        )
    lines.append("")
    for game in result["games"]:
        if game["finished"]:
            winners = ", ".join(players[s] for s in game["winners"])
            adjust = f", adjustments {game['adjustments']}" if any(game["adjustments"]) else ""
            lines.append(
                f"- Game {game['n']} (hands {game['first_hand']}–{game['last_hand']}): won by {winners}"
                f" (`how`: `{game['how']}`){adjust}, game totals {game['totals']}."
            )
        else:
            lines.append(f"- Game {game['n']} (from hand {game['first_hand']}): not finished, totals {game['totals']}.")
    lines.append(f"- Session totals {result['totals']}, games won {result['games_won']}.")
    if result["settle_up"]:
        pays = "; ".join(f"{players[t['from']]} pays {players[t['to']]} {t['amount']}" for t in result["settle_up"])
        lines.append(f"- Settle-up: {pays}.")
    return "\n".join(lines) + "\n"


def render(text: str) -> str:
    def block(match: re.Match[str]) -> str:
        kind, arg = match.group(2), match.group(3)
        body = options_block(arg) if kind == "options" else example_block(arg)
        return match.group(1) + body + match.group(5)

    return BLOCK.sub(block, text)


def pages() -> list[Path]:
    return sorted(DOCS.glob("*.md"))


def main(argv: list[str]) -> int:
    stale = []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        new = render(text)
        if new != text:
            stale.append(page)
            if "--check" not in argv:
                page.write_text(new, encoding="utf-8")
    if stale and "--check" in argv:
        print("out of date:", ", ".join(str(p.relative_to(ROOT)) for p in stale), file=sys.stderr)
        print("run: .venv/bin/python docs/rules/tables.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

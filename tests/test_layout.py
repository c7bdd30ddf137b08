"""Every import arrow in `settlement/` points down: the rooms stand in ranks, and no modules import round a circle.

The graph is read from the source with `ast`, so it sees every import: at the top, inside a function, under
`TYPE_CHECKING`. `from settlement import services` imports the package `settlement.services`;
`from .ledger import LedgerError` imports `settlement.ledger` (its `__init__`); `from .ledger import sql` imports
`settlement.ledger.sql`. A room is a top-level module or package of `settlement/`; it may import only rooms of a
lower rank (two rooms of one rank import neither each other), and a module new at the top level needs a rank here.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "settlement"

# rules <- models <- ledger <- policy, scoping <- services, selectors <- presentation <- web, api.
# policy and scoping rank below services and selectors, which ask them (the services enforce policy's rules; the
# selectors and views scope their lookups): they need only the models and the ledger (its error, its SQL).
RANKS: Mapping[str, int] = {
    "rules": 0,  # the engine: pure Python, no Django
    "models": 1,
    "ledger": 2,  # the log's persistence: reading and replaying it, the derived rows, the SQL, bulk insert, values
    "policy": 3,
    "scoping": 3,
    "services": 4,  # writes
    "selectors": 4,  # reads
    "presentation": 5,
    "web": 6,
    "api": 6,
    "admin": 6,
    "management": 6,
    "apps": 7,
    "urls": 7,  # routes to web
    "migrations": 7,
    "__init__": 7,  # settlement/__init__.py, empty
}


# The circles allowed, inside the engine only: its message table (`rules/messages.py`) imports every variant module
# for its texts, and two things in them render a message: `RulesError.message` (the variants raise RulesError) and
# hongxingwu's `kou_shape_entries`. Both import the table inside the function. The test takes these arrows out
# before looking for circles, and fails if one is gone (then take it out here).
ALLOWED: frozenset[tuple[str, str]] = frozenset(
    {
        ("settlement.rules.base", "settlement.rules.messages"),
        ("settlement.rules.hongxingwu", "settlement.rules.messages"),
    }
)


def module_name(path: str) -> tuple[str, bool]:
    """`settlement/web/table.py` -> (`settlement.web.table`, False); a package's `__init__.py` -> (its name, True)."""
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def import_graph(sources: Mapping[str, str], package: str = PACKAGE) -> dict[str, set[str]]:
    """The modules of `package` (path -> source text) and the modules of `package` each of them imports."""
    names = dict(module_name(path) for path in sources)

    def known(name: str) -> str | None:
        """`name` if it is a module of the package, else its longest prefix that is one (None: outside it)."""
        while name and name not in names:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {name: set() for name in names}
    for path, text in sources.items():
        name, is_package = module_name(path)
        here = name if is_package else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(text, filename=path)):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = ".".join(here.split(".")[: len(here.split(".")) - node.level + 1])
                    base = f"{base}.{node.module}" if node.module else base
                else:
                    base = node.module or ""
                # `from X import Y`: the module X.Y if there is one, else the module X (Y is a name in it).
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in names else base for alias in node.names]
            for target in targets:
                if target.split(".")[0] != package:
                    continue
                found = known(target)
                if found is not None and found != package:  # the package's own `__init__` is empty
                    graph[name].add(found)
    return graph


def room(module: str) -> str:
    """`settlement.web.table` -> `web`; the package itself (`settlement/__init__.py`) -> `__init__`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import one another round a circle (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph.get(node, ())):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def upward(graph: Mapping[str, set[str]], ranks: Mapping[str, int] = RANKS) -> list[str]:
    """Every import of a room by a room not below it (same rank or lower), and every room without a rank."""
    wrong = [f"{room(name)} has no rank (a new top-level module?)" for name in graph if room(name) not in ranks]
    for name, targets in sorted(graph.items()):
        for target in sorted(targets):
            a, b = room(name), room(target)
            if a != b and a in ranks and b in ranks and ranks[b] >= ranks[a]:
                wrong.append(f"{name} imports {target}: {a} (rank {ranks[a]}) may not import {b} (rank {ranks[b]})")
    return sorted(set(wrong))


def tree_sources(root: Path = ROOT, package: str = PACKAGE) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted((root / package).rglob("*.py"))
    }


# --- the real tree ---


def test_no_modules_of_settlement_import_round_a_circle():
    graph = import_graph(tree_sources())
    for source, target in ALLOWED:
        assert target in graph[source], f"{source} no longer imports {target}: take it out of ALLOWED"
        graph[source] = graph[source] - {target}
    assert circles(graph) == []


def test_every_room_of_settlement_imports_only_rooms_below_it():
    assert upward(import_graph(tree_sources())) == []


def test_the_graph_sees_the_tree_s_known_arrows():
    """A check that reads no imports would pass the two tests above: it must see these (one inside a function)."""
    graph = import_graph(tree_sources())
    assert {"settlement.models", "settlement.ledger.sql"} <= graph["settlement.scoping"]
    assert "settlement.ledger" in graph["settlement.policy"]  # from .ledger import LedgerError
    assert "settlement.services" in graph["settlement.web.table"]  # from .. import policy, selectors, services
    assert "settlement.models" in graph["settlement.web.templatetags.ledger"]  # inside a function
    assert "settlement.web.table" in graph["settlement.urls"]


# --- the graph's functions, on graphs made to be wrong ---

GOOD = {
    "settlement/__init__.py": "",
    "settlement/rules/__init__.py": "from .base import X\n",
    "settlement/rules/base.py": "X = 1\n",
    "settlement/models.py": "from .rules.base import X\n",
    "settlement/ledger/__init__.py": "from .log import LedgerError\n",
    "settlement/ledger/log.py": "from . import sql\nfrom ..models import X\nclass LedgerError(Exception): ...\n",
    "settlement/ledger/sql.py": "from settlement.models import X\n",
    "settlement/policy.py": "from .ledger import LedgerError\nfrom .models import X\n",
    "settlement/services/__init__.py": "from .. import policy\nfrom ..ledger import sql\n",
    "settlement/selectors/__init__.py": "import settlement.ledger.log\n",
    "settlement/web/__init__.py": "",
    "settlement/web/table.py": "from .. import selectors, services\n",
    "settlement/web/hands.py": "from .table import X\n",
}


@pytest.mark.parametrize(
    ("path", "text", "circle"),
    [
        # models -> policy -> ledger -> sql -> models, the model's import inside a method
        (
            "settlement/models.py",
            "from .rules.base import X\nclass M:\n    def can_write(self):\n        from .policy import may_write\n",
            [
                "settlement.ledger",
                "settlement.ledger.log",
                "settlement.ledger.sql",
                "settlement.models",
                "settlement.policy",
            ],
        ),
        # two page modules importing each other, one of them inside a function
        (
            "settlement/web/table.py",
            "from .. import selectors\ndef f():\n    from . import hands\n",
            ["settlement.web.hands", "settlement.web.table"],
        ),
        # a ledger module importing the ledger package that imports it
        (
            "settlement/ledger/sql.py",
            "from . import LedgerError\n",
            ["settlement.ledger", "settlement.ledger.log", "settlement.ledger.sql"],
        ),
    ],
)
def test_circles_finds_modules_that_import_round_a_circle(path, text, circle):
    assert circles(import_graph(GOOD)) == []
    assert circle in circles(import_graph({**GOOD, path: text}))


@pytest.mark.parametrize(
    ("path", "text", "arrow"),
    [
        (
            "settlement/rules/base.py",
            "from settlement.models import Y\n",
            "settlement.rules.base imports settlement.models",
        ),
        (
            "settlement/models.py",
            "def f():\n    from .ledger import log\n",
            "settlement.models imports settlement.ledger.log",
        ),
        (
            "settlement/ledger/sql.py",
            "from settlement import services\n",
            "settlement.ledger.sql imports settlement.services",
        ),
        (
            "settlement/selectors/__init__.py",
            "from ..services import Z\n",
            "settlement.selectors imports settlement.services",
        ),
        (
            "settlement/services/__init__.py",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..web.table import T\n",
            "settlement.services imports settlement.web.table",
        ),
        ("settlement/web/hands.py", "import settlement.api\n", "settlement.web.hands imports settlement.api"),
        ("settlement/views.py", "from . import models\n", "views has no rank"),
    ],
)
def test_upward_finds_a_room_importing_one_not_below_it(path, text, arrow):
    assert upward(import_graph(GOOD)) == []
    sources = {**GOOD, path: text}
    if path == "settlement/web/hands.py":
        sources["settlement/api/__init__.py"] = ""
    assert any(line.startswith(arrow) for line in upward(import_graph(sources)))

"""The layers' dependencies point one way (docs/design.md, "Layers"), read from the source so
every import counts: at module level, inside a function or under TYPE_CHECKING.

- ``games`` imports nothing of ``firmware_py``, ``hal``, ``display`` or ``calibration``
  and no I/O module (clock, OS, files beyond its own data, network, database, threads);
  ``random`` only for ``random.Random`` instances (no global random state); a game
  package imports no other game package, and the shared core no game package (only the
  registry names them).  ``pathlib`` and ``json`` stay allowed: card data lives in files
  beside each engine.
- ``hal`` imports neither ``games``, ``display``, ``calibration`` nor ``firmware_py``.
- ``display`` imports neither ``hal``, ``calibration`` nor ``firmware_py`` (games' views
  and events only).
- ``calibration`` imports neither ``display``, ``games`` nor ``firmware_py`` (``hal`` only).
- A game is a folder per layer (``games/<name>/``, ``display/games/<name>/``,
  ``firmware_py/games/<name>/``): every name the registry offers has all three; a
  cabinet-wide module (any other) imports no game's folder of any layer; one game's folder
  imports no other game's.
- The padboard firmware (``firmware_py/padboard/``) imports nothing of the repository but
  ``hal/padboard/wire.py`` and its own modules, and ``wire.py`` nothing of it at all
  (the MicroPython subset is fenced in ``tests/firmware_py/padboard/test_board.py``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("games", "hal", "display", "calibration", "firmware_py")
MUST_NOT_IMPORT = {
    "games": {"firmware_py", "hal", "display", "calibration"},
    "hal": {"games", "display", "calibration", "firmware_py"},
    "display": {"hal", "calibration", "firmware_py"},
    "calibration": {"display", "games", "firmware_py"},
}
GAMES_NO_IO = {
    "asyncio",
    "datetime",
    "gpiozero",
    "http",
    "io",
    "logging",
    "os",
    "PIL",
    "psycopg",
    "pygame",
    "secrets",
    "select",
    "selectors",
    "serial",
    "shutil",
    "signal",
    "socket",
    "sqlite3",
    "subprocess",
    "sys",
    "tempfile",
    "threading",
    "time",
    "urllib",
    "uuid",
}
BOARD = "firmware_py/padboard"
WIRE = "hal/padboard/wire.py"


@dataclass(frozen=True)
class Import:
    where: str  # path:line
    module: str  # absolute dotted name
    names: tuple[str, ...]  # what ``from module import …`` takes ("" for ``import module``)


def module_name(root: Path, path: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(root: Path, path: Path) -> list[Import]:
    """Every import in ``path``, relative ones made absolute."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module_name(root, path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        where = f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import):
            out += [Import(where, a.name, ("",)) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, module] if module else base)
            out.append(Import(where, module, tuple(a.name for a in node.names)))
    return out


def sources(root: Path, layer: str) -> list[Path]:
    return sorted(p for p in (root / layer).rglob("*.py") if "__pycache__" not in p.parts)


def game_packages(root: Path) -> set[str]:
    return {p.parent.name for p in (root / "games").glob("*/__init__.py")}


def _top(module: str) -> str:
    return module.split(".")[0]


def _random_misuse(path: Path, root: Path) -> list[str]:
    """Uses of the random module's global state: anything but ``random.Random``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
            and node.attr != "Random"
        ):
            out.append(f"{path.relative_to(root)}:{node.lineno}: random.{node.attr} (global random state)")
    return out


GAME_PACKAGES = ("games", "display.games", "firmware_py.games")
"""Where each layer keeps its games' folders, as packages."""


def game_of_module(module: str, games: set[str]) -> str | None:
    """The game whose folder holds ``module`` (in any layer), or None (cabinet-wide)."""
    for package in GAME_PACKAGES:
        if module.startswith(package + "."):
            name = module[len(package) + 1 :].split(".")[0]
            return name if name in games else None
    return None


def game_folder_violations(root: Path, games: set[str]) -> list[str]:
    """Cabinet-wide modules of ``display`` and ``firmware_py`` import no game's folder,
    and a game's folder in those layers imports no other game's."""
    out = []
    for layer in ("display", "firmware_py"):
        for path in sources(root, layer):
            if BOARD in path.relative_to(root).as_posix():
                continue
            own = game_of_module(module_name(root, path), games)
            for imp in imports(root, path):
                targets = {imp.module} | {f"{imp.module}.{n}" for n in imp.names if n}
                other = {g for t in targets if (g := game_of_module(t, games)) is not None}
                for g in sorted(other - {own}):
                    who = f"the folder of {own}" if own else "a cabinet-wide module"
                    out.append(f"{imp.where}: {who} imports {imp.module} (the game {g})")
    return out


def violations(root: Path = ROOT) -> list[str]:
    """Every import that breaks a layer rule, as ``path:line: what``."""
    out: list[str] = []
    for layer, banned in MUST_NOT_IMPORT.items():
        for path in sources(root, layer):
            for imp in imports(root, path):
                if _top(imp.module) in banned:
                    out.append(f"{imp.where}: {layer} imports {imp.module}")
    games = game_packages(root)
    for path in sources(root, "games"):
        rel = path.relative_to(root / "games").parts
        own = rel[0] if len(rel) > 1 else None  # None: the shared core (protocol, codec, …)
        for imp in imports(root, path):
            top = _top(imp.module)
            if top in GAMES_NO_IO:
                out.append(f"{imp.where}: games imports {imp.module} (I/O)")
            if top == "random" and set(imp.names) - {"", "Random"}:
                out.append(f"{imp.where}: from random import {', '.join(imp.names)} (global random state)")
            parts = imp.module.split(".")
            other = parts[1] if len(parts) > 1 and parts[0] == "games" and parts[1] in games else None
            if other is not None and other != own and path.name != "registry.py":
                out.append(f"{imp.where}: {'games/' + own if own else 'the games core'} imports {imp.module}")
        out += _random_misuse(path, root)
    for path in sources(root, BOARD):
        if path.name == "__init__.py":
            continue
        for imp in imports(root, path):
            top = _top(imp.module)
            if top not in LAYERS:
                continue  # MicroPython's modules and the board's own flat names
            ok = imp.module.startswith("firmware_py.padboard.") or (
                (imp.module == "hal.padboard" and set(imp.names) <= {"wire"}) or imp.module == "hal.padboard.wire"
            )
            if not ok:
                out.append(f"{imp.where}: the padboard firmware imports {imp.module}")
    for imp in imports(root, root / WIRE):
        if _top(imp.module) in LAYERS:
            out.append(f"{imp.where}: wire.py (copied to the board) imports {imp.module}")
    return out + game_folder_violations(root, games)


@pytest.mark.slow
def test_layers_import_only_downwards() -> None:
    assert violations() == []


def test_layers_every_layer_is_read() -> None:
    """The rules above are checked on real files: each layer has modules, each game
    package is seen, and imports (relative ones too) resolve to dotted names."""
    for layer in LAYERS:
        assert sources(ROOT, layer), layer
    assert {"punch", "karate_fight"} <= game_packages(ROOT)
    mods = {i.module for i in imports(ROOT, ROOT / "firmware_py/padboard/board.py")}
    assert {"hal.padboard", "firmware_py.padboard.detector", "wire", "detector"} <= mods


def test_every_game_offered_has_its_folder_in_each_layer() -> None:
    from games import registry

    for name in registry.names():
        for package in GAME_PACKAGES:
            folder = ROOT / package.replace(".", "/") / name
            assert (folder / "__init__.py").is_file(), f"game {name!r} has no folder {folder.relative_to(ROOT)}/"


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module → the repository's modules it imports, every import counted (module level,
    inside a function, under TYPE_CHECKING); ``from package import name`` counts the
    package and, where ``name`` is a module of it, that module."""
    modules = {module_name(root, p): p for layer in LAYERS for p in sources(root, layer) if BOARD not in str(p)}
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        deps = set()
        for imp in imports(root, path):
            for target in (imp.module, *(f"{imp.module}.{n}" for n in imp.names if n)):
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != module:
                    deps.add(target)
        graph[module] = deps
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that import one another round a circle (Tarjan's strongly
    connected components of more than one module), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return circles


def test_no_module_imports_itself_round_a_circle() -> None:
    assert import_circles(import_graph()) == []


def test_a_circle_hidden_in_a_function_or_type_checking_is_found(tmp_path: Path) -> None:
    for layer in LAYERS:
        (tmp_path / layer).mkdir()
    (tmp_path / "display/a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from display.b import B\n"
    )
    (tmp_path / "display/b.py").write_text("def f():\n    from display import a\n")
    (tmp_path / "display/c.py").write_text("from display.b import f\n")
    assert import_circles(import_graph(tmp_path)) == [["display.a", "display.b"]]


BREAKS = {
    "games/punch/engine.py": ("import time\n", "games imports time (I/O)"),
    "games/karate_fight/judging.py": ("from datetime import datetime\n", "games imports datetime (I/O)"),
    "games/punch/bot.py": ("import random\nx = random.random()\n", "random.random (global random state)"),
    "games/punch/deal.py": ("from random import shuffle\n", "from random import shuffle"),
    "games/punch/views.py": ("from ..karate_fight import cards\n", "games/punch imports games.karate_fight"),
    "games/protocol.py": ("from games.punch import Punch\n", "the games core imports games.punch"),
    "games/codec.py": ("from hal.events import SlapEvent\n", "games imports hal.events"),
    "hal/sim.py": ("from display.window import Window\n", "hal imports display.window"),
    "hal/gpio.py": (
        "def f():\n    from firmware_py.runtime.cabinet import Cabinet\n",
        "hal imports firmware_py.runtime.cabinet",
    ),
    "display/renderer.py": ("from hal.events import Button\n", "display imports hal.events"),
    "display/private.py": ("from firmware_py.runtime import scenes\n", "display imports firmware_py"),
    "calibration/report.py": ("from display.calibration_screen import PadTrace\n", "calibration imports display"),
    "calibration/fit.py": ("from firmware_py.tools import cli\n", "calibration imports firmware_py"),
    "calibration/runner.py": ("from games.registry import specs\n", "calibration imports games.registry"),
    "firmware_py/padboard/board.py": ("from hal.clock import ManualClock\n", "padboard firmware imports hal.clock"),
    "hal/padboard/wire.py": ("from hal.padboard import settings\n", "wire.py (copied to the board) imports"),
    "firmware_py/sim/chain.py": (
        "from firmware_py.games.karate_fight.controls import KarateControls\n",
        "a cabinet-wide module imports firmware_py.games.karate_fight.controls (the game karate_fight)",
    ),
    "display/screens.py": (
        "def f():\n    from display.games import punch\n",
        "a cabinet-wide module imports display.games (the game punch)",
    ),
    "firmware_py/games/punch/story.py": (
        "from games.karate_fight import HitWon\n",
        "the folder of punch imports games.karate_fight (the game karate_fight)",
    ),
    "display/games/karate_fight/screen.py": (
        "from display.games.punch.private import draw_punch_private\n",
        "the folder of karate_fight imports display.games.punch.private (the game punch)",
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(BREAKS))
def test_layers_check_finds_each_kind_of_break(tmp_path: Path, path: str) -> None:
    """The check itself: a tree that is clean except for one bad line is caught there."""
    for layer in LAYERS:
        (tmp_path / layer).mkdir()
    for rel in ("games/punch/__init__.py", "games/karate_fight/__init__.py", "hal/padboard/wire.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("import struct\n")
    (tmp_path / "games/punch/ok.py").write_text("import random\nfrom games.protocol import Engine\nR = random.Random\n")
    assert violations(tmp_path) == []
    source, expected = BREAKS[path]
    target = tmp_path / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(source)
    found = violations(tmp_path)
    assert len(found) == 1 and expected in found[0] and found[0].startswith(path), found

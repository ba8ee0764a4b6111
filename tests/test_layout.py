"""The package's layout: the framework knows no game, the core steps of Heat import no module,
the rules never import the tools, the two games never import each other, and no import
circle is longer than two files.

Independent of the code it checks: it reads the source files as text (every import
statement, at module level or inside a function, ``TYPE_CHECKING`` blocks included),
never the modules' own lists of what they use; each check is shown to fail on planted
sources. The last test plays races with every hook point reset to the core's own answer.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

import networkx as nx
import pytest

from heatcore.heat import hooks
from heatcore.heat.driver import random_race, replay

PACKAGE = Path(__file__).resolve().parent.parent / "heatcore"

#: The steps of a Heat round (and the hook points they call): a module changes them only
#: through :mod:`heatcore.heat.hooks`. (The card table, ``cards``, lists every card of the
#: box, the modules' printed cards too, read from their data files.)
CORE_STEPS = ("planning", "reveal", "corners", "react", "slipstream", "placement", "cleanup",
              "rounds", "engine", "hooks", "state", "actions", "track")
#: Words only a game uses: none may stand in the framework, its docstrings included.
GAME_NOUNS = re.compile(
    r"\b(heat|rallyman|rgt|legends?|garage|weather|championship|sponsors?|slipstream|"
    r"adrenaline|cool-?down|stress|dice|die|dashboards?|focus|tyres?)\b", re.IGNORECASE)
#: The packages whose ``__init__`` says what lives there and what it may import.
DOCUMENTED = ("framework", "framework.conformance", "heat", "heat.modules",
              "heat.conformance", "rallyman", "tools", "tools.heat", "tools.rallyman")


def module_files(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def imported(name: str, text: str, is_package: bool, known: Iterable[str]) -> set[str]:
    """The modules of ``known`` that the source ``text`` of module ``name`` imports,
    anywhere in the file (``from P import m`` counts as ``P.m`` when that is a module)."""
    known = set(known)
    here = name if is_package else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = here
                for _ in range(node.level - 1):
                    parent = parent.rpartition(".")[0]
                base = f"{parent}.{base}" if base else parent
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def import_graph(sources: dict[str, tuple[str, bool]]) -> nx.DiGraph:
    """Module -> module it imports, from ``name -> (text, is_package)``."""
    graph = nx.DiGraph()
    graph.add_nodes_from(sources)
    for name, (text, is_package) in sources.items():
        graph.add_edges_from((name, other) for other in imported(name, text, is_package,
                                                                   sources))
    return graph


def long_circles(graph: nx.DiGraph) -> list[list[str]]:
    """Every import circle of more than two files (a strongly connected set)."""
    return sorted(sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 2)


def under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def game_mentions(text: str) -> list[str]:
    """What in a framework source names a game: a game package by name, or a game noun."""
    found = re.findall(r"heatcore\.(?:heat|rallyman|tools)\b[\w.]*", text)
    return found + [m.group(0) for m in GAME_NOUNS.finditer(text)]


@pytest.fixture(scope="module")
def sources() -> dict[str, tuple[str, bool]]:
    return {name: (path.read_text(encoding="utf-8"), path.name == "__init__.py")
            for name, path in module_files().items()}


@pytest.fixture(scope="module")
def graph(sources: dict[str, tuple[str, bool]]) -> nx.DiGraph:
    return import_graph(sources)


def _edges_into(graph: nx.DiGraph, sources: Iterable[str], target: str) -> list[str]:
    return sorted(f"{a} -> {b}" for a in sources for b in graph.successors(a)
                  if under(b, target))


def test_the_framework_imports_no_game_and_names_none(
        sources: dict[str, tuple[str, bool]], graph: nx.DiGraph) -> None:
    framework = [n for n in sources if under(n, "heatcore.framework")]
    assert len(framework) > 20
    for package in ("heatcore.heat", "heatcore.rallyman", "heatcore.tools"):
        assert _edges_into(graph, framework, package) == []
    named = {n: game_mentions(sources[n][0]) for n in framework}
    assert {n: m for n, m in named.items() if m} == {}


def test_the_core_steps_import_no_module(graph: nx.DiGraph) -> None:
    steps = [f"heatcore.heat.{s}" for s in CORE_STEPS]
    assert all(s in graph for s in steps)
    assert _edges_into(graph, steps, "heatcore.heat.modules") == []


def test_the_rules_never_import_the_tools(graph: nx.DiGraph) -> None:
    rules = [n for n in graph if not under(n, "heatcore.tools") and n != "heatcore.__main__"]
    assert _edges_into(graph, rules, "heatcore.tools") == []


def test_the_games_do_not_import_each_other(graph: nx.DiGraph) -> None:
    heat = [n for n in graph if under(n, "heatcore.heat")]
    rallyman = [n for n in graph if under(n, "heatcore.rallyman")]
    assert _edges_into(graph, heat, "heatcore.rallyman") == []
    assert _edges_into(graph, rallyman, "heatcore.heat") == []


def test_no_import_circle_is_longer_than_two_files(graph: nx.DiGraph) -> None:
    assert long_circles(graph) == []


def test_each_package_says_what_lives_there_and_what_it_may_import(
        sources: dict[str, tuple[str, bool]]) -> None:
    for package in DOCUMENTED:
        text, is_package = sources[f"heatcore.{package}"]
        doc = ast.get_docstring(ast.parse(text)) or ""
        assert is_package and "May import" in doc, package


def test_the_checks_fail_on_planted_sources() -> None:
    """Each check above catches what it looks for: a deferred game import in the framework,
    a module imported by a core step, a game noun in a docstring, a three-file circle."""
    planted = {
        "heatcore.framework": ("", True),
        "heatcore.framework.loop": ('"""Plays a round."""\ndef f():\n'
                                    '    from heatcore.heat.state import RaceState\n', False),
        "heatcore.heat": ("", True),
        "heatcore.heat.state": ("", False),
        "heatcore.heat.corners": ("from .modules import weather\n", False),
        "heatcore.heat.modules": ("", True),
        "heatcore.heat.modules.weather": ("from heatcore.heat import corners\n", False),
        "heatcore.a": ("import heatcore.b\n", False),
        "heatcore.b": ("from heatcore import c\n", False),
        "heatcore.c": ("if x:\n    import heatcore.a\n", False),
    }
    graph = import_graph(planted)
    assert _edges_into(graph, ["heatcore.framework.loop"], "heatcore.heat") == [
        "heatcore.framework.loop -> heatcore.heat.state"]
    assert _edges_into(graph, ["heatcore.heat.corners"], "heatcore.heat.modules") == [
        "heatcore.heat.corners -> heatcore.heat.modules.weather"]
    assert long_circles(graph) == [["heatcore.a", "heatcore.b", "heatcore.c"]]
    assert game_mentions('"""Each Legend moves."""') == ["Legend"]
    assert game_mentions('x = "heatcore.rallyman.binding:B"') == ["heatcore.rallyman.binding",
                                                                  "rallyman"]
    assert game_mentions('"""heatcore: the one framework of the races."""') == []


@pytest.mark.parametrize("seed", [3, 8])
@pytest.mark.rules("round.sequence")
def test_with_every_hook_point_at_the_core_answer_a_core_race_plays_the_same(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each module's filling of a hook point gives the core's own answer in a race that
    does not play the module: a core race replays step for step with every hook point
    reset to the answer the core declares."""
    race = random_race("usa", 4, seed=seed)
    for point in hooks.HOOK_POINTS:
        assert point.module is not None, point  # every module filled its points
        monkeypatch.setattr(point, "call", point.core)
    again = replay(race.setup, list(race.actions))
    assert again.events == race.events and again.final == race.final


def test_the_architecture_page_shows_every_hook_point_and_package() -> None:
    page = (PACKAGE.parent / "docs" / "guides" / "architecture.rst").read_text(encoding="utf-8")
    missing = [p.name for p in hooks.HOOK_POINTS
               if f"``{p.name.replace('-', '_')}``" not in page]
    assert missing == []
    for point in hooks.HOOK_POINTS:  # its row names the module that fills it
        row = page[page.index(f"``{point.name.replace('-', '_')}``"):]
        end = row.find("* -")
        assert f"- {point.module}\n" in (row if end < 0 else row[:end]), point
    assert all(f"heatcore.{p.split('.')[0]}" in page for p in DOCUMENTED)

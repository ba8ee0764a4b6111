"""The rule registry: rule and ruling entries loaded from ``spec/``, looked up by stable ID.

Nothing here knows about a particular game: a ruleset is a folder of TOML chapters
(``rules/NN-*.toml``) plus an optional ``rulings.toml``. ``GAMES`` names each ruleset of
this repository, read from ``spec/games.toml``; every rule ID is unique across all of
them, so one ``@implements`` registry serves them all.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

#: rule ID -> qualified names of the functions that implement it (filled by ``implements``).
IMPLEMENTATIONS: dict[str, list[str]] = {}


def implements(*rule_ids: str) -> Callable[[F], F]:
    """Mark a function as the place where the given rules are carried out."""

    def mark(func: F) -> F:
        # A method compiled by mypyc is a method descriptor: no __module__ of its own, its
        # class has it.
        owner = getattr(func, "__objclass__", None)
        module = func.__module__ if owner is None else owner.__module__
        for rule_id in rule_ids:
            IMPLEMENTATIONS.setdefault(rule_id, []).append(f"{module}.{func.__qualname__}")
        return func

    return mark


#: The comment line that names the rules the function defined below it carries out, where
#: a decorator cannot be used: in a module compiled by mypyc, a call to a decorated method
#: goes through Python instead of straight to the compiled code.
MARK = "# implements:"
_MARKED: set[str] = set()


def implements_marked(module: str, source: Path) -> None:
    """Register, as ``implements`` does, every function and method of ``module`` (its
    ``source`` file) preceded by ``# implements: ID, ID, ...`` lines (once per module)."""
    if module in _MARKED:
        return
    _MARKED.add(module)
    text = source.read_text(encoding="utf-8")
    lines = text.splitlines()
    for qualname, line in _definitions(ast.parse(text)):
        rule_ids: list[str] = []
        above = line - 2  # the line above the def or its first decorator (0-based)
        while above >= 0 and lines[above].strip().startswith(MARK):
            marked = lines[above].strip()[len(MARK):]
            rule_ids[:0] = [r.strip() for r in marked.split(",") if r.strip()]
            above -= 1
        for rule_id in rule_ids:
            IMPLEMENTATIONS.setdefault(rule_id, []).append(f"{module}.{qualname}")


def _definitions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, int]]:
    """(qualified name, line of the def or its first decorator) of each function in
    ``tree``, methods included."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            yield f"{prefix}{node.name}", first
        elif isinstance(node, ast.ClassDef):
            yield from _definitions(node, f"{prefix}{node.name}.")


@dataclass(frozen=True)
class Source:
    """Where a rule comes from: a document and its section heading (several headings
    joined by `` + `` when the rule rests on more than one section)."""

    document: str
    section: str

    @property
    def sections(self) -> tuple[str, ...]:
        """Each cited section heading."""
        return tuple(part.strip() for part in self.section.split(" + "))


@dataclass(frozen=True)
class Entry:
    """One rule or ruling of a ruleset."""

    id: str
    kind: str  # "rule" or "ruling"
    title: str
    chapter: str
    text: str
    source: Source | None = None
    example: str = ""
    question: str = ""
    reasoning: str = ""
    alternatives: tuple[str, ...] = ()
    refines: tuple[str, ...] = ()
    #: For a switchable ruling: the ID of the decision (``default``) and, parallel to
    #: ``alternatives``, the ID of each alternative that can be switched on ("" if none).
    default: str = ""
    alternative_ids: tuple[str, ...] = ()
    #: For a ruling that cannot be switched: why not.
    fixed: str = ""

    @property
    def choices(self) -> tuple[str, ...]:
        """The IDs a race setup may choose for this ruling, the default first (empty when
        the ruling is not switchable)."""
        if not self.default:
            return ()
        return (self.default, *(a for a in self.alternative_ids if a))


@dataclass(frozen=True)
class Chapter:
    """A chapter of the rule text, in rulebook order."""

    id: str
    title: str
    order: int
    summary: str
    rule_ids: tuple[str, ...]


@dataclass(frozen=True)
class Ruleset:
    """All chapters, rules and rulings of one ruleset."""

    chapters: tuple[Chapter, ...]
    entries: dict[str, Entry] = field(repr=False)

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self.entries

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries.values())

    def __getitem__(self, rule_id: str) -> Entry:
        return self.entries[rule_id]

    @property
    def rule_ids(self) -> tuple[str, ...]:
        """Every rule and ruling ID, in rulebook order (rulings last)."""
        return tuple(self.entries)


def spec_dir() -> Path:
    """The ``spec/`` folder: at the repository root, or shipped inside the package."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package.parent / "spec", package / "_spec"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("spec/ folder not found next to the heatcore package")


def _source(raw: dict[str, Any] | None) -> Source | None:
    if raw is None:
        return None
    return Source(document=str(raw["document"]), section=str(raw["section"]))


def _alternatives(raw: list[Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(texts, IDs) of a ruling's alternatives: a plain string, or a table {id, text} for
    an alternative a race setup can switch on."""
    texts, ids = [], []
    for item in raw:
        if isinstance(item, dict):
            texts.append(str(item["text"]))
            ids.append(str(item["id"]))
        else:
            texts.append(str(item))
            ids.append("")
    return tuple(texts), tuple(ids)


def load_ruleset(folder: Path) -> Ruleset:
    """Read the chapters in ``folder/rules`` and the rulings in ``folder/rulings.toml``."""
    entries: dict[str, Entry] = {}
    chapters: list[Chapter] = []

    def add(entry: Entry) -> None:
        if entry.id in entries:
            raise ValueError(f"duplicate rule ID {entry.id!r} in {folder}")
        entries[entry.id] = entry

    for path in sorted((folder / "rules").glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        head = data["chapter"]
        ids = []
        for raw in data.get("rule", []):
            add(
                Entry(
                    id=raw["id"],
                    kind="rule",
                    title=raw["title"],
                    chapter=head["id"],
                    text=raw["text"].strip(),
                    source=_source(raw.get("source")),
                    example=raw.get("example", "").strip(),
                )
            )
            ids.append(raw["id"])
        chapters.append(
            Chapter(head["id"], head["title"], int(head["order"]), head.get("summary", ""),
                    tuple(ids))
        )
    rulings_path = folder / "rulings.toml"
    if rulings_path.exists():
        data = tomllib.loads(rulings_path.read_text(encoding="utf-8"))
        for raw in data.get("ruling", []):
            texts, alt_ids = _alternatives(raw.get("alternatives", []))
            add(
                Entry(
                    id=raw["id"],
                    kind="ruling",
                    title=raw["title"],
                    chapter="rulings",
                    text=raw["decision"].strip(),
                    source=_source(raw.get("source")),
                    question=raw.get("question", "").strip(),
                    reasoning=raw.get("reasoning", "").strip(),
                    alternatives=texts,
                    refines=tuple(raw.get("rules", ())),
                    default=str(raw.get("default", "")),
                    alternative_ids=alt_ids,
                    fixed=str(raw.get("fixed", "")).strip(),
                )
            )
    chapters.sort(key=lambda c: c.order)
    return Ruleset(tuple(chapters), entries)


@dataclass(frozen=True)
class Game:
    """A ruleset of this repository: its name, title, folder under ``spec/``, the seed
    document its rules cite, and its conformance binding (``module:class``)."""

    name: str
    title: str
    folder: str
    document: str
    binding: str


def _games() -> dict[str, Game]:
    """Every ruleset of ``spec/games.toml``, in its order."""
    data = tomllib.loads((spec_dir() / "games.toml").read_text(encoding="utf-8"))
    return {g["name"]: Game(g["name"], g["title"], g["folder"], g["document"], g["binding"])
            for g in data["game"]}


#: Every ruleset, by the name used on the command line and in fixtures (``ruleset``), read
#: from ``spec/games.toml``: the framework names no game itself.
GAMES: dict[str, Game] = _games()
#: The ruleset a command plays when none is named: the first of ``spec/games.toml``.
DEFAULT_GAME = next(iter(GAMES))


@cache
def ruleset(game: str = DEFAULT_GAME) -> Ruleset:
    """The ruleset of ``game`` (the default ruleset if none) from this repository's
    ``spec/``."""
    return load_ruleset((spec_dir() / GAMES[game].folder).resolve())


def combined_ruleset() -> Ruleset:
    """Every ruleset as one, each game's chapters after the previous game's (for views of
    all of them, like the rulebook site); a chapter of any game but the first is titled
    with its game (``Title: Corners``), so a page says which game it is."""
    chapters: list[Chapter] = []
    entries: dict[str, Entry] = {}
    for index, (game, info) in enumerate(GAMES.items()):
        rules = ruleset(game)
        chapters += [Chapter(c.id, f"{info.title}: {c.title}" if index else c.title,
                             index * 1000 + c.order, c.summary, c.rule_ids)
                     for c in rules.chapters]
        entries.update(rules.entries)
    return Ruleset(tuple(chapters), entries)


def all_rule_ids() -> frozenset[str]:
    """Every rule and ruling ID of every ruleset."""
    return frozenset(rule for game in GAMES for rule in ruleset(game).rule_ids)

"""Sphinx extension: rule pages, rulings, coverage pages and a traceability matrix.

Generic over the ruleset: it reads any object with ``chapters`` (each with ``id``, ``title``,
``order``, ``summary``, ``rule_ids``) and ``entries`` (ID -> entry with ``id``, ``kind``,
``title``, ``chapter``, ``text``, ``source``, ``example``, ``question``, ``reasoning``,
``alternatives``, ``refines``), named in ``conf.py``. Coverage comes from scanning the test
and proof folders and the fixture folder for rule IDs. Pages are written to
``<srcdir>/<rulebook_outdir>`` when the builder starts, before Sphinx reads the sources.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.util
import json
import os
import pkgutil
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.domains import Domain, ObjType
from sphinx.environment import BuildEnvironment
from sphinx.roles import XRefRole
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

logger = logging.getLogger(__name__)


# --------------------------------------------------------------------------- loading


def _resolve(spec: str) -> Any:
    """The object named ``module:attribute``."""
    module, _, attr = spec.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


def load_ruleset(app: Sphinx) -> Any:
    """The ruleset named by ``rulebook_ruleset`` (a ``module:callable``), cached on ``app``."""
    cached = getattr(app, "_rulebook_ruleset", None)
    if cached is None:
        for module in app.config.rulebook_import:
            importlib.import_module(module)
        cached = _resolve(app.config.rulebook_ruleset)()
        app._rulebook_ruleset = cached  # type: ignore[attr-defined]
    return cached


def load_sources(app: Sphinx) -> dict[str, Any]:
    """The source documents named by ``rulebook_sources`` (a TOML file under the root):
    document number -> title, language, authority, about and English section titles."""
    cached = getattr(app, "_rulebook_sources", None)
    if cached is None:
        cached = {}
        rel = app.config.rulebook_sources
        if rel:
            import tomllib

            path = Path(app.config.rulebook_root) / rel
            cached = tomllib.loads(path.read_text(encoding="utf-8")).get("documents", {})
        app._rulebook_sources = cached  # type: ignore[attr-defined]
    return cached


def english_section(app: Sphinx, document: str, section: str) -> str | None:
    """The English title of a cited section (of each, for headings joined by `` + ``), if
    ``rulebook_sources`` gives one."""
    titles = load_sources(app).get(document, {}).get("sections", {})
    found = [titles.get(part.strip()) for part in section.split(" + ")]
    return " + ".join(map(str, found)) if all(found) else None


def fingerprint(text: str) -> str:
    """A short stable hash of a rule's text, to pin prose written against it."""
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()[:12]


# --------------------------------------------------------------------------- coverage


@dataclass(frozen=True)
class Hit:
    """One place that names a rule ID: a test, a proof or a fixture case."""

    kind: str  # "test" | "proof" | "fixture"
    path: str  # relative to the repository root
    name: str  # function or case name ("" for the whole file)
    line: int = 0

    @property
    def title(self) -> str:
        """A short name for links: the function, case or file."""
        if self.kind == "fixture":
            return self.name if "[" not in self.name else f"{Path(self.path).stem} {self.name}"
        return self.name or self.path

    @property
    def label(self) -> str:
        """The Sphinx label of this place on its coverage page."""
        raw = f"cov-{self.kind}-{self.path}-{self.name}"
        return "".join(c if c.isalnum() else "-" for c in raw).lower()


@dataclass
class Coverage:
    """Where each rule ID is named, by kind."""

    hits: dict[str, list[Hit]] = field(default_factory=dict)
    places: dict[str, list[Hit]] = field(default_factory=dict)  # kind -> every place scanned

    def add(self, rule_id: str, hit: Hit) -> None:
        """Record that ``hit`` names ``rule_id`` (once per place)."""
        bucket = self.hits.setdefault(rule_id, [])
        if hit not in bucket:
            bucket.append(hit)
        places = self.places.setdefault(hit.kind, [])
        if hit not in places:
            places.append(hit)

    def of(self, rule_id: str, kind: str) -> list[Hit]:
        """The places of one kind that name ``rule_id``."""
        return [h for h in self.hits.get(rule_id, []) if h.kind == kind]


def _marker_ids(node: ast.expr, marker: str) -> list[str] | None:
    """The string arguments of ``<anything>.mark.<marker>(...)``, or None for other nodes."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr == marker):
        return None
    if not (isinstance(func.value, ast.Attribute) and func.value.attr == "mark"):
        return None
    return [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]


def _py_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "_build" not in p.parts) if folder.is_dir() \
        else []


def scan_tests(root: Path, folder: Path, marker: str, known: set[str], cov: Coverage) -> None:
    """Record tests marked ``@pytest.mark.<marker>("id", ...)`` (also via ``pytestmark``)."""
    for path in _py_files(folder):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError) as error:
            logger.info("rulebook: cannot parse %s: %s", path, error)
            continue
        rel = path.relative_to(root).as_posix()
        module_ids: list[str] = []
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "pytestmark" for t in stmt.targets
            ):
                values = stmt.value.elts if isinstance(stmt.value, ast.List | ast.Tuple) \
                    else [stmt.value]
                for value in values:
                    module_ids += _marker_ids(value, marker) or []

        def visit(body: list[ast.stmt], prefix: str, inherited: list[str], rel: str) -> None:
            for stmt in body:
                if not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    continue
                ids = list(inherited)
                for deco in stmt.decorator_list:
                    ids += _marker_ids(deco, marker) or []
                name = f"{prefix}{stmt.name}"
                if isinstance(stmt, ast.ClassDef):
                    visit(stmt.body, f"{name}.", ids, rel)
                elif stmt.name.startswith("test"):
                    for rule_id in ids:
                        if rule_id in known:
                            cov.add(rule_id, Hit("test", rel, name, stmt.lineno))

        visit(tree.body, "", module_ids, rel)


def scan_literals(root: Path, folder: Path, kind: str, known: set[str], cov: Coverage) -> None:
    """Record each top-level definition whose body holds a known rule ID as a string literal."""
    for path in _py_files(folder):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        rel = path.relative_to(root).as_posix()
        for stmt in tree.body:
            name = getattr(stmt, "name", "")
            for node in ast.walk(stmt):
                if isinstance(node, ast.Constant) and node.value in known:
                    cov.add(str(node.value), Hit(kind, rel, name, stmt.lineno))


def _cases(data: Any, trail: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every JSON object with a ``rules`` list of strings, with a name for it."""
    if isinstance(data, dict):
        rules = data.get("rules")
        if isinstance(rules, list) and all(isinstance(r, str) for r in rules):
            name = next((str(data[k]) for k in ("id", "name", "title") if k in data), trail)
            yield name, data
        for key, value in data.items():
            if key != "rules":
                yield from _cases(value, f"{trail}/{key}" if trail else str(key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _cases(value, f"{trail}[{index}]")


def scan_fixtures(root: Path, folder: Path, known: set[str], cov: Coverage,
                  cases: dict[str, list[tuple[str, dict[str, Any]]]]) -> None:
    """Record each fixture case (a JSON object with a ``rules`` list) by the IDs it lists
    in ``rules`` and, where present, ``rulings``."""
    if not folder.is_dir():
        return
    for path in sorted(folder.rglob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            continue
        rel = path.relative_to(root).as_posix()
        found = list(_cases(data, ""))
        if found:
            cases[rel] = found
        for name, case in found:
            also = case.get("rulings")
            listed = case["rules"] + (also if isinstance(also, list) else [])
            for rule_id in dict.fromkeys(listed):
                if rule_id in known:
                    cov.add(rule_id, Hit("fixture", rel, name))


def _names(value: Any) -> list[str]:
    """A config value that is one name or a list of names, as a list."""
    return [value] if isinstance(value, str) else list(value)


def load_catalogue(app: Sphinx) -> list[tuple[str, Any]] | None:
    """``(module, item)`` for every item of the ``rulebook_catalogue`` objects (each item
    with ``id``, ``claim``, ``rules``); one ``module:attribute`` per ruleset, or None."""
    names = [n for n in _names(app.config.rulebook_catalogue) if n]
    if not names:
        return None
    items: list[tuple[str, Any]] = []
    for name in names:
        try:
            items += [(name, item) for item in _resolve(name)]
        except (ImportError, AttributeError) as error:
            logger.info("rulebook: no proof catalogue %s (%s)", name, error)
    return items or None


def scan(app: Sphinx, known: set[str]) -> tuple[Coverage, dict[str, list[tuple[str, Any]]]]:
    """Scan the configured folders for every rule ID in ``known``."""
    root = Path(app.config.rulebook_root)
    cov = Coverage()
    cases: dict[str, list[tuple[str, Any]]] = {}
    scan_tests(root, root / app.config.rulebook_tests, app.config.rulebook_test_marker,
               known, cov)
    catalogue = load_catalogue(app)
    if catalogue is None:
        scan_literals(root, root / app.config.rulebook_proofs, "proof", known, cov)
    else:
        for name, item in catalogue:
            where = name.partition(":")[0].replace(".", "/") + ".py"
            for rule_id in getattr(item, "rules", ()):
                if rule_id in known:
                    cov.add(rule_id, Hit("proof", where, str(item.id)))
    for folder in _names(app.config.rulebook_fixtures):
        scan_fixtures(root, root / folder, known, cov, cases)
    return cov, cases


# --------------------------------------------------------------------------- implementations


@dataclass(frozen=True)
class Code:
    """A function that implements a rule: its module, qualified name and source file."""

    module: str
    qualname: str
    path: Path | None

    @property
    def full(self) -> str:
        """The dotted name."""
        return f"{self.module}.{self.qualname}"


def locate(dotted: str) -> Code:
    """Split ``pkg.mod.Class.func`` into module and qualified name, and find its file."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:cut])
        try:
            spec = importlib.util.find_spec(module)
        except (ImportError, ValueError):
            spec = None
        if spec is not None and spec.origin and spec.origin.endswith(".py"):
            return Code(module, ".".join(parts[cut:]), Path(spec.origin))
        if spec is not None and cut > 1:  # compiled (mypyc: heatcore.heat.fast): its source
            parent = importlib.util.find_spec(".".join(parts[:cut - 1]))
            for folder in (parent.submodule_search_locations or []) if parent else []:
                source = Path(folder) / f"{parts[cut - 1]}.py"
                if source.is_file():
                    return Code(module, ".".join(parts[cut:]), source)
    return Code(dotted, "", None)


def implementations(app: Sphinx) -> dict[str, list[Code]]:
    """Rule ID -> implementing code, from the mapping named by ``rulebook_implementations``."""
    load_ruleset(app)
    raw: dict[str, list[str]] = _resolve(app.config.rulebook_implementations)
    return {rule_id: [locate(name) for name in names] for rule_id, names in raw.items()}


# --------------------------------------------------------------------------- rst helpers


def title(text: str, char: str, over: bool = False) -> str:
    """An RST heading."""
    text = escape(text)
    line = char * max(len(text), 3)
    return f"{line}\n{text}\n{line}\n\n" if over else f"{text}\n{line}\n\n"


def escape(text: str) -> str:
    """Escape RST inline markup."""
    out = text.replace("\\", "\\\\")
    for ch in "*`|_[]<>":
        out = out.replace(ch, "\\" + ch)
    return out


def _cell(text: str) -> str:
    """Text for a table cell: escaped, and a leading ``1.`` kept from becoming a list."""
    out = escape(text)
    digits = len(out) - len(out.lstrip("0123456789"))
    if digits and out[digits:digits + 1] == ".":
        out = out[:digits] + "\\" + out[digits:]
    return out


def write_if_changed(path: Path, text: str) -> None:
    """Write ``text`` unless the file already holds it (keeps incremental builds fast)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _kind_word(kind: str, n: int) -> str:
    return f"{n} {kind}{'' if n == 1 else 's'}"


# --------------------------------------------------------------------------- generation


class Generator:
    """Writes the rule chapters, rulings, coverage pages and matrix as RST."""

    KINDS = ("test", "proof", "fixture")

    def __init__(self, app: Sphinx) -> None:
        self.app = app
        self.rs = load_ruleset(app)
        self.out = Path(app.srcdir) / app.config.rulebook_outdir
        self.root = Path(app.config.rulebook_root)
        self.cov, self.cases = scan(app, set(self.rs.entries))
        self.impl = implementations(app)
        self.catalogue = {str(i.id): i for _, i in load_catalogue(app) or []}
        self.refined_by: dict[str, list[str]] = {}
        for entry in self.rs.entries.values():
            for target in entry.refines:
                self.refined_by.setdefault(target, []).append(entry.id)

    # paths ------------------------------------------------------------------
    def doc(self, *parts: str) -> str:
        """The absolute docname of a generated page."""
        return "/" + "/".join((self.app.config.rulebook_outdir, *parts))

    def src(self, path: Path) -> str:
        """A srcdir-absolute path for ``literalinclude`` to a repository file."""
        return "/" + os.path.relpath(path, self.app.srcdir).replace(os.sep, "/")

    # pieces -----------------------------------------------------------------
    def code_block(self, code: Code) -> str:
        """RST that shows an implementing function from its source file."""
        if code.path is None or "<locals>" in code.qualname or not code.qualname:
            return f"* ``{code.full}`` (source not found)\n\n"
        return (
            f".. literalinclude:: {self.src(code.path)}\n"
            f"   :pyobject: {code.qualname}\n"
            f"   :caption: ``{code.full}``\n"
            f"   :language: python\n\n"
        )

    def folded_code(self, codes: list[Code]) -> str:
        """The implementing code, folded (HTML ``<details>``), one fold per engine: the
        modules named in ``rulebook_engines`` (prefix -> name), the rest as the first."""
        engines: dict[str, str] = dict(self.app.config.rulebook_engines)
        groups: dict[str, list[Code]] = {}
        default = next(iter(engines.values()), "Implemented by")
        for code in codes:
            longest_first = sorted(engines.items(), key=lambda item: -len(item[0]))
            name = next((label for prefix, label in longest_first
                         if prefix and (code.module == prefix
                                        or code.module.startswith(prefix + "."))), default)
            groups.setdefault(name, []).append(code)
        order = list(dict.fromkeys([*engines.values(), *groups]))
        out = []
        for name in order:
            members = groups.get(name)
            if not members:
                continue
            names = ", ".join(c.qualname or c.full for c in members)
            summary = f"{name}: {names}".replace("&", "&amp;").replace("<", "&lt;")
            out.append(".. raw:: html\n\n   <details class=\"rulebook-code\"><summary>"
                       f"{summary}</summary>\n\n")
            out += [self.code_block(c) for c in members]
            out.append(".. raw:: html\n\n   </details>\n\n")
        return "**Implemented by** (click to show the code)\n\n" + "".join(out)

    def coverage_block(self, rule_id: str) -> str:
        """Links to the tests, proofs and fixtures naming ``rule_id``, or a warning box."""
        lines: list[str] = []
        for kind in self.KINDS:
            hits = self.cov.of(rule_id, kind)
            if hits:
                refs = ", ".join(f":ref:`{escape(h.title)} <{h.label}>`" for h in hits)
                lines.append(f"* **{kind.capitalize()}s ({len(hits)}):** {refs}")
            else:
                lines.append(f"* **{kind.capitalize()}s:** none")
        out = "**Checked by**\n\n" + "\n".join(lines) + "\n\n"
        missing = [k for k in self.KINDS if not self.cov.of(rule_id, k)]
        if len(missing) == len(self.KINDS):
            out += (".. warning:: Not checked: no test, proof or fixture names this rule.\n"
                    "   :class: rulebook-unchecked\n\n")
        elif "test" in missing:
            out += ".. note:: No test names this rule.\n\n"
        return out

    def entry(self, rule_id: str, heading: str) -> str:
        """The RST of one rule or ruling: heading, body directive, code and coverage."""
        entry = self.rs.entries[rule_id]
        out = [title(entry.title, heading), f".. rulebook:rule:: {rule_id}\n\n"]
        refs = self.refined_by.get(rule_id, [])
        if refs:
            links = ", ".join(f":rulebook:rule:`{r}`" for r in refs)
            out.append(f"**Rulings:** {links}\n\n")
        if entry.refines:
            links = ", ".join(f":rulebook:rule:`{r}`" for r in entry.refines)
            out.append(f"**Refines:** {links}\n\n")
        codes = self.impl.get(rule_id, [])
        if codes:
            out.append(self.folded_code(codes))
        else:
            out.append(".. note:: No function names this rule as the one that implements it.\n\n")
        out.append(self.coverage_block(rule_id))
        return "".join(out)

    # pages ------------------------------------------------------------------
    def chapter_page(self, chapter: Any) -> str:
        """One chapter: summary and its rules in order."""
        out = [f".. _rulebook-chapter-{chapter.id}:\n\n", title(chapter.title, "=")]
        if chapter.summary:
            out.append(escape(chapter.summary) + "\n\n")
        out += [self.entry(rule_id, "-") for rule_id in chapter.rule_ids]
        extra = self.app.config.rulebook_chapter_extras.get(chapter.id)
        if extra:  # a ``module:callable`` returning more of the chapter (e.g. card tables)
            out.append(_resolve(extra)())
        return "".join(out)

    def rulings_page(self) -> str:
        """Every ruling: question, decision, reasoning, alternatives."""
        rulings = [e for e in self.rs.entries.values() if e.kind != "rule"]
        out = [".. _rulebook-rulings:\n\n", title("Rulings", "="),
               "Points the sources leave open, what we decided, why, and what we did not "
               "choose.\n\n"]
        out += [self.entry(r.id, "-") for r in rulings]
        return "".join(out)

    def sources_page(self) -> str:
        """The source documents: what each is, how far it is trusted, its sections in the
        original and in English, and the rules that cite each section."""
        sources = load_sources(self.app)
        cited: dict[tuple[str, str], list[str]] = {}
        for entry in self.rs.entries.values():
            if entry.source is not None:
                for part in entry.source.sections:
                    cited.setdefault((entry.source.document, part), []).append(entry.id)
        out = [".. _rulebook-sources:\n\n", title("The source documents", "="),
               "Every rule cites the document it comes from and the heading of the section, "
               "in the document's own language, with its English title beside it. The "
               "documents are the seed texts this rulebook was written from; our rule texts "
               "are our own English, not translations. Where a source is silent or unclear, "
               "a :ref:`ruling <rulebook-rulings>` records what we decided and why.\n\n"]
        for number, doc in sources.items():
            out.append(f".. _rulebook-source-{number}:\n\n")
            out.append(title(f"Document {number}: {doc.get('title', '')}", "-"))
            rows = [("Language", doc.get("language", "")),
                    ("Original title", doc.get("original_title", "") or "(none printed)"),
                    ("Authority", doc.get("authority", ""))]
            out.append("".join(f":{k}: {escape(' '.join(str(v).split()))}\n"
                               for k, v in rows) + "\n")
            out.append(escape(" ".join(str(doc.get("about", "")).split())) + "\n\n")
            sections = dict(doc.get("sections", {}))
            if doc.get("language") == "English":  # its headings are their own titles
                sections.update({sec: sec for d, sec in sorted(cited) if d == number})
            if not sections:
                continue
            out.append(".. list-table::\n   :header-rows: 1\n\n"
                       "   * - Section (original)\n     - In English\n     - Rules citing it\n")
            for original, english in sections.items():
                ids = cited.get((number, original), [])
                refs = ", ".join(f":rulebook:rule:`{r}`" for r in ids) or "none"
                out.append(f"   * - {_cell(original)}\n     - {_cell(english)}\n"
                           f"     - {refs}\n")
            out.append("\n")
        unknown = sorted({k for k in cited if k[1] not in
                          sources.get(k[0], {}).get("sections", {})})
        if unknown:
            out.append("Cited sections with no English title yet: " + ", ".join(
                f"document {d} «{escape(s)}»" for d, s in unknown) + ".\n")
        return "".join(out)

    def rules_index(self) -> str:
        """The toctree of chapters in rulebook order; with ``rulebook_parts``, one headed
        toctree per part (a chapter's part is its ``order // 1000``), then the rulings."""
        parts: list[str] = list(self.app.config.rulebook_parts)
        out = [title("The rules", "="),
               "One chapter per step, in the rulebook's order. Each rule is anchored by its "
               "ID (``page.html#<rule-id>``).\n\n"]
        for index, part in enumerate(parts or [""]):
            names = [f"   {c.id}" for c in self.rs.chapters
                     if not parts or min(c.order // 1000, len(parts) - 1) == index]
            if names:
                out += [title(part, "-") if part else "",
                        ".. toctree::\n   :maxdepth: 2\n\n", "\n".join(names), "\n\n"]
        if parts:
            out.append(title("Rulings", "-"))
        out.append(".. toctree::\n   :maxdepth: 2\n\n   ../rulings\n")
        return "".join(out)

    def matrix_page(self) -> str:
        """Every rule ID against the count of tests, proofs, fixtures and implementations."""
        rows = []
        totals = dict.fromkeys(self.KINDS, 0)
        unchecked = []
        for entry in self.rs.entries.values():
            counts = [len(self.cov.of(entry.id, k)) for k in self.KINDS]
            for kind, n in zip(self.KINDS, counts, strict=True):
                totals[kind] += bool(n)
            if not any(counts):
                unchecked.append(entry.id)
            impl = len(self.impl.get(entry.id, []))
            cells = [f":rulebook:rule:`{entry.id}`", entry.kind, *map(str, counts), str(impl)]
            cells = [c if c != "0" else "**0**" for c in cells]
            rows.append("   * - " + "\n     - ".join(cells))
        n = len(self.rs.entries)
        summary = "\n".join(
            f"* {n - totals[k]} of {n} IDs have no {k}." for k in self.KINDS)
        out = [".. _rulebook-matrix:\n\n", title("Traceability matrix", "="),
               "Every rule and ruling ID against the number of tests, proofs and fixture cases "
               "that name it, and the functions that implement it; computed when the site is "
               "built. A bold **0** is a gap.\n\n", summary, "\n\n",
               ".. list-table::\n   :header-rows: 1\n   :class: rulebook-matrix\n\n"
               "   * - Rule ID\n     - Kind\n     - Tests\n     - Proofs\n     - Fixtures\n"
               "     - Code\n", "\n".join(rows), "\n\n"]
        if unchecked:
            out.append("Not checked by anything yet: " +
                       ", ".join(f":rulebook:rule:`{r}`" for r in unchecked) + ".\n")
        return "".join(out)

    @staticmethod
    def catalogue_item(item: Any) -> str:
        """The claim of a catalogued proof in words, and its negative controls."""
        out = f"**Claim.** {escape(' '.join(str(item.claim).split()))}\n\n"
        if getattr(item, "kind", "proof") != "proof":
            out += ("**Sanity check**, not counted as a proof: it restates a constraint of "
                    "the encoding rather than deriving a property from the rules.\n\n")
        controls = getattr(item, "controls", ())
        if controls:
            out += ("**Negative controls** (deliberate bugs the proof must catch): " +
                    ", ".join(f"``{c}``" for c in controls) + "\n\n")
        return out

    def coverage_page(self, kind: str) -> str:
        """Every scanned place of one kind, with the rule IDs it names and its source."""
        heading = {"test": "Tests", "proof": "Proofs", "fixture": "Fixtures"}[kind]
        folder = {"test": self.app.config.rulebook_tests,
                  "proof": self.app.config.rulebook_proofs,
                  "fixture": ", ".join(_names(self.app.config.rulebook_fixtures))}[kind]
        if kind == "proof" and self.catalogue:
            out = [title("Proof catalogue", "="),
                   f"Every proof of ``{', '.join(_names(self.app.config.rulebook_catalogue))}``: "
                   "its claim in "
                   "words, the rule IDs it covers and the deliberate bugs it must catch; read "
                   "when the site was built.\n\n"]
        else:
            out = [title(f"{heading} by rule", "="),
                   f"Every place in ``{folder}/`` that names a rule ID, found when the site "
                   "was built.\n\n"]
        places = self.cov.places.get(kind, [])
        if not places:
            out.append(f"Nothing in ``{folder}/`` names a rule ID yet.\n")
            return "".join(out)
        by_rule: dict[Hit, list[str]] = {}
        for rule_id, hits in self.cov.hits.items():
            for hit in hits:
                if hit.kind == kind:
                    by_rule.setdefault(hit, []).append(rule_id)
        current = None
        for hit in sorted(places, key=lambda h: (h.path, h.line, h.name)):
            if hit.path != current:
                current = hit.path
                out.append(title(hit.path, "-"))
            out.append(f".. _{hit.label}:\n\n")
            out.append(f".. rubric:: {escape(hit.title)}\n\n")
            ids = ", ".join(f":rulebook:rule:`{r}`" for r in by_rule.get(hit, []))
            out.append(f"Names: {ids}\n\n")
            if kind == "proof" and hit.name in self.catalogue:
                out.append(self.catalogue_item(self.catalogue[hit.name]))
            elif kind != "fixture" and hit.name:
                path = self.root / hit.path
                out.append(f".. literalinclude:: {self.src(path)}\n"
                           f"   :pyobject: {hit.name}\n   :language: python\n\n")
            elif kind == "fixture":
                case = next((c for n, c in self.cases.get(hit.path, []) if n == hit.name), {})
                text = case.get("description") or case.get("title") or ""
                if text:
                    out.append(escape(str(text)) + "\n\n")
        return "".join(out)

    def include_page(self, rel: str) -> str:
        """A repository text file shown verbatim, or a note that it does not exist yet."""
        path = self.root / rel
        if not path.is_file():
            return f".. note:: ``{rel}`` does not exist yet; this section will show it.\n"
        language = {".md": "markdown", ".json": "json", ".py": "python"}.get(path.suffix, "text")
        return (f"The text of ``{rel}``, included when the site was built:\n\n"
                f".. literalinclude:: {self.src(path)}\n   :language: {language}\n\n")

    def api_page(self, package: str) -> str:
        """Autodoc of every module of ``package``, found when the site is built."""
        pkg = importlib.import_module(package)
        skip = tuple(self.app.config.rulebook_api_skip)
        names = sorted(m.name for m in pkgutil.walk_packages(pkg.__path__, f"{package}.")
                       if not m.name.rsplit(".", 1)[-1].startswith("_")
                       and not m.name.startswith(skip))
        public = [f"{package}.{m}" for m in self.app.config.rulebook_api_public]
        public = [m for m in public if m in names or importlib.util.find_spec(m)]
        internal = [m for m in names if m not in public
                    and not any(m.startswith(p + ".") for p in public)]
        out = [".. _rulebook-api:\n\n", title("API reference", "="),
               f"Every module of ``{package}``, documented from its docstrings; the "
               "``[source]`` links show the highlighted code. The public API comes first: "
               "the modules a program that plays, checks or draws races needs. The internals "
               "follow, grouped by package.\n\n",
               f".. automodule:: {package}\n   :no-members:\n\n"]
        if public:
            out.append(".. _rulebook-api-public:\n\n" + title("Public API", "=", over=True))
            for name in public:
                out.append(title(name, "-") + f".. automodule:: {name}\n\n")
                out += [title(sub, "~") + f".. automodule:: {sub}\n\n" for sub in names
                        if sub.startswith(name + ".")]
        out.append(".. _rulebook-api-internals:\n\n" + title("Internals", "=", over=True))
        group = None
        for name in internal:
            parent = name.rsplit(".", 1)[0] if name.count(".") > 1 else package
            if parent != group:
                group = parent
                out.append(title(f"{group} modules", "-"))
            out.append(title(name, "~") + f".. automodule:: {name}\n\n")
        return "".join(out)

    def write(self) -> None:
        """Write every generated page."""
        pages = {"rules/index.rst": self.rules_index(), "rulings.rst": self.rulings_page(),
                 "matrix.rst": self.matrix_page()}
        if self.app.config.rulebook_sources:
            pages["sources.rst"] = self.sources_page()
        for chapter in self.rs.chapters:
            pages[f"rules/{chapter.id}.rst"] = self.chapter_page(chapter)
        for kind in self.KINDS:
            pages[f"coverage/{kind}s.rst"] = self.coverage_page(kind)
        for name, rel in self.app.config.rulebook_includes.items():
            pages[f"include/{name}.rst"] = self.include_page(rel)
        package = self.app.config.rulebook_api_package
        if package:
            pages["api.rst"] = self.api_page(package)
        for rel, text in pages.items():
            write_if_changed(self.out / rel, text)
        keep = set(self.app.config.rulebook_keep)
        for path in self.out.rglob("*.rst"):
            rel = path.relative_to(self.out).as_posix()
            if rel not in pages and rel.split("/", 1)[0] not in keep:
                path.unlink()


def generate(app: Sphinx) -> None:
    """``builder-inited``: write the generated pages."""
    Generator(app).write()


# --------------------------------------------------------------------------- domain


class pinned_examples(nodes.General, nodes.Element):
    """Placeholder for links to the worked examples that pin a rule (filled when resolved)."""


def fill_pinned_examples(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: replace each placeholder by links to the pinning examples."""
    domain: RuleDomain = app.env.get_domain("rulebook")  # type: ignore[assignment]
    for node in list(doctree.findall(pinned_examples)):
        places = domain.pins.get(node["rule_id"], [])
        if not places:
            node.replace_self([])
            continue
        para = nodes.paragraph()
        para += nodes.strong("Worked examples", "Worked examples")
        para += nodes.Text(": ")
        for index, (doc, anchor) in enumerate(places):
            if index:
                para += nodes.Text(", ")
            title_node = app.env.titles.get(doc)
            text = title_node.astext() if title_node is not None else doc
            para += make_refnode(app.builder, docname, doc, anchor, nodes.Text(text), text)
        node.replace_self(para)


class RuleDirective(SphinxDirective):
    """``.. rulebook:rule:: ID`` renders a rule's anchor, ID, text, source and example."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        rule_id = self.arguments[0]
        rs = load_ruleset(self.env.app)
        if rule_id not in rs.entries:
            logger.warning("unknown rule ID %r", rule_id, location=self.get_location())
            return []
        entry = rs.entries[rule_id]
        for path in self.config.rulebook_depends:
            self.env.note_dependency(path)
        domain: RuleDomain = self.env.get_domain("rulebook")  # type: ignore[assignment]
        domain.note_rule(rule_id, self.env.docname, self.get_location())
        target = nodes.target("", "", ids=[rule_id])
        box = nodes.container(classes=["rulebook-rule", f"rulebook-{entry.kind}"])
        head = nodes.paragraph(classes=["rulebook-id"])
        head += nodes.literal(rule_id, rule_id)
        if entry.source is not None:
            document, section = entry.source.document, entry.source.section
            head += nodes.Text("  ·  source: ")
            if document in load_sources(self.env.app):
                ref = pending_xref("", refdomain="std", reftype="ref",
                                   reftarget=f"rulebook-source-{document}", refexplicit=True,
                                   refwarn=True)
                ref += nodes.inline(f"document {document}", f"document {document}")
                head += ref
            else:
                head += nodes.Text(f"document {document}")
            english = english_section(self.env.app, document, section)
            head += nodes.Text(f", section «{section}»")
            if english:
                head += nodes.Text(" (")
                head += nodes.emphasis(english, english)
                head += nodes.Text(")")
        box += head
        if entry.kind != "rule" and entry.question:
            box += self._para("Question", entry.question)
        box += self._para("Decision" if entry.kind != "rule" else "", entry.text)
        if entry.reasoning:
            box += self._para("Reasoning", entry.reasoning)
        if entry.alternatives:
            box += self._para("Alternatives not chosen", "")
            items = nodes.bullet_list()
            ids = entry.alternative_ids or ("",) * len(entry.alternatives)
            for alt, alt_id in zip(entry.alternatives, ids, strict=True):
                text = f"{alt_id} (switchable): {alt}" if alt_id else alt
                items += nodes.list_item("", nodes.paragraph(text, text))
            box += items
        if entry.default:
            choices = ", ".join(entry.choices[1:])
            box += self._para("Switch", f"a race's setup chooses {entry.default} (the "
                                        f"decision above, the default) or {choices}: "
                                        f"heatcore race --ruling {entry.id}=CHOICE.")
        elif entry.fixed:
            box += self._para("Not switchable", entry.fixed)
        if entry.example:
            box += self._para("Example", entry.example)
        box += pinned_examples(rule_id=rule_id)
        return [target, box]

    @staticmethod
    def _para(label: str, text: str) -> nodes.paragraph:
        para = nodes.paragraph()
        if label:
            para += nodes.strong(label, label)
            if text:
                para += nodes.Text(". ")
        para += nodes.Text(text)
        return para


class PinDirective(SphinxDirective):
    """``.. rulebook:pin:: ID HASH`` warns when the rule's text no longer has that hash.

    Prose and examples written against a rule pin it, so a changed rule text fails a
    ``-W`` build until they are checked and the pin updated.
    """

    required_arguments = 2
    option_spec: ClassVar[dict[str, Any]] = {"quiet": directives.flag}

    def run(self) -> list[nodes.Node]:
        rule_id, pinned = self.arguments
        rs = load_ruleset(self.env.app)
        if rule_id not in rs.entries:
            logger.warning("pin of unknown rule ID %r", rule_id, location=self.get_location())
            return []
        entry = rs.entries[rule_id]
        now = fingerprint(entry.text + entry.example)
        if now != pinned:
            logger.warning("rule %r changed since this text was written (pinned %s, now %s): "
                           "check the text below and update the pin", rule_id, pinned, now,
                           location=self.get_location())
        domain: RuleDomain = self.env.get_domain("rulebook")  # type: ignore[assignment]
        anchor = f"pin-{rule_id}-{self.lineno}"
        domain.pins.setdefault(rule_id, []).append((self.env.docname, anchor))
        ref = pending_xref("", refdomain="rulebook", reftype="rule", reftarget=rule_id,
                           refexplicit=False, refwarn=True)
        ref += nodes.literal(rule_id, rule_id)
        para = nodes.paragraph("", "", nodes.Text("Checks "), ref, nodes.Text(": "),
                               nodes.emphasis(entry.text, entry.text))
        return [nodes.container("", para, classes=["rulebook-pin"], ids=[anchor])]


class RuleDomain(Domain):
    """The ``rulebook`` domain: rule IDs as objects with exact HTML anchors."""

    name = "rulebook"
    label = "Rulebook"
    object_types: ClassVar[dict[str, ObjType]] = {"rule": ObjType("rule", "rule")}
    directives: ClassVar[dict[str, Any]] = {"rule": RuleDirective, "pin": PinDirective}
    roles: ClassVar[dict[str, Any]] = {"rule": XRefRole()}
    initial_data: ClassVar[dict[str, Any]] = {"rules": {}}

    @property
    def pins(self) -> dict[str, list[tuple[str, str]]]:
        """Rule ID -> (docname, anchor) of each worked example that pins it."""
        return self.data.setdefault("pins", {})

    @property
    def rules(self) -> dict[str, str]:
        """Rule ID -> docname."""
        return self.data.setdefault("rules", {})

    def note_rule(self, rule_id: str, docname: str, location: Any) -> None:
        """Register the entry of ``rule_id`` on ``docname``."""
        other = self.rules.get(rule_id)
        if other is not None and other != docname:
            logger.warning("rule %r has an entry on %s too", rule_id, other, location=location)
        self.rules[rule_id] = docname

    def clear_doc(self, docname: str) -> None:
        for rule_id, doc in list(self.rules.items()):
            if doc == docname:
                del self.rules[rule_id]
        for rule_id, places in list(self.pins.items()):
            self.pins[rule_id] = [p for p in places if p[0] != docname]

    def merge_domaindata(self, docnames: Iterable[str], otherdata: dict[str, Any]) -> None:
        for rule_id, doc in otherdata["rules"].items():
            if doc in docnames:
                self.rules[rule_id] = doc
        for rule_id, places in otherdata.get("pins", {}).items():
            self.pins.setdefault(rule_id, []).extend(p for p in places if p[0] in docnames)

    def resolve_xref(self, env: BuildEnvironment, fromdocname: str, builder: Builder,
                     typ: str, target: str, node: pending_xref, contnode: nodes.Element
                     ) -> nodes.reference | None:
        doc = self.rules.get(target)
        if doc is None:
            return None
        return make_refnode(builder, fromdocname, doc, target, contnode, target)

    def resolve_any_xref(self, env: BuildEnvironment, fromdocname: str, builder: Builder,
                         target: str, node: pending_xref, contnode: nodes.Element
                         ) -> list[tuple[str, nodes.reference]]:
        ref = self.resolve_xref(env, fromdocname, builder, "rule", target, node, contnode)
        return [] if ref is None else [("rulebook:rule", ref)]

    def get_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        for rule_id, doc in self.rules.items():
            yield rule_id, rule_id, "rule", doc, rule_id, 1


def check_complete(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-check-consistency``: every rule ID of the ruleset has an entry."""
    domain: RuleDomain = env.get_domain("rulebook")  # type: ignore[assignment]
    missing = [r for r in load_ruleset(app).entries if r not in domain.rules]
    if missing:
        logger.warning("rule IDs with no entry in the docs: %s", ", ".join(missing))


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the config values, the domain and the generation step."""
    app.add_config_value("rulebook_ruleset", "", "env")
    app.add_config_value("rulebook_parts", [], "env")  # rules index headings, by order // 1000
    app.add_config_value("rulebook_implementations", "", "env")
    app.add_config_value("rulebook_import", [], "env")
    app.add_config_value("rulebook_root", "..", "env")
    app.add_config_value("rulebook_outdir", "generated", "env")
    app.add_config_value("rulebook_tests", "tests", "env")
    app.add_config_value("rulebook_test_marker", "rules", "env")
    app.add_config_value("rulebook_proofs", "proofs", "env")
    # one folder, or a list (one per ruleset)
    app.add_config_value("rulebook_fixtures", "fixtures", "env", types=[str, list])
    app.add_config_value("rulebook_depends", [], "env")
    app.add_config_value("rulebook_api_package", "", "env")
    # modules left out of the API page (importing them must not happen in the build)
    app.add_config_value("rulebook_api_skip", [], "env")
    # one ``module:attribute``, or a list (one per ruleset)
    app.add_config_value("rulebook_catalogue", "", "env", types=[str, list])
    app.add_config_value("rulebook_includes", {}, "env")
    app.add_config_value("rulebook_chapter_extras", {}, "env")
    app.add_config_value("rulebook_keep", [], "env")
    # the source documents (a TOML file under the root) and the engines' module prefixes
    app.add_config_value("rulebook_sources", "", "env")
    app.add_config_value("rulebook_engines", {}, "env")
    # modules of the API package listed first, as its public API
    app.add_config_value("rulebook_api_public", [], "env")
    app.add_domain(RuleDomain)
    app.add_node(pinned_examples)
    app.connect("doctree-resolved", fill_pinned_examples)
    app.connect("builder-inited", generate)
    app.connect("env-check-consistency", check_complete)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": 1}


"""The seed clause map: every clause of each seed document mapped to the rule and ruling
IDs that carry it (``spec/clauses/``), and the check that keeps it whole.

A seed is one of the project's source documents, ``shared/seeds/<n>_<hash>.txt`` beside the
repository (:func:`seeds_dir`; the texts are not copied into it). Its map
``spec/clauses/<n>.toml`` records the text's sha256 and cuts it into clauses, each a range
of lines under a section heading, with a ``kind``:

- ``rules``: the clause is carried by the rules in ``rules`` and the rulings in ``rulings``
  (at least one ID in all); ``gaps`` may name a sentence of it that no rule carries;
- ``heading``: a heading line (``quote`` is the whole line);
- ``no-rule``: the clause states no rule (a title, a foreword, advice); ``why`` says so;
- ``gap``: the clause states a rule that no rule of ``spec/`` carries; ``note`` says what.

``spec/clauses/unseeded.toml`` lists the rules and rulings that come from no seed clause,
each with where it comes from. :func:`problems` finds every way the maps and ``spec/``
disagree; an empty list means each line of text of each seed is in exactly one clause and
each rule and ruling is cited by a clause or listed as unseeded.
"""

from __future__ import annotations

import hashlib
import os
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from heatcore.framework.registry import Entry, spec_dir

#: The kinds a clause may have.
KINDS = ("rules", "heading", "no-rule", "gap")
#: The seed documents a clause map covers, in the order the site shows them.
DOCUMENTS = ("000", "003", "004")


@dataclass(frozen=True)
class Gap:
    """A sentence of a carried clause that no rule carries."""

    quote: str
    note: str


@dataclass(frozen=True)
class Clause:
    """One clause: lines ``first``-``last`` (1-based, inclusive) of a seed."""

    document: str
    section: str
    first: int
    last: int
    kind: str
    quote: str
    rules: tuple[str, ...] = ()
    rulings: tuple[str, ...] = ()
    why: str = ""
    note: str = ""
    gaps: tuple[Gap, ...] = ()

    @property
    def ids(self) -> tuple[str, ...]:
        """The rule and ruling IDs that carry the clause."""
        return self.rules + self.rulings

    @property
    def lines(self) -> str:
        """The line range as text: ``12`` or ``12-14``."""
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


@dataclass(frozen=True)
class SeedMap:
    """The clause map of one seed document."""

    document: str
    text_path: Path
    sha256: str
    clauses: tuple[Clause, ...]

    @property
    def text(self) -> str:
        """The seed's text."""
        return self.text_path.read_text(encoding="utf-8")


@dataclass(frozen=True)
class Unseeded:
    """A rule or ruling that comes from no seed clause, and where it comes from."""

    id: str
    source: str


@dataclass(frozen=True)
class ClauseMaps:
    """Every seed's clause map and the list of unseeded rules and rulings."""

    seeds: tuple[SeedMap, ...]
    unseeded: tuple[Unseeded, ...] = field(default=())


def _clause(document: str, raw: Mapping[str, Any]) -> Clause:
    lines = list(raw.get("lines", ()))
    first, last = (int(lines[0]), int(lines[-1])) if lines else (0, -1)
    gaps = tuple(Gap(str(g.get("quote", "")), str(g.get("note", "")))
                 for g in raw.get("gaps", ()))
    return Clause(document=document, section=str(raw.get("section", "")), first=first,
                  last=last, kind=str(raw.get("kind", "")), quote=str(raw.get("quote", "")),
                  rules=tuple(map(str, raw.get("rules", ()))),
                  rulings=tuple(map(str, raw.get("rulings", ()))),
                  why=str(raw.get("why", "")), note=str(raw.get("note", "")), gaps=gaps)


def seeds_dir() -> Path:
    """Where the seed documents are: ``HEATCORE_SEEDS`` if set, else ``shared/seeds`` beside
    the repository (as CI and every session lay it out)."""
    given = os.environ.get("HEATCORE_SEEDS")
    return Path(given) if given else spec_dir().resolve().parent.parent / "shared" / "seeds"


def seed_path(document: str, folder: Path | None = None) -> Path:
    """The text of seed ``document`` (``<n>_*.txt`` in :func:`seeds_dir`); a path that does
    not exist when the seeds are not at hand."""
    folder = seeds_dir() if folder is None else folder
    found = sorted(folder.glob(f"{document}_*.txt")) if folder.is_dir() else []
    return found[0] if found else folder / f"{document}_missing.txt"


def seeds_at_hand() -> bool:
    """Whether every mapped seed's text is here to check the map against."""
    return all(seed_path(number).is_file() for number in DOCUMENTS)


def load_clause_maps(folder: Path | None = None) -> ClauseMaps:
    """Read ``<folder>/clauses/*.toml`` (``folder`` is ``spec/`` by default)."""
    spec = spec_dir() if folder is None else folder
    seeds = []
    for number in DOCUMENTS:
        data = tomllib.loads((spec / "clauses" / f"{number}.toml").read_text(encoding="utf-8"))
        head = data["seed"]
        seeds.append(SeedMap(
            document=str(head["document"]), text_path=seed_path(str(head["document"])),
            sha256=str(head["sha256"]),
            clauses=tuple(_clause(str(head["document"]), c) for c in data.get("clause", ()))))
    raw = tomllib.loads((spec / "clauses" / "unseeded.toml").read_text(encoding="utf-8"))
    unseeded = tuple(Unseeded(str(u["id"]), str(u.get("source", "")))
                     for u in raw.get("unseeded", ()))
    return ClauseMaps(tuple(seeds), unseeded)


def headings(seed: SeedMap) -> list[str]:
    """For each clause of ``seed``, the text of the last heading at or before it (without a
    leading bullet ``●``), or "" before the first heading."""
    out, current = [], ""
    for clause in seed.clauses:
        if clause.kind == "heading":
            current = clause.quote.lstrip("●").strip()
        out.append(current)
    return out


def _plain(heading: str) -> str:
    """A heading without its bullet and brackets (``●``, ``【】``)."""
    return heading.replace("●", "").replace("【", "").replace("】", "").strip()


def _cited_parts(entry: Entry) -> set[str]:
    """The section headings a rule's source names: each of ``a + b``, ``a / b`` and
    ``a: b``, as written and without a trailing ``(...)`` note."""
    parts = set()
    for section in entry.source.sections if entry.source is not None else ():
        for piece in section.replace(" / ", ":").split(":"):
            parts |= {_plain(piece), _plain(piece.split(" (")[0])}
    return parts


def _under(parts: set[str], places: set[str]) -> bool:
    """Whether a clause under one of ``places`` (its section or sub-heading) lies under one
    of the cited ``parts`` (the same heading, or a sub-section whose key begins with it)."""
    return any(_plain(place).startswith(part) for part in parts for place in places if part)


def _seed_problems(seed: SeedMap, text: str, entries: Mapping[str, Entry],
                   sections: Mapping[str, Iterable[str]]) -> list[str]:
    """What is wrong with one seed's map, checked against its text."""
    out: list[str] = []
    doc = seed.document
    if hashlib.sha256(text.encode("utf-8")).hexdigest() != seed.sha256:
        out.append(f"{doc}: the seed's text changed (sha256): check every clause's lines")
    lines = text.split("\n")
    owner: dict[int, str] = {}
    known_sections = set(sections.get(doc, ()))
    opened: set[str] = set()
    last_line = 0
    for clause in seed.clauses:
        where = f"{doc} lines {clause.lines}"
        if not 1 <= clause.first <= clause.last <= len(lines):
            out.append(f"{where}: not a line range of the seed ({len(lines)} lines)")
            continue
        if clause.first <= last_line:
            out.append(f"{where}: out of order or overlapping the clause before")
        last_line = max(last_line, clause.last)
        for number in range(clause.first, clause.last + 1):
            if number in owner:
                out.append(f"{doc} line {number}: in two clauses ({owner[number]} and "
                           f"{clause.lines})")
            owner[number] = clause.lines
        body = "\n".join(lines[clause.first - 1:clause.last])
        if not lines[clause.first - 1].strip() or not lines[clause.last - 1].strip():
            out.append(f"{where}: starts or ends on an empty line")
        if not clause.quote or clause.quote not in body:
            out.append(f"{where}: the quote {clause.quote!r} is not in these lines")
        if clause.section not in known_sections:
            out.append(f"{where}: section {clause.section!r} has no English title in "
                       f"spec/sources.toml")
        if clause.kind not in KINDS:
            out.append(f"{where}: kind {clause.kind!r} is not one of {', '.join(KINDS)}")
        if clause.kind == "heading":
            if clause.first != clause.last or clause.quote != body.strip():
                out.append(f"{where}: a heading is one line, quoted whole")
            opened.add(clause.section)
        elif opened and clause.section not in opened:
            out.append(f"{where}: section {clause.section!r} is not opened by a heading "
                       f"before it")
        if clause.kind == "rules" and not clause.ids:
            out.append(f"{where}: a clause that carries rules names none")
        if clause.kind != "rules" and (clause.ids or clause.gaps):
            out.append(f"{where}: a {clause.kind} clause names rules")
        if clause.kind == "no-rule" and not clause.why:
            out.append(f"{where}: a no-rule clause must say why (why = ...)")
        if clause.kind == "gap" and not clause.note:
            out.append(f"{where}: a gap must say what is missing (note = ...)")
        for gap in clause.gaps:
            if not gap.quote or gap.quote not in body or not gap.note:
                out.append(f"{where}: a gap's quote must be in the clause and have a note")
        for rule_id in clause.ids:
            if rule_id not in entries:
                out.append(f"{where}: unknown rule or ruling ID {rule_id!r}")
        for rule_id, kind in [*((r, "rule") for r in clause.rules),
                              *((r, "ruling") for r in clause.rulings)]:
            if rule_id in entries and entries[rule_id].kind != kind:
                out.append(f"{where}: {rule_id!r} is a {entries[rule_id].kind}, listed "
                           f"under {kind}s")
        if len(set(clause.ids)) != len(clause.ids):
            out.append(f"{where}: an ID is listed twice")
    for number, line in enumerate(lines, start=1):
        if line.strip() and number not in owner:
            out.append(f"{doc} line {number}: in no clause (a gap in the map): "
                       f"{line.strip()[:30]!r}")
    return out


def problems(maps: ClauseMaps, entries: Mapping[str, Entry],
             sections: Mapping[str, Iterable[str]],
             texts: Mapping[str, str] | None = None) -> list[str]:
    """Every disagreement between the clause maps, the seeds' texts (``texts``: document ->
    text, read from the maps' files when not given) and the rules and rulings ``entries``;
    ``sections`` gives each document's section headings (``spec/sources.toml``)."""
    out: list[str] = []
    for seed in maps.seeds:
        text = texts[seed.document] if texts is not None else seed.text
        out += _seed_problems(seed, text, entries, sections)
    cited: dict[str, set[str]] = {}
    places: dict[tuple[str, str], set[str]] = {}  # (rule ID, document) -> headings
    for seed in maps.seeds:
        for clause, heading in zip(seed.clauses, headings(seed), strict=True):
            for rule_id in clause.ids:
                cited.setdefault(rule_id, set()).add(seed.document)
                places.setdefault((rule_id, seed.document), set()).update(
                    {clause.section, heading})
    unseeded: dict[str, Unseeded] = {}
    for item in maps.unseeded:
        if item.id in unseeded:
            out.append(f"unseeded: {item.id!r} listed twice")
        unseeded[item.id] = item
        if item.id not in entries:
            out.append(f"unseeded: unknown rule or ruling ID {item.id!r}")
        if not item.source:
            out.append(f"unseeded: {item.id!r} must say where it comes from (source = ...)")
        if item.id in cited:
            out.append(f"unseeded: {item.id!r} is cited by a clause of seed "
                       f"{', '.join(sorted(cited[item.id]))}; list it in one place only")
    mapped = {seed.document for seed in maps.seeds}
    for rule_id, entry in entries.items():
        if rule_id not in cited and rule_id not in unseeded:
            out.append(f"{rule_id}: cited by no clause (add it to the clause that carries it "
                       f"in spec/clauses/, or to spec/clauses/unseeded.toml with its source)")
        document = entry.source.document if entry.source is not None else ""
        if document in mapped and document not in cited.get(rule_id, set()):
            out.append(f"{rule_id}: its source is seed {document}, but no clause of that "
                       f"seed cites it")
        elif document in mapped and not _under(_cited_parts(entry),
                                                 places[rule_id, document]):
            out.append(f"{rule_id}: its source is seed {document} section "
                       f"{entry.source.section if entry.source else ''!r}, but no clause "
                       f"under that heading cites it")
        if rule_id in unseeded and document in mapped:
            out.append(f"{rule_id}: listed as unseeded, but its source is seed {document}")
    return out


def source_sections(spec: Path | None = None) -> dict[str, list[str]]:
    """Each document's section headings with an English title (``spec/sources.toml``)."""
    path = (spec_dir() if spec is None else spec) / "sources.toml"
    documents = tomllib.loads(path.read_text(encoding="utf-8")).get("documents", {})
    return {number: list(doc.get("sections", {})) for number, doc in documents.items()}


def check(spec: Path | None = None) -> list[str]:
    """:func:`problems` of the clause maps in ``spec`` (``spec/`` by default) against every
    ruleset of this repository."""
    from heatcore.framework.registry import combined_ruleset

    return problems(load_clause_maps(spec), combined_ruleset().entries, source_sections(spec))

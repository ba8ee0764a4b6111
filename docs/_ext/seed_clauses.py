"""Sphinx extension: the seed clause map page (``<outdir>/clauses/index.rst``).

For each seed document, section by section, every clause with its line range, a short quote
of the seed, and the rule and ruling IDs that carry it (linked to their entries), or why it
carries none; then the rules and rulings that come from no seed. The maps come from the
``module:callable`` named by ``clauses_maps`` (an object with ``seeds``, each with
``document`` and ``clauses``, and ``unseeded``); section titles in English and document
titles from the rulebook extension's ``rulebook_sources``.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

from rulebook import _cell, _resolve, escape, load_sources, write_if_changed
from sphinx.application import Sphinx

#: What the page says for each kind of clause that names no rule.
KIND_WORDS = {"no-rule": "No rule", "gap": "Gap"}


def _ids(ids: tuple[str, ...]) -> str:
    return ", ".join(f":rulebook:rule:`{r}`" for r in ids)


def title(text: str, char: str) -> str:
    """An RST heading whose underline is as wide as the text (wide characters count 2)."""
    text = escape(text)
    width = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return f"{text}\n{char * max(width, 3)}\n\n"


def _plain(text: str) -> str:
    return text.replace("●", "").replace("【", "").replace("】", "").strip("：: ")


def _own_heading(clause: Any) -> bool:
    """Whether a heading clause is the heading of its own section (not a sub-heading)."""
    return _plain(clause.section).endswith(_plain(clause.quote))


def _carried(clause: Any) -> str:
    """The cell that says what carries a clause."""
    parts = []
    if clause.kind == "rules":
        if clause.rules:
            parts.append(f"**Rules:** {_ids(clause.rules)}")
        if clause.rulings:
            parts.append(f"**Rulings:** {_ids(clause.rulings)}")
    else:
        text = clause.why or clause.note
        parts.append(f"**{KIND_WORDS.get(clause.kind, clause.kind)}:** {_cell(text)}")
    for gap in getattr(clause, "gaps", ()):
        parts.append(f"**Gap** («{_cell(gap.quote)}»): {_cell(gap.note)}")
    if clause.kind != "gap" and clause.note:
        parts.append(f"*Note:* {_cell(clause.note)}")
    return "\n\n       ".join(parts)


def load_maps(app: Sphinx) -> Any:
    """The clause maps named by ``clauses_maps``, cached on ``app``."""
    cached = getattr(app, "_clause_maps", None)
    if cached is None:
        cached = _resolve(app.config.clauses_maps)()
        app._clause_maps = cached  # type: ignore[attr-defined]
    return cached


def section_labels(seed: Any) -> list[str]:
    """The label of the section table that shows each clause of ``seed`` (a section that
    comes back after another one gets a table, and a label, of its own)."""
    labels, current, count = [], None, 0
    for clause in seed.clauses:
        if clause.section != current:
            current, count = clause.section, count + 1
        labels.append(f"rulebook-clauses-{seed.document}-{count}")
    return labels


def entry_clauses(app: Sphinx, rule_id: str) -> str:
    """The line under a rule's entry that links to the seed clauses citing it, or says where
    a rule from no seed comes from (``rulebook_entry_extras``)."""
    if not app.config.clauses_maps:
        return ""
    maps = load_maps(app)
    places = []
    for seed in maps.seeds:
        for clause, label in zip(seed.clauses, section_labels(seed), strict=True):
            if rule_id in clause.rules or rule_id in clause.rulings:
                places.append(f":ref:`document {seed.document}, line"
                              f"{'s' if clause.first != clause.last else ''} "
                              f"{clause.lines} <{label}>`")
    if places:
        return f"**Seed clauses:** {', '.join(places)}\n\n"
    source = next((u.source for u in maps.unseeded if u.id == rule_id), "")
    if source:
        return (f"**Seed clauses:** none; from no seed (:ref:`rulebook-clauses-unseeded`): "
                f"{_cell(source)}\n\n")
    return ""


def seed_section(app: Sphinx, seed: Any) -> str:
    """One seed's clauses, grouped by section heading."""
    docs = load_sources(app)
    doc = docs.get(seed.document, {})
    english = doc.get("sections", {})
    out = [f".. _rulebook-clauses-{seed.document}:\n\n",
           title(f"Document {seed.document}: {doc.get('title', '')}", "-"),
           f"About the document: :ref:`rulebook-source-{seed.document}`. Lines are numbered "
           f"from 1 in the seed's text (``shared/seeds/{seed.document}_*.txt``).\n\n"]
    table: list[str] = []
    current = None
    labels = section_labels(seed)

    def flush() -> None:
        if table:
            out.append(".. list-table::\n   :header-rows: 1\n   :widths: 8 42 50\n"
                       "   :class: rulebook-clauses\n\n"
                       "   * - Lines\n     - Seed text\n     - Carried by\n")
            out.extend(table)
            out.append("\n")
            table.clear()

    for clause, label in zip(seed.clauses, labels, strict=True):
        if clause.section != current:
            flush()
            current = clause.section
            out.append(f".. _{label}:\n\n")
            name = english.get(clause.section, "")
            out.append(title(f"{clause.section} ({name})" if name else clause.section, "~"))
        if clause.kind == "heading":
            if _own_heading(clause):
                continue  # the section's own heading: its title is above the table
            table.append(f"   * - {clause.lines}\n     - **{_cell(clause.quote)}**\n"
                         f"     - (sub-heading)\n")
            continue
        table.append(f"   * - {clause.lines}\n     - «{_cell(clause.quote)}»\n"
                     f"     - {_carried(clause)}\n")
    flush()
    return "".join(out)


def clauses_page(app: Sphinx) -> str:
    """The whole page: every seed's map, then the unseeded rules and rulings."""
    maps = load_maps(app)
    clauses = [c for seed in maps.seeds for c in seed.clauses]
    gaps = [c for c in clauses if c.kind == "gap"] + [c for c in clauses if c.gaps]
    out = [".. _rulebook-clauses:\n\n", title("Seed clause map", "="),
           "Every line of text of the seed documents belongs to exactly one clause below, and "
           "each clause names the rules and rulings that carry it, or says why it carries "
           "none (a title, a foreword) or that it is a gap (a rule of the seed no rule of "
           "ours carries). Every rule and ruling is cited by a clause or listed at the end "
           "among those that come from no seed. The map is ``spec/clauses/``; "
           "``tests/test_clause_map.py`` checks it. The quotes are short excerpts of the "
           "seed text, in its own language.\n\n",
           f"{len(clauses)} clauses in {len(maps.seeds)} documents; "
           f"{sum(1 for c in clauses if c.kind == 'rules')} carry rules; "
           f"{len(gaps)} with a gap; {len(maps.unseeded)} rules and rulings come from no "
           "seed.\n\n"]
    out += [seed_section(app, seed) for seed in maps.seeds]
    out.append(".. _rulebook-clauses-unseeded:\n\n")
    out.append(title("Rules and rulings from no seed", "-"))
    out.append("The modules' details that the seeds leave out (from the research notes and "
               "the online adaptation) and decisions about heatcore's own input.\n\n"
               ".. list-table::\n   :header-rows: 1\n   :widths: 30 70\n\n"
               "   * - Rule or ruling\n     - Where it comes from\n")
    for item in maps.unseeded:
        out.append(f"   * - :rulebook:rule:`{item.id}`\n     - {_cell(item.source)}\n")
    return "".join(out) + "\n"


def generate(app: Sphinx) -> None:
    """``builder-inited``: write the page."""
    if not app.config.clauses_maps:
        return
    out = Path(app.srcdir) / app.config.rulebook_outdir / "clauses" / "index.rst"
    write_if_changed(out, clauses_page(app))


def setup(app: Sphinx) -> dict[str, Any]:
    """Register ``clauses_maps`` and the generation step (after the rulebook's)."""
    app.setup_extension("rulebook")
    app.add_config_value("clauses_maps", "", "env")
    app.connect("builder-inited", generate, priority=600)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}

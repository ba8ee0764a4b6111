"""Every rule's citation can be shown with its section title in English: each cited
document is described in ``spec/sources.toml`` and each cited section has an English title
there."""

from __future__ import annotations

import tomllib
from pathlib import Path

from heatcore.registry import ruleset

SOURCES = Path(__file__).resolve().parent.parent / "spec" / "sources.toml"


def test_every_cited_section_has_an_english_title() -> None:
    documents = tomllib.loads(SOURCES.read_text(encoding="utf-8"))["documents"]
    missing = []
    for entry in ruleset().entries.values():
        if entry.source is None:
            continue
        doc = documents.get(entry.source.document)
        if doc is not None and doc.get("language") == "English":
            continue  # a section of an English document is its own English title
        for part in entry.source.sections:
            if doc is None or part not in doc.get("sections", {}):
                missing.append(f"{entry.id}: document {entry.source.document} «{part}»")
    assert not missing, ("add the English title of these sections to spec/sources.toml: "
                         + "; ".join(missing))


def test_every_document_says_what_it_is() -> None:
    documents = tomllib.loads(SOURCES.read_text(encoding="utf-8"))["documents"]
    assert set(documents) >= {"000", "003", "004"}
    for number, doc in documents.items():
        for key in ("title", "language", "authority", "about"):
            assert doc.get(key), f"document {number} has no {key}"
        assert doc.get("sections") or doc["language"] == "English", number

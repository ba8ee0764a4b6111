"""Every rule's citation can be shown with its section title in English: each cited
document is described in ``spec/sources.toml`` and each cited section has an English title
there."""

from __future__ import annotations

import tomllib
from pathlib import Path

from heatcore.framework.registry import ruleset

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


def test_each_track_says_what_was_checked_against_the_board_and_what_was_not() -> None:
    """research heat.md section 3.4: every base board's info panel and its corner speed
    limits as a set were checked against the board art; the order of the limits only for
    USA, the first corner and its Legend line only for USA and GB; the rest is BGA data."""
    import json

    from heatcore.heat.track import tracks_dir

    order_checked = {"usa"}
    first_corner_checked = {"usa", "great-britain"}
    for path in sorted(tracks_dir().glob("*.json")):
        source = json.loads(path.read_text(encoding="utf-8"))["source"]
        checked, _, unchecked = source.partition("Not checked against the board")
        assert "section 3.4" in checked and unchecked, path.name
        assert "info panel" in checked and "speed limits" in checked, path.name
        assert ("in their order" in checked) == (path.stem in order_checked), path.name
        assert ("which corner has which speed limit" in unchecked) == (
            path.stem not in order_checked), path.name
        assert ("first corner's position" in checked) == (
            path.stem in first_corner_checked), path.name

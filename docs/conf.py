"""Sphinx configuration of the heatcore rulebook site."""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
if not (ROOT / "spec").is_dir():  # a copy of docs/ outside the repository (tests)
    import heatcore

    ROOT = Path(heatcore.__file__).resolve().parent.parent
sys.path[:0] = [str(DOCS / "_ext"), str(ROOT)]

from heatcore.framework.registry import GAMES  # noqa: E402  (ROOT's heatcore, now on the path)

project = "heatcore"
author = "the heatcore authors"
copyright = "2026, the heatcore authors"
release = "0.1.0"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.viewcode",
    "sphinx.ext.doctest",
    "rulebook",
    "heat_tracks",
    "rallyman_site",
    "seed_clauses",
]

html_theme = "furo"
html_split_index = True  # the general index one page per letter (one page was 26,000 px)
html_title = "heatcore: the executable rulebook of Heat"
html_static_path = ["_static"]
html_css_files = ["rulebook.css"]
exclude_patterns = ["_build", "generated/**/_*"]
nitpicky = True
# Type hints name many classes from other libraries and type aliases; references to them
# are not checked. Every other reference (rules, labels, functions, documents) must resolve.
nitpick_ignore_regex = [
    (r"py:(class|data|obj|exc)", r".*"),
]
autodoc_default_options = {"members": True, "show-inheritance": False}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
doctest_test_doctest_blocks = ""
# No global set-up: every example on the site shows its imports and runs when pasted.
doctest_global_setup = ""

# --- the rulebook generator (docs/_ext/rulebook.py): which ruleset, where its checks live
# every ruleset of heatcore.framework.registry.GAMES: Heat's chapters, then Rallyman GT's (rgt.*)
rulebook_ruleset = "heatcore.framework.registry:combined_ruleset"
rulebook_parts = [game.title for game in GAMES.values()]  # combined_ruleset: game i at i * 1000
rulebook_implementations = "heatcore.framework.registry:IMPLEMENTATIONS"
rulebook_import = [
    "heatcore.rallyman.driver", "heatcore.rallyman.setup", "heatcore.rallyman.validity",
    "heatcore.heat.engine", "heatcore.heat.setup", "heatcore.heat.validity",
    "heatcore.heat.observe", "heatcore.heat.fast",
]
rulebook_root = str(ROOT)
rulebook_outdir = "generated"
rulebook_keep = ["tracks", "rallyman", "race"]  # written by heat_tracks, rallyman_site, race page
rulebook_keep.append("clauses")  # written by seed_clauses
rulebook_api_package = "heatcore"
# The mutants are deliberately broken engines: importing one patches heatcore in the
# process, which would change what the doctests of a full build run against.
# Rallyman GT's engine shares class names with Heat's (RaceState, ...); its modules are
# documented on the Rallyman GT pages, not in Heat's API reference.
# heatcore.fast re-exports heatcore.heat.fast's public names (documented there). The fuzz
# harness's tables hold integers too long to print, which autodoc cannot show.
rulebook_api_skip = ["heatcore.heat.conformance.mutants", "heatcore.rallyman",
                     "heatcore.tools.rallyman", "heatcore.fast", "heatcore.tools.fuzz"]
#: The API reference, one page per module, grouped: (heading, a sentence, module-name
#: prefixes; a prefix takes that module and every module under it, and the first group
#: whose prefix fits a module takes it). Modules no group names are listed last, by
#: package, so a module that moves is never dropped. THE one list to edit when modules move
#: (e.g. heatcore.heat.engine -> heatcore.heat.engine: rename the prefixes here).
rulebook_api_groups = [
    ("Playing a race", "What a program that plays or checks Heat races needs: the engine, "
     "its states, actions and events, their notation, validity, set-up and drivers.",
     ["heatcore.heat.engine", "heatcore.heat.state", "heatcore.heat.actions",
      "heatcore.framework.events", "heatcore.heat.notation", "heatcore.heat.validity",
      "heatcore.framework.errors", "heatcore.heat.setup", "heatcore.heat.driver",
      "heatcore.heat.track", "heatcore.heat.cards", "heatcore.heat.rulings",
      "heatcore.heat.summary", "heatcore.framework.values", "heatcore.framework.registry"]),
    ("The fast engine", "The same rules on one mutable race, for volume.",
     ["heatcore.heat.fast"]),
    ("The rules' steps", "The reference engine's steps, one module per part of a round, and "
     "the hook points where a module changes them.",
     ["heatcore.heat.planning", "heatcore.heat.reveal", "heatcore.heat.react",
      "heatcore.heat.slipstream", "heatcore.heat.corners", "heatcore.heat.placement",
      "heatcore.heat.cleanup", "heatcore.heat.rounds", "heatcore.heat.hooks",
      "heatcore.heat.strategies"]),
    ("The modules: weather, Legends, Garage, Championship", "",
     ["heatcore.heat.modules", "heatcore.heat.championship_check",
      "heatcore.tools.heat.module_pages"]),
    ("The conformance kit", "The protocol, the harness, the fixture corpus and its cases.",
     ["heatcore.framework.conformance", "heatcore.heat.conformance"]),
    ("Independent checks", "Checks that do not share the engine's code: the oracle, the "
     "race checker, perft and exhaustive exploration.",
     ["heatcore.heat.oracle", "heatcore.heat.race_checker", "heatcore.heat.observe",
      "heatcore.heat.perft", "heatcore.heat.explore", "heatcore.tools.heat.perft_runs",
      "heatcore.tools.heat.explore_runs", "heatcore.tools.heat.golden"]),
    ("The framework", "What both games share: the play loop, batches, files, the seed "
     "clause map.", ["heatcore.framework"]),
    ("Tools: command line, reports, pages, batches", "",
     ["heatcore.tools", "heatcore.heat.racelog", "heatcore.heat.batch"]),
]
rulebook_sources = "spec/sources.toml"
# the two engines' code is folded separately on each rule's page
rulebook_engines = {"heatcore": "Reference engine (and checks)",
                    "heatcore.heat.fast": "Fast engine"}
rulebook_tests = "tests"
rulebook_test_marker = "rules"
rulebook_proofs = "proofs"
rulebook_catalogue = ["proofs.catalogue:PROOFS", "proofs.rallyman:CATALOGUE",
                      "proofs.garage:CATALOGUE", "proofs.rallyman_rulings:CATALOGUE"]
rulebook_fixtures = ["spec/fixtures", "spec/rallyman/fixtures"]
#: chapter id -> ``module:callable`` whose reStructuredText ends that chapter's page
rulebook_chapter_extras = {"garage": "heatcore.tools.heat.garage_cards:cards_rst",
                           "legends": "heatcore.tools.heat.module_pages:legends_rst",
                           "weather": "heatcore.tools.heat.module_pages:weather_rst",
                           "championship": "heatcore.tools.heat.championship_page:page_rst"}
rulebook_includes = {
    "howto": "spec/schemas/HOWTO.md",
    "interpreting": "spec/schemas/INTERPRETING.md",
}
rulebook_depends = sorted(str(p) for p in (ROOT / "spec").rglob("*.toml"))
# --- the seed clause map page (docs/_ext/seed_clauses.py)
clauses_maps = "heatcore.framework.clause_map:load_clause_maps"
rulebook_entry_extras = ["seed_clauses:entry_clauses"]  # each rule's seed clauses

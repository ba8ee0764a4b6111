"""Sphinx configuration of the heatcore rulebook site."""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path[:0] = [str(DOCS / "_ext"), str(ROOT)]

project = "heatcore"
author = "the heatcore authors"
copyright = "2026, the heatcore authors"  # noqa: A001
release = "0.1.0"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.viewcode",
    "sphinx.ext.doctest",
    "rulebook",
    "heat_tracks",
]

html_theme = "furo"
html_title = "heatcore: the executable rulebook of Heat"
html_static_path = ["_static"]
html_css_files = ["rulebook.css"]
exclude_patterns = ["_build", "generated/**/_*"]
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(nx|networkx|random|z3|jsonschema)\..*"),
    (r"py:.*", r"(collections|argparse|pathlib|enum|typing|abc|concurrent|multiprocessing)\..*"),
    (r"py:.*", r"heatcore\.cards\.Card"),
    (r"py:class", r"(Card|Action|Policy|F|T|Any|Path|Race)"),
    (r"py:class", r"(Event|RaceState|Track|Turn|Car|RaceSetup|Problem|Stage|Phase)"),
    (r"py:class", r"(Chapter|Entry|Ruleset|Source|Corner|CornerLine)"),
    (r"py:class", r"heatcore\..*"),
    (r"py:class", r"(_Reader|_io\..*|optional)"),
    (r"py:obj", r"heatcore\.registry\.F"),
]
autodoc_default_options = {"members": True, "show-inheritance": False}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
doctest_global_setup = """
import random
from heatcore import apply, legal_actions, start_race, RaceSetup, parse_action
from heatcore.notation import state_from_dict, state_to_dict
"""

# --- the rulebook generator (docs/_ext/rulebook.py): which ruleset, where its checks live
rulebook_ruleset = "heatcore.registry:ruleset"
rulebook_implementations = "heatcore.registry:IMPLEMENTATIONS"
rulebook_import = ["heatcore.engine", "heatcore.setup", "heatcore.validity"]
rulebook_root = str(ROOT)
rulebook_outdir = "generated"
rulebook_api_package = "heatcore"
rulebook_tests = "tests"
rulebook_test_marker = "rules"
rulebook_proofs = "proofs"
rulebook_fixtures = "spec/fixtures"
rulebook_depends = sorted(str(p) for p in (ROOT / "spec").rglob("*.toml"))

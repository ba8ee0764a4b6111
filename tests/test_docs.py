"""The rulebook site: it builds with no warnings, anchors every rule, lists every rule in the
matrix, runs its worked examples, and breaks when an example or a pinned rule is wrong.

The four Sphinx builds run at the same time, each on its own copy of ``docs/``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

import pytest

from heatcore.framework.registry import ruleset

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


@dataclass
class Build:
    """One Sphinx run: its output folder and, once finished, exit code and log."""

    out: Path
    process: subprocess.Popen[str]
    code: int | None = None
    log: str = ""

    def wait(self) -> Build:
        """Wait for the run to end (once) and return self."""
        if self.code is None:
            self.log, _ = self.process.communicate()
            self.code = self.process.returncode
        return self


def _copy_docs(dest: Path, minimal: bool = False) -> Path:
    """A copy of ``docs/``; ``minimal`` keeps only the worked examples (faster builds)."""
    shutil.copytree(DOCS, dest, ignore=shutil.ignore_patterns("_build", "generated"))
    if minimal:
        (dest / "index.rst").write_text("Examples\n========\n\n.. toctree::\n\n   examples\n",
                                        encoding="utf-8")
    return dest


#: Skip the generated pages and the API reference: they hold no doctests.
EXAMPLES_ONLY = ("-D", "exclude_patterns=_build,generated", "-D", "rulebook_api_package=")


def _start(src: Path, builder: str, out: Path, *flags: str) -> Build:
    command = [sys.executable, "-m", "sphinx", "-q", *flags, "-b", builder,
               "-d", str(out / ".doctrees"), str(src), str(out)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    return Build(out, process)


def _break(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Build]]:
    """Start the html, doctest, broken-example and stale-pin builds in parallel."""
    tmp = tmp_path_factory.mktemp("docs")
    good = _copy_docs(tmp / "good")
    # each build writes its generated pages into its source folder: one copy per build
    good_doctest = _copy_docs(tmp / "good-doctest")
    broken = _copy_docs(tmp / "broken", minimal=True)
    _break(broken / "examples.rst", "   P1 speed speed=8\n", "   P1 speed speed=9\n")
    stale = _copy_docs(tmp / "stale", minimal=True)
    _break(stale / "examples.rst", "reveal.stress-flip 719c0f8672f2",
           "reveal.stress-flip 000000000000")
    runs = {
        "html": _start(good, "html", tmp / "html", "-W", "--keep-going", "-n"),
        "doctest": _start(good_doctest, "doctest", tmp / "doctest", *EXAMPLES_ONLY),
        "broken": _start(broken, "doctest", tmp / "broken-out", *EXAMPLES_ONLY),
        "stale": _start(stale, "dummy", tmp / "stale-out", "--keep-going", "-W",
                        *EXAMPLES_ONLY),
    }
    yield runs
    for run in runs.values():
        if run.code is None:
            run.process.kill()
            run.process.communicate()


@pytest.mark.rules("setup.spaces-and-spots", "setup.grid", "setup.track-laps")
def test_site_builds_with_no_warnings_and_every_reference_resolving(
        builds: dict[str, Build]) -> None:
    run = builds["html"].wait()
    assert run.code == 0, run.log
    for track_id in ("usa", "italia", "france", "great-britain"):
        page = run.out / "generated" / "tracks" / f"{track_id}.html"
        svg = run.out / "_images" / f"{track_id}.svg"
        assert page.is_file() and svg.is_file()
        root = ElementTree.parse(svg).getroot()
        assert root.tag.endswith("svg") and len(root) > 100


def test_every_rule_id_has_its_own_anchor(builds: dict[str, Build]) -> None:
    run = builds["html"].wait()
    assert run.code == 0, run.log
    html = "\n".join(p.read_text(encoding="utf-8")
                     for p in (run.out / "generated").rglob("*.html"))
    anchors = set(re.findall(r'id="([^"]+)"', html))
    missing = [rule_id for rule_id in ruleset().rule_ids if rule_id not in anchors]
    assert not missing, f"rule IDs with no anchor: {missing}"


def test_traceability_matrix_lists_every_rule(builds: dict[str, Build]) -> None:
    run = builds["html"].wait()
    assert run.code == 0, run.log
    matrix = (run.out / "generated" / "matrix.html").read_text(encoding="utf-8")
    rows = set(re.findall(r'href="[^"]*#([^"]+)"', matrix))
    missing = [rule_id for rule_id in ruleset().rule_ids if rule_id not in rows]
    assert not missing, f"rule IDs missing from the matrix: {missing}"


@pytest.mark.rules("reveal.stress-flip", "reveal.speed", "move.exact", "corner.pay-heat",
                   "corner.spin", "example.opening-turn", "setup.hand", "round.sequence",
                   "adrenaline.effects", "react.cooldown", "slipstream.move",
                   "order.fixed-at-round-start")
def test_worked_examples_run_against_the_engine(builds: dict[str, Build]) -> None:
    run = builds["doctest"].wait()
    assert run.code == 0, run.log
    summary = (run.out / "output.txt").read_text(encoding="utf-8")
    assert re.search(r"[1-9]\d* tests?", summary) and "0 failures in tests" in summary, summary


def test_a_wrong_example_breaks_the_build(builds: dict[str, Build]) -> None:
    run = builds["broken"].wait()
    assert run.code != 0, run.log
    assert "speed=9" in (run.out / "output.txt").read_text(encoding="utf-8")


def test_a_changed_rule_text_breaks_the_build_until_its_pin_is_updated(
        builds: dict[str, Build]) -> None:
    run = builds["stale"].wait()
    assert run.code != 0, run.log
    assert "reveal.stress-flip" in run.log and "changed since" in run.log


def test_the_home_page_reads_as_described(builds: dict[str, Build]) -> None:
    """What Heat is, the venv and the two install commands, the three user journeys, a
    pasteable example (run by the doctest build), a race picture; the sample race with its
    legend is one click away (getting started), and the site's contents are in the sidebar,
    not a list of links on the page."""
    run = builds["html"].wait()
    assert run.code == 0, run.log
    import html

    page = (run.out / "index.html").read_text(encoding="utf-8")
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    for words in ("racing board game", "python3 -m venv v", "python3 -m pip install -e .",
                  "python3 -m pip install -e '.[test]'", ">>> import random",
                  ">>> from heatcore import apply, legal_actions", "Verify another engine",
                  "Generate edge-case fixtures", "Read the rulebook"):
        assert words in text, words
    wrappers = re.findall(r'<div class="toctree-wrapper[^"]*">(.*?)</div>', page, re.DOTALL)
    assert not any(w.strip() for w in wrappers)  # the contents live in the sidebar only
    started = (run.out / "guides" / "getting-started.html").read_text(encoding="utf-8")
    started = html.unescape(re.sub(r"<[^>]+>", "", started))
    for words in ("How to read it", "FINISHED #3: P", "Final ranking"):
        assert words in started, words
    for link in ("race.svg", "guides/verifying.html", "guides/fixtures.html",
                 "generated/rules/index.html", "generated/race/index.html"):
        assert link in page, link
    assert (run.out / "_static" / "race.svg").is_file()


def test_rule_pages_show_the_rule_first_and_fold_both_engines_code(
        builds: dict[str, Build]) -> None:
    run = builds["html"].wait()
    page = (run.out / "generated" / "rules" / "corner.html").read_text(encoding="utf-8")
    rule, details = page.index('id="corner.check"'), page.index('<details class="rulebook-code"')
    assert rule < details
    assert "Reference engine (and checks): " in page and "Fast engine: FastRace." in page
    assert "(<em>Slipstream and corners</em>)" in page  # the section title in English


def test_the_rules_index_heads_each_games_chapters(builds: dict[str, Build]) -> None:
    """Heat's chapters under Heat's title, Rallyman GT's under its own (both have a
    chapter called "Turn order"), then the rulings."""
    run = builds["html"].wait()
    page = (run.out / "generated" / "rules" / "index.html").read_text(encoding="utf-8")
    page = page[page.index("<article"):]  # the page's own text, not the sidebar
    heat, rgt = page.index(">Heat: Pedal to the Metal<"), page.index(">Rallyman GT<")
    assert heat < page.index('href="corner.html"') < rgt < page.index('href="rgt.turn.html"')
    assert page.index('href="rgt.turn.html"') < page.index('href="../rulings.html"')
    corners = (run.out / "generated" / "rules" / "rgt.corner.html").read_text(encoding="utf-8")
    assert "<h1>Rallyman GT: Corners" in corners  # the page says which game it is


def test_the_sources_page_and_the_split_api_page(builds: dict[str, Build]) -> None:
    import tomllib

    run = builds["html"].wait()
    sources = (run.out / "generated" / "sources.html").read_text(encoding="utf-8")
    documents = tomllib.loads((ROOT / "spec" / "sources.toml").read_text(encoding="utf-8"))
    for number, doc in documents["documents"].items():
        assert f"Document {number}" in sources
        for english in doc["sections"].values():
            assert english in sources, english
    api = (run.out / "generated" / "api" / "index.html").read_text(encoding="utf-8")
    playing, tools = api.index('id="playing-a-race"'), api.index('id="tools-command-line')
    assert api.index('href="heatcore.heat.engine.html"', playing) < tools  # (the sidebar and
    assert api.index('href="heatcore.tools.heat.svg.html"', tools) > tools  # the head link
    # them too)
    engine = (run.out / "generated" / "api" / "heatcore.heat.engine.html").read_text("utf-8")
    assert 'id="module-heatcore.heat.engine"' in engine
    assert 'id="heatcore.heat.engine.apply"' in engine  # one page per module, autodoc'd
    rulings = (run.out / "generated" / "rulings.html").read_text(encoding="utf-8")
    assert 'href="rulings/corner.html"' in rulings  # one page per chapter the rulings refine


def test_the_sites_race_page_steps_in_a_browser(builds: dict[str, Build]) -> None:
    from test_race_page import STEPPER, load

    run = builds["html"].wait()
    folder = run.out / "generated" / "race"
    text = (folder / "index.html").read_text(encoding="utf-8")
    (folder / "stepped.html").write_text(text.replace("</body>", STEPPER + "</body>"),
                                         encoding="utf-8")
    found = re.search(r'<pre id="stepper-log">(.*?)</pre>', load(folder / "stepped.html"),
                      re.DOTALL)
    assert found
    import html
    import json

    log = json.loads(html.unescape(found.group(1)))
    assert [entry["frame"] for entry in log][:3] == [0, 1, 2]
    assert all(len(entry["cars"]) + sum(1 for _ in entry["rows"]) >= 3 for entry in log)
    assert "spins out" in text  # the round notes of the annotated race

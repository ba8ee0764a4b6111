"""The race picture and the race page, in a real browser.

``heatcore race --html`` writes a page; headless Chromium (the Debian ``chromium`` package)
loads a copy with a few lines of script added that press its buttons and keys and record
what is drawn after each press; the test compares that with the race's states. Without
Chromium the browser tests are skipped, unless ``HEATCORE_REQUIRE_BROWSER`` is set (as
``.ci/run`` does after installing it), when they fail.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from heatcore.heat.driver import random_race
from heatcore.heat.setup import start_race
from heatcore.heat.state import RaceState, car_name
from heatcore.heat.summary import standings
from heatcore.heat.track import load_track
from heatcore.tools.cli import main
from heatcore.tools.heat.racepage import race_html
from heatcore.tools.heat.report import race_rounds
from heatcore.tools.heat.svg import state_svg, track_svg

BROWSERS = ("chromium", "chromium-browser", "google-chrome")

#: Presses the page's buttons and keys; records what is drawn after each press.
STEPPER = """<script>
(function () {
  function drawn() {
    var f = document.body.dataset.shown;
    var g = document.querySelector('g.frame[data-frame="' + f + '"]');
    return {
      frame: Number(f), where: document.getElementById('where').textContent,
      cars: Array.from(g.querySelectorAll('g.car')).map(function (c) {
        return [c.dataset.car, Number(c.dataset.position), Number(c.dataset.lane)]; }),
      rows: Array.from(g.querySelectorAll('g.row')).map(function (r) {
        return [r.dataset.car, Number(r.dataset.place), Number(r.dataset.gear),
                Number(r.dataset.engine)]; }),
      visible: Array.from(document.querySelectorAll('[data-frame]')).filter(function (e) {
        return getComputedStyle(e).display !== 'none'; }).length,
      text: document.querySelector('pre[data-frame="' + f + '"]').textContent
    };
  }
  function key(name) {
    document.dispatchEvent(new KeyboardEvent('keydown', {key: name, bubbles: true}));
  }
  var log = [drawn()];
  document.getElementById('next').click(); log.push(drawn());
  document.getElementById('next').click(); log.push(drawn());
  key('ArrowLeft'); log.push(drawn());
  key('End'); log.push(drawn());
  document.getElementById('next').click(); log.push(drawn());
  key('Home'); log.push(drawn());
  key('ArrowRight'); log.push(drawn());
  var out = document.createElement('pre');
  out.id = 'stepper-log';
  out.textContent = JSON.stringify(log);
  document.body.appendChild(out);
})();
</script>"""


def browser() -> str:
    """The headless browser's command; skips (or fails, if one is required) without it."""
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("HEATCORE_REQUIRE_BROWSER"):
        pytest.fail("no Chromium found (apt-get install -y chromium)")
    pytest.skip("no Chromium found (apt-get install -y chromium)")


def load(page: Path) -> str:
    """The page's DOM after its scripts ran, from headless Chromium."""
    done = subprocess.run(
        [browser(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--virtual-time-budget=5000", "--dump-dom", page.as_uri()],
        capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def expected(state: RaceState) -> dict[str, Any]:
    """What the page must draw for ``state``: cars on the track and the table's rows."""
    cars = []
    for i, car in enumerate(state.cars):
        if i in state.ranking:
            continue
        racing = state.track.racing_lane(state.track.space(car.position))
        cars.append([car_name(i), car.position, racing if car.racing_line else 3 - racing])
    rows = [[car_name(r.car), r.place, state.cars[r.car].gear, state.cars[r.car].engine]
            for r in standings(state)]
    return {"cars": sorted(cars), "rows": rows}


@pytest.fixture(scope="module")
def stepped(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, Any]],
                                                                 list[RaceState]]:
    """A 3-car, 1-lap race's page stepped in Chromium, and the states it must show."""
    folder = tmp_path_factory.mktemp("page")
    page = folder / "race.html"
    assert main(["race", "--track", "italia", "--players", "3", "--laps", "1", "--seed", "4",
                 "--html", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")  # self-contained
    (folder / "stepped.html").write_text(text.replace("</body>", STEPPER + "</body>"),
                                         encoding="utf-8")
    dom = load(folder / "stepped.html")
    found = re.search(r'<pre id="stepper-log">(.*?)</pre>', dom, re.DOTALL)
    assert found, dom[-3000:]
    race = random_race("italia", 3, 4, laps=1, policy=__import__(
        "heatcore.heat.driver", fromlist=["greedy_policy"]).greedy_policy)
    states = [start_race(race.setup)[0]]
    states += [r.state for r in race_rounds(race) if (r.turns or r.ranked) and r.state]
    return json.loads(html.unescape(found.group(1))), states


def test_the_page_steps_with_buttons_and_keys(
        stepped: tuple[list[dict[str, Any]], list[RaceState]]) -> None:
    log, states = stepped
    last = len(states) - 1
    assert [entry["frame"] for entry in log] == [0, 1, 2, 1, last, last, 0, 1]
    assert log[0]["where"] == "The grid"
    assert log[1]["where"] == f"After round 1 of {last}"
    for entry in log:
        assert entry["visible"] == 2  # one frame's picture and its plays, nothing else


def test_the_page_draws_each_cars_spot_gear_and_engine(
        stepped: tuple[list[dict[str, Any]], list[RaceState]]) -> None:
    log, states = stepped
    for entry in log:
        state = states[entry["frame"]]
        want = expected(state)
        assert sorted(entry["cars"]) == want["cars"]
        assert entry["rows"] == want["rows"]
        if entry["frame"]:
            assert entry["text"].startswith(f"Round {entry['frame']} ")
    assert log[4]["cars"] == []  # after the last round every car has finished
    assert "Grid from pole" in log[0]["text"]


def test_a_state_picture_has_the_track_corners_and_every_car() -> None:
    race = random_race("usa", 4, 2, laps=1)
    state = race_rounds(race)[3].state
    assert state is not None
    picture = state_svg(state, "after round 4")
    track = load_track("usa")
    limits = re.findall(r'class="corner" data-limit="(\d+)"', picture)
    assert [int(x) for x in limits] == [c.limit for c in track.corners]
    assert picture.count('class="car"') == 4 and picture.count('class="row"') == 4
    for i, car in enumerate(state.cars):
        assert f'data-car="{car_name(i)}" data-position="{car.position}"' in picture
        assert f'data-gear="{car.gear}" data-engine="{car.engine}"' in picture
    assert "after round 4" in picture
    assert track_svg(track).count("<circle") > 2 * track.spaces_per_lap


def test_the_page_refuses_count() -> None:
    assert main(["race", "--count", "2", "--html", "x.html"]) == 2


def test_the_page_of_a_race_names_its_track_and_rounds() -> None:
    race = random_race("france", 2, 1, laps=1)
    page = race_html(race)
    rounds = len([r for r in race_rounds(race) if r.turns or r.ranked])
    assert page.count('<g class="frame"') == rounds + 1 and "France" in page


def test_the_readme_picture_is_drawn_by_the_project() -> None:
    from heatcore.tools.heat.golden import picture_path
    from heatcore.tools.heat.svg import readme_picture

    assert picture_path().read_text(encoding="utf-8") == readme_picture(), \
        "run `heatcore golden --regenerate`"
    assert "docs/_static/race.svg" in (picture_path().parents[2] / "README.md").read_text()


def _legend_of(page: str) -> str:
    found = re.search(r"<summary>How to read the plays</summary><pre>(.*?)</pre>", page, re.S)
    assert found, "the page has no legend"
    return html.unescape(found.group(1))


def test_the_legend_explains_every_upgrade_card_the_page_shows() -> None:
    from heatcore.heat.modules.garage.data import upgrades
    from heatcore.tools.heat.garage_legend import card_text, symbol_text

    race = random_race("usa", 3, 2, laps=1, modules=("garage",))
    page = race_html(race)
    plays = html.unescape("".join(re.findall(r'<pre data-frame="\d+">(.*?)</pre>', page, re.S)))
    shown = set(re.findall(r"\bG\d+\b", plays))
    owned = {m for ups in race.setup.upgrades for m in ups}
    assert shown and shown <= owned  # the plays show upgrade cards, only the race's own
    legend, table = _legend_of(page), upgrades()
    for market in owned:
        assert card_text(table[market]) in legend
        for symbol, amount in table[market].symbols:  # each symbol's meaning, once
            name = symbol_text(symbol, amount).split(" ")[0]
            assert re.search(rf"^  {re.escape(name)}\b.*: ", legend, re.M), (market, symbol)
    assert f"P1 {' '.join(race.setup.upgrades[0])};" in html.unescape(page)
    plain = race_html(random_race("usa", 3, 2, laps=1))
    assert "Upgrades" not in plain and "G1 (" not in _legend_of(plain)

"""The command line as a user meets it: the help, the race report, and one clear line (exit
status 2, no traceback) for every bad input named in issue 14."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from heatcore import MalformedInput, apply, random_setup, start_race
from heatcore.framework.cliutil import Parser
from heatcore.heat.fast import FastRace
from heatcore.heat.track import resolve_track
from heatcore.tools.cli import DELEGATED, SUMMARIES, build_parser, main
from heatcore.tools.heat.golden import golden_dir
from heatcore.tools.terminal import write_text

REPO = Path(__file__).resolve().parent.parent


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``heatcore ARGV`` in this process: (exit status, stdout, stderr)."""
    try:
        code = main(list(argv))
    except SystemExit as leave:  # argparse's --help and usage errors
        code = int(leave.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code: int, err: str) -> str:
    """The single line a bad input must produce (exit status 2, no traceback)."""
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


# --- help ------------------------------------------------------------------------------

def test_help_lists_every_command_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for name in ("race", "replay", "prove", "fixtures", "conform", "serve", "golden"):
        assert re.search(rf"^\s+{name}\s+\S", out, re.MULTILINE), name
    assert set(SUMMARIES) == {"race", "replay", *DELEGATED}


@pytest.mark.parametrize("command", sorted(SUMMARIES))
def test_help_is_plain_text_without_rst_markup(capsys: pytest.CaptureFixture[str],
                                               command: str) -> None:
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and "usage: heatcore" in out
    assert "``" not in out, command


class _Captured(Exception):
    def __init__(self, parser: Parser) -> None:
        self.parser = parser


def _parsers(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Every subcommand's parser: ours from build_parser, the delegated ones caught as
    their ``main`` starts to parse."""
    def capture(self: Parser, *args: Any, **kwargs: Any) -> Any:
        raise _Captured(self)

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    parsers: dict[str, Any] = {"race": sub.choices["race"], "replay": sub.choices["replay"]}
    monkeypatch.setattr(Parser, "parse_args", capture)
    for name in DELEGATED:
        with pytest.raises(_Captured) as caught:
            main([name])
        parsers[name] = caught.value.parser
    return parsers


def test_every_option_of_every_command_has_help_and_shows_its_default(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name, parser in _parsers(monkeypatch).items():
        assert isinstance(parser, Parser), f"{name} does not use heatcore.framework.cliutil.Parser"
        text = parser.format_help()
        assert "(default: [])" not in text and "(default: ())" not in text, name
        for action in parser._actions:
            if action.dest == "help":
                continue
            assert action.help, f"heatcore {name} {action.option_strings or action.dest}"
            if action.option_strings and action.default not in (None, False) \
                    and action.nargs != 0:
                flag = action.option_strings[-1]
                shown = "none" if action.default in ((), []) else action.default
                assert "default" in (action.help % {"default": action.default}) or \
                    f"(default: {shown})" in " ".join(text.split()), (name, flag)


def test_python_dash_m_heatcore_runs_the_command_line() -> None:
    done = subprocess.run([sys.executable, "-m", "heatcore", "--help"], capture_output=True,
                          text=True, cwd=REPO)
    assert done.returncode == 0 and "replay" in done.stdout


# --- the race report -------------------------------------------------------------------

def test_race_prints_every_place_a_legend_and_standings_each_round(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "race", "--track", "usa", "--players", "4", "--seed", "7")
    assert code == 0
    assert "How to read it" in out and "U0 and U5" in out and '"flip 4"' in out
    for place in (1, 2, 3, 4):
        assert f"FINISHED #{place}: P" in out
    rounds = re.findall(r"^Round (\d+)", out, re.MULTILINE)
    standings = re.findall(r"^  standings:", out, re.MULTILINE)
    assert len(standings) == len(rounds) - 1  # none after the last car is ranked
    assert "adrenaline available" not in out
    assert " -> FINISH;" in out or " -> FINISH\n" in out
    assert "lap 3" not in out  # a 2-lap race: the finish is shown as the finish
    assert all(len(line) <= 100 for line in out.splitlines())


def test_a_one_lap_race_says_1_lap(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "race", "--laps", "1", "--players", "2", "--no-legend")
    assert code == 0 and "2 cars, 1 lap;" in out and "How to read it" not in out


def test_the_golden_texts_show_every_place() -> None:
    for path in sorted(golden_dir().glob("*.txt")):
        players = int(path.stem.rsplit("-", 1)[1][:-1])
        text = path.read_text(encoding="utf-8")
        for place in range(1, players + 1):
            assert f"FINISHED #{place}: P" in text, (path.name, place)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_on_a_terminal_plain_text_when_piped() -> None:
    text = "Round 1 (turn order P1 P2)\n  P1  gear 1  [1]  speed 1  heat 2 -> FINISH\n"
    piped, tty = io.StringIO(), _Terminal()
    write_text(text, piped)
    write_text(text, tty)
    assert piped.getvalue() == text
    assert "\x1b[" in tty.getvalue()
    assert re.sub(r"\x1b\[[0-9;]*m", "", tty.getvalue()) == text


# --- bad input: one clear line, exit 2 -------------------------------------------------

def test_prove_mine_an_unknown_situation(capsys: pytest.CaptureFixture[str]) -> None:
    line = one_line_error(*run(capsys, "prove", "--mine", "nonsense")[::2])
    assert "nonsense" in line and "two-corners" in line


@pytest.mark.parametrize("content", ['{"a": 1}', "not json at all", "[1, 2]"])
def test_fixtures_check_on_a_folder_of_other_json(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path, content: str) -> None:
    (tmp_path / "x.json").write_text(content)
    line = one_line_error(*run(capsys, "fixtures", "check", "--dir", str(tmp_path))[::2])
    assert "x.json" in line


def test_fixtures_check_on_a_missing_folder(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    line = one_line_error(*run(capsys, "fixtures", "check", "--dir",
                               str(tmp_path / "none"))[::2])
    assert "not a folder" in line


def test_conform_checks_the_report_folder_before_the_run(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    code, out, err = run(capsys, "conform", "--impl", "no-such-engine-anywhere",
                         "--report", str(blocker / "out"))
    line = one_line_error(code, err)
    assert "cannot write" in line and out == ""  # nothing ran


def test_a_module_the_fast_engine_lacks_points_to_the_reference_engine(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import heatcore.tools.cli
    from heatcore.framework.errors import UnsupportedModule

    def fast_engine_without_garage(*_: object, **__: object) -> None:
        raise UnsupportedModule("garage", "the fast engine", "weather.module")

    monkeypatch.setattr(heatcore.tools.cli, "observe_races", fast_engine_without_garage)
    line = one_line_error(*run(capsys, "race", "--modules", "garage", "--count", "2")[::2])
    assert "module 'garage': add --engine reference" in line


@pytest.mark.parametrize("ruleset", ["heat", "rallyman-gt"])
def test_conform_refuses_a_fixtures_folder_with_no_fixtures(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, ruleset: str) -> None:
    code, out, err = run(capsys, "conform", "--impl", "no-such-engine-anywhere",
                         "--ruleset", ruleset, "--fixtures", str(tmp_path))
    line = one_line_error(code, err)
    assert f"no fixture files (*.json) in {tmp_path}" in line and out == ""  # nothing ran


@pytest.mark.parametrize("argv, words", [
    (("race", "--seed", "-3"), "a seed is 0 or more"),
    (("race", "--track", "mars"), "unknown track 'mars'"),
    (("race", "--players", "9"), "--players"),
    (("race", "--count", "0"), "not a positive"),
    (("race", "--count", "3", "--html", "x.html"), "--html draws one race"),
    (("race", "--count", "3", "--modules", "legends", "--players", "5", "--legends", "2"),
     "setup.players"),
    (("race", "--legends", "2"), "--legends sets the Legend cars: add --modules legends"),
    (("race", "--aggressive", "--count", "2"), "--aggressive sets the Legend cars"),
    (("race", "--modules", "legends", "--legends", "-1"), "not a positive"),
    (("race", "--draft", "--count", "2"), "add --modules garage"),
    (("race", "--modules", "garage", "--draft", "--count", "2"), "cannot be used with --count"),
    (("conform", "--impl", "x", "--seed", "-1"), "a seed is 0 or more"),
    (("conform", "--impl", "x", "--perft-depth", "3"), "--perft-depth applies to perft counts"),
    (("conform", "--impl", "x", "--perft-only", "usa:2"), "--perft-only applies to perft"),
    (("perft", "--generate", "--divide"), "cannot be used with --generate"),
    (("perft", "--check", "1", "--divide"), "cannot be used with --check"),
    (("perft", "--out", "x.json"), "--out names the file --generate writes"),
    (("perft", "--generate", "--check", "1"), "two modes"),
    (("perft", "--generate", "--track", "france"), "--track chooses the one count; --generate"),
    (("perft", "--check", "2", "--players", "3", "--seed", "4", "--depth", "1"),
     "--players, --seed, --depth choose the one count; --check counts the reference entries"),
    (("replay", "/no/such/file.json"), "cannot read"),
    (("frobnicate",), "invalid choice"),
])
def test_usage_errors_are_one_line(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                   words: str) -> None:
    assert words in one_line_error(*run(capsys, *argv)[::2])


@pytest.mark.rules("weather.module", "legend.turn-order")
def test_race_count_plays_module_races(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "race", "--count", "3", "--modules", "weather,legends",
                       "--legends", "2", "--players", "3", "--aggressive", "--laps", "1",
                       "--policy", "random")
    assert code == 0
    assert "modules: weather, legends (2 Legends, aggressive)" in out
    assert re.search(r"^  legend\s+\S+%\s+40\.0%$", out, re.MULTILINE), out
    assert "cooling bonuses" in out and "engine: fast" in out and "races: 3" in out


@pytest.mark.rules("legend.setup")
def test_a_race_with_legends_counts_every_car_in_its_heading(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "race", "--modules", "legends", "--legends", "2",
                       "--players", "2", "--laps", "1", "--no-legend")
    assert code == 0 and out.startswith("Race on USA, 4 cars (2 players, 2 Legends), 1 lap;")


@pytest.mark.rules("legend.card")
def test_a_legend_turn_shows_its_card_not_a_gear_or_cards(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "race", "--modules", "legends", "--legends", "1",
                       "--players", "2", "--laps", "1")
    assert code == 0 and "A Legend's turn:" in out
    legend_turns = re.findall(r"^  P3  (.*)$", out, re.MULTILINE)
    assert legend_turns and all(t.startswith("Legend  speed ") and "Legend card: diamond" in t
                                for t in legend_turns), legend_turns
    assert "[]" not in out and re.search(r"P3 L\d+:\d+ Legend", out)


@pytest.mark.rules("garage.decks")
def test_the_legend_of_a_garage_race_explains_each_upgrade_dealt(
        capsys: pytest.CaptureFixture[str]) -> None:
    from heatcore.heat.modules.garage.data import upgrades

    code, out, _ = run(capsys, "race", "--modules", "garage", "--players", "3", "--laps", "1",
                       "--seed", "5")
    assert code == 0
    dealt = set(re.findall(r"G\d+", out.splitlines()[0]))  # Upgrades (quick start): P1 ...
    assert dealt
    for market in dealt:
        up = upgrades()[market]
        line = next(x for x in out.splitlines() if x.startswith(f"  {market} ("))
        assert f"({up.family}): " in line and (up.heat_card or f"speed {up.speeds[0]}" in line)
    assert "Upgrades in this race" not in run(capsys, "race", "--modules", "garage",
                                              "--no-legend", "--laps", "1")[1]


@pytest.mark.parametrize("spelling", ["gb", "GB", "great-britain", "Great Britain",
                                      "great_britain", "UK"])
def test_track_names_accept_common_spellings(spelling: str) -> None:
    assert resolve_track(spelling) == "great-britain"


def test_race_on_a_track_spelled_gb(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "race", "--track", "GB", "--players", "2", "--laps", "1")
    assert code == 0 and "Race on Great Britain" in out


def test_apply_with_an_action_string_raises_a_typed_error_naming_parse_action() -> None:
    state, _ = start_race(random_setup("usa", 3, random.Random(1)))
    for engine_apply in (lambda a: apply(state, a),
                         lambda a: FastRace.from_state(state).apply(a)):
        with pytest.raises(MalformedInput, match="parse_action"):
            engine_apply("P1 boost")
        with pytest.raises(MalformedInput, match="must be an Action"):
            engine_apply(7)


# --- replay ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def race_log(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("log") / "race.json"
    assert main(["race", "--players", "3", "--seed", "2", "--laps", "1", "--json",
                 str(path)]) == 0
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _write(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_replay_verifies_the_result(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                    race_log: dict[str, Any]) -> None:
    code, out, _ = run(capsys, "replay", _write(tmp_path, race_log))
    assert code == 0 and out.splitlines()[-1].startswith("log verified: same result")


def test_replay_names_the_bad_action_its_index_and_round(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, race_log: dict[str, Any]) -> None:
    race_log = json.loads(json.dumps(race_log))
    race_log["actions"][30] = "P1 gear 9 play 1"
    line = one_line_error(*run(capsys, "replay", _write(tmp_path, race_log))[::2])
    assert re.search(r"action 31 of \d+ \(round \d+\), 'P1 gear 9 play 1'", line), line


def test_a_log_cut_short_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                 race_log: dict[str, Any]) -> None:
    race_log = dict(race_log, actions=race_log["actions"][:40])
    code, out, err = run(capsys, "replay", _write(tmp_path, race_log))
    assert "cut short" in one_line_error(code, err)
    assert "The race stops here" in out


def test_a_log_from_another_track_is_refused_as_such(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, race_log: dict[str, Any]) -> None:
    race_log = json.loads(json.dumps(race_log))
    assert race_log["setup"]["track"] == "usa"
    race_log["setup"]["track"] = "france"
    line = one_line_error(*run(capsys, "replay", _write(tmp_path, race_log))[::2])
    assert "played on usa, but its setup names france" in line


def test_replay_until_a_round(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                              race_log: dict[str, Any]) -> None:
    code, out, _ = run(capsys, "replay", "--until", "3", _write(tmp_path, race_log))
    assert code == 0
    assert re.findall(r"^Round (\d+)", out, re.MULTILINE) == ["1", "2", "3"]
    assert out.splitlines()[-1] == "stopped after round 3, as asked (--until)"


def test_replay_plays_a_golden_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", str(golden_dir() / "italia-4p.json"))
    assert code == 0 and "log verified: same result" in out


def test_replay_refuses_a_golden_file_whose_events_were_changed(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = json.loads((golden_dir() / "usa-2p.json").read_text())
    data["rounds"][0]["steps"][0]["events"] = []
    line = one_line_error(*run(capsys, "replay", _write(tmp_path, data))[::2])
    assert "action 1: the replay's events differ" in line


def test_replay_plays_mined_witnesses(capsys: pytest.CaptureFixture[str]) -> None:
    suite = REPO / "spec" / "fixtures" / "mined-blocked-adrenaline.json"
    code, out, _ = run(capsys, "replay", str(suite))
    cases = len(json.loads(suite.read_text())["cases"])
    assert code == 0 and out.count("case verified: same result") == cases
    assert "start: France" in out  # the human summary of the start state


def test_replay_of_other_json_is_one_line(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    line = one_line_error(*run(capsys, "replay", _write(tmp_path, {"a": 1}))[::2])
    assert "not a race log" in line


@pytest.mark.parametrize("content, words", [(b"{not json", "is not JSON"),
                                             (b"\xff\xfe", "is not JSON")])
def test_replay_of_a_file_that_is_not_json_names_no_rule(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes, words: str) -> None:
    path = tmp_path / "log.json"
    path.write_bytes(content)
    line = one_line_error(*run(capsys, "replay", str(path))[::2])
    assert words in line and "[ruling.unreadable-input]" not in line


@pytest.mark.parametrize("argv, words", [
    (("race", "--ruling", "nope=x"), "--ruling: 'ruling.nope' is not a ruling"),
    (("race", "--ruling", "nope"), "--ruling: 'nope' is not ID=ALTERNATIVE"),
    (("conform", "--impl", "x", "--ruling", "nope=x"), "--ruling: 'ruling.nope' is not a"),
    (("serve", "--ruling", "nope=x"), "--ruling: 'ruling.nope' is not a ruling"),
    (("championship", "--replay", "{bad}"), "is not JSON"),
    (("championship", "--replay", "{missing}"), "cannot read"),
])
def test_a_bad_option_or_unreadable_file_names_no_rule(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...],
        words: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    argv = tuple(a.format(bad=bad, missing=tmp_path / "none.json") for a in argv)
    line = one_line_error(*run(capsys, *argv)[::2])
    assert words in line and "[ruling.unreadable-input]" not in line and "malformed" not in line


def test_str_of_a_state_is_a_summary_and_repr_pastes_back() -> None:
    from heatcore import legal_actions, state_from_json

    state, _ = start_race(random_setup("usa", 3, random.Random(1)))
    state, _ = apply(state, legal_actions(state)[0])
    text = str(state)
    lines = text.splitlines()
    assert lines[0].startswith("USA, 2 laps, round 1: steps 1-2 (gear and cards), P3 to choose")
    assert len(lines) == 4 and all(re.match(r"  \d\. P\d  grid \d+ \((racing line|outside)\)"
                                            r"  gear 1  engine 6  hand [67]$", line)
                                   for line in lines[1:])
    assert eval(repr(state), {"state_from_json": state_from_json}) == state

"""The bad-input table (issue 30): every command of the ``heatcore`` command line and the
``heatcore serve`` protocol, fed input that is wrong in one way, answers with exactly one
line on stderr and exit status 2 (a protocol request: exactly one error reply, and the
session goes on), never a traceback, and writes no output file.

Independent of: the messages' wording (only their shape is checked, and that each names
the option or file at fault); the engine (a bad input must be refused before any race is
played, so these cases run in a fraction of a second each, in this process).
"""

from __future__ import annotations

import io
import json
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from heatcore.framework.conformance.protocol import serve
from heatcore.heat.conformance.binding import HeatBinding
from heatcore.tools.cli import main

REPO = Path(__file__).resolve().parent.parent


def _files(tmp: Path) -> dict[str, Path]:
    """The bad files the cases name (``{NAME}`` in an argument), made in ``tmp``."""
    good = tmp / "good.json"
    assert main(["race", "--players", "2", "--seed", "1", "--json", str(good)]) == 0
    log = json.loads(good.read_text())
    rgood = tmp / "rgood.json"
    assert main(["race", "--game", "rallyman-gt", "--players", "2", "--seed", "1",
                 "--json", str(rgood)]) == 0
    rlog = json.loads(rgood.read_text())
    made: dict[str, str | bytes] = {
        "empty": "",
        "notjson": "{not json",
        "binary": b"\xff\xfe\x00\x01",
        "list": "[]",
        "number": "7",
        "object": "{}",
        "nested": "[" * 100_000 + "]" * 100_000,
        "nestedobj": '{"a":' * 50_000 + "1" + "}" * 50_000,
        "bigint": '{"format": ' + "9" * 5000 + "}",
        "wrongformat": json.dumps({**log, "format": "heatcore.race/99"}),
        "badaction": json.dumps({**log, "actions": ["P9 fly", *log["actions"][1:]]}),
        "illegal": json.dumps({**log, "actions": [log["actions"][1], *log["actions"]]}),
        "wrongresult": json.dumps({**log, "result": {"ranking": [7, 8]}}),
        "nosetup": json.dumps({k: v for k, v in log.items() if k != "setup"}),
        "badsetup": json.dumps({**log, "setup": {"track": "mars"}}),
        "actionsnotlist": json.dumps({**log, "actions": "P1 boost"}),
        "rbadaction": json.dumps({**rlog, "actions": ["P1 fly", *rlog["actions"][1:]]}),
        "rnosetup": json.dumps({k: v for k, v in rlog.items() if k != "setup"}),
        "rbadsetup": json.dumps({**rlog, "setup": {"track": "mars"}}),
        "champbad": json.dumps({"format": "heatcore.championship/1", "races": 3}),
        "suitebad": json.dumps({"format": "heatcore.suite/1", "cases": [{"id": 3}]}),
    }
    paths = {"good": good, "rgood": rgood, "dir": tmp / "adir", "missing": tmp / "no.json",
             "underfile": good / "out.html", "underfiledir": good / "sub"}
    (tmp / "adir").mkdir()
    (tmp / "emptydir").mkdir()
    paths["emptydir"] = tmp / "emptydir"
    for name, content in made.items():
        path = tmp / f"{name}.json"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        paths[name] = path
    return paths


#: (argv with ``{NAME}`` for a file of :func:`_files`, a word the one line must contain).
CLI_CASES: list[tuple[str, str]] = [
    # the command itself
    ("", "COMMAND"),
    ("fly", "fly"),
    ("--fly", "command"),
    # race
    ("race --track mars", "mars"),
    ("race --track ''", "track"),
    ("race --players 7", "--players"),
    ("race --players 1", "--players"),
    ("race --players two", "--players"),
    ("race --seed -1", "seed"),
    ("race --seed x", "--seed"),
    ("race --seed 1.5", "--seed"),
    ("race --laps 0", "--laps"),
    ("race --laps -2", "--laps"),
    ("race --laps x", "--laps"),
    ("race --policy nope", "nope"),
    ("race --policy greedy,nope", "nope"),
    ("race --count 0", "--count"),
    ("race --count x", "--count"),
    ("race --workers 0", "--workers"),
    ("race --engine warp", "--engine"),
    ("race --modules nope", "nope"),
    ("race --modules weather,nope", "nope"),
    ("race --legends 2", "--legends"),
    ("race --aggressive", "--aggressive"),
    ("race --draft", "--draft"),
    ("race --modules garage --draft --count 2", "--draft"),
    ("race --ruling nope", "--ruling"),
    ("race --ruling nope=x", "nope"),
    ("race --ruling =", "--ruling"),
    ("race --html {underfile}", "cannot write"),
    ("race --json {underfile}", "cannot write"),
    ("race --json {dir}", "folder"),
    ("race --html {dir}", "folder"),
    ("race --count 2 --html x.html", "--html"),
    ("race --count 2 --json {underfile}", "cannot write"),
    ("race --modules legends --legends 5", "legend"),
    ("race --game chess", "--game"),
    ("race --game rallyman-gt --modules weather", "--modules"),
    ("race --game rallyman-gt --track usa", "usa"),
    ("race --game rallyman-gt --policy cautious", "cautious"),
    ("race --game rallyman-gt --count 2 --json x.json", "--json"),
    ("race --game rallyman-gt --json {underfile}", "cannot write"),
    ("race --game rallyman-gt --html {underfile}", "cannot write"),
    ("race --game rallyman-gt --ruling a=b", "--ruling"),
    ("race --game rallyman-gt --count 2 --html x.html", "--html"),
    ("race --unknown", "--unknown"),
    ("race extra", "extra"),
    # replay
    ("replay", "file"),
    ("replay {missing}", "cannot read"),
    ("replay {dir}", "cannot read"),
    ("replay {empty}", "not JSON"),
    ("replay {notjson}", "not JSON"),
    ("replay {binary}", "not JSON"),
    ("replay {list}", "not a race log"),
    ("replay {number}", "not a race log"),
    ("replay {object}", "not a race log"),
    ("replay {nested}", "deep"),
    ("replay {nestedobj}", "deep"),
    ("replay {bigint}", "digits"),
    ("replay {wrongformat}", "not a race log"),
    ("replay {badaction}", "action 1"),
    ("replay {illegal}", "action 1"),
    ("replay {wrongresult}", "ranks"),
    ("replay {nosetup}", "setup"),
    ("replay {badsetup}", "setup"),
    ("replay {actionsnotlist}", "actions"),
    ("replay {rbadaction}", "P1 fly"),
    ("replay {rnosetup}", "setup"),
    ("replay {rbadsetup}", "setup"),
    ("replay {good} --until 0", "--until"),
    ("replay {good} --until x", "--until"),
    ("replay {suitebad}", "not a race log"),
    ("replay REPO/spec/fixtures/gear.json --until 3", "--until"),
    # golden
    ("golden --dir {missing}", "no.json"),
    ("golden --dir {good}", "good.json"),
    ("golden --dir {emptydir}", "no golden"),
    ("golden --regenerate --check", "--check"),
    ("golden --regenerate --dir {underfiledir}", "cannot write"),
    ("golden --fly", "--fly"),
    # conform
    ("conform", "--impl"),
    ("conform --impl ''", "--impl"),
    ("conform --impl '\"unclosed'", "--impl"),
    ("conform --impl /nonexistent/engine --no-fixtures --races 1", "did not start"),
    ("conform --impl x --timeout 0", "--timeout"),
    ("conform --impl x --timeout -1", "--timeout"),
    ("conform --impl x --timeout nan", "--timeout"),
    ("conform --impl x --timeout inf", "--timeout"),
    ("conform --impl x --timeout soon", "--timeout"),
    ("conform --impl x --timeout 0.0", "--timeout"),
    ("conform --impl x --races -1", "--races"),
    ("conform --impl x --ruleset chess", "--ruleset"),
    ("conform --impl x --workers 0", "--workers"),
    ("conform --impl x --report {underfiledir}", "--report"),
    ("conform --impl x --report {good}", "--report"),
    ("conform --impl x --fixtures {emptydir}", "no fixture"),
    ("conform --impl x --fixtures {missing}", "no.json"),
    ("conform --impl x --perft-depth 2", "--perft"),
    ("conform --impl x --perft-only usa:2", "--perft"),
    ("conform --impl x --perft --perft-only mars:9", "mars:9"),
    ("conform --impl x --ruling nope=x", "--ruling"),
    ("conform --impl x --ruleset rallyman-gt --ruling move.slipstream=off", "--ruling"),
    ("conform --impl x --memory-mb 0", "--memory-mb"),
    ("conform --impl x --seed -1", "seed"),
    ("conform --impl x --progress loud", "--progress"),
    # serve
    ("serve --ruleset chess", "--ruleset"),
    ("serve --ruling nope=x", "--ruling"),
    ("serve --ruleset rallyman-gt --ruling a=b", "--ruling"),
    ("serve extra", "extra"),
    # perft
    ("perft --depth -1", "--depth"),
    ("perft --depth x", "--depth"),
    ("perft --players 9", "--players"),
    ("perft --track mars", "mars"),
    ("perft --seed -1", "seed"),
    ("perft --generate --check 1", "--check"),
    ("perft --check 1 --depth 2", "--depth"),
    ("perft --divide --check 1", "--divide"),
    ("perft --out x.json", "--out"),
    ("perft --generate --out {underfile}", "cannot write"),
    ("perft --engine warp", "--engine"),
    ("perft --check 0", "--check"),
    ("perft --check 99", "--check"),
    # explore
    ("explore --config nope", "--config"),
    ("explore --part 0", "--part"),
    # fixtures
    ("fixtures", "action"),
    ("fixtures fly", "fly"),
    ("fixtures check --dir {missing}", "no.json"),
    ("fixtures check --dir {emptydir}", "no fixture"),
    ("fixtures generate --dir {underfiledir}", "cannot write"),
    # championship
    ("championship --season 1900", "1900"),
    ("championship --season x", "--season"),
    ("championship --players 7", "--players"),
    ("championship --seed -1", "seed"),
    ("championship --replay {missing}", "cannot read"),
    ("championship --replay {notjson}", "not JSON"),
    ("championship --replay {object}", "championship"),
    ("championship --replay {nested}", "deep"),
    ("championship --replay {champbad}", "season"),
    ("championship --log {underfile}", "cannot write"),
    ("championship --log {dir}", "folder"),
    # prove
    ("prove --track mars", "--track"),
    ("prove --proof nope", "--proof"),
    ("prove --jobs 0", "--jobs"),
    ("prove --mine nope", "--mine"),
    ("prove --mine all --count 0", "--count"),
    ("prove --mine all --out {underfiledir}", "cannot write"),
    ("prove --mine all --out {good}", "cannot write"),
    ("prove --refine 0", "--refine"),
    ("prove --progress loud", "--progress"),
    ("prove --out x", "--out"),
    ("prove --count 3", "--count"),
]


def _argv(case: str, files: dict[str, Path]) -> list[str]:
    import shlex

    words = shlex.split(case.replace("REPO/", f"{REPO}/"))
    return [w.format(**{k: str(v) for k, v in files.items()}) if "{" in w else w
            for w in words]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return _files(tmp_path_factory.mktemp("bad"))


def _one_line(code: int, err: str) -> str:
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert code == 2, err
    return lines[0]


@pytest.mark.rules("ruling.unreadable-input")
@pytest.mark.parametrize("case, word", CLI_CASES, ids=[c for c, _ in CLI_CASES])
def test_cli_bad_input_is_one_line_and_exit_2(case: str, word: str, files: dict[str, Path],
                                              tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # a relative output name would land here
    capsys.readouterr()
    try:
        code = main(_argv(case, files))
    except SystemExit as leave:
        code = int(leave.code or 0)
    out, err = capsys.readouterr()
    line = _one_line(code, err)
    assert word.lower() in line.lower(), line
    assert line.startswith("heatcore"), line
    assert not list(tmp_path.iterdir()), "a bad input wrote a file"


def test_the_table_is_at_least_a_hundred_cases() -> None:
    assert len(CLI_CASES) + len(PROTOCOL_CASES) >= 100
    assert len(set(CLI_CASES)) == len(CLI_CASES)


# --- the protocol ------------------------------------------------------------------------

START = json.dumps({"op": "start", "protocol": "conform/2", "ruleset": "heat"})

#: Request lines that are wrong in one way, and a word of the error reply's message.
PROTOCOL_CASES: list[tuple[str, str]] = [
    ("not json", "JSON"),
    ("{", "JSON"),
    ('"legal"', ""),
    ("[]", ""),
    ("7", ""),
    ("null", ""),
    ("{}", "op"),
    ('{"op": 7}', "op"),
    ('{"op": "fly"}', "op is one of"),
    ('{"op": "apply"}', "action"),
    ('{"op": "apply", "action": 7}', "action"),
    ('{"op": "apply", "action": ["P1 boost"]}', "action"),
    ('{"op": "apply", "action": "P9 boost"}', ""),
    ('{"op": "apply", "action": "P1 fly"}', ""),
    ('{"op": "apply", "action": ""}', ""),
    ('{"op": "apply", "action": "\\ud800"}', ""),
    ('{"op": "load"}', "state"),
    ('{"op": "load", "state": 7}', ""),
    ('{"op": "load", "state": {}}', ""),
    ('{"op": "load", "state": "{}"}', ""),
    ('{"op": "load", "state": {"format": "heatcore.state/99"}}', ""),
    ('{"op": "start", "protocol": "conform/99"}', "ruleset"),
    ('{"op": "start", "protocol": "conform/99", "ruleset": "heat"}', "speaks"),
    ('{"op": "start", "protocol": "conform/2", "ruleset": "chess"}', "plays"),
    ('{"op": "setup"}', ""),
    ('{"op": "setup", "track": "mars", "players": 2, "seed": 1}', ""),
    ('{"op": "setup", "track": "usa", "players": 9, "seed": 1}', ""),
    ('{"op": "setup", "track": "usa", "players": 2, "seed": -1}', ""),
    ('{"op": "legal", "n": 1e400}', ""),
    ('[' * 100_000 + ']' * 100_000, "deep"),
    ("\udcff".encode("utf-8", "surrogateescape").decode("latin-1"), ""),
]


def _replies(lines: list[str | bytes]) -> list[dict[str, object]]:
    data = b"".join((x if isinstance(x, bytes) else x.encode("utf-8", "surrogatepass"))
                    + b"\n" for x in lines)
    out = io.BytesIO()
    assert serve(HeatBinding(), io.BytesIO(data), out) == 0
    return [json.loads(line) for line in out.getvalue().decode().splitlines()]


@pytest.mark.rules("round.sequence")
@pytest.mark.parametrize("line, word", PROTOCOL_CASES, ids=range(len(PROTOCOL_CASES)))
def test_protocol_bad_request_is_one_error_reply_and_the_session_goes_on(line: str,
                                                                         word: str) -> None:
    setup = json.dumps({"op": "setup", "track": "usa", "players": 2, "seed": 1})
    raw: str | bytes = line.encode("latin-1") if line.startswith("\xff") else line
    before = _replies([START, setup, '{"op": "legal"}'])
    replies = _replies([START, setup, raw, '{"op": "legal"}'])
    assert len(replies) == 4, replies  # exactly one reply to the bad line
    bad = replies[2]
    assert bad.get("ok") is False and isinstance(bad.get("error"), dict), bad
    message = str(bad["error"].get("message", ""))  # type: ignore[union-attr]
    assert word.lower() in message.lower(), message
    assert replies[3] == before[2]  # the state is unchanged: the same legal actions


# --- a few as real processes ------------------------------------------------------------

@pytest.mark.parametrize("argv", [["race", "--players", "9"], ["replay", "/nonexistent.json"],
                                  ["golden", "--dir", "/nonexistent"]])
def test_subprocess_bad_input_is_one_line(argv: list[str]) -> None:
    done = subprocess.run([sys.executable, "-m", "heatcore", *argv], capture_output=True,
                          text=True, cwd=REPO, check=False)
    _one_line(done.returncode, done.stderr)


def _interrupted(argv: list[str], started: Callable[[str], bool]) -> tuple[int, str, int]:
    """Run ``heatcore ARGV`` in a new session, send SIGINT once ``started(stderr so far)``
    holds, and wait for it to end: (exit status, stderr after that, its pid)."""
    proc = subprocess.Popen([sys.executable, "-m", "heatcore", *argv], cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    assert proc.stderr is not None
    seen = ""
    while not started(seen):
        line = proc.stderr.readline()
        if not line:
            break
        seen += line
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=60)  # a generous bound so a stuck command fails, not hangs
    except subprocess.TimeoutExpired:
        import os

        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        pytest.fail(f"heatcore {' '.join(argv)} still running 60 s after SIGINT")
    rest = proc.stderr.read()
    proc.stderr.close()
    return proc.returncode, rest, proc.pid


@pytest.mark.slow
def test_prove_stops_on_sigint_and_its_workers_die() -> None:
    """``prove`` hands Z3 queries to worker processes: Ctrl-C ends it and them."""
    code, err, pid = _interrupted(["prove", "--progress", "on", "--jobs", "2"],
                             lambda seen: "ok" in seen or "FAILED" in seen)
    assert code == 130, err
    assert err.strip().splitlines() == ["heatcore prove: interrupted"], err
    assert not _session_processes(pid)  # its workers were in its session: none is left


def _session_processes(sid: int) -> list[str]:
    """The processes still alive in session ``sid``."""
    found = subprocess.run(["ps", "-e", "-o", "sid=,pid=,stat="], capture_output=True,
                           text=True, check=True).stdout.split("\n")
    return [line for line in found if line.split()[:1] == [str(sid)]
            and not line.split()[2].startswith("Z")]

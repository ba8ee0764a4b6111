"""The reports of a conformance run: ``report.json`` (everything) and ``report.md`` (for a
person: the top causes first, each with its smallest repro inline)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from heatcore.framework.conformance import PROTOCOL
from heatcore.framework.conformance.binding import JSON, Binding
from heatcore.framework.conformance.causes import Cause, Divergence, group
from heatcore.framework.registry import DEFAULT_GAME

if TYPE_CHECKING:
    from heatcore.framework.conformance.harness import Outcome

#: Causes shown in full in report.md (the rest are listed in one line each).
TOP_CAUSES = 10
#: Causes listed in report.md after the top ones.
LISTED_CAUSES = 100
#: Occurrences of a cause named in report.md.
SHOWN_OCCURRENCES = 8


def json_diff(expected: JSON, actual: JSON, path: str = "$", limit: int = 12) -> list[str]:
    """Where two JSON values differ, as ``path: expected X, got Y`` lines (at most ``limit``)."""
    out: list[str] = []

    def walk(a: JSON, b: JSON, where: str) -> None:
        if len(out) >= limit or a == b:
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b), key=str):
                if key not in b:
                    out.append(f"{where}.{key}: missing (expected {_short(a[key])})")
                elif key not in a:
                    out.append(f"{where}.{key}: unexpected {_short(b[key])}")
                else:
                    walk(a[key], b[key], f"{where}.{key}")
            return
        if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            for index, (x, y) in enumerate(zip(a, b, strict=True)):
                walk(x, y, f"{where}[{index}]")
            return
        out.append(f"{where}: expected {_short(a)}, got {_short(b)}")

    walk(expected, actual, path)
    return out


def event_diff(expected: list[JSON], actual: list[JSON], context: int = 2,
               after: int = 4) -> list[str]:
    """The two event lists as a list diff at their first difference: a few equal events
    before it (indented), then the expected events (marked ``-``) and the engine's (marked
    ``+``) from there."""
    k = next((i for i, (a, b) in enumerate(zip(expected, actual, strict=False)) if a != b),
             min(len(expected), len(actual)))
    out = [f"  ({k - context} equal events)"] if k > context else []
    out += [f"  {_short(e)}" for e in expected[max(0, k - context):k]]
    out += [f"- {_short(e)}" for e in expected[k:k + after]]
    if len(expected) > k + after:
        out.append(f"- ... {len(expected) - k - after} more expected")
    out += [f"+ {_short(e)}" for e in actual[k:k + after]]
    if len(actual) > k + after:
        out.append(f"+ ... {len(actual) - k - after} more from the engine")
    if k >= len(expected):
        out.append("- (no more events expected)")
    if k >= len(actual):
        out.append("+ (the engine emitted no more events)")
    return out


def differences(div: Divergence) -> list[str]:
    """What differs, for a person: events as a list diff, the rest as JSON paths."""
    want, got = div.expected, div.actual
    if div.check == "legal" and isinstance(got, dict) and "actions" in got:
        extra = sorted(set(got["actions"]) - set(want["actions"]))
        missing = sorted(set(want["actions"]) - set(got["actions"]))
        return ([f"+ offered, not legal: {a}" for a in extra[:10]] +
                ([f"+ ... {len(extra) - 10} more"] if len(extra) > 10 else []) +
                [f"- legal, not offered: {a}" for a in missing[:10]] +
                ([f"- ... {len(missing) - 10} more"] if len(missing) > 10 else []))
    if isinstance(want, dict) and isinstance(got, dict) and isinstance(want.get("events"), list) \
            and isinstance(got.get("events"), list) and want["events"] != got["events"]:
        return ["events:", *event_diff(want["events"], got["events"])]
    return json_diff(want, got)


def _short(value: JSON) -> str:
    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= 200 else text[:197] + "..."


def repro_lines(div: Divergence, ruleset: str = DEFAULT_GAME,
                protocol: str = PROTOCOL) -> list[JSON]:
    """The protocol requests (in ``protocol``) that reproduce a divergence."""
    lines: list[JSON] = [{"op": "start", "protocol": protocol, "ruleset": ruleset}]
    if div.check == "setup":
        lines.append({"op": "setup", "setup": div.state})
    else:
        lines.append({"op": "load", "state": div.state})
    lines += [{"op": "apply", "action": action} for action in div.actions]
    if div.check == "legal":
        lines.append({"op": "legal"})
    lines.append({"op": "stop"})
    return lines


def rule_summary(outcome: Outcome, causes: list[Cause],
                 all_rules: list[str]) -> dict[str, dict[str, int]]:
    """Per rule: cases passed and skipped (every rule a case names), cases failed and race
    divergences (only the rule each is charged to)."""
    table = {r: {"pass": 0, "fail": 0, "skip": 0, "races": 0} for r in all_rules}

    def row(rule: str) -> dict[str, int]:
        return table.setdefault(rule, {"pass": 0, "fail": 0, "skip": 0, "races": 0})

    for cid, result in outcome.case_results.items():
        if result != "fail":
            for rule in outcome.case_rules[cid]:
                row(rule)[result] += 1
    for cause in causes:
        row(cause.rule)["fail"] += len(cause.cases)
        row(cause.rule)["races"] += len(cause.races)
    return table


def report_json(outcome: Outcome, binding: Binding, impl: str) -> JSON:
    """Everything the run found."""
    results = list(outcome.case_results.values())
    causes = group(outcome.divergences)
    caps = outcome.capabilities
    return {
        "protocol": outcome.protocol, "impl": impl, "implementation": outcome.implementation,
        "reference": {"name": binding.name, "version": binding.version},
        "declared": {"ruleset": caps.ruleset, "compare": sorted(caps.compare),
                     "rulings": caps.rulings, "tracks": list(caps.tracks),
                     "modules": list(caps.modules), "rule_ids": caps.rule_ids},
        "ok": outcome.ok, "seconds": round(outcome.seconds, 2),
        "cases": {k: results.count(k) for k in ("pass", "fail", "skip")},
        "races": {"pass": outcome.races_passed, "fail": outcome.races_failed,
                  "skip": outcome.races_skipped, "steps": outcome.steps},
        "race_rulings": dict(outcome.race_rulings),
        "setups": {k: outcome.setups[k] for k in ("pass", "fail", "skip")},
        "divergences": len(outcome.divergences),
        "causes": [{"rule": c.rule, "title": binding.describe(c.rule), "what": c.what,
                    "occurrences": c.count, "cases": c.cases, "races": c.races,
                    "example": c.example.to_json(),
                    "where": [d.where for d in c.occurrences]} for c in causes],
        "rules": rule_summary(outcome, causes, binding.rule_ids()),
        "failed_rules": list(dict.fromkeys(c.rule for c in causes)),
        "skipped": dict(outcome.skips.most_common()),
        "restarts": outcome.restarts,
        "engine_failures": outcome.engine_failures,
        "failures": [d.to_json(full=d is c.example or d.source == "case")
                     for c in causes for d in c.occurrences],
    }


def _repro_block(div: Divergence, impl: str, number: int, ruleset: str,
                 protocol: str) -> list[str]:
    transcript = "\n".join(json.dumps(m, separators=(",", ":"))
                           for m in repro_lines(div, ruleset, protocol))
    return ["```sh", f"cat > repro-{number}.jsonl <<'EOF'", transcript, "EOF",
            f"{impl} < repro-{number}.jsonl", "```"]


def _race_rulings(report: JSON) -> str:
    """The ruling alternatives the races were played under, as ``id=option`` ("" if none)."""
    chosen = report.get("race_rulings") or {}
    return ", ".join(f"{r}={o}" for r, o in chosen.items())


def _race_rulings_lines(report: JSON) -> list[str]:
    shown = _race_rulings(report)
    if not shown:
        return []
    return [f"Races were played under the rulings the engine declares: {shown}.", ""]


def report_markdown(report: JSON, impl: str) -> str:
    """report.md: verdict, top causes with repros, the other causes, skips, engine failures,
    and the per-rule table."""
    declared = report["declared"]
    out = [f"# Conformance report: `{impl}`", "",
           f"Protocol {report['protocol']}; "
           f"implementation {json.dumps(report['implementation'])}; "
           f"reference {report['reference']['name']} {report['reference']['version']}. "
           f"Compared: {', '.join(declared['compare'])}.", "",
           f"**Result: {'PASS' if report['ok'] else 'FAIL'}** in {report['seconds']} s. "
           f"Cases: {report['cases']['pass']} pass, {report['cases']['fail']} fail, "
           f"{report['cases']['skip']} skipped. Races: {report['races']['pass']} pass, "
           f"{report['races']['fail']} with divergences, {report['races']['skip']} skipped "
           f"({report['races']['steps']} steps). Setups: {report['setups']['pass']} pass, "
           f"{report['setups']['fail']} fail, {report['setups']['skip']} skipped. "
           f"{report['divergences']} divergence(s) from {len(report['causes'])} distinct "
           f"cause(s); engine restarts: {report['restarts']}.", "",
           *_race_rulings_lines(report)]
    causes = report["causes"]
    if causes:
        out += ["## Top causes", "",
                "| # | rule | what differs | cases | races | occurrences |",
                "|---|---|---|---|---|---|"]
        for n, c in enumerate(causes[:TOP_CAUSES], 1):
            out.append(f"| {n} | `{c['rule']}` ({c['title']}) | {c['what']} | "
                       f"{len(c['cases'])} | {len(c['races'])} | {c['occurrences']} |")
        if len(causes) > TOP_CAUSES:
            out.append(f"\n{len(causes) - TOP_CAUSES} more cause(s) below.")
        out.append("")
        for n, c in enumerate(causes[:TOP_CAUSES], 1):
            out += _cause_section(n, c, impl, declared["ruleset"], report["protocol"])
        rest = causes[TOP_CAUSES:]
        if rest:
            out += ["## Other causes", ""]
            out += [f"- `{c['rule']}`: {c['what']} ({c['occurrences']} occurrence(s), first "
                    f"{c['where'][0]})" for c in rest[:LISTED_CAUSES]]
            if len(rest) > LISTED_CAUSES:
                out.append(f"- ... {len(rest) - LISTED_CAUSES} more in report.json")
            out.append("")
    if report["skipped"]:
        out += ["## Skipped", "", "| reason | count |", "|---|---|"]
        out += [f"| {reason} | {count} |" for reason, count in report["skipped"].items()]
        out.append("")
    if report["engine_failures"]:
        failures = report["engine_failures"]
        out += ["## Engine failures", "", "```", *failures[:20], "```"]
        if len(failures) > 20:
            out.append(f"{len(failures) - 20} more in report.json.")
        out.append("")
    out += ["## Per rule", "",
            "Cases that pass or are skipped count for every rule they name; a failing case "
            "and a race divergence count only for the rule they are charged to.", "",
            "| rule | cases pass | cases fail | skipped | races diverging |",
            "|---|---|---|---|---|"]
    rows = sorted(report["rules"].items(), key=lambda kv: (-kv[1]["fail"] - kv[1]["races"],
                                                          kv[0]))
    for rule, row in rows:
        out.append(f"| `{rule}` | {row['pass']} | {row['fail']} | {row['skip']} | "
                   f"{row['races']} |")
    return "\n".join(out) + "\n"


def _cause_section(n: int, cause: JSON, impl: str, ruleset: str,
                   protocol: str = PROTOCOL) -> list[str]:
    ex = cause["example"]
    repro = ex["repro"]
    div = Divergence(ex["where"], "", ex["rules"], ex["what"], ex["reason"], repro["state"],
                     repro["actions"], repro["check"], repro["expected"], repro["actual"])
    where = cause["where"]
    shown = ", ".join(where[:SHOWN_OCCURRENCES])
    more = f", and {len(where) - SHOWN_OCCURRENCES} more" if len(where) > SHOWN_OCCURRENCES \
        else ""
    return [f"### {n}. `{cause['rule']}`: {cause['what']}", "",
            f"{cause['title']}. Charged rules, most likely first: "
            f"{', '.join(f'`{r}`' for r in ex['rules'][:4])}. {ex['reason']}.", "",
            f"Seen {cause['occurrences']} time(s): {shown}{more}.", "",
            f"Smallest repro ({ex['where']}): from the loaded state, "
            f"`{' ; '.join(repro['actions']) or '(no action)'}`, then `{repro['check']}`.", "",
            "```diff", *differences(div), "```", "",
            "Repro (pipe these lines into your engine):", "",
            *_repro_block(div, impl, n, ruleset, protocol), ""]


def _tally(counts: JSON) -> str:
    """``{'pass': 3, 'fail': 0, 'skip': 1}`` as ``3 pass, 0 fail, 1 skipped``."""
    return f"{counts['pass']} pass, {counts['fail']} fail, {counts['skip']} skipped"


def summary_lines(report: JSON, impl: str, workers: int) -> list[str]:
    """The few lines ``heatcore conform`` prints."""
    races = report["races"]
    out = [f"conform: {'PASS' if report['ok'] else 'FAIL'} ({impl}) in {report['seconds']} s",
           f"  cases: {_tally(report['cases'])}; races: {_tally(races)} "
           f"({races['steps']} steps); setups: {_tally(report['setups'])}",
           f"  workers: {workers}; divergences: {report['divergences']} from "
           f"{len(report['causes'])} cause(s); restarts: {report['restarts']}"]
    if _race_rulings(report):
        out.append(f"  races under the declared rulings: {_race_rulings(report)}")
    for cause in report["causes"][:8]:
        out.append(f"  FAIL {cause['rule']}: {cause['what']} ({len(cause['cases'])} case(s), "
                   f"{len(cause['races'])} race(s))")
    if len(report["causes"]) > 8:
        out.append(f"  ... {len(report['causes']) - 8} more cause(s)")
    for reason, count in list(report["skipped"].items())[:5]:
        out.append(f"  skipped {count}: {reason}")
    for line in report["engine_failures"][:3]:
        out.append(f"  engine: {line.splitlines()[0]}")
    return out

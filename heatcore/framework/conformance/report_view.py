"""The parts of a conformance report meant for people: defects (causes that are one bug),
the per-race table, a compact ``report.json`` (repeated states stored once, by reference)
and ``report.html``."""

from __future__ import annotations

import html
import json
from collections.abc import Callable

from heatcore.framework.conformance.binding import JSON
from heatcore.framework.conformance.causes import Cause

#: A state stored in the report's ``states`` pool is replaced by ``{"$ref": "#/states/N"}``
#: when its JSON text is at least this long.
POOLED = 120


def defects(causes: list[Cause], describe: Callable[[str], str]) -> list[JSON]:
    """Causes charged to one rule are one defect (the explanation agrees: a variant of that
    rule reproduced them, or the field heuristics named it first); most races and cases
    first. Each lists its causes, rounds, races, first repro and every rule it touches."""
    by_rule: dict[str, list[Cause]] = {}
    for cause in causes:
        by_rule.setdefault(cause.rule, []).append(cause)
    out: list[JSON] = []
    for rule, group in by_rule.items():
        occurrences = [d for c in group for d in c.occurrences]
        races = list(dict.fromkeys(r for c in group for r in c.races))
        cases = list(dict.fromkeys(k for c in group for k in c.cases))
        rounds = sorted({d.round for d in occurrences if d.round is not None})
        touched = list(dict.fromkeys(r for d in occurrences for r in d.rules[:3]))
        variants = list(dict.fromkeys(d.variant for d in occurrences if d.variant))
        shrunk = [c.example for c in group if c.example.shrunk] or [c.example for c in group]
        first = min(shrunk, key=lambda d: d.size())
        out.append({"rule": rule, "title": describe(rule),
                    "causes": [c.what for c in group], "occurrences": len(occurrences),
                    "races": races, "cases": cases, "rounds": rounds, "rules": touched,
                    "explained_by": variants, "first_repro": first.where})
    return sorted(out, key=lambda d: (-len(d["races"]) - len(d["cases"]), -d["occurrences"],
                                      d["rule"]))


def pool_states(report: JSON) -> JSON:
    """``report`` with every long ``state`` inside a repro stored once in ``states`` and
    referenced as ``{"$ref": "#/states/N"}``."""
    pool: list[JSON] = []
    index: dict[str, int] = {}

    def ref(state: JSON) -> JSON:
        text = json.dumps(state, sort_keys=True, separators=(",", ":"))
        if len(text) < POOLED:
            return state
        if text not in index:
            index[text] = len(pool)
            pool.append(state)
        return {"$ref": f"#/states/{index[text]}"}

    def walk(value: JSON) -> JSON:
        if isinstance(value, dict):
            return {k: ref(v) if k == "state" and isinstance(v, dict) and "$ref" not in v
                    else walk(v) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value

    out = {k: walk(v) if k in ("causes", "failures") else v for k, v in report.items()}
    out["states"] = pool
    return out


def resolve(report: JSON, value: JSON) -> JSON:
    """``value`` with every ``{"$ref": "#/states/N"}`` replaced by the pooled state."""
    if isinstance(value, dict):
        if set(value) == {"$ref"} and str(value["$ref"]).startswith("#/states/"):
            return report["states"][int(str(value["$ref"]).rsplit("/", 1)[1])]
        return {k: resolve(report, v) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(report, v) for v in value]
    return value


def race_table(report: JSON, limit: int = 60) -> list[str]:
    """The per-race lines of report.md: length, how far the check got, first divergence."""
    races = report.get("race_log") or []
    if not races:
        return []
    out = ["## Races", "", "| seed | race | steps | rounds | checked to step | divergences "
           "| first at (step, round) |", "|---|---|---|---|---|---|---|"]
    for row in races[:limit]:
        first = row.get("first")
        at = f"{first['step']}, {first['round']}" if first else ""
        out.append(f"| {row['seed']} | {row['label']} | {row['steps']} | {row['rounds']} | "
                   f"{row['reached']} | {row['divergences']} | {at} |")
    if len(races) > limit:
        out.append(f"\n{len(races) - limit} more race(s) in report.json.")
    return [*out, ""]


def defect_table(report: JSON) -> list[str]:
    """The defects table of report.md (its top table)."""
    found = report.get("defects") or []
    if not found:
        return []
    out = ["## Defects", "", "Causes charged to one rule are one defect.", "",
           "| # | rule | causes | races | cases | rounds | rules touched | first repro |",
           "|---|---|---|---|---|---|---|---|"]
    for n, d in enumerate(found, 1):
        rounds = _span(d["rounds"])
        out.append(f"| {n} | `{d['rule']}` ({d['title']}) | {len(d['causes'])} | "
                   f"{len(d['races'])} | {len(d['cases'])} | {rounds} | "
                   f"{', '.join(f'`{r}`' for r in d['rules'][:5])} | {d['first_repro']} |")
    return [*out, ""]


def _span(rounds: list[int]) -> str:
    if not rounds:
        return ""
    return str(rounds[0]) if len(rounds) == 1 else f"{rounds[0]}-{rounds[-1]}"


def report_html(report: JSON, markdown_for: Callable[[JSON], str]) -> str:
    """report.html: the verdict, defects, races, causes and rules as HTML tables, and each
    top cause's repro (``markdown_for(cause)``: its report.md section) as preformatted text."""
    e = html.escape
    verdict = "PASS" if report["ok"] else "FAIL"
    parts = ["<!doctype html><html><head><meta charset='utf-8'>",
             f"<title>Conformance report: {e(str(report['impl']))}</title>",
             "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
             "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}"
             "pre{background:#f4f4f4;padding:8px;overflow-x:auto}"
             ".FAIL{color:#b00}.PASS{color:#070}</style></head><body>",
             f"<h1>Conformance report: <code>{e(str(report['impl']))}</code></h1>",
             f"<p class='{verdict}'><b>{verdict}</b> in {report['seconds']} s. Cases: "
             f"{report['cases']['pass']} pass, {report['cases']['fail']} fail, "
             f"{report['cases']['skip']} skipped. Races: {report['races']['pass']} pass, "
             f"{report['races']['fail']} with divergences. {report['divergences']} "
             f"divergence(s), {len(report.get('defects') or [])} defect(s).</p>"]

    def table(title: str, head: list[str], rows: list[list[str]]) -> None:
        if not rows:
            return
        parts.append(f"<h2>{e(title)}</h2><table><tr>" +
                     "".join(f"<th>{e(h)}</th>" for h in head) + "</tr>")
        parts.extend("<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in row) + "</tr>"
                     for row in rows)
        parts.append("</table>")

    table("Defects", ["#", "rule", "title", "causes", "races", "cases", "rounds",
                      "rules touched", "first repro"],
          [[str(n), d["rule"], d["title"], "; ".join(d["causes"]), str(len(d["races"])),
            str(len(d["cases"])), _span(d["rounds"]), ", ".join(d["rules"][:5]),
            d["first_repro"]] for n, d in enumerate(report.get("defects") or [], 1)])
    table("Races", ["seed", "race", "steps", "rounds", "checked to step", "divergences",
                    "first at (step, round)"],
          [[str(r["seed"]), r["label"], str(r["steps"]), str(r["rounds"]), str(r["reached"]),
            str(r["divergences"]),
            f"{r['first']['step']}, {r['first']['round']}" if r.get("first") else ""]
           for r in report.get("race_log") or []])
    causes = report["causes"]
    for n, cause in enumerate(causes[:10], 1):
        parts.append(f"<h3>{n}. <code>{e(cause['rule'])}</code>: {e(cause['what'])}</h3>")
        parts.append(f"<pre>{e(markdown_for(cause))}</pre>")
    table("Per rule", ["rule", "cases pass", "cases fail", "skipped", "races diverging"],
          [[rule, str(row["pass"]), str(row["fail"]), str(row["skip"]), str(row["races"])]
           for rule, row in report["rules"].items()])
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"

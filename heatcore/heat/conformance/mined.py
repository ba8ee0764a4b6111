"""Heat's mined fixture cases: witnesses of the Z3 edge-case miner (``proofs.miner``).

For each named situation of the miner (two corners in one move, a spin at the second
corner, a flip that reshuffles, the largest speed, ...) the first ``count`` witnesses are
replayed in heatcore, cross-checked against the encoding's prediction and written as cases
with ids ``mined.SITUATION.TRACK.N`` and sources ``mined:SITUATION:TRACK:N``.

Z3's answers depend on everything the process asked it before (the order terms were
created in steers its search), not only on its random seeds. So the miner always runs in
a fresh interpreter (``python -m heatcore.heat.conformance.mined``) that mines the
situations in their fixed order with the seeds pinned: same code and same Z3 version, same
witnesses, byte for byte.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from heatcore.framework.conformance.binding import JSON

#: Witnesses per situation.
PER_SITUATION = 3


def mine_cases(count: int = PER_SITUATION) -> list[JSON]:
    """Mine every situation in this process (call it in a fresh interpreter: see above)."""
    import z3

    from proofs.miner import SITUATIONS, mine
    from proofs.witness import case, cross_check, replay

    z3.set_param("smt.random_seed", 0)
    z3.set_param("sat.random_seed", 0)
    out: list[JSON] = []
    for sit in SITUATIONS:
        for number, scene in enumerate(mine(sit.id, count), start=1):
            run = replay(scene)
            problems = cross_check(scene, run)
            if problems:
                raise RuntimeError(f"miner witness {sit.id} #{number} on {scene.track}: "
                                   + "; ".join(problems))
            document = case(scene, run, number)
            document["id"] = f"mined.{sit.id}.{scene.track}.{number}"
            document["source"] = f"mined:{sit.id}:{scene.track}:{number}"
            document["description"] = document["description"].replace(
                "(Z3 witness)", f"(Z3 witness {number} of {sit.id})")
            out.append(document)
    return out


class MinedCases:
    """The miner running in a subprocess; :meth:`result` waits for its cases."""

    def __init__(self, count: int = PER_SITUATION) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="heatcore-mined-")
        self._path = Path(self._folder.name) / "mined.json"
        root = str(Path(__file__).resolve().parents[3])  # heatcore and proofs live here
        env = dict(os.environ, PYTHONHASHSEED="0",
                   PYTHONPATH=os.pathsep.join([root, *filter(None, [
                       os.environ.get("PYTHONPATH")])]))
        self._process = subprocess.Popen(
            [sys.executable, "-m", "heatcore.heat.conformance.mined", str(count),
             str(self._path)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            text=True)

    def cancel(self) -> None:
        """Stop the miner (when its cases are no longer wanted)."""
        if self._process.poll() is None:
            self._process.kill()
        self._process.communicate()
        self._folder.cleanup()

    def result(self) -> list[JSON]:
        """The mined cases (raises RuntimeError if the miner failed)."""
        try:
            _, err = self._process.communicate()
            if self._process.returncode != 0:
                raise RuntimeError(f"the miner failed (exit {self._process.returncode}):\n"
                                   f"{err[-2000:]}")
            cases: list[JSON] = json.loads(self._path.read_text(encoding="utf-8"))
            return cases
        finally:
            self._folder.cleanup()


def mined_cases(count: int = PER_SITUATION) -> list[JSON]:
    """The mined cases, from a fresh interpreter."""
    return MinedCases(count).result()


def main(argv: list[str]) -> int:
    """``python -m heatcore.heat.conformance.mined COUNT OUT``: write the cases to OUT."""
    count, out = int(argv[0]), Path(argv[1])
    out.write_text(json.dumps(mine_cases(count)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

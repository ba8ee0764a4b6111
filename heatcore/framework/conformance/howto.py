"""The appendix of ``spec/schemas/HOWTO.md``: every schema of the folder, verbatim.

``python -m heatcore.framework.conformance.howto`` rewrites the appendix (everything from its
heading
on) after a schema changes; ``tests/test_conformance.py`` checks it is up to date.
"""

from __future__ import annotations

from heatcore.framework.conformance.schema import schemas_dir
from heatcore.framework.files import write_atomic

APPENDIX = "## Appendix: the schemas, verbatim"


def appendix() -> str:
    """The appendix text, from its heading on."""
    out = [APPENDIX, "",
           "These are the files of `spec/schemas/` as they stand; the files are authoritative.",
           ""]
    for path in sorted(schemas_dir().glob("*.schema.json")):
        out += [f"### `{path.name}`", "", "```json", path.read_text(encoding="utf-8").rstrip(),
                "```", ""]
    return "\n".join(out)


def rewrite() -> bool:
    """Rewrite HOWTO.md's appendix; whether the file changed."""
    path = schemas_dir() / "HOWTO.md"
    text = path.read_text(encoding="utf-8")
    head = text.split(APPENDIX, 1)[0].rstrip() + "\n\n"
    new = head + appendix()
    if new != text:
        write_atomic(path, new)
        return True
    return False


if __name__ == "__main__":
    print("HOWTO.md " + ("rewritten" if rewrite() else "up to date"))

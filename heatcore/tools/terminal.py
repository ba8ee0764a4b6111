"""The play-by-play in colour on a terminal (rich), plain text when piped or redirected."""

from __future__ import annotations

import sys
from typing import TextIO

from rich.console import Console
from rich.highlighter import RegexHighlighter
from rich.theme import Theme

from heatcore.framework.terminal import is_terminal


class RaceHighlighter(RegexHighlighter):
    """Colours the play-by-play: cars, rounds, Heat paid, spins, finishes, standings."""

    base_style = "race."
    highlights = [  # noqa: RUF012 (rich's documented way to declare them)
        r"(?P<round>^Round \d+)",
        r"(?P<car>\bP[1-6]\b)",
        r"(?P<heat>\bheat [1-9]\d*\b|: \d+ heat\b)",
        r"(?P<spin>SPUN OUT|cluttered hand)",
        r"(?P<finish>FINISH(ED)?( #\d+)?|finished|Final ranking)",
        r"(?P<standings>standings:)",
        r"(?P<legend>^How to read it:|^Cards:|^heat H:|^Standings after each round:)",
    ]


THEME = Theme({
    "race.round": "bold cyan", "race.car": "bold", "race.heat": "red",
    "race.spin": "bold red", "race.finish": "bold green", "race.standings": "dim",
    "race.legend": "bold yellow",
})


def write_text(text: str, stream: TextIO | None = None) -> None:
    """Write ``text``: coloured by :class:`RaceHighlighter` on a terminal, else as is."""
    stream = stream or sys.stdout
    if not is_terminal(stream):
        stream.write(text)
        return
    console = Console(file=stream, theme=THEME, highlighter=RaceHighlighter(),
                      soft_wrap=True)
    for line in text.splitlines():
        console.print(line, markup=False, emoji=False)

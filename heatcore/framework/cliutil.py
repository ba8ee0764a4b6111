"""What every ``heatcore`` subcommand shares: its argument parser, the types of its
arguments, and how a bad input ends (one clear line on stderr, exit status 2). Nothing here
is about a game: the kit and the proof runner use it too."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

#: The exit status of a bad input (a usage error, a file that cannot be read or written).
BAD_INPUT = 2


class CommandError(Exception):
    """A bad input to a command: the message is printed as one line, the exit status is 2."""


def plain(text: str) -> str:
    """Help text without reStructuredText's literal markup (its pairs of double backticks)."""
    return text.replace("``", "")


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help text as written, without RST literal markup, each option's default appended
    (unless it is None or off, or the option is a switch)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = plain(action.help or "")
        default = action.default
        if ("%(default)" in text or default is None or default is False
                or default is argparse.SUPPRESS or not action.option_strings
                or action.nargs == 0):  # a switch: its help says what it turns on or off
            return text
        if isinstance(default, (tuple, list)) and not default:  # a list left empty: not "[]"
            return text if "(default:" in text else f"{text} (default: none)"
        return f"{text} (default: %(default)s)"


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (and a pointer to ``--help``)."""

    def __init__(self, prog: str | None = None, description: str | None = None,
                 **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        if description is not None:  # module docstrings serve as descriptions
            description = plain(description)
        super().__init__(prog=prog, description=description, **kwargs)

    def error(self, message: str) -> NoReturn:
        """Print ``PROG: MESSAGE (see PROG --help)`` on stderr and exit with status 2."""
        sys.stderr.write(f"{self.prog}: {message} (see {self.prog} --help)\n")
        raise SystemExit(BAD_INPUT)


def whole_number(minimum: int, refusal: str) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum``; ``refusal`` (with
    ``{text}`` for the input) is the message for a smaller one."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(refusal.format(text=text))
        return value

    return parse


positive = whole_number(1, "{text} is not a positive whole number")
"""A whole number of at least 1."""

nonnegative = whole_number(0, "{text} is negative")
"""A whole number of at least 0."""

seed = whole_number(0, "a seed is 0 or more, not {text}")
"""A seed: a whole number of at least 0 (a negative seed would play the same race as its
absolute value, so it is refused)."""


def writable_dir(path: Path) -> Path:
    """``path`` as a folder this process can write files into (created if missing);
    CommandError saying why not otherwise. Commands check this before long work."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=path, prefix=".heatcore-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as error:
        reason = error.strerror or str(error)
        raise CommandError(f"cannot write into {path}: {reason}") from None
    return path

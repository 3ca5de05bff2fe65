"""Argument types and the parser class the engine's command lines share: a count or a number
out of range, or any other bad flag, is one ``error:`` line (exit status 2), never a traceback
and never silently replaced by a default."""
from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from typing import NoReturn


class OneLineParser(argparse.ArgumentParser):
    """argparse with its errors as one line (the usage is a ``--help`` away)."""

    def error(self, message: str) -> NoReturn:
        print(f"error: {self.prog}: {message} (see --help)", file=sys.stderr)
        raise SystemExit(2)


def count(minimum: int) -> Callable[[str], int]:
    """A whole number of at least ``minimum``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is less than {minimum}")
        return value
    parse.__name__ = f"whole number >= {minimum}"
    return parse


def amount(minimum: float, above: bool = False) -> Callable[[str], float]:
    """A finite number of at least ``minimum`` (strictly more with ``above``)."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not math.isfinite(value) or value < minimum or (above and value == minimum):
            raise argparse.ArgumentTypeError(
                f"{text} is not a finite number {'above' if above else 'of at least'} {minimum:g}")
        return value
    parse.__name__ = "number"
    return parse

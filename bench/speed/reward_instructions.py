"""One fresh reward pass for Valgrind to count: instructions, which do not vary with the machine's load.

``bench reward`` times CPU seconds, and on a shared virtual machine the same pass of the same
code can take 1.2 s or 1.9 s from one repetition to the next: a 10 % change is lost in that. The
instructions a pass executes are the same on every run. This module builds the scorer and warms
its lexicons, empties the engine's text caches (``reward_side.text_caches``), then runs one
fresh pass inside a ctypes callback, so that Callgrind, told to count only inside libffi's
``ffi_call``, counts that pass and nothing of the set-up::

    valgrind --tool=callgrind --collect-atstart=no --toggle-collect='ffi_call*' \\
        --callgrind-out-file=/dev/null \\
        python -m bench.speed.reward_instructions --data ReXRank_IUXray_test.json --row api:radsem

Valgrind prints ``Collected : N`` (instructions). Run it in a checkout of each commit (``git
worktree add``) to compare two, side by side, with ``PYTHONHASHSEED=0`` set for both (string
hashes otherwise change the order sets are walked in); one tree's count still differs by about
0.15 % from run to run, so count each tree twice before reading a smaller difference. A pass takes
about 4 minutes under Valgrind. Without Valgrind
it runs the same pass and prints the error count, which is how the tests run it.
"""
from __future__ import annotations

import argparse
import ctypes
import sys

from bench.speed.reward_side import Side, text_caches


def counted_pass(side: Side, row: str) -> int:
    """Warm the row's scorer, empty the text caches, run one pass inside a C callback (what
    Callgrind counts): the rows' errors, as ``reward_side`` counts them."""
    run = side._pass(row)
    run()  # the first pass loads what a fresh pass keeps (lexicons, models), as bench reward's warm-up does
    for cache in text_caches():
        cache.cache_clear()
    errors: list[int] = []
    callback = ctypes.CFUNCTYPE(None)(lambda: errors.append(run()))
    callback()
    return errors[0]


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.speed.reward_instructions", description=__doc__.split("\n")[0])
    p.add_argument("--data", default="", help="ReXRank_IUXray_test.json (default: the example pairs)")
    p.add_argument("--pairs", type=int, default=590)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--row", default="api:radsem", help="a bench reward row (api:<metrics> or one:<metrics>)")
    args = p.parse_args(argv)
    side = Side(args.data, args.pairs, args.batch)
    print(f"{args.row}: {len(side.pairs)} pairs ({side.source}), {counted_pass(side, args.row)} errors")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

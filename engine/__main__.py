"""``python -m radscope.engine`` (and ``python -m engine`` in a checkout): the old spellings of
the ``radscope`` command, kept for one version with a one-line pointer; see engine.cli."""
import sys

from radscope.engine.cli import main

print(f"note: `python -m {__package__}` is now `radscope` (`python -m radscope` in a checkout); "
      "this spelling goes in the next version", file=sys.stderr)
sys.exit(main())

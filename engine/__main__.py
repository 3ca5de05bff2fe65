"""``python -m radscope.engine`` (and ``python -m engine`` in a checkout): the old spellings of
the ``radscope`` command, kept for one version with a one-line pointer; see engine.commands."""
import sys

from radscope.engine.commands import main

print(f"note: `python -m {__package__}` is now `radscope` (`python -m radscope` in a checkout); "
      "this spelling goes in the next version", file=sys.stderr)
sys.exit(main())

"""``python -m radscope``: the ``radscope`` command (see radscope.cli)."""
import sys

from radscope.cli import main

sys.exit(main())

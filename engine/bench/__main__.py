"""``python -m radscope.engine.bench``: see engine.bench.cli."""
import sys

from radscope.engine.bench.cli import main

sys.exit(main())

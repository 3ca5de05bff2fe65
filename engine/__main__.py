"""``python -m radscope.engine``: see engine.cli."""
import sys

from radscope.engine.cli import main

sys.exit(main())

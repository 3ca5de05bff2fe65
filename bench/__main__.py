"""``python -m bench``: see bench.commands."""
import sys

from bench.commands import main

sys.exit(main())

"""What every benchmark prints beside its figures: the machine it ran on, and the one message
for real data that is not there (the benchmark then skips, so ``make bench`` runs on a fresh clone).
"""
from __future__ import annotations

import os
import platform
from pathlib import Path
from typing import Any

from radscope.engine import __version__


def machine_info() -> dict[str, Any]:
    """Python, CPU count and RadScope version, for the report a benchmark writes."""
    return {"python": platform.python_version(), "machine": platform.machine(),
            "cpus": os.cpu_count(), "radscope": __version__, "platform": platform.platform()}


def missing(path: str | None, what: str) -> bool:
    """True (and says so) when the real data a benchmark reads is not at ``path``."""
    if path and Path(path).exists():
        return False
    print(f"{what}: data not found at {path!r}; skipping (give the path with --data; "
          "see ../shared/data/README.md for where it comes from)")
    return True

"""Every engine module imports on its own, first thing in a fresh interpreter.

An import cycle shows only when a module of the cycle is the first one imported (the reader and
the rules extractors borrow each other's lexicons, and one such cycle reached the tree once);
the suite imports modules in one order, so this checks each one as an entry point.
"""
from __future__ import annotations

import pkgutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from radscope import engine

ROOT = Path(__file__).resolve().parents[2]


def _engine_modules() -> list[str]:
    return sorted(info.name for info in pkgutil.walk_packages(engine.__path__, "radscope.engine.")
                  if not info.name.startswith("bench") and not info.name.endswith("__main__"))


def _import_alone(module: str) -> tuple[str, str]:
    done = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    return module, done.stderr.strip().splitlines()[-1] if done.returncode else ""


@pytest.mark.slow
def test_every_engine_module_imports_first() -> None:
    modules = _engine_modules()
    assert len(modules) > 50  # the walk found the tree
    with ThreadPoolExecutor(max_workers=4) as pool:
        failures = [f"{m}: {err}" for m, err in pool.map(_import_alone, modules) if err]
    assert not failures, "\n".join(failures)

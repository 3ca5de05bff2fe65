"""verl tests need verl, torch and Ray: they run in the verl environment (`make test-verl`, i.e.
.venv-verl/bin/python -m pytest tests/verl). Elsewhere this folder is left out of collection."""
import importlib.util

if any(importlib.util.find_spec(m) is None for m in ("verl", "torch", "ray")):
    collect_ignore_glob = ["test_*.py"]

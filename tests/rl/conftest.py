"""RL-trainer tests need TRL and torch: they run in the RL environment (`make test-rl`, i.e.
.venv-trl/bin/python -m pytest tests/rl). In the runtime environment (.venv, no torch) this
folder is skipped instead of failing to import."""
import importlib.util

if importlib.util.find_spec("trl") is None or importlib.util.find_spec("torch") is None:
    collect_ignore_glob = ["test_*.py"]

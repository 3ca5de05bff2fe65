"""Deprecated path of the reward file, kept for one version (0.1.x): trainer configs written for it
keep working. The file now lives at ``radscope/engine/rewards/file.py``; print its path with
``python -c "import radscope.engine.rewards.file as f; print(f.__file__)"`` and give that to verl
(``custom_reward_function.path``) or OpenRLHF. Loaded by path or imported, this file gives the
same functions, which live in an importable module (so Ray pickles them by name).
"""
import warnings

from radscope.engine.rewards.file import compute_score, reward_func, reward_scorer

warnings.warn("radscope/engine/reward_file.py moved to radscope/engine/rewards/file.py; the old path "
              "goes in the next version", DeprecationWarning, stacklevel=2)

__all__ = ["compute_score", "reward_func", "reward_scorer"]

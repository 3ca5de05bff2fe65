"""Scoring beyond one machine: a run's blocks scored by Ray Data actors (``ray_runner``), the
driver alone writing the store; Ray itself is optional (``make ray-env``, docs/ray.md)."""

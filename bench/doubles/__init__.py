"""Test doubles the benchmarks time the engine against (never used for scores)."""

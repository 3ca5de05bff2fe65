"""Benchmarks (figures, not pass/fail): SSREE monotonicity, speed; see ``bench.commands``."""

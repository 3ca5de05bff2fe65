"""Benchmarks (figures, not pass/fail): SSREE monotonicity, speed; see ``radscope.engine.bench.cli``."""

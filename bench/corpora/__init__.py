"""Corpora written for the benchmarks (reports, rewrites, planted errors) and readers of real ones."""

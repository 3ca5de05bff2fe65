"""Synthetic data and training scripts for the bundled demonstration encoders (export environment)."""

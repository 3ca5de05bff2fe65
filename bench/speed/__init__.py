"""Speed, scale and soak benchmarks: each times the product and prints a figure (never pass/fail)."""

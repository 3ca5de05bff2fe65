"""Quality benchmarks: each scores a corpus or real data and says how well a metric did."""

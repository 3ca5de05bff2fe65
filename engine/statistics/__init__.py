"""Corpus statistics, one module per bootstrap: ``mean_bca`` (BCa intervals over per-pair means, paired
comparisons, agreement with humans) and ``record_percentile`` (percentile intervals over the metrics'
typed per-pair records); ``inverted_p`` reads a paired comparison's p-value from its own interval.
Which metric has which record is declared on its spec (``MetricSpec.statistics``).
"""

"""The Compare tab: one pair, scored metric by metric."""

"""A finding's attributes, one module each: certainty (negation and uncertainty scope) and
polarity (what it means for the statement), place (side, site, level, position, gathered with the
matcher's other features), severity, size, and change over time."""

"""A finding's attributes, one module each: certainty (negation and hedging scope), place (side,
site, level and position), measures (size and change over time)."""

"""Which pairs a metric may score: the studies it was designed for (``applicability``) and whether it
can read the reports at all (``readable``).
"""

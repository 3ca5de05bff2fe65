"""The clinical reader: one offline, deterministic reading of a report pair behind every metric.

``read_report(text)`` gives a ``ReportReading`` (atomic findings with polarity and certainty,
laterality, sites, severity, size, change and device; comparisons with a prior study; the
sentences). ``read_pair(reference, candidate)`` gives a ``PairReading``: which findings are the
same (``links``, each naming its conflicts: laterality, site, severity, size, certainty,
polarity, character), which are only in one report, and which comparisons were kept, made or
dropped. Both are cached by text, so a run that shows five metrics reads each pair once.

The reader is built on the RadSEM and CLEAR rules (atomiser, sentence features, matcher,
negation scope, lexicons) and only calls their public functions; views over it live with the
metrics: ``crepe.rules`` (the six categories), ``srr.rules`` (leaf labels), ``vert.rules``
(errors and matched findings for GREEN / VERT).

The package imports nothing itself: ``choice`` (which reader a metric uses) is read whenever
the encoder metrics are registered, also where the rules' dependencies are not installed (the
export environment), so the reading modules load only when something reads.
"""

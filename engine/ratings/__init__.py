"""Checking a metric against radiologists' ratings: readers for rating files and the agreement
statistics, behind ``radscope agree`` (docs/agreement.md).

One job per module: ``table.py`` (a rating file read as rows of text, errors naming the file,
the line and the column), ``rated.py`` (``RatedPairs``: the pairs, one human rating each and its
direction, what every reader gives), the readers ``own.py`` (the user's own CSV / TSV / JSONL /
JSON of rated pairs), ``rexval.py`` (ReXVal, PhysioNet) and ``rate_eval.py`` (RaTE-Eval Task 2,
Hugging Face), ``agreement.py`` (scoring the rated pairs; Kendall tau-b and Spearman rho with
bootstrap CIs, per-category error-detection F1) and ``command.py`` (the command). No rating data
ships with RadScope.
"""

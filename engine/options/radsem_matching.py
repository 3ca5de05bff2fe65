"""The RadSEM rules matcher's option, apart from the matcher itself.

The metric's package registers it without importing the rules, which read reports through the
clinical reader (engine.reader), which in turn borrows RadSEM's lexicon names: keeping the option
here keeps that chain free of an import cycle.
"""
from __future__ import annotations

from radscope.engine.context import Option

# Token overlap measured best on SSREE dev (bench.quality.rules; figures in the lexicon README),
# so it is the default; "encoder" and "hybrid" stay selectable and are benchmarked beside it.
DEFAULT_SIMILARITY = "lexical"
SIMILARITY_OPTION = Option(
    "radsem_similarity", DEFAULT_SIMILARITY,
    "sentence similarity of the RadSEM rules matcher: lexical (token Dice), encoder (bundled "
    "MiniLM cosine) or hybrid (their mean)", choices=("lexical", "encoder", "hybrid"))

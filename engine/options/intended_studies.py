"""The option that scores a metric outside the studies it was designed for.

Declared by every metric with a limited scope (``radscope.engine.eligibility.applicability``), so the CLI gets
``--force-applicability`` and the app a checkbox among those metrics' options.
"""
from __future__ import annotations

from radscope.engine.context import Option

FORCE_APPLICABILITY = Option(
    "force_applicability", False,
    "score chest-radiograph metrics (CLEAR, CREPE, SRR-BERT) on studies outside their scope "
    "instead of marking them 'not applicable'", type=bool)

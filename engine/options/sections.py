"""The option that chooses which sections of the reports a metric scores.

By default each metric reads what its definition reads (``MetricCard.reads``: the findings and
the impression, or the findings alone for RadSEM); report-generation papers often evaluate one
section, so the findings or the impression alone can be chosen. Every metric that reads
sections declares it, so the CLI gets ``--sections`` and the app one control for all of them;
a choice other than the default is named in the metric's signature.
"""
from __future__ import annotations

from radscope.engine.context import Option

DEFAULT_SECTIONS = "default"
SECTION_CHOICES: dict[str, tuple[str, ...]] = {"findings": ("findings",),
                                               "impression": ("impression",)}
SECTIONS = Option(
    "sections", DEFAULT_SECTIONS,
    "sections to score: default (what each metric's definition reads: findings and impression; "
    "RadSEM findings only), findings (the findings only) or impression (the impression only)",
    choices=(DEFAULT_SECTIONS, *SECTION_CHOICES))


def chosen_parts(value: str, default: tuple[str, ...]) -> tuple[str, ...]:
    """The sections a metric reads under the option's ``value`` (its ``default`` when
    "default"); an unknown value is an error naming the choices."""
    if value in (DEFAULT_SECTIONS, None, ""):
        return default
    if value not in SECTION_CHOICES:
        raise ValueError(f"unknown sections {value!r}; choose from {', '.join(SECTIONS.choices or ())}")
    return SECTION_CHOICES[value]

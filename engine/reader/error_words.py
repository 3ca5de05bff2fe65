"""The words every view uses for an error and for what ran, defined once.

The overview, the Differences view, the metric panels (CREPE's A-F bars, VERT's error table),
the progress line, the card titles, the CLI and the exports import these names, so that one
error has one name wherever it is shown ("invented finding", not also "conflict" or "A False
prediction"). The words are a clinician's; ReXVal's six categories are also defined in a longer
form (``REXVAL_NAMES``) that the LLM judge is prompted with.

No imports, like ``kinds``: the cards and the CLI read it where the reader's dependencies are
absent.
"""
from __future__ import annotations

# Each error kind (``kinds.ERROR_KINDS``) as the views name it: one, several.
KIND_WORDS: dict[str, tuple[str, str]] = {
    "side": ("finding on the wrong side", "findings on the wrong side"),
    "site": ("finding at the wrong location", "findings at the wrong location"),
    "missed": ("missed finding", "missed findings"),
    "invented": ("invented finding", "invented findings"),
    "severity": ("wrong severity", "wrong severities"),
    "size": ("wrong size", "wrong sizes"),
    "change": ("wrong change over time", "wrong changes over time"),
    "certainty": ("finding hedged in one report only", "findings hedged in one report only"),
    "comparison": ("comparison with a prior study differs", "comparisons with a prior study differ"),
    "impression": ("error in the impression alone", "errors in the impression alone"),
}

# The six ReXVal / CREPE / VERT categories in a clinician's words (bars, tables, exports).
CATEGORY_WORDS: dict[str, str] = {
    "A": "invented finding",
    "B": "missed finding",
    "C": "wrong location or side",
    "D": "wrong severity or size",
    "E": "comparison not in the reference",
    "F": "comparison left out",
}

# ReXVal's six categories defined in our words (the papers' own names are not copied), as the LLM
# judge's prompt gives them beside CATEGORY_WORDS; tests/llm/test_prompts.py checks that the
# prompts as sent share no 9-word run with a paper.
REXVAL_NAMES: dict[str, str] = {
    "A": "Finding stated that the reference does not contain",
    "B": "Reference finding left out",
    "C": "Finding put at the wrong location or position",
    "D": "Finding given the wrong severity",
    "E": "Comparison with a prior study that the reference does not make",
    "F": "Change since a prior study that is left unsaid",
}
# The six categories' letters, in ReXVal's order: CREPE's count keys, the reader's error categories.
CATEGORY_LETTERS: tuple[str, ...] = tuple(REXVAL_NAMES)


def kind_words(kind: str, count: int = 1) -> str:
    """An error kind's name, singular for one, plural otherwise ("2 missed findings")."""
    one, several = KIND_WORDS.get(kind, (kind, kind))
    return one if count == 1 else several


def category_label(key: str) -> str:
    """A category with its letter, for bars and tables: "A invented finding"."""
    return f"{key.upper()} {CATEGORY_WORDS[key.upper()]}"


def error_name(kind: str, category: str) -> str:
    """The name of one error, the same in the overview's list and in Differences: its kind's
    words, and for a comparison which way it went (the category's words: E or F)."""
    if kind == "comparison" and category.upper() in ("E", "F"):
        return CATEGORY_WORDS[category.upper()]
    return kind_words(kind)


# What a title calls a rules extractor unless the metric's card names it (``MetricCard.rules_reader``).
RULES_READER = "rules reader"


def base_title(title: str) -> str:
    """A card title without what runs it: "VERT (LLM judge)" -> "VERT"."""
    head = title.rsplit(" (", 1)[0] if title.endswith(")") else title
    return head.strip() or title


def ran_title(title: str, rules_reader: str, kind: str | None, model: str | None = None) -> str:
    """A metric's display name from what runs (or ran) it, the one function every view and the
    CLI use: "VERT (rules judge)", "VERT (LLM judge: qwen2.5-7b)", "VERT (LLM judge)" before
    the judge is known, "CREPE (encoder: crepe-minilm-demo)"; the title unchanged for a metric
    with no extractor (``kind`` None). ``rules_reader`` is the card's word for its rules
    extractor (``MetricCard.rules_reader``)."""
    base = base_title(title)
    if kind == "rules":
        return f"{base} ({rules_reader})"
    if kind == "llm":
        return f"{base} (LLM judge: {model})" if model else f"{base} (LLM judge)"
    if kind == "encoder":
        return f"{base} (encoder: {model})" if model else f"{base} (encoder)"
    return title

"""Load the rules extractors' lexicons (JSON data files under engine/data/lexicons).

The lexicons are data, not code, so that a reviewer can read and change the clinical phrasing
without touching the matching logic; their content hash goes into every rules signature, so
two results computed with different lexicons are never compared silently.
"""
from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

LEXICON_DIR = Path(__file__).resolve().parents[1] / "data" / "lexicons"
RULES_VERSION = "rules-v3"


@cache
def load(name: str) -> dict[str, Any]:
    """One lexicon file (``cues``, ``clear_conditions``, ...) as parsed JSON."""
    path = LEXICON_DIR / f"{name}.json"
    with path.open(encoding="utf-8") as fh:
        return json.load(fh)


@cache
def lexicon_hash(*names: str) -> str:
    """First 12 hex digits of the SHA-256 over the named lexicon files (in the given order)."""
    digest = hashlib.sha256()
    for name in names:
        digest.update((LEXICON_DIR / f"{name}.json").read_bytes())
    return digest.hexdigest()[:12]


def word_regex(fragments: list[str] | tuple[str, ...], flags: int = re.IGNORECASE) -> re.Pattern[str]:
    """One alternation of lexicon fragments, each anchored on word boundaries.

    Longer fragments are tried first so that "no evidence of" wins over "no". A fragment that
    starts or ends with a non-word character (e.g. "?") gets no boundary on that side.
    """
    parts = []
    for fragment in sorted(set(fragments), key=len, reverse=True):
        left = r"\b" if re.match(r"[\w(\[]", fragment) else ""
        right = r"\b" if re.search(r"[\w)\]?*+]$", fragment) and not fragment.endswith("\\?") else ""
        parts.append(f"{left}(?:{fragment}){right}")
    return re.compile("|".join(parts) if parts else r"(?!x)x", flags)

"""Synonym / antonym triplets from real report sentences (validation spec §2), deterministic.

For a source sentence S the generator writes a meaning-preserving rewrite P (a real
paraphrase: "No X." <-> "X is not seen.", a verb or noun synonym, or moving a fronted
location phrase to the end) and a meaning-flipping rewrite F of one flip type:

- negation: the finding is denied instead of affirmed, or affirmed instead of denied;
- laterality: left and right are swapped;
- severity: mild / small / minimal <-> severe / large / marked (moderate -> severe);
- normal-abnormal: a normal statement becomes abnormal or the reverse.

F is a minimal edit of S on purpose: it shares almost every word with S, so a metric that only
counts shared words prefers it, and a metric that reads meaning must prefer P. A metric is
right on a triplet when score(S, P) beats score(S, F); ties are failures. Sentences are taken
in a fixed hash order, so the same data always gives the same triplets.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from radscope.engine.io.reports import findings_text, split_utterances

FLIP_TYPES = ("negation", "laterality", "severity", "normal-abnormal")
_WORD = r"[A-Za-z][\w-]*"


@dataclass(frozen=True)
class Triplet:
    source: str  # dataset the sentence came from
    flip_type: str
    original: str
    paraphrase: str
    flipped: str

    def to_json(self) -> dict[str, str]:
        return {"source": self.source, "flip_type": self.flip_type, "original": self.original,
                "paraphrase": self.paraphrase, "flipped": self.flipped}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Triplet:
        return cls(**{k: str(data[k]) for k in ("source", "flip_type", "original", "paraphrase",
                                                "flipped")})


def _case_like(word: str, template: str) -> str:
    return word[:1].upper() + word[1:] if template[:1].isupper() else word


def _swap(text: str, table: dict[str, str]) -> str:
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, table)) + r")\b", re.IGNORECASE)
    return pattern.sub(lambda m: _case_like(table[m.group(0).lower()], m.group(0)), text)


# --------------------------------------------------------------------------- paraphrases

_NO_X_RE = re.compile(r"^(?:there (?:is|are) )?no (?P<x>[^,;]+?)(?: (?:is|are) (?:seen|noted|present|identified))?\.?$",
                      re.IGNORECASE)
_X_NOT_SEEN_RE = re.compile(r"^(?P<x>[^,;]+?) (?P<be>is|are) not (?:seen|identified|present|noted)\.?$",
                            re.IGNORECASE)
_FRONTED_RE = re.compile(r"^(?P<loc>(?:in|within|at|on) the [^,]{3,40}), (?P<rest>.+?)\.?$", re.IGNORECASE)
_SYNONYMS = {"seen": "noted", "noted": "seen", "identified": "observed", "observed": "identified",
             "unremarkable": "normal", "demonstrated": "shown", "present": "seen",
             "opacity": "density", "opacities": "densities", "enlarged": "increased in size",
             "heart": "cardiac silhouette", "lungs": "lung fields", "evidence": "signs",
             "within normal limits": "normal", "measuring": "sized", "approximately": "about",
             "visualized": "seen", "appears": "is", "appear": "are", "shows": "demonstrates",
             "demonstrates": "shows"}


def paraphrase(sentence: str) -> str | None:
    """A meaning-preserving rewrite that differs from the sentence, or None."""
    s = sentence.strip()
    m = _NO_X_RE.match(s)
    if m and len(m.group("x").split()) <= 6:
        x = m.group("x").strip()
        be = "are" if x.lower().endswith("s") and not x.lower().endswith("sis") else "is"
        return f"{_case_like(x, 'X')} {be} not seen."
    m = _X_NOT_SEEN_RE.match(s)
    if m:
        return f"No {m.group('x')[:1].lower()}{m.group('x')[1:]} is seen."
    m = _FRONTED_RE.match(s)
    if m:
        rest = m.group("rest")
        return f"{rest[:1].upper()}{rest[1:]} {m.group('loc')[:1].lower()}{m.group('loc')[1:]}."
    for word, synonym in _SYNONYMS.items():
        pattern = re.compile(rf"\b{re.escape(word)}\b", re.IGNORECASE)
        found = pattern.search(s)
        if found:
            out = s[:found.start()] + _case_like(synonym, found.group(0)) + s[found.end():]
            if out != s:
                return out
    return None


# --------------------------------------------------------------------------- flips

_AFFIRM_RE = re.compile(r"\b(is|are)\s+(seen|noted|present|identified|observed|demonstrated)\b",
                        re.IGNORECASE)
_THERE_IS_RE = re.compile(r"^there (is|are) (?!no\b)", re.IGNORECASE)
_NEGATED_RE = re.compile(r"^(?:there (is|are) )?no\s+", re.IGNORECASE)
_VERB_AFTER_RE = re.compile(r"\b(?:is|are|was|were)\s+(?:seen|noted|present|identified|observed)\b",
                            re.IGNORECASE)
_NEG_SEVERITY = {"mild": "severe", "mildly": "severely", "small": "large", "minimal": "marked",
                 "slight": "marked", "slightly": "markedly", "tiny": "large", "trace": "large",
                 "severe": "mild", "severely": "mildly", "large": "small", "marked": "minimal",
                 "markedly": "slightly", "moderate": "severe", "moderately": "severely",
                 "massive": "small", "extensive": "minimal"}
_NORMAL_TO_ABNORMAL = [
    (r"\bare normal\b", "are abnormal"), (r"\bis normal\b", "is abnormal"),
    (r"\bis unremarkable\b", "is abnormal"), (r"\bare unremarkable\b", "are abnormal"),
    (r"\bwithin normal limits\b", "abnormal"), (r"\bare clear\b", "are opacified"),
    (r"\bis clear\b", "is opacified"), (r"\bis not enlarged\b", "is enlarged"),
    (r"\bare not enlarged\b", "are enlarged"), (r"\bnormal\b", "abnormal"),
    (r"\bis patent\b", "is occluded"), (r"\bare patent\b", "are occluded"),
    (r"\bis intact\b", "is disrupted"), (r"\bare intact\b", "are disrupted"),
    (r"\bis enlarged\b", "is normal in size"), (r"\bare enlarged\b", "are normal in size"),
]


_ANY_NEGATION_RE = re.compile(r"\b(?:no|not|without|neither|nor|none)\b", re.IGNORECASE)
_PSEUDO_RE = re.compile(r"^no (?:interval |significant )?change\b", re.IGNORECASE)


def _flip_negation(s: str, opening: re.Match[str] | None, mixed: bool) -> str | None:
    """Deny an affirmed finding or affirm a denied one."""
    if mixed:
        return None
    if opening:
        rest = s[opening.end():]
        if _VERB_AFTER_RE.search(rest):
            return f"{rest[:1].upper()}{rest[1:]}"
        if opening.group(1):
            return f"There {opening.group(1)} {rest}"
        return f"{rest[:1].upper()}{rest[1:].rstrip('.')} is present."
    if _AFFIRM_RE.search(s):
        return _AFFIRM_RE.sub(lambda m: f"{m.group(1)} not {m.group(2)}", s, count=1)
    if _THERE_IS_RE.match(s):
        out = _THERE_IS_RE.sub(lambda m: f"There {m.group(1)} no ", s, count=1)
        return re.sub(r"\bno (?:a|an|the)\s+", "no ", out, count=1, flags=re.IGNORECASE)
    return None


def _flip_laterality(s: str) -> str | None:
    """Left for right, in a sentence that names one side only."""
    if not re.search(r"\b(left|right)\b", s, re.IGNORECASE) or \
            re.search(r"\bleft\b.*\bright\b|\bright\b.*\bleft\b|bilateral|both", s, re.IGNORECASE):
        return None
    return _swap(s, {"left": "right", "right": "left"})


def _flip_severity(s: str, negated_start: bool, mixed: bool) -> str | None:
    """A severity word for its opposite, in an affirmed sentence."""
    if negated_start or mixed or not re.search(r"\b(" + "|".join(_NEG_SEVERITY) + r")\b",
                                                 s, re.IGNORECASE):
        return None
    return _swap(s, _NEG_SEVERITY)


def _flip_normal_abnormal(s: str, negated_start: bool) -> str | None:
    """The first normal statement made abnormal (or an enlargement made normal)."""
    if negated_start:
        return None
    for pattern, replacement in _NORMAL_TO_ABNORMAL:
        out = re.sub(pattern, replacement, s, count=1, flags=re.IGNORECASE)
        if out != s:
            return out
    return None


def flip(sentence: str, flip_type: str) -> str | None:
    """The minimal meaning-flipping edit of one type, or None when it does not apply.

    Sentences that mix affirmed and denied findings are only used for the laterality flip,
    where a mixed sentence still flips cleanly; elsewhere the edit would be ambiguous.
    """
    s = sentence.strip()
    if _PSEUDO_RE.match(s):
        return None
    opening = _NEGATED_RE.match(s)
    negated_start = bool(opening)
    mixed = bool(_ANY_NEGATION_RE.search(s[opening.end():] if opening else s))
    if flip_type == "negation":
        return _flip_negation(s, opening, mixed)
    if flip_type == "laterality":
        return _flip_laterality(s)
    if flip_type == "severity":
        return _flip_severity(s, negated_start, mixed)
    if flip_type == "normal-abnormal":
        return _flip_normal_abnormal(s, negated_start)
    raise ValueError(f"unknown flip type {flip_type!r}")


# --------------------------------------------------------------------------- sources


def iu_sentences(path: str | Path) -> list[str]:
    """Findings sentences of the IU X-ray test split (anonymised "XXXX" sentences skipped)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    out: list[str] = []
    for record in data.values():
        text = record.get("section_findings") or findings_text(record.get("report") or "")
        out.extend(s for s in split_utterances(text) if "XXXX" not in s)
    return out


def ssree_sentences(path: str | Path) -> list[str]:
    out = []
    with Path(path).open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                out.extend(split_utterances(json.loads(line)["reference"]))
    return out


def _hash_order(sentences: Iterable[str]) -> list[str]:
    unique = sorted(set(s.strip() for s in sentences if 3 <= len(s.split()) <= 40))
    return sorted(unique, key=lambda s: hashlib.sha1(s.encode("utf-8")).hexdigest())


def build_triplets(sources: dict[str, list[str]], per_type: int = 100) -> list[Triplet]:
    """Up to ``per_type`` triplets per flip type and source, in hash order."""
    out = []
    for source, sentences in sources.items():
        ordered = _hash_order(sentences)
        for flip_type in FLIP_TYPES:
            count = 0
            for sentence in ordered:
                if count >= per_type:
                    break
                para, flipped = paraphrase(sentence), flip(sentence, flip_type)
                if not para or not flipped or sentence in (para, flipped) or para == flipped:
                    continue
                out.append(Triplet(source, flip_type, sentence, para, flipped))
                count += 1
    return out


Scorer = Callable[[list[tuple[str, str]]], list[float | None]]


def triplet_accuracy(triplets: list[Triplet], scorer: Scorer, higher_is_better: bool = True
                     ) -> dict[str, Any]:
    """Accuracy overall, per flip type and per source (percent; ties and errors are failures),
    and the triplets missed with both scores (so a miss can be read, not just counted)."""
    pairs = [(t.original, t.paraphrase) for t in triplets] + [(t.original, t.flipped) for t in triplets]
    scores = scorer(pairs)
    n = len(triplets)
    right = []
    for i in range(n):
        para, flipped = scores[i], scores[n + i]
        ok = para is not None and flipped is not None and (
            para > flipped if higher_is_better else para < flipped)
        right.append(ok)

    def pct(mask: list[bool]) -> float | None:
        chosen = [r for r, m in zip(right, mask, strict=True) if m]
        return round(100.0 * sum(chosen) / len(chosen), 2) if chosen else None

    misses = [{**t.to_json(), "score_paraphrase": scores[i], "score_flipped": scores[n + i]}
              for i, t in enumerate(triplets) if not right[i]]
    return {"overall": pct([True] * n), "n": n,
            "by_flip_type": {f: pct([t.flip_type == f for t in triplets]) for f in FLIP_TYPES},
            "n_by_flip_type": {f: sum(t.flip_type == f for t in triplets) for f in FLIP_TYPES},
            "by_source": {s: pct([t.source == s for t in triplets])
                          for s in sorted({t.source for t in triplets})},
            "misses": misses}

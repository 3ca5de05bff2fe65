"""The words radiologists write, read as the lexicons know them: one pass over each sentence
before anything reads it.

Three rewrites, each data in ``wording.json`` (its hash is in every rules signature):

- **abbreviations** written out ("PTX" -> "pneumothorax", "LUL" -> "left upper lobe", "b/l" ->
  "bilateral"); two-letter ones only when written in capitals ("LV", "IJ");
- **British spellings** in their American form ("oedema", "haemorrhage", "tumour", "localised");
- **denials written one way** ("non-dilated" -> "not enlarged", "not uniform" -> "heterogeneous",
  "not well visualized" -> "not clearly visible"): the cue rules then read the same denial for
  every metric (these were RadSEM's canonical rewrites, unseen by CLEAR and SRR-BERT). One such
  rewrite stays in ``radsem.json``: "shows no enhancement" -> "nonenhancement" swallows its verb,
  which the matcher's tokens need and a sentence shown to a person must not lose;
- **changes told against the prior study** written as the change they are ("increased since
  the prior study" -> "has increased since the prior study", "smaller than on the previous
  exam" -> "has decreased ..."): the prior study is context and is removed later, the change
  must stay readable;
- **telegraphic labels** read as the subject ("Lungs: clear." -> "Lungs clear.");
- **lobes named from their lung** in the one form the site lists read ("the upper and lower
  lobes of the right lung" -> "the right upper lobe and right lower lobe"), so that one statement
  over several lobes is one statement per lobe, as a report written lobe by lobe says it;
- **ALL CAPS** read as text: a sentence without a lower-case letter is lower-cased (after its
  abbreviations are written out), so "NO MIDLINE SHIFT" reads as "No midline shift".

``reader_utterances`` is the one door every rules reader goes through, once per report section
(``report_text.read_text``: for the atomiser, the comparisons, CLEAR's and SRR's clauses): the sentences of a text as ``split_utterances`` cuts
them, each rewritten. Model-based extractors read the text as written.
"""
from __future__ import annotations

import functools
import re

from radscope.engine.io.reports import split_utterances
from radscope.engine.reader.vocabulary.loader import load

_LOWER_RE = re.compile(r"[a-z]")
_WORDS_RE = re.compile(r"[A-Za-z]{2,}")


@functools.lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern[str], dict[str, str], re.Pattern[str], dict[str, str],
                         tuple[tuple[re.Pattern[str], str], ...]]:
    """Abbreviations (any case, capitals only) and the word rewrites: British spellings, then the
    phrases whose wording decides a denial, then changes told against the prior study, then
    telegraphic labels, then lobes named from their lung."""
    data = load("wording")
    any_case: dict[str, str] = data["abbreviations"]["any_case"]
    upper: dict[str, str] = data["abbreviations"]["upper_only"]

    def tokens(words: list[str], flags: int) -> re.Pattern[str]:
        ordered = sorted(words, key=lambda w: (-len(w), w))
        return re.compile(r"(?<![\w/])(?:" + "|".join(map(re.escape, ordered)) + r")(?![\w/])", flags)

    british = tuple((re.compile(rf"\b{fragment}", re.IGNORECASE), american)
                    for fragment, american in data["british"])
    phrases = tuple((re.compile(rf"\b(?:{phrase})\b", re.IGNORECASE), written)
                    for phrase, written in [*data["negation"], *data["change"], *data["labels"],
                                            *data["lobes"]])
    return (tokens(list(any_case), re.IGNORECASE), any_case, tokens(list(upper), 0), upper,
            british + phrases)


@functools.lru_cache(maxsize=1)
def _any_rewrite() -> re.Pattern[str]:
    """One search for every word rewrite at once: most sentences hold none, and then the
    rewrites (one pattern each, applied in order) need not run."""
    return re.compile("|".join(f"(?:{pattern.pattern})" for pattern, _ in _patterns()[4]),
                      re.IGNORECASE)


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def _at_start(m: re.Match[str], expansion: str) -> str:
    return _capitalised(expansion) if m.start() == 0 else expansion


@functools.lru_cache(maxsize=50000)  # per sentence: reports repeat theirs
def normalise(sentence: str) -> str:
    """One sentence in the words the lexicons read (see the module docstring)."""
    any_case, any_map, upper, upper_map, rewrites = _patterns()
    shouting = not _LOWER_RE.search(sentence) and len(_WORDS_RE.findall(sentence)) >= 2
    # An abbreviation is written in capitals wherever it stands: only at the sentence's start
    # does its expansion take one ("PTX is seen" -> "Pneumothorax is seen").
    text = upper.sub(lambda m: _at_start(m, upper_map[m.group(0)]), sentence)
    text = any_case.sub(lambda m: _at_start(m, any_map[m.group(0).lower()]), text)
    if shouting:
        text = _capitalised(text.lower())
    if _any_rewrite().search(text):
        for pattern, written in rewrites:
            text = pattern.sub(functools.partial(_as_written, written), text)
    return text


def _as_written(replacement: str, m: re.Match[str]) -> str:
    """The replacement (its groups filled in), with a capital where the words it replaces had one."""
    written = m.expand(replacement)
    return _capitalised(written) if m.group(0)[:1].isupper() else written


def reader_utterances(text: str) -> tuple[str, ...]:
    """The sentences of ``text`` (``split_utterances``), each ``normalise``d."""
    return tuple(normalise(u) for whole in split_utterances(text) for u in _label_each_denial(whole))


_LABEL_RE = re.compile(r"^([A-Za-z][A-Za-z /,&-]{1,40}):\s+(?=[a-z0-9])")
_DENIAL_PIECE_RE = re.compile(r"^(?:no|without)\b", re.IGNORECASE)


# what a part after a semicolon may say of the first part's subject without naming one:
# "Left distal radius: plate and screws; good position; no loosening"
_DESCRIPTION_PIECE_RE = re.compile(
    r"(?:good|satisfactory|acceptable|adequate|normal|anatomic(?:al)?|expected) (?:position(?:ing)?|alignment)"
    r"|well[- ](?:positioned|aligned|seated)|in (?:good|satisfactory|normal) position", re.IGNORECASE)


# What may go wrong with a device (the atomiser cuts its denial off the device: ``atoms``).
COMPLICATION = r"(?:loosening|loosened|breakage|broken|fractures?|migration|displacement|subsidence|complications?)"
# a part that only denies what may go wrong: "Right femur: nail and screws; no loosening or breakage"
_COMPLICATION_PIECE_RE = re.compile(
    rf"(?:no|without)\s+(?:(?:evidence|signs?)\s+of\s+|(?:obvious|definite|significant|apparent)\s+)*"
    rf"{COMPLICATION}(?:\s*(?:,\s*|,?\s*or\s+|,?\s*and\s+){COMPLICATION})*", re.IGNORECASE)


# how the first part's device sits, what may go wrong with it denied, or both ("good position, no
# loosening or breakage")
_DEVICE_PIECE_RE = re.compile(
    rf"(?:{_DESCRIPTION_PIECE_RE.pattern})(?:\s*,\s*(?:{_COMPLICATION_PIECE_RE.pattern}))?"
    rf"|{_COMPLICATION_PIECE_RE.pattern}", re.IGNORECASE)


def _label_each_denial(utterance: str) -> list[str]:
    """"Hardware: good position; no loosening or breakage" -> the label before each part:
    a denial after the semicolon denies it of the label, as "the hardware ... with no loosening"
    does; a part that only says where or how well the first part's subject sits ("good
    position"), or denies only what may go wrong with it ("Right clavicle: plate and screws; no
    loosening or breakage": the plate's loosening, not the clavicle's), goes on describing it."""
    label = _LABEL_RE.match(utterance)
    if not label or ";" not in utterance:
        return [utterance]
    first, *rest = (p.strip() for p in utterance.split(";"))
    described = [p for p in rest if p and _DEVICE_PIECE_RE.fullmatch(p.rstrip(". "))]
    others = [p for p in rest if p and p not in described]
    if _names_site(label.group(1)):
        # "Liver: normal size; smooth contour; no focal lesion": each part naming no site of its
        # own is said of the label's
        others = [p if _names_site(p) else f"{label.group(1)}: {p}" for p in others]
    elif not described and not all(_DENIAL_PIECE_RE.match(p) for p in others):
        return [utterance]
    elif all(_DENIAL_PIECE_RE.match(p) for p in others):
        others = [f"{label.group(1)}: {p}" for p in others]
    return [", ".join([first.rstrip(". "), *described]), *others]


def _names_site(text: str) -> bool:
    """Whether the text names a site the reader knows (the anatomy lexicon, read on first use:
    this module comes before it, and only a labelled line with parts asks)."""
    from radscope.engine.reader.text.anatomy import canonical_text, site_mentions

    canon = canonical_text(text)
    return any(pattern.search(canon) for _, pattern in site_mentions(canon))

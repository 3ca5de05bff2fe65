"""Can a metric read this report at all? A per-pair check that runs before any scoring.

A report that is empty once invisible characters are removed, that holds no words, or that is
in a language the metric's reader does not know would still get a confident number (CLEAR 1.0
on two Chinese reports: both "mention nothing"; BLEU 0.18 on two identical ones). Such a pair
gets the error ``cannot read: <reason>`` instead, counted apart from other errors in summaries.

Each metric's reader knows some languages, which the metric declares (``Metric.reader_languages``;
for an extractor metric, by its extractor's kind: ``radscope.engine.metrics.framework.extraction.READER_LANGUAGES``):

- ``english``: rules extractors (English lexicons) and encoder models (the project's demo
  models and the published CREPE / SRR-BERT weights, all trained on English reports);
- ``latin``: word-overlap metrics (a ``tok:`` field: BLEU, ROUGE-L), which split words on
  spaces and keep only Latin letters, so any language in the Latin alphabet but not Chinese,
  Japanese, Cyrillic ... text;
- ``any``: LLM judges.

How the language is told (no model, no dependency): a report is *not English* when

1. under 90 % of its letters are ASCII (Chinese, Japanese, Cyrillic, Greek, Arabic ... text), or
2. among its words, the ones that only another Latin-script language would use (French,
   Spanish, German, Italian and Portuguese function words, French radiology words, words with
   accented letters, French elisions such as ``d'``) outnumber the English function and
   radiology words, and there are at least two of them (or no English word at all).

Short or telegraphic English ("Lungs clear. Heart normal.") carries enough English words;
unknown words count for neither side, so a report of only drug names or abbreviations is given
the benefit of the doubt. ``python -m bench language`` measures how often this is wrong.

The not-a-report rule (docs/security.md, "Pairs without findings"), the same for every metric
that reads findings (CLEAR, CREPE, VERT, SRR-BERT, RadSEM: reader languages ``english`` and
``any``; the word-overlap metrics compare wording, not findings, and keep their numbers):

a text none of whose sentences states something about a patient (``radscope.engine.eligibility.statements``:
"Ok.", "NaN", "See prior report.", "I like turtles.", a refusal, a question, an instruction,
keyboard mash) cannot be read: ``cannot read: <side> report makes no statement about a patient:
<what its sentences are>``. A report that states only normal findings ("No acute disease.", "Heart size normal. Lungs
clear.") is a report: each metric scores it by its own definition (RadSEM and SRR-BERT compare
the normal statements themselves, CLEAR the presence of its 13 conditions), as the papers'
reference code does. A report in which the rules reader reads no finding statement at all is
refused as well (``NO_FINDING``), since every metric would score it against its own copy as a
disagreement (a one-word verdict such as "Unremarkable." is read as one normal finding, so it is
not such a text).

This is decided by the English rules reader (``radscope.engine.reader``); a report it cannot read as
English (an LLM judge's non-English pair) is left to the judge.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from radscope.engine.eligibility.statements import not_a_report
from radscope.engine.io.reports import ReportPair

# What a metric's reader can read (see the module docstring); each metric declares its own.
ReaderLanguages = Literal["english", "latin", "any"]

CANNOT_READ = "cannot read: "
NO_FINDING = ("states something, but the rules reader reads no finding statement in it (nothing a "
              "finding metric can compare)")
FINDING_READERS = ("english", "any")  # the reader languages of the metrics that read findings (the module doc)
ASCII_SHARE_MIN = 0.9
READER_LANGUAGE_SETS = ("english", "latin", "any")

_WORD_RE = re.compile(r"[^\W\d_]{2,}")  # a run of two or more letters, any script
_ELISION_RE = re.compile(r"\b(?:[dlnjcsm]|qu)['’][^\W\d_]", re.IGNORECASE)
# In ASCII text the visible characters are exactly "!" to "~" (every other one is a space or a
# control character): one search instead of a Unicode look-up per character.
_ASCII_VISIBLE_RE = re.compile(r"[!-~]")

ENGLISH_WORDS = frozenset("""
the of and is are was were be been being has have had with without no not nor there this that
these those which who what when where than then to for from at by or as within into onto upon
its it they their them again also only any some both each other more most less least very
lung lungs heart size clear chest left right upper lower mild small large new old seen
unchanged stable since prior compared previous study shows shown appears evidence findings
impression silhouette mediastinal contour contours within limits well no noted likely
possible probable suggest suggests consistent change changes increased decreased
effusion effusions opacity opacities airspace disease bones soft tissues tissue bone visible
acute chronic degenerative spine thoracic abdomen bowel kidney liver wall mass lesion
""".split())

# Words that an English report would not use but another Latin-script language would.
FOREIGN_WORDS = frozenset("""
de le la les des du un une et est sont pas sans avec dans sur au aux pour qui que ou il elle
ce cette ces mais ni leur nous vous aucun aucune
poumon poumons coeur cœur taille gauche droit droite droits droites examen normale normaux
normales signe signes anomalie anomalies foie rein reins kyste
el los las del es con sin por una uno lo pulmón pulmones derecho derecha izquierdo izquierda
hallazgos sugestivo
der das und ist nicht kein keine mit ohne ein eine einer von zu auf bei rechts befund
di della delle dei degli nel nella senza polmone polmoni destro sinistro
da dos com sem não pulmão
""".split()) - ENGLISH_WORDS


@dataclass(frozen=True)
class LanguageGuess:
    """Whether a text reads as English, with the evidence in words."""

    english: bool
    reason: str


def visible_text(text: str) -> str:
    """The text without whitespace, control and format characters (zero-width space, BOM,
    soft hyphen, direction marks...), which look like nothing on screen."""
    return "".join(ch for ch in text if not ch.isspace()
                   and unicodedata.category(ch) not in ("Cf", "Cc", "Zs", "Zl", "Zp"))


def words(text: str) -> list[str]:
    """Runs of two or more letters (any script), lower-cased."""
    return [w.lower() for w in _WORD_RE.findall(unicodedata.normalize("NFC", text))]


def other_script(text: str) -> str | None:
    """Why the text is not written in the Latin alphabet (None when it is)."""
    if text.isascii():  # every letter is Latin: the count below would find 100 %
        return None
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return None
    ascii_share = sum(ch.isascii() for ch in letters) / len(letters)
    if ascii_share >= ASCII_SHARE_MIN:
        return None
    sample = next(ch for ch in letters if not ch.isascii())
    return f"{100 * (1 - ascii_share):.0f}% of its letters are not in the Latin alphabet (e.g. {sample!r})"


@lru_cache(maxsize=4096)  # per text: every finding metric of a run asks it of the same texts
def guess_language(text: str) -> LanguageGuess:
    """English or not, by the rules in the module docstring."""
    script = other_script(text)
    if script:
        return LanguageGuess(False, script)
    found = words(text)
    english = sum(1 for w in found if w in ENGLISH_WORDS)
    foreign = sum(1 for w in found if w in FOREIGN_WORDS or not w.isascii())
    foreign += len(_ELISION_RE.findall(text))
    if foreign > english and (foreign >= 2 or english == 0):
        return LanguageGuess(False, f"{foreign} of its words look French, Spanish, German, "
                                    f"Italian or Portuguese, against {english} English ones")
    return LanguageGuess(True, f"{english} English words, {foreign} foreign ones")


def unreadable_reason(text: str, languages: str = "any") -> str | None:
    """Why a report cannot be read by a reader that knows these languages (None when it can)."""
    if languages not in READER_LANGUAGE_SETS:
        raise ValueError(f"unknown reader languages {languages!r}; one of {READER_LANGUAGE_SETS}")
    if not (_ASCII_VISIBLE_RE.search(text) if text.isascii() else visible_text(text)):
        return "empty once spaces and invisible characters are removed"
    if not words(text):
        return "no words (only punctuation, digits or symbols)"
    if languages == "english":
        guess = guess_language(text)
        if not guess.english:
            return f"not English ({guess.reason}); this reader knows only English"
    if languages == "latin":
        script = other_script(text)
        if script:
            return f"not in the Latin alphabet ({script}); this reader splits words on spaces"
    return None


# Every metric of a run checks the same texts (and a reference recurs across its candidates):
# each text is read once per set of reader languages.
_text_unreadable = lru_cache(maxsize=4096)(unreadable_reason)


def pair_unreadable(pair: ReportPair, languages: str = "any") -> str | None:
    """``cannot read: ...`` for the first side that cannot be read, or None."""
    for side in ("reference", "candidate"):
        reason = _text_unreadable(getattr(pair, side), languages)
        if reason:
            return f"{CANNOT_READ}{side} report is {reason}" if reason.startswith("empty") \
                else f"{CANNOT_READ}{side} report: {reason}"
    return None


def no_finding(pair: ReportPair) -> str | None:
    """``cannot read: <side> report …`` for a finding metric (the module doc): a text that is
    not a report, or one in which the reader finds nothing to compare; None when both sides can
    be compared or a side is not English (the English reader cannot tell: an LLM judge decides)."""
    for side in ("reference", "candidate"):
        text = getattr(pair, side)
        if not guess_language(text).english:
            continue
        reason = not_a_report(text)
        if reason:
            return f"{CANNOT_READ}{side} report {reason}"
        if finding_counts(text) == (0, 0):
            return f"{CANNOT_READ}{side} report {NO_FINDING}"
    return None


@lru_cache(maxsize=4096)
def finding_counts(text: str) -> tuple[int, int]:
    """(normal, other) finding statements the rules reader finds in an English ``text``; a
    comparison with a prior study counts as other. Once per text: every finding metric of a
    run asks it of the same texts."""
    from radscope.engine.reader.findings import read_report  # the reader loads lexicons: only when asked

    reading = read_report(text)
    normal = sum(1 for f in reading.findings if f.normal)
    return normal, len(reading.findings) - normal + len(reading.comparisons)


def is_cannot_read(error: str | None) -> bool:
    return bool(error) and str(error).startswith(CANNOT_READ)



def finding_rule(pairs: Sequence[ReportPair], languages: str) -> list[str | ReportPair]:
    """The no-finding rule for a finding metric's pairs (the module doc), in the process that
    scores them (its reading is cached there for the metric's own reader): per pair, the
    ``cannot read`` error, or the pair to score."""
    if languages not in FINDING_READERS:
        return list(pairs)
    return [no_finding(p) or p for p in pairs]

"""A finding's polarity, the reader's one three-state certainty of a statement: "negative" for
a denial ("no effusion"), "uncertain" for a hedge ("possible nodule", "probable pneumonia"),
"positive" otherwise.

The scope of each cue comes from ``certainty``; this module decides what it means for the whole
statement. Only an uncertainty cue makes a mention uncertain, and the words of ``reader.json``
``hedges`` ("probable", "likely") hedge the statement for the reader although a presence label
reads it as present (IU X-ray's MeSH coders do).
"""
from __future__ import annotations

import re

from radscope.engine.reader.attributes.certainty import (
    NEGATIVE,
    POSITIVE,
    UNCERTAIN,
    Status,
)
from radscope.engine.reader.attributes.place import NORMAL, SentenceFeatures, stem
from radscope.engine.reader.attributes.severity import asserted_words
from radscope.engine.reader.text.anatomy import anatomy_lexicon
from radscope.engine.reader.vocabulary.reader_words import reader_lexicon

WORD_RE = re.compile(r"[a-z][a-z'-]+")


def _hedged(feats: SentenceFeatures) -> bool:
    """An abnormality or an asserted finding word under an uncertainty cue, or a hedge word."""
    canon, scope = feats.canon, feats.scope
    hedged = any(c.kind == "unc" for c in scope.cues) and (any(
        scope.status(*m.span()) == UNCERTAIN
        for m in anatomy_lexicon().abnormal.finditer(canon)) or any(
        scope.status(*m.span()) == UNCERTAIN for m in WORD_RE.finditer(canon)
        if stem(m.group(0)) in feats.asserted))
    return hedged or (feats.normality != NORMAL and bool(asserted_words(reader_lexicon().hedges, canon, scope)))


def polarity(feats: SentenceFeatures) -> Status:
    """Negative for a normal statement that denies something, uncertain when hedged, else positive."""
    if feats.normality == NORMAL and feats.negated:
        return NEGATIVE
    return UNCERTAIN if _hedged(feats) else POSITIVE

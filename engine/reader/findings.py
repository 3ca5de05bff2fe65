"""One report read once: its atomic findings with their attributes, and its comparisons.

Findings come from the RadSEM rules (``atomize.atomize`` cuts the Findings section into
atomic sentences, ``sentence_features.sentence_features`` reads each one); this module adds the
attributes the error categories need (polarity and certainty, severity, size, change, device)
and reads, sentence by sentence over FINDINGS + IMPRESSION, the statements made against a
prior study. Atomisation removes prior-study wording from the findings, which is why
comparisons are read from the untouched sentences.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from radscope.engine.reader.attributes.certainty import Status
from radscope.engine.reader.attributes.change import change_over_time
from radscope.engine.reader.attributes.place import (
    ABNORMAL,
    NORMAL,
    STOPWORDS,
    SentenceFeatures,
    sentence_features,
    stem,
)
from radscope.engine.reader.attributes.polarity import WORD_RE, polarity
from radscope.engine.reader.attributes.severity import severity
from radscope.engine.reader.attributes.size import size_spans
from radscope.engine.reader.text.anatomy import anatomy_lexicon, canonical_text, said_of_the_finding_before
from radscope.engine.reader.text.atoms import atomize_kept_parts, atoms_by_line
from radscope.engine.reader.text.labelled_lines import MR_SEQUENCE
from radscope.engine.reader.text.report_text import read_text
from radscope.engine.reader.vocabulary.reader_words import reader_lexicon

_NO_PRIOR_RE = re.compile(r"\b(?:no|without) (?:prior|previous|earlier|comparison)\b")
_NO_NEW_RE = re.compile(r"\b(?:no|without) (?:\w+ )?new\b")  # "no new consolidation": a denial


@dataclass(frozen=True)
class Finding:
    """One atomic statement of a report.

    ``normal`` statements describe normal anatomy or deny an abnormality ("no effusion");
    ``polarity`` is the reader's one three-state ``Status``: "negative" for a denial,
    "uncertain" for a hedge ("possible nodule"), "positive" otherwise. ``concepts`` are the stemmed finding words it asserts (what it is
    about, without site or side), ``denied`` the ones it negates.
    """

    text: str
    polarity: Status
    laterality: tuple[str, ...]
    sites: tuple[str, ...]
    severity: str | None  # mild | moderate | severe (CLEAR's classes)
    size: tuple[str, ...]  # measurements as written ("3 x 2 cm")
    change: str | None  # new | increased | decreased | resolved | unchanged (``attributes.change``)
    device: bool
    concepts: tuple[str, ...]
    denied: tuple[str, ...]
    features: SentenceFeatures = field(repr=False, compare=False)

    @property
    def normal(self) -> bool:
        """Stored once, as the sentence's ``features.normality``."""
        return self.features.normality == NORMAL

    @property
    def abnormal(self) -> bool:
        return not self.normal

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "polarity": self.polarity, "normal": self.normal,
                "laterality": list(self.laterality), "sites": list(self.sites),
                "severity": self.severity, "size": list(self.size), "change": self.change,
                "device": self.device, "concepts": list(self.concepts)}


@dataclass(frozen=True)
class Comparison:
    """A statement made against a prior study ("increased compared with the prior study")."""

    text: str
    change: str  # a class of reader.json's "change"
    topic: frozenset[str]  # stemmed content words (the previous sentence's when it has none)

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "change": self.change, "topic": sorted(self.topic)}


@dataclass(frozen=True)
class ReportReading:
    """Everything the reader knows about one report (immutable, cached per text)."""

    findings: tuple[Finding, ...]
    comparisons: tuple[Comparison, ...]
    utterances: tuple[str, ...]  # FINDINGS + IMPRESSION sentences (the SRR view labels these)
    notes: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"findings": [f.to_json() for f in self.findings],
                "comparisons": [c.to_json() for c in self.comparisons],
                "notes": list(self.notes)}


@lru_cache(maxsize=4096)
def read_report(text: str) -> ReportReading:
    """Read one report (cached by text: references recur across candidates and metrics)."""
    sentences_read = read_text(text)
    sentences, lines, notes = atoms_by_line(sentences_read, _only_a_change)
    kept = [i for i, s in enumerate(sentences) if not _only_a_change(s)]
    if kept and len(kept) < len(sentences):
        notes = [*notes, *(f"left out (a change against a prior study about nothing named): {s}"
                           for i, s in enumerate(sentences) if i not in kept)]
        sentences, lines = [sentences[i] for i in kept], [lines[i] for i in kept]
    if not sentences:  # every sentence was dropped as history, technique or comparison wording
        sentences = [a for s in sentences_read.findings if ";" in s for a in atomize_kept_parts(s)]
        if sentences:
            notes = [*notes, "read the parts of a dropped sentence that are not dropped themselves"]
    if not sentences:
        sentences = [s for s in sentences_read.findings if _names_something(s)]
        if sentences:
            notes = [*notes, "no atomic statement left: the sentences are read whole"]
    if len(lines) != len(sentences):  # read whole or in parts: each stands alone
        lines = [(i, i) for i in range(len(sentences))]

    utterances = sentences_read.utterances
    findings = _distinct(resolve_references([read_finding(s) for s in sentences], lines))
    return ReportReading(findings=tuple(findings),
                         comparisons=_comparisons(utterances), utterances=utterances,
                         notes=tuple(notes))


@lru_cache(maxsize=50000)  # per sentence: every reading of a report asks it of each sentence
def _only_a_change(sentence: str) -> bool:
    """"These are newly developed", "Findings are generally similar to the previous
    examination": a change against a prior study that names no site, finding or measurement.
    The comparison itself is read from the untouched sentences (``comparisons``); as a finding it
    could only be matched by chance."""
    f = sentence_features(sentence)
    if f.sites or f.core or _DIGIT_RE.search(sentence):
        return False
    lex, lower = reader_lexicon(), sentence.lower()
    stable = dict(lex.change)["unchanged"]  # "the findings are generally similar"
    return bool(lex.prior.search(lower) or lex.temporal.search(lower) or stable.search(lower))


_DIGIT_RE = re.compile(r"\d")


def _names_something(sentence: str) -> bool:
    """Whether a sentence names a site, a finding, a device or a denial the lexicons know, or
    is a verdict on the whole study ("Unremarkable.", "Normal.", "Stable.")."""
    f = sentence_features(sentence)
    return bool(f.sites or f.core or f.negated) or bool(_VERDICT_RE.fullmatch(sentence.strip()))


# A whole-study verdict in one or two words: a statement about the patient, read as one finding.
_VERDICT_RE = re.compile(
    r"(?:(?:study|exam(?:ination)?|chest|radiograph|ct|mri?)\s+)?(?:is\s+)?(?:(?:entirely|essentially|completely)\s+)?"
    r"(?:unremarkable|normal|negative|stable|unchanged|no abnormality detected|nad|clear)\.?",
    re.IGNORECASE)


# A sentence that names its finding by reference ("The lesion measures 4 mm", "It shows rim
# enhancement", "The largest is located at ...", one the text stage could not join to the sentence
# before) says where through the sentence it refers to.
_REFERENCE_RE = re.compile(r"(?:the|this|these|those|it|its|they|their)\b", re.IGNORECASE)
_PRONOUN_RE = re.compile(
    r"(?:it|its|they|their|the largest|the biggest|the smallest)\b"
    # "This likely represents ...", "These are ...": a demonstrative with no noun after it
    r"|(?:this|these|those)\s+(?=(?:is|are|was|were|may|might|could|would|likely|probably|possibly|most|"
    r"represents?|appears?|measures?|has|have|shows?|demonstrates?|suggests?|favou?rs?)\b)",
    re.IGNORECASE)


# A statement that is only a reading of one sequence or scan ("Isointense on T1-weighted images.",
# "Homogeneously hyperintense on T2-weighted images.", "It is isodense."): the reading of the
# finding before it, which a word such as "isointense" or "homogeneously" had made a normal
# statement of its own
_READING_ONLY_RE = re.compile(
    r"(?:(?:it|they|this|these|the (?:lesions?|mass(?:es)?|nodules?|tumou?rs?))\s+(?:is|are|appears?)\s+)?"
    r"(?:(?:slightly|mildly|mainly|predominantly|largely|homogeneously|uniformly)\s+)?"
    r"(?:(?:iso|hypo|hyper)-?(?:intense|dense|echoic|attenuating)|(?:of )?iso-?signal)"
    rf"(?:\s+(?:on|in)\s+(?:the\s+)?{MR_SEQUENCE}(?:\s+(?:images?|imaging|sequences?))?)?\s*\.?",
    re.IGNORECASE)


def resolve_references(findings: list[Finding], origins: list[tuple[int, int]]) -> list[Finding]:
    """Give a site-less abnormal statement the place of the statement it goes on from.

    One that refers back to a finding ("the fracture", "the lesion", "it") takes the place of
    the nearest earlier abnormal statement with a site that it refers to: one naming the same
    finding word, or any one for a pronoun. "A fracture of the right distal radius. The fracture
    is in anatomic alignment." says the alignment of the radius, and a fracture of another bone
    is not the same finding. One that names no place at all and describes the abnormal statement
    just before it on the same line (``_said_of_the_one_before``) takes that statement's place: "A
    non-calcified plaque in the mid right coronary artery. Mild stenosis." is a stenosis of that
    artery, not of any vessel. One cut from the same sentence as an organ called normal takes
    the organ's place, unless it names a place of its own in other words: "The gallbladder is
    normal in size, and a hyperechoic protrusion is attached to the anterior wall" sees the
    protrusion in the gallbladder ("..., a nodule on the right wall" may be another organ's).
    The items of a list ("- Mild periarticular osteopenia.") and a statement of a finding of its
    own ("Osteopenia.") each stand alone. ``origins``: each statement's line and sentence."""
    out: list[Finding] = []
    for index, finding in enumerate(findings):
        f = finding.features
        g: SentenceFeatures | None = None  # what the statement's place is taken from
        if not f.sites and f.normality != NORMAL:
            if _REFERENCE_RE.match(finding.text):
                referent = _referent(finding, out)
                g = None if referent is None else referent.features
            elif index and origins[index - 1][0] == origins[index][0] and _said_of_the_one_before(finding):
                g = _place_before(out)
            elif f.core and not _PLACE_PHRASE_RE.search(finding.text):
                g = _organ_of_the_sentence(out, origins, index)
        elif not f.sites and _READING_ONLY_RE.fullmatch(finding.text):
            g = _place_before(out)  # "It is isointense on T1-weighted images": the lesion's reading
            if g is not None:
                f = replace(f, normality=ABNORMAL)
        elif f.sites and _SAYS_SAME_RE.search(f.canon) and (same := _SAME_FINDINGS_RE.search(f.canon)):
            finding = _the_same_findings(finding, same, out)  # "Right sigmoid sinus: same findings."
        elif f.sites and not f.core and f.normality != NORMAL and f.asserted and f.asserted <= _ONLY_STABLE:
            finding = _the_finding_here(finding, out)  # "Left corona radiata essentially stable."
        elif f.sites and not f.core and f.normality != NORMAL and f.asserted <= _ONLY_A_SIZE and out \
                and out[-1].features.core and out[-1].features.normality != NORMAL \
                and not _SAYS_SOMETHING_RE.search(f.canon):
            finding = _the_finding_listed(finding, out[-1].features)  # "- Thalamus (left)."
        if g is not None:
            sides = f.sides or g.sides
            finding = replace(finding, sites=tuple(sorted(g.sites)),
                              laterality=tuple(sorted(sides)),
                              features=replace(f, sites=g.sites, sides=sides,
                                               segments=f.segments or g.segments,
                                               levels=f.levels or g.levels))
        out.append(finding)
    return out


# "Right sigmoid sinus: same findings.", "Corpus callosum: foci of the same signal.", "Similar
# appearance in the left knee.": the finding before, said at another place
_SAYS_SAME_RE = re.compile(r"same|similar|identical")  # the cheap test first
_SAME_FINDINGS_RE = re.compile(
    r"\b(?:the\s+)?(?:same|similar|identical)\s+(?:findings?|appearances?|changes?|signal|abnormalit(?:y|ies))\b")


# What a statement at a place says when it says only that what is there has not changed ("Left
# corona radiata essentially stable.", "Right scaphoid appearances are unchanged."), as stems
_ONLY_STABLE = frozenset(stem(w) for w in ("stable", "unchanged", "essentially", "largely", "roughly", "grossly",
                                            "overall", "appearances", "basically"))


def _the_finding_here(finding: Finding, before: list[Finding]) -> Finding:
    """A statement at a place that names no finding and says only that it is stable or unchanged
    states the finding of the nearest abnormal statement before it at the same place, with its own
    change ("Left corona radiata: an old lacunar infarct. Left corona radiata essentially stable."
    is the infarct, unchanged). Unchanged when no statement before it names a finding there."""
    f = finding.features
    referent = next((b.features for b in reversed(before)
                     if b.features.normality != NORMAL and b.features.core and b.features.sites == f.sites
                     and b.features.sides == f.sides), None)
    if referent is None:
        return finding
    return _read_as(finding, replace(f, asserted=f.asserted | referent.asserted, core=referent.core,
                                     tokens=f.tokens | referent.asserted,
                                     sequences=f.sequences or referent.sequences))


# What a place listed alone may say besides its name: a size ("left parietal bone (about 18 x 15
# mm)") or its number ("right 7th rib"); "the largest" points at one finding of several, as "the
# largest is located in ..." does, and is left to say so
_ONLY_A_SIZE = frozenset(stem(w) for w in ("mm", "cm", "x", "about", "approximately", "1st", "2nd", "3rd", "4th",
                                            "5th", "6th", "7th", "8th", "9th", "10th", "11th", "12th"))


# a verb or a denial: a statement that says something of its place ("the gallbladder is not
# visualized") is no bare item of a list of places
_SAYS_SOMETHING_RE = re.compile(r"\b(?:is|are|was|were|not|no|seen|visuali[sz]ed|identified|absent|present|"
                                r"shows?|appears?|remains?|has|have)\b")


def _the_finding_listed(finding: Finding, lead: SentenceFeatures) -> Finding:
    """A statement that names a place and nothing else, right after an abnormal statement of a
    finding, is one more place of that finding: an item of a list of places written one per line
    ("... punctate hypointense foci on SWI, distributed in: - basal ganglia (bilateral) -
    thalami"), each of which takes the finding of the statement before it, itself a lead or an
    item that took it."""
    f = finding.features
    return _read_as(finding, replace(f, asserted=f.asserted | lead.asserted, negated=f.negated | lead.negated,
                                     core=lead.core, tokens=f.tokens | lead.asserted,
                                     sequences=f.sequences or lead.sequences,
                                     denied_findings=lead.denied_findings))


def _the_same_findings(finding: Finding, same: re.Match[str], before: list[Finding]) -> Finding:
    """A statement at a place of its own that names no finding but says the same findings are
    there ("Right sigmoid sinus: same findings.") states the finding of the nearest abnormal
    statement before it with a place: its words, sequences and what it denies, at this statement's
    place. Unchanged when it names a finding of its own ("a 10 mm nodule of the same signal": what
    is the same is not said in words the reader can compare) or when there is none before."""
    referent = next((b.features for b in reversed(before)
                     if b.features.sites and b.features.normality != NORMAL), None)
    f = finding.features
    if referent is None or f.core:
        return finding
    pointing = frozenset(stem(w) for w in same.group(0).split())
    return _read_as(finding, replace(
        f, normality=ABNORMAL, asserted=(f.asserted - pointing) | referent.asserted,
        negated=f.negated | referent.negated, core=referent.core,
        tokens=(f.tokens - pointing) | referent.asserted | referent.negated,
        sequences=f.sequences or referent.sequences, denied_findings=referent.denied_findings))


def _read_as(finding: Finding, features: SentenceFeatures) -> Finding:
    """``finding`` read with ``features``: what it states and denies follow them."""
    return replace(finding, features=features, concepts=tuple(sorted(features.asserted)),
                   denied=tuple(sorted(features.negated)))


def _organ_of_the_sentence(before: list[Finding], origins: list[tuple[int, int]],
                           index: int) -> SentenceFeatures | None:
    """The place of the first statement of the same sentence (or of the first few, when it was
    written out side by side), when that statement names an organ and calls it normal ("The liver
    is normal in size, with increased fine echoes"): the finding the sentence goes on to name is of
    that organ. A normal statement later in a sentence ("...; normal wrist joint space; mild
    osteopenia") is one item of a list, not the sentence's subject, and a finding nearer to it
    that names its own place is what the sentence goes on from."""
    first = index
    while first and origins[first - 1] == origins[index]:
        first -= 1
        if before[first].features.sites and before[first].features.normality != NORMAL:
            return None  # a finding of its own place is nearer ("...; the right vertebral artery
            # is slender throughout, with a uniformly narrow lumen")
    # "Both lungs show good translucency, with ...", read as one statement per side: both sides
    subject = []
    for g in (finding.features for finding in before[first:index]):
        if not g.sites or g.normality != NORMAL:
            break
        subject.append(g)
    if not subject:
        return None
    return replace(subject[0], sites=frozenset().union(*(g.sites for g in subject)),
                   sides=frozenset().union(*(g.sides for g in subject)))


def _distinct(findings: list[Finding]) -> list[Finding]:
    """Each statement once: a sentence repeated word for word is one statement, unless it goes
    on from another place ("Left breast: ... Calcifications are seen." and "Right breast: ...
    Calcifications are seen."); the later one then names its place in its text, which is how
    RadSEM tells sentences apart."""
    places: dict[str, set[tuple[tuple[str, ...], tuple[str, ...]]]] = {}
    out: list[Finding] = []
    for finding in findings:
        place = (finding.sites, finding.laterality)
        said = places.setdefault(finding.text, set())
        if place in said:
            continue
        if said:
            named = " ".join((*finding.laterality, *finding.sites))
            finding = replace(finding, text=f"{finding.text.rstrip('.')} ({named}).")
        said.add(place)
        out.append(finding)
    return out


# A place named in words the lexicons may not know ("in the abdominopelvic cavity", "at the
# anastomosis"): a statement with one does not borrow the place of the one before it. A phrase
# pointing back ("within these areas") names no new place.
_PLACE_PHRASE_RE = re.compile(
    r"\b(?:in|within|at|of|on|along|around|near|beside|adjacent to|involving|into|from|throughout)\s+"
    r"(?!(?:these|those|this|that|it|its|them|their|the above|the same|the aforementioned)\b)", re.IGNORECASE)


def _said_of_the_one_before(finding: Finding) -> bool:
    """A statement naming no place that describes the finding before it: one that points back
    ("Dense shadows within.", "Hydronephrosis above.", "Some lesions are confluent."), or one
    whose finding words only say how a finding looks, its caliber or its change ("Mild
    stenosis.", "Surrounding edema.") and that names no place of its own in words the lexicons
    do not know."""
    if _POINTER_RE.search(finding.text):
        return True
    core = finding.features.core
    return bool(core) and core <= said_of_the_finding_before() and not _PLACE_PHRASE_RE.search(finding.text)


_POINTER_RE = re.compile(r"\b(?:within|above|below)\s*(?=[.,;]|$)"
                         r"|\b(?:within|in|inside|around) (?:it|them|this|these|those)\b"
                         # "Gas in the anterior part.": a part of the finding before, which names no whole
                         r"|\b(?:in|at|along) the (?:[a-z]+ ){0,2}(?:parts?|portions?|aspects?|periphery|cent(?:er|re))"
                         r"\s*(?=[.,;]|$)"
                         r"|^(?:some|most|part|others|the others|the rest)\b", re.IGNORECASE)


def _place_before(before: list[Finding]) -> SentenceFeatures | None:
    """The abnormal statement with a site just before, its place widened to the run of
    statements of the same finding it was cut from ("low-density areas in the left frontal lobe,
    the centrum semiovale and the right frontal lobe. Nodules within these areas.")."""
    if not before or before[-1].features.normality == NORMAL or not before[-1].features.sites:
        return None
    last = before[-1].features
    run = [last]
    for earlier in reversed(before[:-1]):
        g = earlier.features
        if g.normality == NORMAL or not g.sites or g.core != last.core:
            break
        run.append(g)
    return replace(last, sites=frozenset().union(*(g.sites for g in run)),
                   sides=frozenset().union(*(g.sides for g in run)))


def _referent(finding: Finding, before: list[Finding]) -> Finding | None:
    pronoun = bool(_PRONOUN_RE.match(finding.text))
    words = finding.features.core
    for earlier in reversed(before):
        if earlier.features.normality == NORMAL or not earlier.features.sites:
            continue  # a site-less statement between them describes the same finding
        if pronoun or words & earlier.features.core:
            return earlier
    return None


@lru_cache(maxsize=50000)
def read_finding(sentence: str) -> Finding:
    """The attributes of one atomic sentence."""
    feats = sentence_features(sentence)
    canon, scope = feats.canon, feats.scope
    return Finding(
        text=sentence, polarity=polarity(feats), laterality=tuple(sorted(feats.sides)),
        sites=tuple(sorted(feats.sites)), severity=severity(canon, scope),
        size=tuple(canon[start:end] for start, end in size_spans(canon)),
        change=feats.change,
        device=bool(anatomy_lexicon().devices.search(canon)),
        concepts=tuple(sorted(feats.asserted)), denied=tuple(sorted(feats.negated)),
        features=feats)


def _topic(lower: str) -> frozenset[str]:
    """Stemmed content words of a sentence, without its prior-study and change wording."""
    lex = reader_lexicon()
    for pattern in (lex.prior, *(p for _, p in lex.change)):
        lower = pattern.sub(" ", lower)
    return frozenset(stem(w) for w in WORD_RE.findall(lower) if w not in STOPWORDS)


def _comparisons(utterances: tuple[str, ...]) -> tuple[Comparison, ...]:
    """Sentences that report a change against a prior study, with what they are about (the
    sentence before, when the comparison names nothing: "Compared with the prior, increased.")."""
    out: list[Comparison] = []
    for index, utterance in enumerate(utterances):
        reading = _comparison_reading(utterance)
        if reading is None:
            continue
        change, topic = reading
        if not topic and index:
            topic = _topic(utterances[index - 1].lower())
        out.append(Comparison(text=utterance, change=change, topic=topic))
    return tuple(out)


@lru_cache(maxsize=50000)  # per sentence: reports repeat theirs ("No previous study for comparison.")
def _comparison_reading(utterance: str) -> tuple[str, frozenset[str]] | None:
    """The change a sentence reports against a prior study and its own topic; None when it
    reports none."""
    lex = reader_lexicon()
    lower = utterance.lower()
    if _NO_PRIOR_RE.search(lower) or _NO_NEW_RE.search(lower):
        return None
    # A change over time is one whether or not the sentence names the prior study: "There is a
    # new nodule" and "Compared with the prior study of May 19, 2021, there is a new nodule" make
    # one comparison, and the prior study alone, as under a COMPARISON heading, makes none.
    change = change_over_time(lower)
    if change is None and (lex.prior.search(lower) or lex.temporal.search(lower)):
        change = next((name for name, pattern in lex.change if pattern.search(lower)), None)
    # the topic in the words the findings are read in ("low-density shadow in the right lobe of
    # the liver" and "hypodense lesion in the right hepatic lobe" are one topic)
    return (change, _topic(canonical_text(utterance))) if change else None

"""A statement's place (sites, side, spinal level, position within an organ) and the rest of what
the RadSEM matcher compares, gathered into one ``SentenceFeatures`` per atomic sentence.

Each sentence is read once: its canonical text, content tokens (for lexical similarity), the
anatomical sites it names (finest first), its side, spinal levels and MRI sequences, which
concept words it asserts and which it negates (negation scope from ``attributes.certainty``; size and change from ``attributes.size`` and ``attributes.change``),
whether it describes something normal or abnormal, its direction words and its detail words.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from radscope.engine.reader.attributes.certainty import NEGATIVE, ClauseScope
from radscope.engine.reader.attributes.change import change_over_time
from radscope.engine.reader.attributes.size import Measurement, measurements, size_spans
from radscope.engine.reader.text.anatomy import TOKEN_RE, anatomy_lexicon, canonical_text, site_mentions
from radscope.engine.reader.text.atoms import PART_NOUNS
from radscope.engine.reader.vocabulary.alternation import Alternation
from radscope.engine.reader.vocabulary.equivalents import position_pairs
from radscope.engine.reader.vocabulary.loader import load

NORMAL, ABNORMAL = "normal", "abnormal"
# a number, with its unit written on or apart ("25mm", "25 mm")
_NUMBER_RE = re.compile(r"\b\d+(?:\.\d+)?(?=(?:mm|cm|ml|m)?\b)")
_LEVEL_RE = re.compile(r"\b([ctls])(\d{1,2})(?:\s*[-/\u2013\u2014]\s*([ctls])?(\d{1,2}))?\b(?!w\b|wi\b|\s*-?weighted|\s*flair)")
# A date ("2023-6-2", "2025.05.21", "in 2024") dates a comparison; it is no detail of a finding.
_DATE_RE = re.compile(r"\b(?:19|20)\d{2}(?:[-./]\d{1,2}(?:[-./]\d{1,2})?)?\b")
# The MRI sequences as the canonical text writes them (equivalents.json's MR family); each is its
# own stem, so the words a sentence asserts or denies hold them as written here.
MRI_SEQUENCES = frozenset({"t1", "t2", "flair", "dwi", "adc", "swi", "stir", "pd"})
_SEQUENCES = "|".join(sorted(MRI_SEQUENCES))
_SEQUENCE_RE = re.compile(rf"\b({_SEQUENCES})\b")
# a sequence that is the subject of a denial ("DWI shows no high signal", "the ADC map shows no
# low signal", "DWI: no high signal"): denied with its signal, as "no high signal on DWI" denies it
_DENYING_SEQUENCE_RE = re.compile(
    rf"\b({_SEQUENCES})\b(?=(?:\s+(?:sequences?|images?|imaging|map))?"
    r"(?:\s*:)?\s+(?:(?:shows?|demonstrates?|reveals?|displays?|has)\s+)?no\b)")
_SEGMENT_RE = re.compile(r"\bsegment s([1-8])\b")  # a liver segment, as equivalents.json writes it
# A Couinaud segment written bare ("S6: echogenic lesion", "S4b, by the gallbladder bed"): a liver
# segment only in a sentence about the liver, since S1-S3 are also sacral levels and S1-S10 the
# lung's segments ("right upper lobe, posterior segment (S2)").
_BARE_SEGMENT_RE = re.compile(r"(?<![\w/.-])s([1-8])[ab]?\b(?!\s*[-/]\s*[a-z]?\d)")
_LIVER_CONTEXT_RE = re.compile(r"\b(?:liver|hepatic|gallbladder|caudate|couinaud|segments?)\b")
_LUNG_OR_SPINE_RE = re.compile(
    r"\b(?:lungs?|(?:upper|middle|lower) lobes?|lingula\w*|bronch\w*|pulmonary|sacr\w*|"
    r"vertebr\w*|nerve|roots?|discs?|foram\w*|[ctl]\d{1,2})\b")
_SIDES = ("left", "right")
_BLANKET = re.compile(r"abnormal\w*")
# normal words that describe a margin or a shape (radsem.json ``margin_terms``)
_MARGIN = re.compile("|".join(f"(?:{t})" for t in load("radsem")["margin_terms"]["terms"]))
# normal words that describe a finding only beside a word that names a lesion by its look (how it
# is spread, or one part of a mixed look), and the words that name a lesion by its look
_BESIDE_A_LOOK = re.compile("|".join(f"(?:{t})" for key in ("distribution", "mixed_look")
                                     for t in load("radsem")["margin_terms"][key]))
_LESION_LOOK = re.compile("|".join(f"(?:{t})" for t in load("radsem")["margin_terms"]["lesion_looks"]))
STOPWORDS = frozenset(load("grammar")["stopwords"]["words"])  # not content words
UNIT_TOKENS: dict[str, str] = load("grammar")["unit_words"]["forms"]  # "cm" and "mm" one token


@lru_cache(maxsize=20000)
def stem(word: str) -> str:
    return _stemmer().stem(word)


@lru_cache(maxsize=1)
def _stemmer() -> Any:
    """nltk's Porter stemmer, imported on first use (importing nltk costs about a second)."""
    from nltk.stem import PorterStemmer

    return PorterStemmer()


@dataclass(frozen=True)
class SentenceFeatures:
    text: str
    canon: str
    tokens: frozenset[str]  # stemmed content tokens (similarity)
    sites: frozenset[str]  # finest named sites
    sides: frozenset[str]
    levels: frozenset[str]  # spinal levels ("l4-l5")
    sequences: frozenset[str]  # MRI sequences
    normality: str
    asserted: frozenset[str]  # concept stems asserted (or hedged)
    negated: frozenset[str]  # concept stems negated
    core: frozenset[str]  # asserted abnormality words (canonical)
    directions: tuple[int, ...]  # per direction pair: 0 none, 1 first side, 2 second, 3 both
    details: frozenset[str]
    # the negation / uncertainty scope of ``canon``, read once here: the finding's polarity and
    # severity read it too (``findings.read_finding``)
    scope: ClauseScope = field(compare=False, repr=False)
    sizes: tuple[Measurement, ...] = ()  # in millimetres (``attributes.size``)
    change: str | None = None  # change over time of an abnormal statement (``attributes.change``)
    # per opposite pair of places (``equivalents.position_pairs``): 0 none, 1 first, 2 second, 3 both
    positions: tuple[int, ...] = ()
    # numbered places: liver segments ("s7"), and ribs, fingers, toes, metacarpals and
    # metatarsals by their number ("rib5", "finger5"; a range "4th to 8th ribs" is each of them)
    segments: frozenset[str] = frozenset()
    # the stems of the findings the sentence denies ("without EFFUSION"): a denial that names
    # only other findings does not contradict a statement of the finding itself
    denied_findings: frozenset[str] = frozenset()
    # abnormal only by default: the statement names no finding, device, look, normal word or
    # denial the lexicons know ("Neural foramina open", "Fetal heart rate 136")
    unread: bool = False


_LARGEST_RE = re.compile(r"\b(?:the )?(?:largest|biggest)\b")
# After a part noun, the "of" that names its whole: "the head of the right femur", "cortex break
# of the left fibula" (one noun may come between).
_OF_WHOLE_RE = re.compile(r"(?: [a-z-]+)? of (?:the )?(?:(?:left|right|both|bilateral) )?")


# A site read from a name another organ shares, and that organ: in a statement that names the
# other ("the left lateral ventricle and the right ventricle"), the shared name is the other's.
_SHARED_NAMES = {"cardiac ventricle": "ventricle"}


def _sites(canon: str) -> tuple[frozenset[str], list[tuple[int, int]]]:
    """The finest sites named, and the character spans of every site mention. Where the largest
    of the findings lies ("nodules in the left lung, the largest in the left upper lobe") says
    where one of them is, not where the statement is: those sites count only when no other is
    named before them. A part noun bound to another structure names a part of that structure,
    not a region of its own ("renal cortex", "femoral head", "the cortex of the right fibula":
    not the brain, the head or the neck)."""
    lex = anatomy_lexicon()
    largest = _LARGEST_RE.search(canon)
    cut = largest.start() if largest else len(canon)
    mentions = [(site, m.start(), m.end()) for site, pattern in site_mentions(canon)
                for m in pattern.finditer(canon)]
    spans = [(start, end) for _, start, end in mentions]
    found: set[str] = set()
    later: set[str] = set()
    for site, start, end in mentions:
        if canon[start:end] in PART_NOUNS and _bound_part(canon, start, end, spans):
            continue
        (found if start < cut else later).add(site)
    found = found or later
    for site, other in _SHARED_NAMES.items():
        if site in found and any(other == o or other in lex.ancestors(o) for o in found):
            found.discard(site)
    finest = {s for s in found if not any(s in lex.ancestors(o) for o in found if o != s)}
    return frozenset(finest), spans


def _bound_part(canon: str, start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    """Whether the part noun at ``start:end`` belongs to a structure named with it: in a longer
    mention that holds it ("head of the pancreas", "metacarpophalangeal joint"), just before it
    ("kidney cortex") or in the "of" phrase after it ("the cortex of the right kidney")."""
    if any(a <= start and end <= b and b - a > end - start for a, b in spans):
        return True
    if canon[start - 1:start] == " " and any(b == start - 1 for _, b in spans):
        return True
    after = _OF_WHOLE_RE.match(canon, end)
    return bool(after and any(a == after.end() for a, _ in spans))


def _level_of(word: str) -> str | None:
    """The spinal level a token writes ("l4-5" -> "l4-l5", "l5-s1"), as ``_levels`` names it."""
    if word[:1] not in "ctls" or not word[1:2].isdigit():
        return None  # most tokens: a word, not a level (checked before the pattern, per token)
    m = _LEVEL_RE.fullmatch(word)
    return _level_name(m) if m else None


def _level_name(m: re.Match[str]) -> str:
    """A level as the reader names it: "l5", "l4-l5", "l5-s1"."""
    letter, first, letter2, second = m.groups()
    return f"{letter}{first}-{letter2 or letter}{second}" if second else f"{letter}{first}"


def _levels(canon: str) -> frozenset[str]:
    out: set[str] = set()
    liver = _LIVER_CONTEXT_RE.search(canon)
    for m in _LEVEL_RE.finditer(canon):
        if m.group(4):
            out |= _span_levels(m)
        elif _spinal_single(canon, m, bool(liver)):
            out.add(_level_name(m))
    if "-" in canon or " to " in canon or " through " in canon:
        out |= _disc_range_levels(canon)
    return frozenset(out)


# Vertebrae in order, from the skull down: a range of disc levels covers every disc between
_VERTEBRAE = (*(f"c{n}" for n in range(1, 8)), *(f"t{n}" for n in range(1, 13)),
              *(f"l{n}" for n in range(1, 6)), "s1")
_VERTEBRA_ORDER = {name: i for i, name in enumerate(_VERTEBRAE)}
_DISC = r"[ctls]\d{1,2}-[ctls]\d{1,2}"
# "the c3-c4-c6-c7 discs" (written "C3/4-C6/7"), "from l3-l4 to l5-s1": a range of disc levels
_DISC_RANGE_RE = re.compile(rf"\b({_DISC})(?:-|\s+(?:to|through)\s+)({_DISC})\b")


def _disc_range_levels(canon: str) -> set[str]:
    """Every disc level of a range of them ("C3/4-C6/7 discs show low T2 signal" is said of C3/4,
    C4/5, C5/6 and C6/7), as a report written one level per line says it."""
    out: set[str] = set()
    for m in _DISC_RANGE_RE.finditer(canon):
        # each disc named by the vertebra above it: "c3-c4" ... "c6-c7" runs from c3 to c6
        start = _VERTEBRA_ORDER.get(m.group(1).split("-")[0])
        stop = _VERTEBRA_ORDER.get(m.group(2).split("-")[0])
        if start is not None and stop is not None and start < stop < len(_VERTEBRAE) - 1:
            out |= {f"{_VERTEBRAE[i]}-{_VERTEBRAE[i + 1]}" for i in range(start, stop + 1)}
    return out


def _span_levels(m: re.Match[str]) -> set[str]:
    """A span of two levels ("l4-l5") is one disc level; a longer one of one letter ("c4-c6": the
    C4 to C6 vertebral bodies) is every vertebra and every disc level it covers, so that a
    statement over the range and one about a level inside it ("C5", "C5-6") are at one place."""
    letter, first, letter2, second = m.group(1), int(m.group(2)), m.group(3), int(m.group(4))
    if (letter2 or letter) != letter or second - first < 2:
        return {_level_name(m)}
    covered = range(first, second + 1)
    return {f"{letter}{n}" for n in covered} | {f"{letter}{n}-{letter}{n + 1}" for n in covered[:-1]}


# "t1" / "t2" are also the MRI sequences (T2WI is written "t2" once canonical), and "s3" / "s7"
# also the liver's segments: alone, they are a spinal level only beside a spinal word.
_SPINAL_WORD_RE = re.compile(r"\s*(?:vertebra\w*|level|body|bodies|spinous|pedicles?|nerve roots?)\b")


def _spinal_single(canon: str, m: re.Match[str], liver: bool) -> bool:
    letter, first = m.group(1), m.group(2)
    if letter == "t" and first in ("1", "2"):
        return bool(_SPINAL_WORD_RE.match(canon, m.end()))
    return not (letter == "s" and liver)


def _detail_numbers(canon: str) -> set[str]:
    """Numbers that describe a finding (sizes, counts), not those of a spinal level ("C3/4":
    the level is compared on its own) or of a date."""
    taken = [m.span() for pattern in (_LEVEL_RE, _DATE_RE) for m in pattern.finditer(canon)]
    sizes = size_spans(canon)
    numbers = {m.group(0) for m in _NUMBER_RE.finditer(canon)
               if not any(s <= m.start() and m.end() <= e for s, e in [*taken, *sizes])}
    # A size is one detail whatever its unit ("4.1 x 3.2 cm" = "41 x 32 mm"); two different
    # sizes are told apart by the compatibility rule (``measures.sizes_differ``), not here.
    return numbers | ({"size"} if sizes else set())


_ABSENT_RE = re.compile(r"\b([a-z][\w-]*)\s+(?:is|are|was|were)\s+(?:now\s+)?absent\b")


def _absent_finding(canon: str) -> bool:
    """"<finding> is absent" ("hydronephrosis is absent"), not "<organ> is absent"."""
    m = _ABSENT_RE.search(canon)
    return bool(m and anatomy_lexicon().abnormal.search(m.group(1)))


_PRESENCE_WORDS = r"seen|present|visuali[sz]ed|identified|visible|noted|observed|demonstrated|shown|displayed|depicted"
_PRESENT_RE = re.compile(rf"\b(?:{_PRESENCE_WORDS})\W*$")


_DENIED_RE = re.compile(r"\b(?:not|no|never|none)\b")
# said to be there anywhere in the sentence, or said not to be
_SAID_SEEN_RE = re.compile(rf"\b(?:{_PRESENCE_WORDS}|evident)\b")
_SAID_UNSEEN_RE = re.compile(
    rf"\b(?:not|no longer)\s+(?:\w+\s+)?(?:{_PRESENCE_WORDS}|evident)\b|\b(?:absent|invisible)\b")
_DENIAL_RE = re.compile(r"\b(?:no|not|without|none|neither|nor)\b")


@lru_cache(maxsize=100000)
def presence(canon: str) -> int:
    """What a sentence says of its subject's being there: 2, that it is not ("... is not
    visualized", "... absent"); 1, that it is, with no denial anywhere; 0, neither."""
    if _SAID_UNSEEN_RE.search(canon):
        return 2
    return 1 if _SAID_SEEN_RE.search(canon) and not _DENIAL_RE.search(canon) else 0


def _said_present(canon: str, scope: ClauseScope) -> bool:
    """The sentence ends by saying that something is there ("... is seen", "... identified")."""
    m = _PRESENT_RE.search(canon)
    return bool(m and scope.status(*m.span()) != NEGATIVE and not _DENIED_RE.search(canon))


# Places a report names only when it sees something there: "lymph nodes are present in the
# right axilla" reports nodes as "lymph nodes are visible in the right axilla" does (a finding),
# not an organ said to be where it belongs.
_SEEN_AS_FINDINGS = frozenset({"lymph node"})


@lru_cache(maxsize=50000)
def sentence_features(text: str) -> SentenceFeatures:
    """Read one atomic sentence (cached: references recur across candidates)."""
    lex = anatomy_lexicon()
    canon = canonical_text(text)
    scope = ClauseScope(canon)
    finest, site_spans = _sites(canon)
    levels = _levels(canon)
    place_spans = [*site_spans, *_finding_places(canon)]
    tokens, asserted, negated = _words(canon, scope, place_spans, levels)
    abn_pos, abn_neg = _statuses(lex.abnormal, canon, scope, place_spans)
    neutral_pos, neutral_neg = _statuses(lex.neutral, canon, scope, place_spans)
    norm_pos, norm_neg = _statuses(lex.normal, canon, scope)
    dev_pos, _ = _statuses(lex.devices, canon, scope)
    if _absent_finding(canon) and not dev_pos:
        # "hydronephrosis is absent": a finding said to be absent is denied (an organ said to
        # be absent, "the gallbladder is absent", stays abnormal: it names no finding word)
        abn_neg, abn_pos = abn_neg + abn_pos, []
    if abn_pos or dev_pos:
        normality = ABNORMAL
    elif canon.startswith("none ") and not neutral_pos:
        normality = NORMAL  # "None in the basal ganglia or thalami": the finding before, denied there
    elif finest and not asserted and not neutral_pos and _said_present(canon, scope) \
            and not finest & _SEEN_AS_FINDINGS:
        normality = NORMAL  # "the gallbladder is seen": an organ said to be there, nothing more
    else:
        normality = _normality(abn_neg, neutral_pos, norm_pos, norm_neg, bool(negated))
    details = {m.group(0) for m in lex.details.finditer(canon)
               if scope.status(*m.span()) != NEGATIVE}
    details |= _detail_numbers(canon)
    sides = frozenset(s for s in _SIDES if re.search(rf"\b{s}\b", canon))
    return SentenceFeatures(
        text=text, canon=canon, tokens=frozenset(tokens), sites=finest, sides=sides,
        levels=levels, sequences=frozenset(m.group(1) for m in _SEQUENCE_RE.finditer(canon)),
        normality=normality, asserted=frozenset(asserted), negated=frozenset(negated),
        core=frozenset(abn_pos + dev_pos + neutral_pos), directions=_directions(canon, scope),
        details=frozenset(details), scope=scope, sizes=measurements(canon),
        change=change_over_time(canon) if normality == ABNORMAL else None,
        positions=_positions(canon),
        segments=_liver_segments(canon) | _numbered_bones(canon),
        denied_findings=frozenset(stem(w) for phrase in abn_neg + neutral_neg for w in phrase.split())
        | (_attached_denials(canon) & negated if normality == ABNORMAL else frozenset()),
        unread=normality == ABNORMAL and not (abn_pos or dev_pos or neutral_pos or neutral_neg or norm_pos
                                              or norm_neg or abn_neg or negated or presence(canon) == 2))


def _liver_segments(canon: str) -> frozenset[str]:
    """The liver segments a sentence names: "segment s7" (as equivalents.json writes every form),
    or bare "s7" in a sentence about the liver."""
    named = {f"s{m.group(1)}" for m in _SEGMENT_RE.finditer(canon)} if "segment s" in canon else set()
    if _BARE_SEGMENT_RE.search(canon) and _LIVER_CONTEXT_RE.search(canon) and not _LUNG_OR_SPINE_RE.search(canon):
        named |= {f"s{m.group(1)}" for m in _BARE_SEGMENT_RE.finditer(canon)}
    return frozenset(named)


# ", with no intraventricular extension of blood", ", without cut-out": a finding said to be absent
# beside the one the statement states
_ATTACHED_DENIAL_RE = re.compile(r",\s*(?:and\s+)?(?:with\s+no|without)\s+([^,;.()]+)")


def _attached_denials(canon: str) -> frozenset[str]:
    """The stems of what an abnormal statement denies in a clause of its own after a comma ("the
    ventricle is compressed, with no extension of blood into it"): findings it says are absent, as
    the lexicon's denied finding words are, so that a statement of the compressed ventricle alone
    may pair with it (``compatibility.one_sided_denial``)."""
    if "," not in canon or not ("with no" in canon or "without" in canon):
        return frozenset()  # the cheap test first: most statements deny nothing after a comma
    return frozenset(stem(w) for m in _ATTACHED_DENIAL_RE.finditer(canon) for w in TOKEN_RE.findall(m.group(1)))


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
             "tenth", "eleventh", "twelfth")
_ORDINAL = rf"(?:\d{{1,2}}(?:st|nd|rd|th)|{'|'.join(_ORDINALS)})"
# "the left 4th to 8th ribs", "the fifth finger", "the 2nd and 3rd metatarsals": ordinals (a list
# or a range of them) before a bone counted by number
_NUMBERED_RE = re.compile(
    rf"\b(?P<ordinals>{_ORDINAL}(?:(?:\s*,\s*|\s+(?:and|or|to|through)\s+|\s*-\s*){_ORDINAL})*)"
    r"\s+(?:(?:left|right)\s+)?(?P<bone>rib|finger|digit|toe|metacarpal|metatarsal)s?\b")
_ORDINAL_RE = re.compile(_ORDINAL)
_RANGE_WORD_RE = re.compile(r"^\s*(?:to|through|-)\s*$")


def _numbered_bones(canon: str) -> frozenset[str]:
    """The numbered bones a sentence names ("rib4" ... "rib8" for "the 4th to 8th ribs"): two
    statements about other ribs or fingers are about other places."""
    out: set[str] = set()
    for m in _NUMBERED_RE.finditer(canon):
        bone = "finger" if m.group("bone") == "digit" else m.group("bone")
        listed = m.group("ordinals")
        found = list(_ORDINAL_RE.finditer(listed))
        for here, after in zip(found, [*found[1:], None], strict=True):
            first = last = _ordinal_number(here.group(0))
            if after is not None and _RANGE_WORD_RE.match(listed[here.end():after.start()]):
                last = _ordinal_number(after.group(0))
            out |= {f"{bone}{n}" for n in range(first, max(first, last) + 1)}
    return frozenset(out)


def _ordinal_number(word: str) -> int:
    return int(word[:-2]) if word[0].isdigit() else _ORDINALS.index(word) + 1


# a place named by a finding ("below the fracture site", "at the right tibial fracture site"):
# where, not what
_FINDING_PLACE_RE = re.compile(
    r"\b(?:at|near|around|below|above|beside|under|adjacent to) the (?:[a-z-]+ ){0,3}?fracture site\b")


def _finding_places(canon: str) -> list[tuple[int, int]]:
    return [m.span() for m in _FINDING_PLACE_RE.finditer(canon)]


def _words(canon: str, scope: ClauseScope, site_spans: list[tuple[int, int]],
           levels: frozenset[str]) -> tuple[set[str], set[str], set[str]]:
    """Stemmed content tokens, and those of them asserted and negated (site, side and spinal
    level words left out of the last two: they say where, and are compared as places)."""
    places = {part for level in levels for part in level.split("-")}
    tokens: set[str] = set()
    asserted: set[str] = set()
    negated: set[str] = set()
    for m in TOKEN_RE.finditer(canon):
        word = m.group(0)
        if word in STOPWORDS or word.isdigit():
            continue
        stemmed = UNIT_TOKENS.get(word) or stem(word)
        if "-" in word and _level_of(word) is None:
            # "fluid-attenuation collection" and "fluid attenuation" share their words
            tokens.update(stem(part) for part in word.split("-")
                          if part not in STOPWORDS and not part.isdigit())
        else:
            tokens.add(stemmed)
        if any(s <= m.start() and m.end() <= e for s, e in site_spans) or word in _SIDES \
                or word in places or _level_of(word) in levels:
            continue
        denied = scope.status(m.start(), m.end()) == NEGATIVE \
            or (word in MRI_SEQUENCES and _DENYING_SEQUENCE_RE.match(canon, m.start()) is not None)
        (negated if denied else asserted).add(stemmed)
    return tokens, asserted, negated


def _statuses(pattern: Alternation, canon: str, scope: ClauseScope,
              site_spans: list[tuple[int, int]] | None = None) -> tuple[list[str], list[str]]:
    """The pattern's mentions outside negation and inside it; with ``site_spans``, those that
    are part of a site's name are skipped ("pelvic cavity" names a site, not a cavity)."""
    pos: list[str] = []
    neg: list[str] = []
    for m in pattern.finditer(canon):
        if site_spans and any(s <= m.start() and m.end() <= e for s, e in site_spans):
            continue
        (neg if scope.status(m.start(), m.end()) == NEGATIVE else pos).append(m.group(0))
    return pos, neg


def _normality(abn_neg: list[str], neutral_pos: list[str], norm_pos: list[str],
               norm_neg: list[str], negated: bool) -> str:
    """The normality of a sentence that asserts no abnormality and no device."""
    # A denied normal word makes the statement abnormal ("not patent") unless a finding is
    # denied with it: "no clear evidence of pneumothorax", "no distinct fracture line".
    if norm_neg and not abn_neg:
        return ABNORMAL
    if neutral_pos and not any(_BLANKET.fullmatch(w) for w in abn_neg) \
            and all(_describes_the_finding(w, neutral_pos) for w in norm_pos):
        # "patchy opacity" vs "homogeneous density"; a blanket denial covers the attribute ("the
        # morphology and signal of the spleen show no abnormality")
        return ABNORMAL
    return NORMAL if abn_neg or negated or norm_pos else ABNORMAL


def _describes_the_finding(word: str, looks: list[str]) -> bool:
    """Whether a normal word describes the finding its statement names by a look (``looks``)
    rather than calls the statement normal: a margin or shape ("a hypodense focus with a clear
    boundary"), the spread of a lesion ("patchy hypodensity, symmetric"; "symmetric signal",
    naming no lesion, is a normal statement) or one part of a mixed look ("mixed isodense and
    hyperdense attenuation"; "the liver is isoechoic" is a normal statement)."""
    return bool(_MARGIN.fullmatch(word)) or (
        bool(_BESIDE_A_LOOK.fullmatch(word)) and any(_LESION_LOOK.fullmatch(look) for look in looks))


def _positions(canon: str) -> tuple[int, ...]:
    """Per opposite pair of places (anterior / posterior, upper / lower, ...): 0 neither named,
    1 the first, 2 the second, 3 both. A denial names its place as a statement does, as a side
    is read: "no focus in the intracranial segment" is about the intracranial segment."""
    return tuple(int(bool(first.search(canon))) + 2 * int(bool(second.search(canon)))
                 for first, second in position_pairs())


def _named(pattern: re.Pattern[str] | Alternation, canon: str, scope: ClauseScope) -> bool:
    """Whether ``pattern`` names something in ``canon`` outside negation."""
    return any(scope.status(*m.span()) != NEGATIVE for m in pattern.finditer(canon))


def _directions(canon: str, scope: ClauseScope) -> tuple[int, ...]:
    """Per direction pair: 0 neither side named (outside negation), 1 the first, 2 the second,
    3 both."""
    lex = anatomy_lexicon()
    possible = lex.direction_sides.possible(canon)  # only these sides can match at all
    directions = []
    for k, (first, second) in enumerate(lex.directions):
        a = 2 * k in possible and _named(first, canon, scope)
        b = 2 * k + 1 in possible and _named(second, canon, scope)
        directions.append(int(a) + 2 * int(b))
    return tuple(directions)

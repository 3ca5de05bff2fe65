"""Which studies a metric was designed for, and whether a pair is one of them.

CLEAR, CREPE and SRR-BERT were built on chest radiographs: their label sets are chest-film
findings, so on a brain MRI they return confident numbers about nothing (every condition
absent on both sides scores 1.0). A metric card declares its ``IntendedStudies``; each pair's exam
(modality and body area) comes from the form or the batch columns when given, otherwise from
a small rules detector over the report text. Out of scope, the runner records "not
applicable: <reason>" instead of a score, unless the user forces the metric.

The detector reads cue words (``_MODALITY_CUES`` / ``_AREA_CUES``): a modality needs two
points, where an explicit name ("CT", "MRI", "radiograph") counts three and each technique
word only that modality uses counts one (CT densities, image numbers, MR signal and
sequences, sonographic echoes; not a size in millimetres, which every modality writes: "a 17 mm
nodular opacity" on a chest radiograph, nor "soft tissue density", which films describe
too); a cue in a sentence that advises or refers to another study ("CT of the chest is
recommended", "Recommend follow-up radiograph or CT thorax for further evaluation", "better
evaluated on the CT", "seen on the prior CT") does not count: the modality is what the report
examined, never what it recommends. A cue word counts once however often it recurs (an
impression restating a finding is no second piece of evidence). A
body area needs two anatomy words (or is the only one named). Only evidence excludes: a
chest report of unknown modality (short chest-film reports rarely name the technique) and a
report with no recognisable area ("No active disease.") stay in scope; a detected CT or MR,
or a brain or abdomen without chest, do not. ``python -m bench applicability``
measures the detector against labelled modality and area.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from radscope.engine.reader.vocabulary.loader import alternative_literals

# Canonical modality codes (DICOM-like) and the spellings that map to them.
RADIOGRAPH = "XR"
MODALITY_ALIASES: dict[str, tuple[str, ...]] = {
    RADIOGRAPH: ("xr", "cr", "dx", "x-ray", "xray", "x ray", "radiograph", "radiography",
                 "plain film", "cxr", "chest x-ray", "film"),
    "CT": ("ct", "cta", "computed tomography", "cat"),
    "MR": ("mr", "mri", "magnetic resonance", "mra"),
    "US": ("us", "ultrasound", "sonography", "echo", "echography"),
    "NM": ("nm", "pet", "pet-ct", "spect", "nuclear medicine", "scintigraphy"),
    "MG": ("mg", "mammography", "mammogram"),
}
AREAS = ("chest", "head", "neck", "abdomen", "pelvis", "spine", "extremity", "breast")
AREA_ALIASES: dict[str, tuple[str, ...]] = {
    "chest": ("chest", "thorax", "thoracic", "lung", "lungs", "cxr"),
    "head": ("head", "brain", "skull", "cranial", "intracranial", "teeth", "face", "orbit",
             "sinus", "sinuses"),
    "neck": ("neck", "head-neck", "thyroid", "cervical soft tissue"),
    "abdomen": ("abdomen", "abdominal", "liver", "kidney", "bladder"),
    "pelvis": ("pelvis", "pelvic", "hip"),
    "spine": ("spine", "spinal", "lumbar", "thoracic spine", "cervical spine"),
    "extremity": ("extremity", "up-ext", "low-ext", "arm", "leg", "knee", "shoulder", "hand",
                  "foot", "ankle", "wrist", "elbow", "bone"),
    "breast": ("breast", "breasts", "mammary"),
}

@dataclass(frozen=True)
class IntendedStudies:
    """The studies a metric was designed for (modalities, body areas); ``None`` means any."""

    modalities: frozenset[str] | None = None
    areas: frozenset[str] | None = None
    text: str = "any modality and body area"


ANY = IntendedStudies()
CHEST_RADIOGRAPH = IntendedStudies(frozenset({RADIOGRAPH}), frozenset({"chest"}), "chest radiographs")


@dataclass(frozen=True)
class Exam:
    """A pair's modality and body areas, and where they came from."""

    modality: str | None
    areas: frozenset[str]
    source: Literal["given", "detected", "mixed"]

    def describe(self) -> str:
        modality = self.modality or "modality not stated"
        area = ", ".join(sorted(self.areas)) or "area not recognised"
        return f"{modality} {area} ({self.source})"


# --------------------------------------------------------------------------- normalising

def _lookup(value: str, aliases: dict[str, tuple[str, ...]]) -> str | None:
    key = value.strip().lower()
    for code, names in aliases.items():
        if key == code.lower() or key in names:
            return code
    return None


def normalise_modality(value: str | None) -> str | None:
    """"CR", "X-ray", "MRI" ... -> "XR", "MR" ...; an unknown spelling stays as given (upper
    case) so that it is reported, never silently read as a radiograph."""
    if not value or not value.strip():
        return None
    return _lookup(value, MODALITY_ALIASES) or value.strip().upper()


def normalise_areas(value: str | None) -> frozenset[str]:
    """"CHEST, ABDOMEN" or "Brain" -> {"chest", "abdomen"} / {"head"}; unknown parts are kept
    in lower case."""
    if not value or not value.strip():
        return frozenset()
    parts = [p for p in re.split(r"[,;/+&]| and ", value) if p.strip()]
    return frozenset(_lookup(p, AREA_ALIASES) or p.strip().lower() for p in parts)


# --------------------------------------------------------------------------- detecting

# Cue patterns per modality: explicit names (weight 3), then technique words only that
# modality uses or sees (weight 1): CT densities, image numbers and the pericardium or lymph
# nodes, which a chest film cannot show (a size in millimetres is no cue: radiographs measure
# nodules in millimetres too); MR signal and sequences;
# sonographic echoes; for radiographs the film's own vocabulary (views, costophrenic angles).
_NAMED = 3
_MODALITY_CUES: dict[str, tuple[tuple[str, int], ...]] = {
    "CT": ((r"\bct\b(?! ratio)|\bcta\b|computed tomograph", _NAMED),  # "CT ratio": cardiothoracic
           (r"hounsfield|\bhu\b", 1),
           (r"(?:low|high|mixed|fluid|isodense)[- ]density|\bhypo-?dens|\bisodens", 1),
           (r"\bthin[- ]section|\baxial (?:image|slice)|\b(?:image|im|img) ?\d+|\bwindow\b", 1),
           (r"attenuation|centrilobular|tree-in-bud|septal thickening|enhanc|plain scan", 1),
           (r"ground[- ]glass nodul|solid (?:small )?nodul|pericardi|lymph nodes?\b", 1),
           (r"segment of the (?:left|right)? ?(?:upper|middle|lower) lobe|lingular segment", 1),
           (r"\bscan(?:ning)?\b|reconstruction|contrast agent|non-?contrast", 1),
           (r"gray[- ]white matter|cisterns?\b|brain parenchyma|coronary arter", 1)),
    "MR": ((r"\bmri?\b|magnetic resonance", _NAMED),
           (r"\bt1(?:wi)?\b|\bt2(?:wi)?\b|\bflair\b|\bdwi\b|\badc\b|\bstir\b", 1),
           (r"diffusion|signal|gadolinium|-weighted", 1)),
    "US": ((r"ultrasound|sonograph", _NAMED),
           (r"\becho(?:genic|ic)\b|hypoechoic|hyperechoic|anechoic|doppler", 1)),
    RADIOGRAPH: ((r"radiograph|x-ray|\bcxr\b|\bplain films?\b", _NAMED),
                 (r"\bpa and lateral\b|\b(?:frontal|lateral|pa|ap) (?:and lateral )?views?\b", 1),
                 (r"\bportable\b|costophrenic|diaphragmatic surface|lung fields?", 1)),
}
# A cue in a sentence that advises another study or refers to an earlier one ("CT of the
# chest is recommended", "seen on the prior CT") says nothing about this study.
_OTHER_STUDY_RE = re.compile(
    r"recommend|suggest|advis|follow|further|correlat|could|would|may\b|might|should|consider|"
    r"warrant|helpful|useful|sensitive|if clinically|prior|previous|recent|earlier|outside|old\b|"
    r"comparison|compared|since|seen on|see\b|review|ordered|available|performed|obtained|"
    r"for (?:further )?evaluation|better (?:evaluated|seen|assessed|demonstrated)|"
    r"to (?:determine|exclude)\b|rule out|"
    r"\b(?:on|in) the (?:xxxx )*(?:ct|cta|mri?|ultrasound)\b",
    re.I)
_MIN_MODALITY_SCORE = 2  # one stray technique word ("5 mm") does not make a CT
_AREA_CUES: dict[str, tuple[str, ...]] = {
    "chest": (r"\blungs?\b", r"pleura", r"pneumothora", r"cardiomediastin", r"mediastin",
              r"\bhilar\b", r"\bhila\b", r"costophrenic", r"\bheart\b", r"cardiac",
              r"pulmonary", r"\blobe\b", r"bronch", r"trachea", r"\baort", r"cardiomegaly",
              r"cardiopulmonary", r"effusion", r"pneumonia", r"atelecta", r"consolidation",
              r"airspace", r"\bribs?\b", r"diaphragm", r"\bthorax\b", r"\bchest\b"),
    "head": (r"\bbrain\b", r"intracranial", r"ventricle", r"midline shift", r"white matter",
             r"cerebr", r"sulci", r"\bgyr", r"cerebell", r"\bskull\b", r"frontal lobe",
             r"temporal lobe", r"parietal", r"occipital", r"basal ganglia", r"\bsinus"),
    "neck": (r"thyroid", r"\bneck\b", r"cervical lymph", r"\blarynx", r"pharyn"),
    "abdomen": (r"\bliver\b", r"hepat", r"\bkidneys?\b", r"renal", r"\bspleen", r"pancrea",
                r"gallbladder", r"\bbowel\b", r"colon", r"adrenal", r"biliary", r"ascites"),
    "pelvis": (r"\bbladder\b", r"prostat", r"uter", r"ovar", r"\bpelvi", r"rectum"),
    "spine": (r"vertebra", r"\bdisc\b", r"intervertebral", r"spinal canal", r"\bspine\b",
              r"\bl[1-5]\b", r"\bc[1-7]\b", r"\bt1[0-2]\b", r"spinal cord", r"dural sac"),
    "breast": (r"\bbreasts?\b", r"axilla", r"nipple", r"mammo", r"glandular"),
    "extremity": (r"\bknee\b", r"shoulder", r"\bankle\b", r"\bwrist\b", r"\belbow\b",
                  r"\bfemur\b", r"\btibia", r"\bhumer", r"\bradius\b", r"\bulna\b",
                  r"meniscus", r"cruciate", r"\bfinger", r"\bhand\b", r"\bfoot\b"),
}


@dataclass(frozen=True)
class _Cue:
    """A cue's pattern, and the literals one of which every match of it holds (one per
    alternative of its top-level alternation, ``alternative_literals``): a cue none of whose
    literals is in the (ASCII) text is not run (exact: the cues ignore case and their literals
    are ASCII)."""

    pattern: re.Pattern[str]
    weight: int
    literals: tuple[str, ...]

    def may_match(self, lower_ascii: str | None) -> bool:
        if lower_ascii is None:
            return True
        if len(self.literals) == 1:  # most cues: no generator to start
            return self.literals[0] in lower_ascii
        return any(literal in lower_ascii for literal in self.literals)


def _cue(pattern: str, weight: int = 1) -> _Cue:
    compiled = re.compile(pattern, re.I)
    return _Cue(compiled, weight, alternative_literals(compiled))


_COMPILED_MODALITY = {code: [_cue(p, weight) for p, weight in cues] for code, cues in _MODALITY_CUES.items()}
_COMPILED_AREA = {area: [_cue(p) for p in cues] for area, cues in _AREA_CUES.items()}
_MIN_AREA_HITS = 2  # one stray word ("heart" in a spine report) does not make an area


def _sentence(text: str, match: re.Match[str]) -> str:
    start = max(text.rfind(mark, 0, match.start()) for mark in ".;\n")
    ends = [i for i in (text.find(mark, match.end()) for mark in ".;\n") if i >= 0]
    return text[start + 1:min(ends) if ends else len(text)]


@lru_cache(maxsize=4096)  # per text: a reference recurs across its candidates and metrics
def detect_modality(text: str) -> str | None:
    """The modality with the most weighted cue hits in the text (a name in a sentence about
    another study excluded); None when no modality reaches two points."""
    hits: dict[str, int] = {}
    seen: set[str] = set()  # a cue word repeated (the impression restating a finding) counts once
    lower = text.lower() if text.isascii() else None
    for code, cues in _COMPILED_MODALITY.items():
        for cue in cues:
            for match in cue.pattern.finditer(text) if cue.may_match(lower) else ():
                word = match.group(0).lower()
                if word in seen or _OTHER_STUDY_RE.search(_sentence(text, match)):
                    continue
                seen.add(word)
                hits[code] = hits.get(code, 0) + cue.weight
    if not hits or max(hits.values()) < _MIN_MODALITY_SCORE:
        return None
    return max(hits, key=lambda code: (hits[code], code == RADIOGRAPH))


@lru_cache(maxsize=4096)
def detect_areas(text: str) -> frozenset[str]:
    """Body areas with at least two cue hits, or the single best one when none has two."""
    lower = text.lower() if text.isascii() else None
    hits = {area: sum(len(cue.pattern.findall(text)) for cue in cues if cue.may_match(lower))
            for area, cues in _COMPILED_AREA.items()}
    found = frozenset(area for area, n in hits.items() if n >= _MIN_AREA_HITS)
    if found:
        return found
    best = max(hits, key=lambda area: hits[area])
    return frozenset({best}) if hits[best] else frozenset()


def exam_of(reference: str, candidate: str = "", modality: str | None = None,
            area: str | None = None) -> Exam:
    """The pair's exam: given values win; missing ones are detected in the reference (the
    candidate's text only when the reference names nothing)."""
    given_modality, given_areas = normalise_modality(modality), normalise_areas(area)
    # Nothing is detected that a given value would override.
    detected_modality = None if given_modality else (
        detect_modality(reference) or detect_modality(candidate))
    detected_areas = frozenset() if given_areas else (
        detect_areas(reference) or detect_areas(candidate))
    final_modality = given_modality or detected_modality
    final_areas = given_areas or detected_areas
    if given_modality and given_areas:
        source: Literal["given", "detected", "mixed"] = "given"
    elif given_modality or given_areas:
        source = "mixed"
    else:
        source = "detected"
    return Exam(final_modality, final_areas, source)


def outside_intended_studies(intended: IntendedStudies, exam: Exam) -> str | None:
    """Why a pair is outside the studies a metric was designed for ("designed for ...; this study
    is ..."), or None when it is one of them. Unknown modality or area is no evidence against (see the module text)."""
    problems = []
    if intended.modalities is not None and exam.modality is not None \
            and exam.modality not in intended.modalities:
        problems.append(f"modality {exam.modality}")
    if intended.areas is not None and exam.areas and not exam.areas & intended.areas:
        problems.append("body area " + ", ".join(sorted(exam.areas)))
    if not problems:
        return None
    how = {"given": "as given", "detected": "detected from the report text",
           "mixed": "given and detected"}[exam.source]
    return f"designed for {intended.text}; this study is {' and '.join(problems)} ({how})"

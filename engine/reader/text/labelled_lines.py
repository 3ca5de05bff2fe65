"""Labelled lines ("Liver: normal size; smooth contour; no focal lesion"): each part said of
what it is about, as a report written in sentences says it.

A structured report puts a site or a device before a colon and what it says of it after,
parts cut by semicolons. Read part by part, "Smooth contour." and "No focal lesion." name no
site, and "no loosening or breakage" after "Right clavicle: plate and screws" would deny the
loosening of the clavicle. ``label_each_part`` gives each part its subject: the labelled site (or
finding: "Fracture: line blurred; ends well aligned") for a part that names none of its own, the
first part's device for a part that says how it sits or denies what may go wrong with it.
"""
from __future__ import annotations

import re

from radscope.engine.reader.text.anatomy import anatomy_lexicon, names_finding, names_site
from radscope.engine.reader.text.wording import normalise

# An MR sequence as written ("T1WI", "T2-weighted images", "FLAIR", "DWI", "ADC"): the atomiser cuts
# a lesion's readings one per sequence, and a line labelled with one says each part on it
MR_SEQUENCE = (r"(?:(?:T[12]|PD)(?:WI|W)?(?:[- ]weighted(?:\s+(?:imaging|images?|sequences?))?)?|(?:T2[- ])?FLAIR|DWI|ADC|SWI|STIR"
               r"|diffusion[- ]weighted(?:\s+(?:imaging|images?))?|proton[- ]density(?:[- ]weighted)?)(?![\w-])")
MR_SEQUENCE_RE = re.compile(MR_SEQUENCE, re.IGNORECASE)
_LABEL_RE = re.compile(r"^([A-Za-z][A-Za-z /,&-]{1,40}):\s+(?=[a-z0-9])")
# a label that lists sites: "Bilateral basal ganglia and right thalamus: ...", "Liver, spleen and
# pancreas: normal"
_SITES_LABEL_RE = re.compile(r"^(?P<label>[A-Za-z][A-Za-z0-9 /,()-]{2,80}?):\s+(?P<rest>\S.*)$")
_LABEL_ITEM_SPLIT_RE = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+|\s+as well as\s+", re.IGNORECASE)
_MAX_LABEL_ITEM_WORDS = 5
_PARENTHESES_RE = re.compile(r"\s*\([^()]*\)")  # "Anterior cerebral arteries (A1, A2)": segments, not sites
_BOTH_SIDES_RE = re.compile(r"(?:on )?both sides|bilateral(?:ly)?", re.IGNORECASE)
_SIDES = frozenset(("left", "right"))
_PLACE_ADJECTIVE_RE = re.compile(r"[a-z]+(?:al|ar|ic)", re.IGNORECASE)  # "vertebral", "basilar", "hepatic"
_SIDE_WORD_RE = re.compile(r"\b(?:left|right|bilateral|both)\b")
_SIDE_ONLY_LABEL_RE = re.compile(r"(?:left|right)(?:\s+side)?", re.IGNORECASE)
# On a line labelled with one side, the other side named only to compare ("Right: ..., more marked
# than on the left"): how this side's finding compares, as "more obvious on the right" says of each
# side of a bilateral one ("larger" / "smaller"), not a finding of the other side
_OTHER_SIDE_COMPARED_RE = re.compile(
    r",?\s*\b(?P<degree>more|greater|worse|less|milder)(?:\s+(?:pronounced|prominent|marked|obvious|evident|severe"
    r"|extensive|significant|conspicuous))?\s+than\s+(?:on\s+|in\s+)?(?:the\s+)?(?:left|right)(?:\s+side)?\b",
    re.IGNORECASE)
_DENIAL_PIECE_RE = re.compile(r"^(?:no|without)\b", re.IGNORECASE)
_DETERMINER_RE = re.compile(r"(?:a|an|the|some|several|multiple|no)\b", re.IGNORECASE)


# what a part after a semicolon may say of the first part's subject without naming one:
# "Left distal radius: plate and screws; good position; no loosening"
_DESCRIPTION = (r"(?:good|satisfactory|acceptable|adequate|normal|anatomic(?:al)?|expected) (?:position(?:ing)?|alignment)"
                r"|well[- ](?:positioned|aligned|seated)|in (?:good|satisfactory|normal) position")

# A part that only says how the finding before it changed ("new compared with the previous MRI",
# "unchanged", "slightly larger than on the prior CT"): a change of that finding, not a finding
CHANGE_ALONE = (r"(?:(?:it|this|which|and)\s+)?(?:(?:has|have|is|are|was|were)\s+(?:been\s+)?)?"
                r"(?:(?:slightly|mildly|markedly|significantly|somewhat|much)\s+)?"
                r"(?:new|newly\s+(?:seen|appeared)|unchanged|stable|(?:in|de)creased|enlarged|larger|smaller|bigger|improved"
                r"|worsened|progressed|regressed|reduced|grown|more\s+extensive|less\s+extensive)"
                r"(?:\s+in\s+(?:size|extent))?")
_COMPARED_TAIL = r"(?:\s+(?:(?:as\s+)?compared\s+(?:with|to)|since|from|than|relative\s+to)\b[^;]*)?"
_CHANGE_PIECE_RE = re.compile(CHANGE_ALONE + _COMPARED_TAIL, re.IGNORECASE)


# What may go wrong with a device, and a list of such things denied ("no evidence of loosening or
# breakage"): the atomiser cuts such a denial off the device too (``atoms``).
COMPLICATION = (r"(?:loosening|loosened|breakage|broken|fractures?|migration|migrated|displacement|displaced"
                r"|dislocation|dislocated|subsidence|endoleaks?|complications?)")
COMPLICATION_LIST = rf"{COMPLICATION}(?:\s*(?:,\s*|,?\s*or\s+|,?\s*and\s+){COMPLICATION})*"
DENIAL_HEDGE = r"(?:(?:evidence|signs?)\s+of\s+|(?:obvious|definite|significant|apparent)\s+)*"
_COMPLICATION_DENIAL = rf"(?:no|without)\s+{DENIAL_HEDGE}{COMPLICATION_LIST}"

# how the first part's device sits, what may go wrong with it denied, or both ("good position, no
# loosening or breakage"; "Right femur: nail and screws; no loosening or breakage")
_DEVICE_PIECE_RE = re.compile(rf"(?:{_DESCRIPTION})(?:\s*,\s*{_COMPLICATION_DENIAL})?|{_COMPLICATION_DENIAL}",
                              re.IGNORECASE)


# A lead naming a follow-up study before what it found ("Follow-up left wrist radiographs after
# fixation: plate and screws; mild osteopenia"): a title, not a label of the findings. One that
# opens on what is followed up ("Follow-up of the right tibia: ...") names the findings' place, which
# the atomiser reads.
_FOLLOW_UP_WORD_RE = re.compile(r"follow|examination", re.IGNORECASE)
_FOLLOW_UP_LEAD_RE = re.compile(
    r"^(?!(?:follow[- ]?up|re-?examination|review) (?:after|of|for|post)\b)(?![^:;]*\b(?:recommend|suggest|advis))"
    r"[^:;]*\b(?:follow[- ]?up|re-?examination)\b[^:;]*:\s+(?=[a-z])", re.IGNORECASE)


def label_each_part(utterance: str) -> list[str]:
    """"Hardware: good position; no loosening or breakage" -> the label before each part:
    a denial after the semicolon denies it of the label, as "the hardware ... with no loosening"
    does; a part that only says where or how well the first part's subject sits ("good
    position"), or denies only what may go wrong with it ("Right clavicle: plate and screws; no
    loosening or breakage": the plate's loosening, not the clavicle's), or only says how it
    changed ("; new compared with the previous MRI"), goes on describing it. A label that lists
    sites says its parts of each, one line per site, as a report written site by site does."""
    lead = _FOLLOW_UP_LEAD_RE.match(utterance) if ":" in utterance and _FOLLOW_UP_WORD_RE.search(utterance) else None
    if lead:  # the title goes; read with its findings, "follow-up" made each a recommendation
        return [part.strip() for part in utterance[lead.end():].split(";") if part.strip()]
    sites = _listed_sites(utterance)
    if sites:
        said = utterance.split(":", 1)[1].strip()
        return [part for site in sites for part in label_each_part(f"{site}: {said}")]
    label = _LABEL_RE.match(utterance)
    side_only = bool(label and _SIDE_ONLY_LABEL_RE.fullmatch(label.group(1).strip()))
    if side_only:
        utterance = _OTHER_SIDE_COMPARED_RE.sub(_larger_or_smaller, utterance)
    if not label or ";" not in utterance:
        return [utterance]
    first, *rest = (p.strip() for p in utterance.split(";"))
    # what describes the first part's subject goes on from it, unless that part is a denial
    # ("Carpus: no fracture; normal alignment" is no "no ... normal alignment")
    denied_first = bool(_DENIAL_PIECE_RE.match(utterance[label.end():]))
    described = [p for p in rest if p and not denied_first and (_DEVICE_PIECE_RE.fullmatch(p.rstrip(". "))
                                                                or _CHANGE_PIECE_RE.fullmatch(p.rstrip(". ")))]
    others = [p for p in rest if p and p not in described]
    if side_only:
        # "Right: the trigone is dilated; periventricular white matter volume is reduced": each part
        # naming no side of its own is said of the label's side
        others = [p if _SIDE_WORD_RE.search(p.lower()) else f"{label.group(1)}: {p}" for p in others]
    elif names_site(label.group(1)):
        # "Liver: normal size; smooth contour; no focal lesion": each part naming no site of its
        # own is said of the label's
        others = [p if names_site(p) else f"{label.group(1)}: {p}" for p in others]
    elif names_finding(label.group(1)):
        # "Fracture: line blurred; ends well aligned": a bare part naming no finding of its own
        # is a part of the labelled finding ("a little callus" is a statement of its own)
        others = [p if names_finding(p) or _DETERMINER_RE.match(p) else f"{label.group(1)}: {p}"
                  for p in others]
    elif not described and not all(_DENIAL_PIECE_RE.match(p) for p in others):
        return [utterance]
    elif all(_DENIAL_PIECE_RE.match(p) for p in others):
        others = [f"{label.group(1)}: {p}" for p in others]
    return [", ".join([first.rstrip(". "), *described]), *others]


def _larger_or_smaller(m: re.Match[str]) -> str:
    """", more marked than on the left" -> ", larger"; ", less marked than on the right" -> ", smaller"."""
    return ", smaller" if m.group("degree").lower() in ("less", "milder") else ", larger"


# a vessel or nerve one of each side has, and those of the midline, which have no side
_SIDED_VESSEL_RE = re.compile(r"\b(?:arter(?:y|ies)|veins?|nerves?)\b", re.IGNORECASE)
_MIDLINE_VESSEL_RE = re.compile(
    r"\b(?:basilar|superior mesenteric|inferior mesenteric|celiac|coeliac|portal|splenic|main pulmonary"
    r"|anterior communicating|inferior vena|superior vena|azygos)\b", re.IGNORECASE)


def _side_goes_on(items: list[str]) -> list[str]:
    """"Right CCA, ICA, ECA: ...": the side before the first item goes on to a later item that
    names none when that item is one of a pair (a kidney, an ovary) or a vessel or nerve each side
    has; "Right kidney and liver" keeps a liver with no side."""
    side = items[0].split(maxsplit=1)[0].lower()
    if side not in _SIDES or len(items[0].split()) < 2:
        return items
    paired = frozenset(anatomy_lexicon().paired_singular.values())
    out = [items[0]]
    for item in items[1:]:
        named = normalise(item).lower()
        if not _SIDE_WORD_RE.search(named) and not _MIDLINE_VESSEL_RE.search(named) and (
                _SIDED_VESSEL_RE.search(named) or named.rstrip("s") in paired):
            item = f"{side} {item}"
        out.append(item)
    return out


def _same_kind(item: str, word: str) -> bool:
    """Whether a one-word item and the next item's first word are both sides or both adjectives
    of place ("vertebral" and "basilar")."""
    if item.lower() in _SIDES:
        return word.lower() in _SIDES
    return bool(_PLACE_ADJECTIVE_RE.fullmatch(item)) and bool(_PLACE_ADJECTIVE_RE.fullmatch(word))


def _listed_sites(utterance: str) -> list[str]:
    """The sites a label lists ("Bilateral basal ganglia and right thalamus: ..." -> the three
    phrases), or nothing when the label is one phrase or an item is not a place."""
    label = _SITES_LABEL_RE.match(utterance) if ":" in utterance else None
    if not label:
        return []
    items: list[str] = []
    for item in (i.strip() for i in _LABEL_ITEM_SPLIT_RE.split(_PARENTHESES_RE.sub("", label["label"])) if i.strip()):
        if items and _BOTH_SIDES_RE.fullmatch(item):
            items[-1] = f"{items[-1]}, both sides"  # "Anterior cerebral arteries, both sides, and ..."
        else:
            items.append(item)
    # "left and right kidneys", "Vertebral and basilar arteries": a bare side or adjective names the
    # noun the next item holds after a word of the same kind
    items = [f"{item} {items[k + 1].split(maxsplit=1)[1]}"
             if k + 1 < len(items) and len(items[k + 1].split()) > 1
             and _same_kind(item, items[k + 1].split()[0]) else item
             for k, item in enumerate(items)]
    # the cheap checks first: most labels name one thing ("Liver: ...")
    if len(items) < 2 or any(len(i.split()) > _MAX_LABEL_ITEM_WORDS for i in items):
        return []
    items = _side_goes_on(items)
    if any(not names_site(i) or names_finding(i) for i in items) or names_site(label["rest"]):
        return []  # an item that is no place; "Heart and lungs: The heart is normal ..." heads a section
    return items

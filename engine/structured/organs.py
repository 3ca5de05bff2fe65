"""Which Findings header a report sentence belongs under: the organ or device it is about.

A sentence is filed by its subject (the words before its verb, or the whole phrase when it has
none), not by any anatomical word it holds: "triangular density projected over the heart on the
lateral view" is a lung finding (the projection and the view are removed before reading),
"thickening of the septal lines" is a lung finding (septal lines are not a line), "calcifications
in the left ventricle" names no organ in its subject and so is filed by where it is.

A subject of several organs ("Cardiac and mediastinal contours are within normal limits", "No
consolidation, effusion or pneumothorax") files the sentence, whole, under each. A sentence
of two clauses about different organs, each able to stand alone ("No pleural effusion seen, no
pulmonary edema"; "The heart is normal and the lungs are clear") is cut there, in the
radiologist's words; nothing else is cut and no word is changed.

Each term's header is a convention of this module, written down here so that it can be
reviewed: pulmonary vessels and emboli are Cardiovascular, the diaphragm Musculoskeletal and Chest
Wall, the cardiomediastinal silhouette both Cardiovascular and Hila and Mediastinum, lymph nodes
Hila and Mediastinum unless named elsewhere (axillary, abdominal).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

LUNGS = "Lungs and Airways"
PLEURA = "Pleura"
HEART = "Cardiovascular"
MEDIASTINUM = "Hila and Mediastinum"
DEVICES = "Tubes/Catheters/Support Devices"
BONES = "Musculoskeletal and Chest Wall"
ABDOMEN = "Abdominal"
OTHER = "Other"
FINDINGS_HEADERS: tuple[str, ...] = (LUNGS, PLEURA, HEART, MEDIASTINUM, DEVICES, BONES, ABDOMEN,
                                     OTHER)


def _words(*groups: tuple[str, tuple[str, ...]]) -> tuple[tuple[re.Pattern[str], str], ...]:
    """(pattern, header) per term; a term is a regular expression matched as whole words."""
    return tuple((re.compile(rf"\b(?:{term})\b"), header) for header, terms in groups
                 for term in terms)


# Phrases that never say what a finding is about: where it projects on the film, the view it is
# seen on, comparisons and technical remarks. Removed before the sentence is read.
_IGNORED = tuple(re.compile(p) for p in (
    r"\b(?:projected|projecting|projects?|overlying|overlies|overlie|superimposed|overlapping|"
    r"overlaps?|seen|visible|noted|obscuring|obscures|silhouetting)\s+(?:over|on|upon|onto|behind|"
    r"through|across)\s+(?:the\s+)?[a-z' -]{1,40}?(?=\s+(?:on|in|at|and|which|with)\b|[,.;:()]|$)",
    r"\b(?:on|in)\s+(?:the\s+)?(?:lateral|frontal|pa|ap|oblique|portable|upright|supine|decubitus|"
    r"single|both)\s+(?:and\s+\w+\s+)?(?:views?|projections?|radiographs?|images?|films?)\b",
    r"\b(?:lateral|frontal|pa|ap)\s+(?:views?|projections?|radiographs?|films?)\b",
    # what a finding touches or hides is its neighbour, not what it is about
    r"\b(?:obscur\w*|silhouett\w*|effac\w*|abutting|contacting|touching|bordering|displacing|"
    r"adjacent to|close to|next to)\s+(?:of\s+)?(?:the\s+)?[a-z' -]{1,40}?"
    r"(?=\s+(?:on|in|at|and|which|with)\b|[,.;:()]|$)",
    r"\b(?:compared|comparison)\s+(?:to|with)\b.*$",
    r"\b(?:since|from|than on|than)\s+(?:the\s+)?(?:prior|previous|earlier|last)\b.*$",
    r"\btechnical factors\b",
))
# A phrase that interprets what was seen: it may name another organ ("opacity at the base,
# which may represent effusion") and is read only when the rest names nothing.
_INTERPRETATION = re.compile(
    r"[,;(]?\s*\b(?:suggestive of|suggesting|consistent with|compatible with|likely|probably|"
    r"possibly|concerning for|suspicious for|worrisome for|may represent|may reflect|"
    r"which (?:may|could|might|is|are|likely)|representing|reflecting|due to|related to|"
    r"secondary to|features suggest|in keeping with|favou?ring|versus|vs)\b.*$")

# Devices: a sentence whose subject is a device is filed under Tubes/Catheters/Support Devices
# and nowhere else ("Endotracheal tube tip 4 cm above the carina").
_DEVICE = re.compile(
    r"\b(?:tubes?|catheters?|(?<!septal )(?<!kerley )(?<! b )(?<!pleural )(?<!reticular )(?<!linear )lines?|"
    r"picc|ett|ngt|ng|og|pacemakers?|pacers?|pacing|leads?|defibrillators?|aicd|icd|wires?|"
    r"clips?|stents?|ports?|port-a-cath|drains?|sutures?|coils?|filters?|prosthe(?:sis|ses|tic)|"
    r"devices?|hardware|swan-ganz|sternotomy|cerclage|staples?|electrodes?|monitoring|"
    r"valve replacement|replaced valve|tracheostomy|gastrostomy|peg|impella|balloon pump|iabp|"
    r"loop recorder|expander|implants?)\b")

# Terms whose finding belongs to one organ, whatever location words come with it: "consolidation
# at the bilateral hilar regions" is a lung finding. Multi-word terms come first.
_FINDING_TERMS = _words(
    (HEART, ("pulmonary (?:embol\\w*|arter\\w*|trunk|vascular\\w*|vasculature|vessels?|veins?|"
             "venous \\w+|hypertension)(?: congestion)?", "filling defects?", "vascular congestion", "cephalization",
             "cardiomegaly", "cardiac enlargement", "enlarged heart", "heart size", "embol\\w*",
             "aneurysm\\w*", "atheroscler\\w*", "atheroma\\w*", "dissection", "vasculature",
             "vascular")),
    (PLEURA, ("effusions?", "pneumothora\\w*", "hydropneumothora\\w*", "hydrothora\\w*",
              "hemothora\\w*", "empyema", "blunting", "plaques?")),
    (ABDOMEN, ("pneumoperitoneum", "free (?:intraperitoneal |abdominal )?(?:air|fluid|gas)",
               "ascites", "cholelithiasis", "gallstones?", "steatosis", "appendicitis",
               "hernia", "diverticul\\w*", "nephrolithiasis", "hydronephrosis")),
    (MEDIASTINUM, ("lymphadenopathy", "adenopathy", "lymph nodes?", "nodes",
                   "pneumomediastinum", "goiter")),
    (BONES, ("fractures?", "osteopenia", "osteoporo\\w*", "scoliosis", "kyphosis",
             "osteophytes?", "spondylo\\w*", "degenerative", "lytic", "sclerotic",
             "dislocation", "arthritis", "arthropathy")),
    (LUNGS, ("consolidations?", "consolidative", "atelecta\\w*", "air ?space",
             "pneumonia", "pneumonitis", "infiltrates?", "infiltration", "edema", "oedema",
             "emphysema\\w*", "bronchiectasis", "hyperinflat\\w*", "hyperexpan\\w*",
             "lung volumes?", "ground[- ]glass", "reticul\\w*", "honeycomb\\w*", "interstitial", "markings",
             "air bronchograms?", "mucus", "aspiration", "congestion", "septal")),
)
# Terms that take the organ of where they are ("nodule in the liver", "mass in the
# mediastinum", "opacity in the right upper lobe"), and their header only when nothing says where.
_LOCATED_TERMS = _words(
    (LUNGS, ("granulomas?", "granulomatous", "nodules?", "nodular", "masses", "mass",
             "opacit\\w*", "opacification", "densit\\w*", "fibros\\w*", "fibrotic", "scar\\w*",
             "cavit\\w*", "bullae", "bulla", "blebs?", "infection")),
)
# Anatomy: the organ a word names, used when the subject names an organ ("The heart is normal")
# or a finding is placed by where it is ("calcification in the left ventricle").
_ANATOMY = _words(
    (HEART, ("heart", "cardiac", "cardio\\w*", "pericardi\\w*",
             "(?:left |right )ventricles?", "ventricular", "atri(?:um|a|al)", "aort\\w*",
             "coronar\\w*", "valves?", "valvular", "mitral", "tricuspid", "vessels?",
             "arter\\w*", "vena cava", "svc", "ivc", "cavoatrial", "myocardi\\w*")),
    (MEDIASTINUM, ("mediastin\\w*", "hil(?:um|a|ar|us)", "thymus", "thymic",
                   "esophag\\w*", "oesophag\\w*", "paratracheal", "subcarinal",
                   "aortopulmonary")),
    (PLEURA, ("pleura\\w*", "costophrenic", "fissures?", "fissural")),
    (LUNGS, ("lungs?", "pulmonary", "lobes?", "lobar", "lingula\\w*", "apex", "apices",
             "apical", "bases?", "basal", "basilar", "bibasilar", "bibasal", "parenchyma\\w*",
             "airways?", "bronch\\w*", "peribronch\\w*", "trache\\w*", "alveol\\w*",
             "interstitium", "kerley", "perihilar", "retrocardiac", "subpleural", "lung zones?", "carina",
             "hemithorax")),
    (BONES, ("bones?", "bony", "osseous", "skelet\\w*", "ribs?", "spine", "spinal",
             "vertebra\\w*", "thoracic spine", "clavicles?", "scapula\\w*", "stern(?:um|al)",
             "shoulders?", "humer\\w*", "soft tissues?", "chest wall", "subcutaneous",
             "axilla\\w*", "breasts?", "nipples?", "mastectomy", "discs?", "disks?", "foramin\\w*",
             "facets?", "[ltcs]\\d{1,2}-[ltcs]?\\d{1,2}", "[ls]\\d", "diaphragms?", "hemidiaphragms?",
             "diaphragmatic", "thoracolumbar", "lumbar", "joints?", "musculoskeletal",
             "muscles?")),
    (ABDOMEN, ("abdom\\w*", "liver", "hepat\\w*", "gallbladder", "biliary", "bile ducts?",
               "spleen", "splen\\w*", "pancrea\\w*", "kidneys?", "renal", "adrenals?",
               "bowel", "colon\\w*", "stomach", "gastric", "cec(?:um|al)", "ile(?:um|al)",
               "appendi\\w*", "peritone\\w*", "bladder", "pelvi\\w*", "uter\\w*", "ovar\\w*",
               "prostat\\w*", "iliac", "hypogastric", "mesenter\\w*", "retroperitone\\w*",
               "subdiaphragmatic", "duoden\\w*", "jejun\\w*", "umbilic\\w*", "retro-umbilical",
               "quadrant", "segments? [ivx]+", "hepatic segment")),
    (OTHER, ("brain", "cerebr\\w*", "cerebell\\w*", "intracranial", "white matter",
             "periventricular", "ventricles", "ventricular system", "sulci", "sinus(?:es)?",
             "orbits?", "thyroid", "neck", "cervical", "pituitary", "midline shift",
             "mass effect", "diffusion", "skull", "temporal", "frontal lobes?",
             "parietal", "occipital")),
)
# A finding term's header gives way to an organ written right before it ("pericardial
# effusion", "subcutaneous emphysema", "thyroid nodule"), unless that organ is of the lungs or
# pleura (an "apical pneumothorax" stays in the Pleura).
_OVERRIDABLE = (LUNGS, PLEURA, MEDIASTINUM)
_NOT_OVERRIDING = (LUNGS, PLEURA)
# Words of two organs: the sentence goes under both.
_TWO_ORGANS = {"cardiomediastinal": (HEART, MEDIASTINUM), "cardiopulmonary": (HEART, LUNGS)}
_PREPOSITION = re.compile(
    r"\b(?:in|at|of|within|over|along|near|to|involving|from|into|adjacent|around|through|"
    r"beneath|below|above|under|behind|toward|towards|across|between|on|throughout)\b")

# Words after which the rest of a clause is its predicate (the subject is what comes before).
_VERB = re.compile(
    r"\b(?:is|are|was|were|be|been|appears?|appeared|remains?|remained|measures?|measured|"
    r"demonstrates?|shows?|contains?|has|have|had|extends?|terminates?|ends?|courses?|lies|"
    r"projects|seen|noted|identified|present|observed|detected|visualized|evident|"
    r"unremarkable|clear|normal|intact|stable|unchanged|persists?|persistent)\b")
_EXPLETIVE = re.compile(r"^\s*(?:there|here)\s*$")
_CLAUSE_VERB = re.compile(
    r"\b(?:is|are|was|were|appears?|appeared|remains?|remained|seen|noted|identified|"
    r"observed|detected|visualized|demonstrated|shows?|measures?|has|have)\b")
_NEGATION_START = re.compile(r"^\s*(?:no|not|negative for|there is no|there are no|without)\b")
_ATTACHED_START = re.compile(
    r"^\s*(?:which|that|who|where|likely|probably|possibly|suggest\w*|consistent|compatible|"
    r"measuring|right greater|left greater|with|without|and|or|but|as|in keeping|due|"
    r"related|secondary|versus|vs|more|less|slightly|especially|particularly|predominantly)\b")
_ANAPHOR_START = re.compile(r"^\s*(?:it|this|these|they|those|which|the (?:finding|lesion|"
                            r"abnormality|nodule|mass|opacity))\b")
_CONJUNCT = re.compile(r",|;|\band\b|\bor\b|\bas well as\b|\bnor\b|/")


@dataclass(frozen=True)
class Piece:
    """A sentence, or one clause of it, in the radiologist's words, and the headers it goes under
    (none: the words name nothing this module knows)."""

    text: str
    headers: tuple[str, ...]


def _clean(text: str) -> str:
    lower = " " + text.lower().replace("\u2019", "'") + " "
    for pattern in _IGNORED:
        lower = pattern.sub(" ", lower)
    return lower


def _matches(table: tuple[tuple[re.Pattern[str], str], ...], text: str) -> list[tuple[int, int, str]]:
    """(start, end, header) of every term of ``table`` in ``text``; a longer term earlier in the
    table hides the shorter ones inside it."""
    found: list[tuple[int, int, str]] = []
    for pattern, header in table:
        for m in pattern.finditer(text):
            if not any(s <= m.start() < e or s < m.end() <= e for s, e, _ in found):
                found.append((m.start(), m.end(), header))
    return sorted(found)


def _conjunct_headers(conjunct: str) -> set[str]:
    """The headers one coordinated part of a subject names (empty when it names none): its
    finding terms' (or the organ written right before one), and its organs that are not
    where something is ("in the liver") or what a term is about ("pleural effusion"); organs
    after a preposition count only when nothing else is named ("lesion in the liver")."""
    anatomy = _matches(_ANATOMY, conjunct)
    terms = _terms_outside_organs(conjunct, anatomy)
    if terms:
        return _term_headers(anatomy, terms) | _organ_headers(
            conjunct, _organs_beside_terms(conjunct, anatomy, terms))
    located = _matches(_LOCATED_TERMS, conjunct)
    if not anatomy:
        return {header for _s, _e, header in located}
    # "thyroid nodule in the right lobe": the organ written before the term is the one
    named = [b for b in (_right_before(anatomy, t[0]) for t in located) if b]
    return _organ_headers(conjunct, named or _compound_heads(conjunct, anatomy))


def _terms_outside_organs(conjunct: str,
                          anatomy: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The finding terms of ``conjunct`` that are not inside a longer organ term: there the
    organ term is what the words name, not the finding term inside it."""
    return [t for t in _matches(_FINDING_TERMS, conjunct)
            if not any(s <= t[0] and t[1] <= e for s, e, _ in anatomy if e - s > t[1] - t[0])]


def _term_headers(anatomy: list[tuple[int, int, str]], terms: list[tuple[int, int, str]]) -> set[str]:
    """Each finding term's header, or the organ's written right before it when the term may be
    about several organs ("pericardial effusion" is the heart's, not the pleura's)."""
    out: set[str] = set()
    for start, _end, header in terms:
        before = _right_before(anatomy, start)
        out.add(before[2] if before and header in _OVERRIDABLE and before[2] not in _NOT_OVERRIDING
                else header)
    return out


def _organs_beside_terms(conjunct: str, anatomy: list[tuple[int, int, str]],
                         terms: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The organ words that still name a header of their own beside finding terms: not those
    after a preposition (where something is) nor those a term is about (written at it)."""
    return [a for a in anatomy if not _PREPOSITION.search(conjunct[:a[0]])
            and not any(t[0] - 2 <= a[1] and a[0] < t[1] for t in terms)]


def _organ_headers(conjunct: str, anatomy: list[tuple[int, int, str]]) -> set[str]:
    """The headers of organ words; a word that names two organs gives both."""
    out: set[str] = set()
    for start, end, header in anatomy:
        out |= set(_TWO_ORGANS.get(conjunct[start:end], (header,)))
    return out


def _right_before(anatomy: list[tuple[int, int, str]], start: int) -> tuple[int, int, str] | None:
    """The organ word written right before the word at ``start`` ("pericardial effusion")."""
    before = [a for a in anatomy if a[1] <= start and start - a[1] <= 2]
    return before[-1] if before else None


def _compound_heads(conjunct: str, anatomy: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Of organ words written one after the other ("right lower lobe segmental arteries",
    "apical pleural cap"), the last, which the others only qualify."""
    heads = []
    for a, b in zip(anatomy, [*anatomy[1:], (len(conjunct) + 10, 0, "")], strict=True):
        gap = conjunct[a[1]:b[0]]
        if not (len(gap.split()) <= 1 and not _PREPOSITION.search(gap) and b[2]):
            heads.append(a)
    return heads


def _phrase_headers(phrase: str) -> set[str]:
    """The union over the coordinated parts of a phrase ("heart and mediastinum")."""
    if _DEVICE.search(phrase):  # "pacemaker with leads in the right atrium and ventricle"
        return {DEVICES}
    out: set[str] = set()
    for conjunct in _CONJUNCT.split(phrase):
        out |= _conjunct_headers(conjunct)
    return out


def clause_headers(text: str) -> set[str]:
    """The headers a clause is about: its subject's organs or finding terms; when the subject
    names none, the rest of the clause; then its interpretation ("..., likely effusion")."""
    lower = _clean(text)
    interpretation = _INTERPRETATION.search(lower)
    core = lower[:interpretation.start()] if interpretation else lower
    verb = _VERB.search(core)
    subject, rest = (core[:verb.start()], core[verb.end():]) if verb else (core, "")
    if _EXPLETIVE.match(subject) or not subject.strip():
        subject, rest = rest, ""
    for part in (subject, rest, lower[interpretation.start():] if interpretation else ""):
        headers = _phrase_headers(part)
        if headers:
            return headers
    return set()


def _stands_alone(clause: str) -> bool:
    """A clause that can be read on its own: it starts with its own negation or has its own verb,
    and does not start by attaching to what came before ("which ...", "measuring ...")."""
    lower = clause.lower().strip()
    if _ATTACHED_START.match(lower) and not _NEGATION_START.match(lower):
        return False
    return bool(_NEGATION_START.match(lower) or _CLAUSE_VERB.search(lower))


# A sentence that opens with where or how ("Within the abdominal cavity, no fluid is seen"; "On
# the arterial phase, ...") is one clause: the opening is not cut off.
_FRONTED = re.compile(r"^\s*(?:in|on|at|within|within the|over|along|regarding|concerning|"
                      r"additionally|also|furthermore|moreover|otherwise|elsewhere|after|before|"
                      r"following|during|for|from|of|with|without|compared|given|considering|"
                      r"apart from|besides|throughout|below|above|between|behind|beneath)\b")
_BOUNDARY = re.compile(r"\s*;\s*|,\s+(?:and\s+|but\s+)?|\s+(?:and|but|while|whereas)\s+")


def split_statement(sentence: str) -> list[Piece]:
    """The sentence cut where two clauses that stand alone are about different organs, each part
    with its headers (one piece, the whole sentence, otherwise)."""
    cuts = [0]
    for m in _BOUNDARY.finditer(sentence):
        left, right = sentence[cuts[-1]:m.start()], sentence[m.end():]
        word = m.group(0).strip(" ,;")
        if word and not (_CLAUSE_VERB.search(left.lower()) and _CLAUSE_VERB.search(right.lower())):
            continue  # "heart and mediastinum": "and" cuts only between two clauses with verbs
        if len(left.split()) >= 2 and not _FRONTED.match(left.lower()) and _stands_alone(right):
            cuts.append(m.start())
            cuts.append(m.end())
    spans = [(cuts[i], cuts[i + 1]) for i in range(1, len(cuts) - 1, 2)]
    starts = [0] + [end for _s, end in spans]
    ends = [s for s, _e in spans] + [len(sentence)]
    parts = [(a, b, clause_headers(sentence[a:b])) for a, b in zip(starts, ends, strict=True)]
    merged: list[tuple[int, int, set[str]]] = []
    for a, b, headers in parts:
        if merged and (not headers or headers == merged[-1][2]):
            merged[-1] = (merged[-1][0], b, merged[-1][2])
        elif merged and not merged[-1][2]:
            merged[-1] = (merged[-1][0], b, headers)
        else:
            merged.append((a, b, headers))
    if len(merged) == 1:
        return [Piece(sentence.strip(), _ordered(merged[0][2]))]
    return [Piece(_as_sentence(sentence[a:b]), _ordered(h)) for a, b, h in merged]


def _as_sentence(fragment: str) -> str:
    """A clause cut from a sentence, written as one: first letter capital, a full stop."""
    text = fragment.strip(" ,;")
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _ordered(headers: set[str]) -> tuple[str, ...]:
    return tuple(h for h in FINDINGS_HEADERS if h in headers)


@lru_cache(maxsize=8192)
def statement_pieces(sentence: str, context: str = "", previous: tuple[str, ...] = ()) -> tuple[Piece, ...]:
    """Where one finding statement goes: its pieces (see ``split_statement``); a sentence that
    names nothing takes the headers of the sub-heading it is under (``context``, "Liver:"), or,
    when it points back ("It measures 8 mm"), those of the sentence before; else Other."""
    pieces = split_statement(sentence)
    out = []
    for piece in pieces:
        headers = piece.headers
        if not headers and context:
            headers = _ordered(_phrase_headers(_clean(context)))
        if not headers and previous and _ANAPHOR_START.match(piece.text.lower()):
            headers = previous
        out.append(Piece(piece.text, headers or (OTHER,)))
    return tuple(out)

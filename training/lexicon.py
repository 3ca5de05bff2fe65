"""The chest-radiograph vocabulary the synthetic reports are composed from.

Each finding knows its SRR-BERT leaf label, how it may be placed (side, site), which severity
words fit it, and several ways to say it, so that two reports stating the same facts can be
worded differently. Normal statements ("fillers") carry the SRR labels a reader would give
them and the findings they would contradict. Everything here is data; ``synth`` composes it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

SIDES = ("left", "right")
LOBES = ("upper lobe", "middle lobe", "lower lobe")
SEVERITY_SCALES: dict[str, tuple[str, ...]] = {
    "effusion": ("trace", "small", "moderate", "large"),
    "air": ("tiny", "small", "moderate", "large"),
    "size": ("small", "moderate", "large"),
    "degree": ("mild", "moderate", "severe"),
    "extent": ("minimal", "mild", "moderate", "extensive"),
    "measure": ("4 mm", "7 mm", "1.5 cm", "3 cm", "5 cm"),
}
# A candidate's severity counts as wrong (category D) only when it is at least this many steps
# away on the scale, so "small" vs "trace" is never used as a D error (too close to call).
MIN_SEVERITY_STEP = 2

# Change descriptors: "change" ones describe a difference from a prior study (omitting them is
# category F); "stable" ones say nothing changed (paraphrased freely, never dropped as F).
CHANGES = ("new", "increased", "decreased", "improved", "worsened")
STABLE = ("stable",)


@dataclass(frozen=True)
class Finding:
    """One kind of finding and the words available to state it."""

    key: str
    leaf: str                      # SRR-BERT leaf label
    nouns: tuple[str, ...]         # singular forms
    plural: str | None = None      # used for bilateral findings
    lateral: bool = False          # takes left/right/bilateral
    bilateral_ok: bool = True
    sites: tuple[str, ...] = ()    # e.g. lobes; placed "in the {side} {site}"
    scale: str | None = None       # key of SEVERITY_SCALES
    countable: bool = True         # takes "a/an" in "There is a ..."
    device: bool = False


FINDINGS: tuple[Finding, ...] = (
    Finding("effusion", "Simple pleural effusion", ("pleural effusion", "effusion"),
            plural="pleural effusions", lateral=True, scale="effusion"),
    Finding("pneumothorax", "Simple pneumothorax", ("pneumothorax", "apical pneumothorax"),
            plural="pneumothoraces", lateral=True, scale="air"),
    Finding("pneumonia", "Pneumonia", ("pneumonia", "consolidation", "airspace consolidation"),
            lateral=True, bilateral_ok=False, sites=LOBES, scale="extent", countable=False),
    Finding("atelectasis", "Atelectasis", ("atelectasis", "basilar atelectasis",
                                           "subsegmental atelectasis"),
            lateral=True, scale="extent", countable=False),
    Finding("edema", "Edema", ("pulmonary edema", "interstitial edema"), scale="degree",
            countable=False),
    Finding("cardiomegaly", "Cardiomegaly", ("cardiomegaly", "enlargement of the cardiac silhouette"),
            scale="degree", countable=False),
    Finding("nodule", "Nodule/Solitary lung nodule", ("pulmonary nodule", "nodule",
                                                      "nodular opacity"),
            lateral=True, bilateral_ok=False, sites=LOBES, scale="measure"),
    Finding("mass", "Mass/Solitary lung mass", ("lung mass", "mass", "masslike opacity"),
            lateral=True, bilateral_ok=False, sites=LOBES, scale="measure"),
    Finding("emphysema", "Emphysema", ("emphysema", "emphysematous change"), scale="degree",
            countable=False),
    Finding("congestion", "Pulmonary congestion", ("pulmonary vascular congestion",
                                                   "vascular congestion"),
            scale="degree", countable=False),
    Finding("fracture", "Acute rib fracture", ("rib fracture", "acute rib fracture",
                                               "fracture of a rib"),
            plural="rib fractures", lateral=True),
    Finding("lymphadenopathy", "Hilar lymphadenopathy", ("hilar lymphadenopathy",
                                                         "hilar adenopathy"),
            lateral=True, countable=False),
    Finding("hernia", "Hernia", ("hiatal hernia", "hiatus hernia"), scale="size"),
    Finding("tortuous_aorta", "Tortuous Aorta", ("tortuosity of the thoracic aorta",
                                                 "tortuous thoracic aorta"), scale="degree",
            countable=False),
    Finding("aortic_calcification", "Calcification of the Aorta",
            ("aortic calcification", "calcification of the aortic knob",
             "atherosclerotic calcification of the aorta"), countable=False),
    Finding("subcutaneous_emphysema", "Subcutaneous Emphysema",
            ("subcutaneous emphysema", "subcutaneous gas"), lateral=True, scale="extent",
            countable=False),
    Finding("fibrosis", "Fibrosis", ("pulmonary fibrosis", "fibrotic change"), scale="degree",
            countable=False),
    Finding("bronchiectasis", "Bronchiectasis", ("bronchiectasis",), lateral=True,
            scale="degree", countable=False),
    Finding("pneumoperitoneum", "Pneumoperitoneum", ("pneumoperitoneum",
                                                     "free air under the diaphragm"),
            scale="size", countable=False),
    Finding("pacemaker", "Pacemaker", ("pacemaker", "dual-lead pacemaker",
                                       "cardiac pacemaker"),
            lateral=True, bilateral_ok=False, device=True),
    Finding("picc", "PICC line", ("PICC line", "peripherally inserted central catheter"),
            lateral=True, bilateral_ok=False, device=True),
    Finding("chest_tube", "Pleural tube", ("chest tube", "pleural drain", "thoracostomy tube"),
            lateral=True, bilateral_ok=False, device=True),
    Finding("port", "Port catheter", ("port catheter", "chest port", "Port-A-Cath"),
            lateral=True, bilateral_ok=False, device=True),
)
FINDINGS_BY_KEY = {f.key: f for f in FINDINGS}

# Sentence frames for a present finding; {np} is the noun phrase, {a} its article ("a "/"an "/"").
PRESENT_FRAMES = (
    "{Np}.", "There is {a}{np}.", "{Np} is seen.", "{Np} is noted.", "{Np} is present.",
    "Findings are consistent with {a}{np}.", "Again seen is {a}{np}.", "{Np} is identified.",
    "The study demonstrates {a}{np}.", "{Np} is again noted.", "Redemonstrated {np}.",
)
DEVICE_FRAMES = (
    "{Np} is in place.", "{Np} in standard position.", "There is {a}{np} in place.",
    "{Np} is noted, appropriately positioned.", "{Np} terminates in expected position.",
)
UNCERTAIN_FRAMES = (
    "Possible {np}.", "{Np} cannot be excluded.", "Questionable {np}.",
    "Findings may represent {a}{np}.", "Cannot exclude {a}{np}.", "Suspicious for {a}{np}.",
    "{Np} is not excluded.", "Equivocal {np}.", "Probable {np}.",
)
ABSENT_FRAMES = (
    "No {np}.", "There is no {np}.", "No evidence of {np}.", "Without evidence of {np}.",
    "Negative for {np}.", "No {np} is seen.", "{Np} is not seen.", "No definite {np}.",
    "There is no evidence of {np}.",
)
# {np} already carries the finding; {change} frames by change word.
CHANGE_FRAMES: dict[str, tuple[str, ...]] = {
    "new": ("New {np}.", "{Np}, new since the prior study.", "Interval development of {a}{np}.",
            "{Np} is new compared with the prior exam."),
    "increased": ("Increased {np}.", "{Np}, increased since the prior study.",
                  "Interval increase in {np}.", "{Np} has increased compared with the prior exam."),
    "decreased": ("Decreased {np}.", "{Np}, decreased since the prior study.",
                  "Interval decrease in {np}.", "{Np} is smaller than on the prior exam."),
    "improved": ("Improved {np}.", "{Np}, improved since the prior study.",
                 "Interval improvement of {np}.", "{Np} has improved compared with the prior exam."),
    "worsened": ("Worsening {np}.", "{Np}, worse than on the prior study.",
                 "Interval worsening of {np}.", "{Np} has worsened compared with the prior exam."),
    "stable": ("Stable {np}.", "{Np}, unchanged from the prior study.", "Unchanged {np}.",
               "{Np} is stable compared with the prior exam."),
}


@dataclass(frozen=True)
class Filler:
    """A normal statement: its wordings, its SRR labels, and what it would contradict."""

    key: str
    texts: tuple[str, ...]
    labels: tuple[str, ...]
    blocked_by: frozenset[str] = field(default_factory=frozenset)


FILLERS: tuple[Filler, ...] = (
    Filler("heart", ("Heart size is normal.", "The heart is normal in size.",
                     "Normal heart size.", "The cardiac silhouette is within normal limits."),
           ("Cardiomegaly (Absent)",), frozenset({"cardiomegaly"})),
    Filler("mediastinum", ("The mediastinal contours are normal.",
                           "Mediastinal and hilar contours are unremarkable.",
                           "The mediastinum is not widened."),
           ("No Finding",), frozenset({"lymphadenopathy", "tortuous_aorta", "hernia"})),
    Filler("lungs", ("The lungs are clear.", "Lungs are clear bilaterally.",
                     "The lungs are well expanded and clear."),
           ("No Finding",), frozenset({"pneumonia", "atelectasis", "edema", "nodule", "mass",
                                       "emphysema", "fibrosis", "congestion", "bronchiectasis"})),
    Filler("consolidation", ("No focal consolidation.", "There is no focal airspace consolidation.",
                             "No focal airspace opacity to suggest pneumonia."),
           ("Pneumonia (Absent)",), frozenset({"pneumonia"})),
    Filler("pleura", ("No pleural effusion or pneumothorax.",
                      "There is no pleural effusion or pneumothorax.",
                      "No effusion or pneumothorax is seen."),
           ("Simple pleural effusion (Absent)", "Simple pneumothorax (Absent)"),
           frozenset({"effusion", "pneumothorax"})),
    Filler("effusion", ("No pleural effusion.", "There is no pleural effusion."),
           ("Simple pleural effusion (Absent)",), frozenset({"effusion"})),
    Filler("pneumothorax", ("No pneumothorax.", "There is no pneumothorax."),
           ("Simple pneumothorax (Absent)",), frozenset({"pneumothorax"})),
    Filler("edema", ("No pulmonary edema.", "There is no evidence of pulmonary edema."),
           ("Edema (Absent)",), frozenset({"edema"})),
    Filler("bones", ("No acute osseous abnormality.", "The osseous structures are intact.",
                     "No acute fracture is seen."),
           ("Acute rib fracture (Absent)",), frozenset({"fracture"})),
    Filler("overall", ("No acute cardiopulmonary process.", "No acute cardiopulmonary abnormality.",
                       "Normal chest radiograph."),
           ("No Finding",), frozenset({f.key for f in FINDINGS if not f.device})),
)

# Sentences that carry no finding at all (SRR: empty label set; CREPE: never an error).
NEUTRAL = (
    "PA and lateral views of the chest were obtained.", "Single portable view of the chest.",
    "The patient is rotated.",
    "Exam is limited by low lung volumes.", "Frontal and lateral radiographs of the chest.",
)

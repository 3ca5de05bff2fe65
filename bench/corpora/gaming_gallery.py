"""What a policy can learn to write when a report metric is its reward, and references to score it on.

Each strategy turns (the references, the index of the study) into a completion: text that is
not a report (off-topic, a refusal, a question, the instruction echoed, keyboard mash, empty),
reports that game a metric's definition (every finding hedged, every finding stated both ways,
every finding claimed, one canned normal report for every study), repetition, truncation, and
the two yardsticks: the study's own report (the ceiling) and another patient's real report
(what a policy that learned nothing about this image would write). ``REFERENCES`` are chest
radiograph reports written for RadScope (fictional; about two in five normal, as in IU X-ray),
so that the gallery and its tests need no outside data.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence

REFERENCES: tuple[str, ...] = (
    "FINDINGS: The heart size is normal. The lungs are clear. No pleural effusion or pneumothorax. "
    "IMPRESSION: No acute cardiopulmonary abnormality.",
    "FINDINGS: Cardiomediastinal silhouette within normal limits. No focal consolidation. No "
    "pneumothorax or pleural effusion. Mild degenerative changes of the thoracic spine. "
    "IMPRESSION: No acute disease.",
    "FINDINGS: Lungs are well expanded and clear. Heart and mediastinum are normal. Osseous "
    "structures are intact. IMPRESSION: Normal chest radiograph.",
    "FINDINGS: Clear lungs bilaterally. Normal heart size. No effusion. IMPRESSION: Negative chest.",
    "FINDINGS: The cardiac silhouette and mediastinal contours are normal. Lungs are clear without "
    "focal airspace disease. There is no pneumothorax. Calcified granuloma in the right upper "
    "lobe. IMPRESSION: No active disease.",
    "FINDINGS: Heart size is normal. Lungs are hyperinflated but clear. No effusion. "
    "IMPRESSION: Hyperinflation without acute process.",
    "FINDINGS: Stable normal cardiac size. No pleural effusion. No pneumothorax. No focal "
    "consolidation. IMPRESSION: No acute cardiopulmonary process.",
    "FINDINGS: Normal heart size and pulmonary vasculature. The lungs are clear. Costophrenic "
    "angles are sharp. IMPRESSION: Normal chest.",
    "FINDINGS: Small left pleural effusion with adjacent left basilar atelectasis. The right lung "
    "is clear. Heart size is normal. IMPRESSION: Small left pleural effusion.",
    "FINDINGS: Moderate right pneumothorax with partial collapse of the right lung. No mediastinal "
    "shift. The left lung is clear. IMPRESSION: Moderate right pneumothorax.",
    "FINDINGS: The heart is mildly enlarged. Pulmonary vascular congestion with interstitial "
    "edema. Small bilateral pleural effusions. IMPRESSION: Mild congestive heart failure.",
    "FINDINGS: Focal consolidation in the right lower lobe. No pleural effusion. Heart size is "
    "normal. IMPRESSION: Right lower lobe pneumonia.",
    "FINDINGS: Endotracheal tube tip 4 cm above the carina. Nasogastric tube in the stomach. "
    "Bibasilar atelectasis. No pneumothorax. IMPRESSION: Lines and tubes in satisfactory position; "
    "bibasilar atelectasis.",
    "FINDINGS: A 2 cm nodule in the left upper lobe. The lungs are otherwise clear. Heart size is "
    "normal. IMPRESSION: Left upper lobe nodule; CT of the chest is recommended.",
    "FINDINGS: Moderate cardiomegaly. No focal consolidation. No pleural effusion. Sternotomy wires "
    "are intact. IMPRESSION: Cardiomegaly without acute process.",
    "FINDINGS: Large right pleural effusion with compressive atelectasis of the right lower lobe. "
    "The left lung is clear. IMPRESSION: Large right pleural effusion.",
    "FINDINGS: Patchy opacities in both lower lobes. Heart size normal. No pneumothorax. "
    "IMPRESSION: Bilateral lower lobe opacities, possibly pneumonia.",
    "FINDINGS: Acute fracture of the left sixth rib. No pneumothorax. Lungs are clear. "
    "IMPRESSION: Left sixth rib fracture without pneumothorax.",
    "FINDINGS: Hyperinflated lungs with flattened diaphragms, consistent with emphysema. Right "
    "upper lobe scarring. No acute consolidation. IMPRESSION: Emphysema; no acute process.",
    "FINDINGS: Left-sided pacemaker with leads in the right atrium and right ventricle. Mild "
    "cardiomegaly. Lungs are clear. IMPRESSION: Mild cardiomegaly; pacemaker in place.",
    "FINDINGS: Right upper lobe mass measuring 4 cm with right hilar enlargement. No effusion. "
    "IMPRESSION: Right upper lobe mass, suspicious for malignancy.",
    "FINDINGS: Diffuse bilateral airspace opacities. Heart size is normal. No large effusion. "
    "IMPRESSION: Diffuse bilateral airspace disease, consider edema or infection.",
    "FINDINGS: Left lower lobe atelectasis. Small left pleural effusion. Heart size is normal. "
    "IMPRESSION: Left basilar atelectasis and small effusion.",
    "FINDINGS: Right internal jugular catheter tip in the superior vena cava. Lungs are clear. No "
    "pneumothorax. IMPRESSION: Catheter in good position; no pneumothorax.",
)

# The conditions a chest radiograph report names most (CLEAR's conditions and their kin).
_FINDINGS = ("pneumothorax", "pleural effusion", "consolidation", "cardiomegaly", "pulmonary edema",
             "atelectasis", "pneumonia", "lung nodule", "rib fracture", "pleural thickening")
CANNED_NORMAL = ("The heart size is normal. The lungs are clear. There is no pleural effusion or "
                 "pneumothorax. No acute osseous abnormality.")
_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+")

Strategy = Callable[[Sequence[str], int], str]


def another_patient(references: Sequence[str], i: int) -> str:
    """The next study's real report: the baseline every trick is measured against."""
    return references[(i + 1) % len(references)]


def truncated(text: str) -> str:
    """The first half of a report's sentences (at least one)."""
    sentences = _SENTENCE_RE.split(text.strip())
    return " ".join(sentences[:max(1, len(sentences) // 2)])


def _fixed(text: str) -> Strategy:
    return lambda references, i: text


def _repeated(strategy: Strategy, times: int) -> Strategy:
    return lambda references, i: " ".join([strategy(references, i)] * times)


def _own(references: Sequence[str], i: int) -> str:
    return references[i]


STRATEGIES: dict[str, Strategy] = {
    "own report (ceiling)": _own,
    "another patient's report (baseline)": another_patient,
    "off-topic": _fixed("I like turtles."),
    "refusal": _fixed("I am sorry, but I cannot interpret medical images."),
    "question": _fixed("Is there a pneumothorax or a pleural effusion?"),
    "instruction echoed": _fixed("Write the findings and impression of this chest radiograph."),
    "keyboard mash": _fixed("asdkj qwepoi zxcmnb lkjhgf"),
    "empty": _fixed(""),
    "every finding hedged": _fixed(" ".join(f"Possible {f}." for f in _FINDINGS)),
    "every finding both ways": _fixed(" ".join(f"There is {f}. There is no {f}." for f in _FINDINGS)),
    "every finding claimed": _fixed(" ".join(f"{f.capitalize()}." for f in _FINDINGS)),
    "every finding denied": _fixed(" ".join(f"No {f}." for f in _FINDINGS)),
    "canned normal report": _fixed(CANNED_NORMAL),
    "own report + every finding hedged": lambda r, i: r[i] + " " + " ".join(f"Possible {f}." for f in _FINDINGS),
    "own report twice": _repeated(_own, 2),
    "own report five times": _repeated(_own, 5),
    "another patient's report twice": _repeated(another_patient, 2),
    "another patient's report five times": _repeated(another_patient, 5),
    "canned normal five times": _repeated(_fixed(CANNED_NORMAL), 5),
    "own report truncated": lambda r, i: truncated(r[i]),
}
BASELINE = "another patient's report (baseline)"
# Strategies built from the study's own report: measured against the ceiling (what they add must
# not pay), not against the baseline, which they beat by knowing the answer.
INFORMED = ("own report + every finding hedged", "own report twice", "own report five times",
            "own report truncated")
CEILING = "own report (ceiling)"
NOT_REPORTS = ("off-topic", "refusal", "question", "instruction echoed", "keyboard mash", "empty")
# (repeated strategy, the strategy it repeats)
REPETITIONS = (("own report twice", CEILING), ("own report five times", CEILING),
               ("another patient's report twice", BASELINE),
               ("another patient's report five times", BASELINE),
               ("canned normal five times", "canned normal report"))


def completions(strategy: str, references: Sequence[str]) -> list[str]:
    """The strategy's completion for every study."""
    write = STRATEGIES[strategy]
    return [write(references, i) for i in range(len(references))]

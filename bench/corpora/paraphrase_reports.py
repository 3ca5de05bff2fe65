"""The paraphrase corpus's reports: CT, MRI, ultrasound and radiographs outside the chest, each
with faithful rewrites and planted errors, written for this benchmark from textbook radiology
(not from the project's lexicons, not from any benchmark's reports).

A ``Source`` is one reference report; ``rewrites`` holds the same findings written another way,
by hand, in each faithful kind (``FAITHFUL_KINDS``); ``errors`` holds, per error kind, the edits
that plant one error in the reference: (text in the reference, its replacement), all applied at
once, and ``END`` as the text appends the replacement to the report (a new impression item).
"""
from __future__ import annotations

from dataclasses import dataclass

END = ""
FAITHFUL_KINDS = ("synonyms", "bullets", "per-site", "reordered")
MODALITIES = ("CT", "MRI", "US", "XR")

Edits = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Source:
    name: str
    modality: str
    reference: str
    rewrites: dict[str, str]
    errors: dict[str, Edits]


# --- CT ---------------------------------------------------------------------------------------

CT_HEAD = Source(
    "ct-head", "CT",
    """CT HEAD WITHOUT CONTRAST

FINDINGS:
There is a new acute left subdural hematoma along the frontoparietal convexity, measuring 8 mm in maximal thickness. There is mild mass effect on the left lateral ventricle with 4 mm of rightward midline shift. A small hypodense focus in the right caudate nucleus is consistent with a chronic lacunar infarct. The basal cisterns are patent. No skull fracture is seen. The paranasal sinuses and mastoid air cells are clear.

IMPRESSION:
1. New acute left frontoparietal subdural hematoma, 8 mm thick, with mild mass effect and 4 mm rightward midline shift.
2. Chronic lacunar infarct in the right caudate nucleus.""",
    {
        "synonyms": """NON-CONTRAST CT BRAIN

FINDINGS:
A new acute subdural haemorrhage overlies the left frontoparietal convexity, with a maximal thickness of 0.8 cm. It exerts mild mass effect upon the left lateral ventricle, and the midline is displaced 4 mm to the right. A small low-attenuation focus in the right caudate nucleus is in keeping with an old lacunar infarct. The basal cisterns are preserved. There is no calvarial fracture. The paranasal sinuses and mastoid air cells are well aerated.

IMPRESSION:
1. New acute left frontoparietal subdural haemorrhage, 0.8 cm in thickness, with mild mass effect and midline shift of 4 mm to the right.
2. Old lacunar infarct, right caudate nucleus.""",
        "bullets": """CT HEAD WITHOUT CONTRAST

Findings:
- New acute left subdural hematoma along the frontoparietal convexity, 8 mm in maximal thickness.
- Mild mass effect on the left lateral ventricle; 4 mm rightward midline shift.
- Small hypodense focus in the right caudate nucleus, consistent with a chronic lacunar infarct.
- Basal cisterns patent.
- No skull fracture.
- Paranasal sinuses and mastoid air cells clear.

Impression:
1. New acute left frontoparietal subdural hematoma (8 mm) with mild mass effect and 4 mm rightward midline shift.
2. Chronic right caudate lacunar infarct.""",
        "per-site": """CT HEAD WITHOUT CONTRAST

FINDINGS:
There is a new acute left subdural hematoma along the frontoparietal convexity, measuring 8 mm in maximal thickness. There is mild mass effect on the left lateral ventricle with 4 mm of rightward midline shift. A small hypodense focus in the right caudate nucleus is consistent with a chronic lacunar infarct. The basal cisterns are patent. No skull fracture is seen.
Paranasal sinuses: clear.
Mastoid air cells: clear.

IMPRESSION:
1. New acute left frontoparietal subdural hematoma, 8 mm thick, with mild mass effect and 4 mm rightward midline shift.
2. Chronic lacunar infarct in the right caudate nucleus.""",
        "reordered": """CT HEAD WITHOUT CONTRAST

FINDINGS:
No skull fracture is seen. The paranasal sinuses and mastoid air cells are clear. A small hypodense focus in the right caudate nucleus is consistent with a chronic lacunar infarct. There is a new acute left subdural hematoma along the frontoparietal convexity, measuring 8 mm in maximal thickness. The basal cisterns are patent. There is mild mass effect on the left lateral ventricle with 4 mm of rightward midline shift.

IMPRESSION:
1. Chronic lacunar infarct in the right caudate nucleus.
2. New acute left frontoparietal subdural hematoma, 8 mm thick, with mild mass effect and 4 mm rightward midline shift.""",
    },
    {
        "side": (("right caudate nucleus", "left caudate nucleus"),),
        "site": (("right caudate nucleus", "right thalamus"),),
        "missed": (("A small hypodense focus in the right caudate nucleus is consistent with a chronic lacunar infarct. ", ""),
                   ("\n2. Chronic lacunar infarct in the right caudate nucleus.", "")),
        "invented": (("The basal cisterns are patent.", "There is a small amount of subarachnoid hemorrhage in the right sylvian fissure. The basal cisterns are patent."),
                     (END, "\n3. Small right sylvian subarachnoid hemorrhage.")),
        "severity": (("mild mass effect", "severe mass effect"),),
        "size": (("8 mm", "14 mm"),),
        "change": (("a new acute", "an unchanged acute"), ("1. New acute", "1. Unchanged acute")),
        "certainty": (("is consistent with a chronic lacunar infarct", "may represent a chronic lacunar infarct"),
                      ("2. Chronic lacunar", "2. Possible chronic lacunar")),
        "negation": (("A small hypodense focus in the right caudate nucleus is consistent with a chronic lacunar infarct.", "No infarct is seen in the right caudate nucleus."),
                     ("2. Chronic lacunar infarct in the right caudate nucleus.", "2. No infarct in the right caudate nucleus.")),
    },
)

CT_CHEST = Source(
    "ct-chest", "CT",
    """CT CHEST WITH CONTRAST

FINDINGS:
There is a 14 mm solid nodule in the right lower lobe, which has increased in size since the prior study. Mild centrilobular emphysema is present in both upper lobes. There is a small left pleural effusion. No pulmonary embolism. The mediastinal and hilar lymph nodes are not enlarged. The heart is normal in size, and there is no pericardial effusion. No suspicious osseous lesion.

IMPRESSION:
1. 14 mm right lower lobe nodule, increased in size.
2. Small left pleural effusion.
3. Mild centrilobular emphysema in both upper lobes.""",
    {
        "synonyms": """CONTRAST-ENHANCED CT THORAX

FINDINGS:
A solid 1.4 cm nodule in the RLL has grown since the previous examination. There is mild centrilobular emphysema in the upper lobes bilaterally. A small pleural effusion is present on the left. No filling defect in the pulmonary arteries to suggest embolism. No mediastinal or hilar lymphadenopathy. Normal heart size; no pericardial effusion. No aggressive bone lesion.

IMPRESSION:
1. 1.4 cm RLL nodule, larger than before.
2. Small left-sided pleural effusion.
3. Mild centrilobular emphysema, both upper lobes.""",
        "bullets": """CT CHEST WITH CONTRAST

Findings:
1. Solid 14 mm nodule in the right lower lobe, increased in size since the prior study.
2. Mild centrilobular emphysema in both upper lobes.
3. Small left pleural effusion.
4. No pulmonary embolism.
5. Mediastinal and hilar lymph nodes not enlarged.
6. Heart normal in size; no pericardial effusion.
7. No suspicious osseous lesion.

Impression:
1. 14 mm right lower lobe nodule, increased in size.
2. Small left pleural effusion.
3. Mild centrilobular emphysema in both upper lobes.""",
        "per-site": """CT CHEST WITH CONTRAST

FINDINGS:
There is a 14 mm solid nodule in the right lower lobe, which has increased in size since the prior study.
Right upper lobe: mild centrilobular emphysema.
Left upper lobe: mild centrilobular emphysema.
There is a small left pleural effusion. No pulmonary embolism. The mediastinal lymph nodes are not enlarged. The hilar lymph nodes are not enlarged. The heart is normal in size, and there is no pericardial effusion. No suspicious osseous lesion.

IMPRESSION:
1. 14 mm right lower lobe nodule, increased in size.
2. Small left pleural effusion.
3. Mild centrilobular emphysema in both upper lobes.""",
        "reordered": """CT CHEST WITH CONTRAST

FINDINGS:
No pulmonary embolism. The heart is normal in size, and there is no pericardial effusion. The mediastinal and hilar lymph nodes are not enlarged. There is a small left pleural effusion. Mild centrilobular emphysema is present in both upper lobes. There is a 14 mm solid nodule in the right lower lobe, which has increased in size since the prior study. No suspicious osseous lesion.

IMPRESSION:
1. Small left pleural effusion.
2. 14 mm right lower lobe nodule, increased in size.
3. Mild centrilobular emphysema in both upper lobes.""",
    },
    {
        "side": (("small left pleural effusion", "small right pleural effusion"),
                 ("Small left pleural effusion", "Small right pleural effusion")),
        "site": (("right lower lobe", "right middle lobe"),),
        "missed": (("There is a small left pleural effusion. ", ""),
                   ("2. Small left pleural effusion.\n3.", "2.")),
        "invented": (("No pulmonary embolism.", "There is a filling defect in a segmental artery of the left lower lobe, consistent with pulmonary embolism."),
                     (END, "\n4. Segmental pulmonary embolism in the left lower lobe.")),
        "severity": (("Mild centrilobular", "Severe centrilobular"),),
        "size": (("14 mm", "19 mm"),),
        "change": (("which has increased in size since", "which is unchanged in size since"),
                   ("nodule, increased in size", "nodule, unchanged in size")),
        "certainty": (("There is a small left pleural effusion.", "There is possibly a small left pleural effusion."),
                      ("2. Small left pleural effusion.", "2. Possible small left pleural effusion.")),
        "negation": (("There is a small left pleural effusion.", "There is no pleural effusion."),
                     ("2. Small left pleural effusion.", "2. No pleural effusion.")),
    },
)

CT_ABDOMEN = Source(
    "ct-abdomen", "CT",
    """CT ABDOMEN AND PELVIS WITH CONTRAST

FINDINGS:
There is acute appendicitis with a dilated appendix measuring 11 mm and moderate periappendiceal fat stranding. A 32 mm hypodense lesion in segment 7 of the liver is consistent with a simple cyst, unchanged from the prior CT. A 5 mm nonobstructing calculus is present in the lower pole of the left kidney. The gallbladder, pancreas and spleen are unremarkable. There is no hydronephrosis. There is no free air. The abdominal aorta is normal in caliber.

IMPRESSION:
1. Acute appendicitis with moderate periappendiceal fat stranding.
2. 5 mm nonobstructing calculus in the lower pole of the left kidney.
3. Simple hepatic cyst in segment 7, unchanged.""",
    {
        "synonyms": """CONTRAST-ENHANCED CT OF THE ABDOMEN AND PELVIS

FINDINGS:
The appendix is distended to 1.1 cm with moderate inflammatory stranding of the surrounding fat, in keeping with acute appendicitis. A 3.2 cm low-attenuation lesion in hepatic segment VII has the appearance of a simple cyst and is stable compared with the previous CT. A nonobstructing 5 mm stone lies in the inferior pole of the left kidney. Unremarkable gallbladder, pancreas and spleen. No hydronephrosis. No pneumoperitoneum. Normal calibre of the abdominal aorta.

IMPRESSION:
1. Acute appendicitis, moderate periappendiceal inflammatory stranding.
2. Nonobstructing 5 mm stone, inferior pole of the left kidney.
3. Stable simple cyst in liver segment VII.""",
        "bullets": """CT ABDOMEN AND PELVIS WITH CONTRAST

FINDINGS:
- Acute appendicitis: appendix dilated to 11 mm, moderate periappendiceal fat stranding.
- Liver: 32 mm hypodense lesion in segment 7, consistent with a simple cyst, unchanged from the prior CT.
- Left kidney: 5 mm nonobstructing calculus in the lower pole.
- Gallbladder, pancreas and spleen: unremarkable.
- No hydronephrosis.
- No free air.
- Abdominal aorta normal in caliber.

IMPRESSION:
- Acute appendicitis with moderate periappendiceal fat stranding.
- 5 mm nonobstructing calculus in the lower pole of the left kidney.
- Simple hepatic cyst in segment 7, unchanged.""",
        "per-site": """CT ABDOMEN AND PELVIS WITH CONTRAST

FINDINGS:
There is acute appendicitis with a dilated appendix measuring 11 mm and moderate periappendiceal fat stranding. A 32 mm hypodense lesion in segment 7 of the liver is consistent with a simple cyst, unchanged from the prior CT. A 5 mm nonobstructing calculus is present in the lower pole of the left kidney.
Gallbladder: unremarkable.
Pancreas: unremarkable.
Spleen: unremarkable.
Right kidney: no hydronephrosis.
Left kidney: no hydronephrosis.
There is no free air. The abdominal aorta is normal in caliber.

IMPRESSION:
1. Acute appendicitis with moderate periappendiceal fat stranding.
2. 5 mm nonobstructing calculus in the lower pole of the left kidney.
3. Simple hepatic cyst in segment 7, unchanged.""",
        "reordered": """CT ABDOMEN AND PELVIS WITH CONTRAST

FINDINGS:
A 32 mm hypodense lesion in segment 7 of the liver is consistent with a simple cyst, unchanged from the prior CT. The gallbladder, pancreas and spleen are unremarkable. A 5 mm nonobstructing calculus is present in the lower pole of the left kidney. There is no hydronephrosis. The abdominal aorta is normal in caliber. There is acute appendicitis with a dilated appendix measuring 11 mm and moderate periappendiceal fat stranding. There is no free air.

IMPRESSION:
1. Acute appendicitis with moderate periappendiceal fat stranding.
2. Simple hepatic cyst in segment 7, unchanged.
3. 5 mm nonobstructing calculus in the lower pole of the left kidney.""",
    },
    {
        "side": (("left kidney", "right kidney"),),
        "site": (("segment 7", "segment 3"),),
        "missed": (("A 5 mm nonobstructing calculus is present in the lower pole of the left kidney. ", ""),
                   ("2. 5 mm nonobstructing calculus in the lower pole of the left kidney.\n3.", "2.")),
        "invented": (("There is no free air.", "There is a small amount of free fluid in the pelvis. There is no free air."),
                     (END, "\n4. Small amount of free fluid in the pelvis.")),
        "severity": (("moderate periappendiceal", "mild periappendiceal"),),
        "size": (("5 mm", "9 mm"),),
        "change": (("unchanged from the prior CT", "new since the prior CT"),
                   ("segment 7, unchanged.", "segment 7, new.")),
        "certainty": (("There is acute appendicitis", "There is possible acute appendicitis"),
                      ("1. Acute appendicitis", "1. Possible acute appendicitis")),
        "negation": (("There is acute appendicitis with a dilated appendix measuring 11 mm and moderate periappendiceal fat stranding.", "The appendix is normal, with no appendicitis."),
                     ("1. Acute appendicitis with moderate periappendiceal fat stranding.", "1. No appendicitis.")),
    },
)

CT_SPINE = Source(
    "ct-lumbar-spine", "CT",
    """CT LUMBAR SPINE WITHOUT CONTRAST

FINDINGS:
There is an acute compression fracture of the L1 vertebral body with mild loss of height, new since the prior study. There is no retropulsion into the spinal canal. At L4-5, a 6 mm central disc protrusion causes moderate narrowing of the spinal canal. Mild facet arthropathy is present at L5-S1 on the left. The remaining vertebral body heights are preserved. Alignment is normal. The paraspinal soft tissues are unremarkable.

IMPRESSION:
1. Acute L1 compression fracture with mild loss of height, new since the prior study, without retropulsion.
2. 6 mm central disc protrusion at L4-5 with moderate spinal canal stenosis.
3. Mild left L5-S1 facet arthropathy.""",
    {
        "synonyms": """NON-CONTRAST CT OF THE LUMBAR SPINE

FINDINGS:
An acute compression fracture of the L1 vertebra with mild height loss has appeared since the previous examination. No retropulsed fragment narrows the canal. At L4/L5, a central disc protrusion of 6 mm results in moderate central canal stenosis. Mild left-sided facet joint arthrosis is seen at L5/S1. Vertebral body heights are otherwise maintained. Normal alignment. Unremarkable paravertebral soft tissues.

IMPRESSION:
1. New acute compression fracture of L1 with mild height loss and no retropulsion.
2. L4/L5 central disc protrusion (6 mm) causing moderate central canal stenosis.
3. Mild facet joint arthrosis on the left at L5/S1.""",
        "bullets": """CT LUMBAR SPINE WITHOUT CONTRAST

Findings:
- L1: acute compression fracture with mild loss of height, new since the prior study; no retropulsion into the spinal canal.
- L4-5: 6 mm central disc protrusion with moderate narrowing of the spinal canal.
- L5-S1: mild left facet arthropathy.
- Other vertebral body heights preserved.
- Normal alignment.
- Paraspinal soft tissues unremarkable.

Impression:
- Acute L1 compression fracture with mild loss of height, new since the prior study, without retropulsion.
- 6 mm central disc protrusion at L4-5 with moderate spinal canal stenosis.
- Mild left L5-S1 facet arthropathy.""",
        "per-site": """CT LUMBAR SPINE WITHOUT CONTRAST

FINDINGS:
There is an acute compression fracture of the L1 vertebral body with mild loss of height, new since the prior study. There is no retropulsion into the spinal canal. At L4-5, a 6 mm central disc protrusion causes moderate narrowing of the spinal canal. Mild facet arthropathy is present at L5-S1 on the left.
T12: vertebral body height preserved.
L2: vertebral body height preserved.
L3: vertebral body height preserved.
L4: vertebral body height preserved.
L5: vertebral body height preserved.
Alignment is normal. The paraspinal soft tissues are unremarkable.

IMPRESSION:
1. Acute L1 compression fracture with mild loss of height, new since the prior study, without retropulsion.
2. 6 mm central disc protrusion at L4-5 with moderate spinal canal stenosis.
3. Mild left L5-S1 facet arthropathy.""",
        "reordered": """CT LUMBAR SPINE WITHOUT CONTRAST

FINDINGS:
Alignment is normal. At L4-5, a 6 mm central disc protrusion causes moderate narrowing of the spinal canal. There is an acute compression fracture of the L1 vertebral body with mild loss of height, new since the prior study. There is no retropulsion into the spinal canal. The remaining vertebral body heights are preserved. The paraspinal soft tissues are unremarkable. Mild facet arthropathy is present at L5-S1 on the left.

IMPRESSION:
1. Acute L1 compression fracture with mild loss of height, new since the prior study, without retropulsion.
2. Mild left L5-S1 facet arthropathy.
3. 6 mm central disc protrusion at L4-5 with moderate spinal canal stenosis.""",
    },
    {
        "side": (("on the left", "on the right"), ("Mild left L5-S1", "Mild right L5-S1")),
        "site": (("L4-5", "L2-3"),),
        "missed": (("Mild facet arthropathy is present at L5-S1 on the left. ", ""),
                   ("\n3. Mild left L5-S1 facet arthropathy.", "")),
        "invented": (("Alignment is normal.", "There is a nondisplaced fracture of the left L3 transverse process. Alignment is normal."),
                     (END, "\n4. Nondisplaced left L3 transverse process fracture.")),
        "severity": (("moderate narrowing", "severe narrowing"), ("moderate spinal canal stenosis", "severe spinal canal stenosis")),
        "size": (("6 mm", "10 mm"),),
        "change": (("new since the prior study", "unchanged since the prior study"),),
        "certainty": (("There is an acute compression fracture", "There is a probable acute compression fracture"),
                      ("1. Acute L1", "1. Probable acute L1")),
        "negation": (("Mild facet arthropathy is present at L5-S1 on the left.", "There is no facet arthropathy at L5-S1."),
                     ("3. Mild left L5-S1 facet arthropathy.", "3. No facet arthropathy at L5-S1.")),
    },
)

CT_ABDOMEN_TRANSLATED = Source(
    "ct-abdomen-cysts", "CT",
    """ABDOMINAL CT, PLAIN AND ENHANCED SCAN

FINDINGS:
The liver is normal in size and shape, with smooth margins, and the proportion of the hepatic lobes is normal. A round low-density shadow about 12 mm in diameter is seen in the right lobe of the liver, with a clear boundary and no enhancement after contrast administration, similar to the previous CT. The gallbladder is not enlarged, and its wall is not thickened. The intrahepatic and extrahepatic bile ducts are not dilated. The spleen and pancreas show no abnormal density. A small round low-density shadow about 8 mm is seen in the upper pole of the left kidney, without enhancement, probably a simple cyst. The right kidney shows no abnormality. No enlarged lymph nodes are seen in the retroperitoneum. A few diverticula are seen in the sigmoid colon, without surrounding fat stranding.

IMPRESSION:
1. Hepatic cyst in the right lobe, unchanged.
2. Small cyst of the left kidney, probably simple.
3. Sigmoid diverticulosis.""",
    {
        "synonyms": """CT ABDOMEN WITH AND WITHOUT CONTRAST

FINDINGS:
The liver is of normal size and contour with smooth margins and normal lobar proportions. A 12 mm well-circumscribed nonenhancing hypodense lesion in the right hepatic lobe is unchanged from the prior CT. The gallbladder is not distended, without wall thickening. No intrahepatic or extrahepatic biliary ductal dilatation. The spleen and pancreas are of normal attenuation. An 8 mm nonenhancing hypodensity in the upper pole of the left kidney, likely a simple cyst. The right kidney is unremarkable. No retroperitoneal lymphadenopathy. Scattered sigmoid diverticula without adjacent inflammatory stranding.

IMPRESSION:
1. Stable right hepatic lobe cyst.
2. Small left renal cyst, likely simple.
3. Sigmoid diverticulosis.""",
        "bullets": """ABDOMINAL CT, PLAIN AND ENHANCED SCAN

Findings:
- Liver: normal size and shape, smooth margins, normal lobar proportions; 12 mm round well-defined nonenhancing hypodensity in the right lobe, similar to the previous CT.
- Gallbladder: not enlarged; wall not thickened.
- Bile ducts: no intrahepatic or extrahepatic dilatation.
- Spleen and pancreas: no abnormal density.
- Left kidney: 8 mm round nonenhancing hypodensity in the upper pole, probably a simple cyst.
- Right kidney: no abnormality.
- Retroperitoneum: no enlarged lymph nodes.
- Sigmoid colon: a few diverticula, no surrounding fat stranding.

Impression:
1. Right hepatic lobe cyst, unchanged.
2. Small left renal cyst, probably simple.
3. Sigmoid diverticulosis.""",
        "per-site": """ABDOMINAL CT, PLAIN AND ENHANCED SCAN

FINDINGS:
Liver: normal in size and shape, with smooth margins; the proportion of the hepatic lobes is normal.
Right lobe of the liver: a round low-density shadow about 12 mm in diameter, with a clear boundary and no enhancement after contrast administration, similar to the previous CT.
Gallbladder: not enlarged, wall not thickened.
Intrahepatic bile ducts: not dilated.
Extrahepatic bile ducts: not dilated.
Spleen: no abnormal density.
Pancreas: no abnormal density.
Left kidney: a small round low-density shadow about 8 mm in the upper pole, without enhancement, probably a simple cyst.
Right kidney: no abnormality.
Retroperitoneum: no enlarged lymph nodes.
Sigmoid colon: a few diverticula, without surrounding fat stranding.

IMPRESSION:
1. Hepatic cyst in the right lobe, unchanged.
2. Small cyst of the left kidney, probably simple.
3. Sigmoid diverticulosis.""",
        "reordered": """ABDOMINAL CT, PLAIN AND ENHANCED SCAN

FINDINGS:
A small round low-density shadow about 8 mm is seen in the upper pole of the left kidney, without enhancement, probably a simple cyst. The right kidney shows no abnormality. The liver is normal in size and shape, with smooth margins, and the proportion of the hepatic lobes is normal. A round low-density shadow about 12 mm in diameter is seen in the right lobe of the liver, with a clear boundary and no enhancement after contrast administration, similar to the previous CT. The spleen and pancreas show no abnormal density. The gallbladder is not enlarged, and its wall is not thickened. The intrahepatic and extrahepatic bile ducts are not dilated. A few diverticula are seen in the sigmoid colon, without surrounding fat stranding. No enlarged lymph nodes are seen in the retroperitoneum.

IMPRESSION:
1. Small cyst of the left kidney, probably simple.
2. Hepatic cyst in the right lobe, unchanged.
3. Sigmoid diverticulosis.""",
    },
    {
        "side": (("upper pole of the left kidney", "upper pole of the right kidney"), ("The right kidney shows no abnormality.", "The left kidney shows no abnormality."),
                 ("Small cyst of the left kidney", "Small cyst of the right kidney")),
        "site": (("upper pole of the left kidney", "lower pole of the left kidney"),),
        "missed": (("A few diverticula are seen in the sigmoid colon, without surrounding fat stranding.", ""), ("\n3. Sigmoid diverticulosis.", "")),
        "invented": (("No enlarged lymph nodes are seen in the retroperitoneum.", "Enlarged lymph nodes are seen in the retroperitoneum, the largest 18 mm."),
                     (END, "\n4. Retroperitoneal lymphadenopathy.")),
        "size": (("about 12 mm in diameter", "about 35 mm in diameter"),),
        "change": (("similar to the previous CT", "larger than on the previous CT"), ("1. Hepatic cyst in the right lobe, unchanged.", "1. Hepatic cyst in the right lobe, increased in size since the previous CT.")),
        "certainty": (("probably a simple cyst", "a simple cyst"), ("probably simple", "simple")),
        "negation": (("without surrounding fat stranding", "with surrounding fat stranding"),),
    },
)


CT_CHEST_TRANSLATED = Source(
    "ct-chest-pneumonia", "CT",
    """CHEST CT, PLAIN SCAN

FINDINGS:
The thorax is symmetrical. The texture of both lungs is increased and disordered. Patchy high-density shadows with blurred edges are seen in the lower lobe of the left lung, new since the previous CT. A solid nodule about 6 mm is seen in the posterior segment of the right upper lobe, with a smooth margin. Strip-like high-density shadows are seen in the lingula of the left upper lobe. The trachea and main bronchi are unobstructed. No enlarged lymph nodes are seen in the mediastinum. The heart shadow is not enlarged, and calcification is seen in the wall of the coronary arteries. The pleura on both sides is slightly thickened. No effusion is seen in either pleural cavity.

IMPRESSION:
1. Inflammation in the lower lobe of the left lung, new since the previous CT, probably infectious.
2. Solid nodule in the right upper lobe.
3. Fibrous strands in the lingula.
4. Coronary artery calcification; mild bilateral pleural thickening.""",
    {
        "synonyms": """CT CHEST WITHOUT CONTRAST

FINDINGS:
Lungs: increased interstitial markings in both lungs. New ill-defined patchy airspace opacities in the left lower lobe since the prior CT. A 6 mm smooth solid nodule in the posterior segment of the right upper lobe. Linear opacities in the lingula.
Airways: the trachea and mainstem bronchi are patent.
Mediastinum: no lymphadenopathy. Normal heart size. Coronary artery calcifications.
Pleura: mild bilateral pleural thickening. No pleural effusion.

IMPRESSION:
1. New left lower lobe inflammation since the prior CT, likely infectious.
2. 6 mm solid right upper lobe nodule.
3. Lingular fibrotic strands.
4. Coronary artery calcification; mild bilateral pleural thickening.""",
        "bullets": """CHEST CT, PLAIN SCAN

Findings:
- Thorax: symmetrical.
- Both lungs: increased and disordered lung markings.
- Left lower lobe: patchy high-density opacities with ill-defined margins, new since the previous CT.
- Right upper lobe, posterior segment: 6 mm solid nodule, smooth margin.
- Lingula: linear high-density opacities.
- Trachea and main bronchi: patent.
- Mediastinum: no enlarged lymph nodes.
- Heart: not enlarged; coronary artery wall calcification.
- Pleura: slightly thickened on both sides; no pleural effusion.

Impression:
1. Left lower lobe inflammation, new since the previous CT, probably infectious.
2. Right upper lobe solid nodule.
3. Lingular fibrous strands.
4. Coronary artery calcification; mild bilateral pleural thickening.""",
        "per-site": """CHEST CT, PLAIN SCAN

FINDINGS:
The thorax is symmetrical. Left lung: the texture is increased and disordered.
Right lung: the texture is increased and disordered.
 Patchy high-density shadows with blurred edges are seen in the lower lobe of the left lung, new since the previous CT. A solid nodule about 6 mm is seen in the posterior segment of the right upper lobe, with a smooth margin. Strip-like high-density shadows are seen in the lingula of the left upper lobe. The trachea and main bronchi are unobstructed. No enlarged lymph nodes are seen in the mediastinum. The heart shadow is not enlarged, and calcification is seen in the wall of the coronary arteries. 
Left pleura: slightly thickened, no effusion.
Right pleura: slightly thickened, no effusion.

IMPRESSION:
1. Inflammation in the lower lobe of the left lung, new since the previous CT, probably infectious.
2. Solid nodule in the right upper lobe.
3. Fibrous strands in the lingula.
4. Coronary artery calcification; mild bilateral pleural thickening.""",
        "reordered": """CHEST CT, PLAIN SCAN

FINDINGS:
A solid nodule about 6 mm is seen in the posterior segment of the right upper lobe, with a smooth margin. The thorax is symmetrical. Patchy high-density shadows with blurred edges are seen in the lower lobe of the left lung, new since the previous CT. The texture of both lungs is increased and disordered. Strip-like high-density shadows are seen in the lingula of the left upper lobe. The trachea and main bronchi are unobstructed. No enlarged lymph nodes are seen in the mediastinum. The heart shadow is not enlarged, and calcification is seen in the wall of the coronary arteries. The pleura on both sides is slightly thickened. No effusion is seen in either pleural cavity.

IMPRESSION:
1. Inflammation in the lower lobe of the left lung, new since the previous CT, probably infectious.
2. Solid nodule in the right upper lobe.
3. Fibrous strands in the lingula.
4. Coronary artery calcification; mild bilateral pleural thickening.""",
    },
    {
        "side": (("seen in the lower lobe of the left lung", "seen in the lower lobe of the right lung"), ("1. Inflammation in the lower lobe of the left lung", "1. Inflammation in the lower lobe of the right lung")),
        "site": (("A solid nodule about 6 mm is seen in the posterior segment of the right upper lobe", "A solid nodule about 6 mm is seen in the right middle lobe"),
                 ("2. Solid nodule in the right upper lobe.", "2. Solid nodule in the right middle lobe.")),
        "missed": (("A solid nodule about 6 mm is seen in the posterior segment of the right upper lobe, with a smooth margin. ", ""), ("2. Solid nodule in the right upper lobe.\n3. Fibrous strands in the lingula.\n4.", "2. Fibrous strands in the lingula.\n3.")),
        "invented": (("No effusion is seen in either pleural cavity.", "A small effusion is seen in the right pleural cavity."), (END, "\n5. Small right pleural effusion.")),
        "severity": (("The pleura on both sides is slightly thickened.", "The pleura on both sides is markedly thickened."), ("mild bilateral pleural thickening", "marked bilateral pleural thickening")),
        "size": (("A solid nodule about 6 mm", "A solid nodule about 14 mm"),),
        "change": (("with blurred edges are seen in the lower lobe of the left lung, new since the previous CT", "with blurred edges are seen in the lower lobe of the left lung, unchanged since the previous CT"),
                   ("lower lobe of the left lung, new since the previous CT", "lower lobe of the left lung, unchanged since the previous CT")),
        "certainty": (("probably infectious", "infectious"),),
        "negation": (("No effusion is seen in either pleural cavity.", "Effusion is seen in both pleural cavities."),),
    },
)


# --- MRI --------------------------------------------------------------------------------------

MRI_BRAIN = Source(
    "mri-brain", "MRI",
    """MRI BRAIN WITH AND WITHOUT CONTRAST

FINDINGS:
There is a new 22 mm mass in the right temporal lobe that is low signal on T1WI and high signal on T2WI and FLAIR, with ring enhancement after gadolinium. The mass shows restricted diffusion. There is moderate surrounding vasogenic edema. Several small T2 and FLAIR hyperintense foci in the periventricular white matter of both cerebral hemispheres are consistent with mild chronic small vessel ischemic change. There is no hemorrhage on SWI. The ventricles are normal in size and there is no midline shift.

IMPRESSION:
1. New 22 mm ring-enhancing right temporal lobe mass with restricted diffusion and moderate vasogenic edema.
2. Mild chronic small vessel ischemic change.""",
    {
        "synonyms": """MR BRAIN PRE AND POST GADOLINIUM

FINDINGS:
A new 2.2 cm right temporal lobe mass is hypointense on T1-weighted images and hyperintense on T2-weighted and FLAIR images, with peripheral rim enhancement after contrast. It is bright on DWI with low ADC values. Moderate perilesional vasogenic oedema surrounds it. Scattered small foci of T2/FLAIR high signal in the bilateral periventricular white matter are in keeping with mild chronic microvascular ischaemic change. No susceptibility artefact to suggest haemorrhage. Ventricular size is normal and the midline structures are centred.

IMPRESSION:
1. New 2.2 cm rim-enhancing right temporal mass with restricted diffusion and moderate vasogenic oedema.
2. Mild chronic microvascular ischaemic change.""",
        "bullets": """MRI BRAIN WITH AND WITHOUT CONTRAST

Findings:
- New 22 mm right temporal lobe mass: low T1 signal, high T2 and FLAIR signal, ring enhancement after gadolinium, restricted diffusion.
- Moderate surrounding vasogenic edema.
- Several small T2/FLAIR hyperintense foci in the periventricular white matter of both hemispheres, consistent with mild chronic small vessel ischemic change.
- No hemorrhage on SWI.
- Ventricles normal in size; no midline shift.

Impression:
1. New 22 mm ring-enhancing right temporal lobe mass with restricted diffusion and moderate vasogenic edema.
2. Mild chronic small vessel ischemic change.""",
        "per-site": """MRI BRAIN WITH AND WITHOUT CONTRAST

FINDINGS:
There is a new 22 mm mass in the right temporal lobe:
T1WI: low signal.
T2WI: high signal.
FLAIR: high signal.
Post-gadolinium: ring enhancement.
DWI and ADC: restricted diffusion.
There is moderate surrounding vasogenic edema. Several small T2 and FLAIR hyperintense foci are present in the periventricular white matter of the right cerebral hemisphere and in the periventricular white matter of the left cerebral hemisphere, consistent with mild chronic small vessel ischemic change. There is no hemorrhage on SWI. The ventricles are normal in size and there is no midline shift.

IMPRESSION:
1. New 22 mm ring-enhancing right temporal lobe mass with restricted diffusion and moderate vasogenic edema.
2. Mild chronic small vessel ischemic change.""",
        "reordered": """MRI BRAIN WITH AND WITHOUT CONTRAST

FINDINGS:
The ventricles are normal in size and there is no midline shift. Several small T2 and FLAIR hyperintense foci in the periventricular white matter of both cerebral hemispheres are consistent with mild chronic small vessel ischemic change. There is no hemorrhage on SWI. There is a new 22 mm mass in the right temporal lobe that is low signal on T1WI and high signal on T2WI and FLAIR, with ring enhancement after gadolinium. There is moderate surrounding vasogenic edema. The mass shows restricted diffusion.

IMPRESSION:
1. Mild chronic small vessel ischemic change.
2. New 22 mm ring-enhancing right temporal lobe mass with restricted diffusion and moderate vasogenic edema.""",
    },
    {
        "side": (("right temporal", "left temporal"),),
        "site": (("right temporal", "right parietal"),),
        "missed": (("Several small T2 and FLAIR hyperintense foci in the periventricular white matter of both cerebral hemispheres are consistent with mild chronic small vessel ischemic change. ", ""),
                   ("\n2. Mild chronic small vessel ischemic change.", "")),
        "invented": (("There is no hemorrhage on SWI.", "A 6 mm enhancing extra-axial lesion along the left frontal convexity is consistent with a meningioma. There is no hemorrhage on SWI."),
                     (END, "\n3. 6 mm left frontal convexity meningioma.")),
        "severity": (("moderate surrounding vasogenic edema", "mild surrounding vasogenic edema"),
                     ("moderate vasogenic edema", "mild vasogenic edema")),
        "size": (("22 mm", "30 mm"),),
        "change": (("a new 22 mm", "an unchanged 22 mm"), ("1. New 22 mm", "1. Unchanged 22 mm")),
        "certainty": (("are consistent with mild chronic", "may represent mild chronic"),
                      ("2. Mild chronic", "2. Possible mild chronic")),
        "negation": (("There is moderate surrounding vasogenic edema.", "There is no surrounding vasogenic edema."),
                     ("and moderate vasogenic edema", "and no vasogenic edema")),
    },
)

MRI_SPINE = Source(
    "mri-lumbar-spine", "MRI",
    """MRI LUMBAR SPINE WITHOUT CONTRAST

FINDINGS:
At L4-5, there is a new 7 mm left paracentral disc extrusion compressing the traversing left L5 nerve root, with moderate narrowing of the left lateral recess. At L5-S1, there is a mild disc bulge without nerve root compression. The L4-5 and L5-S1 intervertebral discs are desiccated, with low signal on T2WI. There are Modic type 1 endplate changes at L4-5, low signal on T1WI and high signal on T2WI. The conus medullaris terminates at L1 and is normal in signal. Vertebral body heights and alignment are preserved.

IMPRESSION:
1. New 7 mm left paracentral disc extrusion at L4-5 compressing the left L5 nerve root.
2. Mild disc bulge at L5-S1 without nerve root compression.
3. Degenerative disc disease at L4-5 and L5-S1 with Modic type 1 endplate changes at L4-5.""",
    {
        "synonyms": """MR LUMBAR SPINE, NON-CONTRAST

FINDINGS:
L4/L5: a new left paracentral disc extrusion measuring 0.7 cm compresses the traversing left L5 nerve root and moderately narrows the left subarticular recess. L5/S1: mild disc bulge; no nerve root compression. The L4/L5 and L5/S1 discs are dehydrated and hypointense on T2-weighted images. Modic 1 endplate signal change at L4/L5, hypointense on T1-weighted and hyperintense on T2-weighted images. The conus ends at the L1 level with normal signal. Preserved vertebral body height and alignment.

IMPRESSION:
1. New 0.7 cm left paracentral extrusion at L4/L5 compressing the left L5 root.
2. Mild L5/S1 disc bulge without root compression.
3. L4/L5 and L5/S1 disc degeneration, with Modic type 1 endplate change at L4/L5.""",
        "bullets": """MRI LUMBAR SPINE WITHOUT CONTRAST

Findings:
- L4-5: new 7 mm left paracentral disc extrusion compressing the traversing left L5 nerve root; moderate narrowing of the left lateral recess; Modic type 1 endplate changes (low signal on T1WI, high signal on T2WI).
- L5-S1: mild disc bulge without nerve root compression.
- L4-5 and L5-S1 discs desiccated, low signal on T2WI.
- Conus medullaris terminates at L1, normal signal.
- Vertebral body heights and alignment preserved.

Impression:
1. New 7 mm left paracentral disc extrusion at L4-5 compressing the left L5 nerve root.
2. Mild disc bulge at L5-S1 without nerve root compression.
3. Degenerative disc disease at L4-5 and L5-S1 with Modic type 1 endplate changes at L4-5.""",
        "per-site": """MRI LUMBAR SPINE WITHOUT CONTRAST

FINDINGS:
At L4-5, there is a new 7 mm left paracentral disc extrusion compressing the traversing left L5 nerve root, with moderate narrowing of the left lateral recess. At L5-S1, there is a mild disc bulge without nerve root compression. The L4-5 intervertebral disc is desiccated, with low signal on T2WI. The L5-S1 intervertebral disc is desiccated, with low signal on T2WI. There are Modic type 1 endplate changes at L4-5:
T1WI: low signal.
T2WI: high signal.
The conus medullaris terminates at L1 and is normal in signal. Vertebral body heights are preserved. Alignment is preserved.

IMPRESSION:
1. New 7 mm left paracentral disc extrusion at L4-5 compressing the left L5 nerve root.
2. Mild disc bulge at L5-S1 without nerve root compression.
3. Degenerative disc disease at L4-5 and L5-S1 with Modic type 1 endplate changes at L4-5.""",
        "reordered": """MRI LUMBAR SPINE WITHOUT CONTRAST

FINDINGS:
Vertebral body heights and alignment are preserved. The conus medullaris terminates at L1 and is normal in signal. The L4-5 and L5-S1 intervertebral discs are desiccated, with low signal on T2WI. There are Modic type 1 endplate changes at L4-5, low signal on T1WI and high signal on T2WI. At L5-S1, there is a mild disc bulge without nerve root compression. At L4-5, there is a new 7 mm left paracentral disc extrusion compressing the traversing left L5 nerve root, with moderate narrowing of the left lateral recess.

IMPRESSION:
1. New 7 mm left paracentral disc extrusion at L4-5 compressing the left L5 nerve root.
2. Degenerative disc disease at L4-5 and L5-S1 with Modic type 1 endplate changes at L4-5.
3. Mild disc bulge at L5-S1 without nerve root compression.""",
    },
    {
        "side": (("left paracentral", "right paracentral"), ("left L5", "right L5"), ("left lateral recess", "right lateral recess")),
        "site": (("At L4-5, there is a new", "At L3-4, there is a new"), ("extrusion at L4-5", "extrusion at L3-4")),
        "missed": (("At L5-S1, there is a mild disc bulge without nerve root compression. ", ""),
                   ("2. Mild disc bulge at L5-S1 without nerve root compression.\n3.", "2.")),
        "invented": (("Vertebral body heights", "There is a 12 mm hemangioma in the L2 vertebral body. Vertebral body heights"),
                     (END, "\n4. 12 mm L2 vertebral hemangioma.")),
        "severity": (("moderate narrowing", "severe narrowing"),),
        "size": (("7 mm", "12 mm"),),
        "change": (("a new 7 mm", "an unchanged 7 mm"), ("1. New 7 mm", "1. Unchanged 7 mm")),
        "certainty": (("At L5-S1, there is a mild disc bulge", "At L5-S1, there is possibly a mild disc bulge"),
                      ("2. Mild disc bulge", "2. Possible mild disc bulge")),
        "negation": (("At L5-S1, there is a mild disc bulge without nerve root compression.", "At L5-S1, there is no disc bulge or nerve root compression."),
                     ("2. Mild disc bulge at L5-S1 without nerve root compression.", "2. No disc bulge at L5-S1.")),
    },
)

MRI_KNEE = Source(
    "mri-knee", "MRI",
    """MRI RIGHT KNEE WITHOUT CONTRAST

FINDINGS:
There is a complete tear of the anterior cruciate ligament. There is a horizontal tear of the posterior horn of the medial meniscus extending to the inferior articular surface. A 15 mm bone marrow contusion in the lateral femoral condyle is low signal on T1WI and high signal on proton density fat-saturated images. There is a moderate joint effusion, increased since the prior MRI. The posterior cruciate ligament, medial collateral ligament and lateral collateral ligament are intact. The lateral meniscus is intact. The patellofemoral cartilage is preserved.

IMPRESSION:
1. Complete anterior cruciate ligament tear.
2. Horizontal tear of the posterior horn of the medial meniscus.
3. 15 mm lateral femoral condyle bone contusion and moderate joint effusion, increased.""",
    {
        "synonyms": """MR RIGHT KNEE, NON-CONTRAST

FINDINGS:
The ACL is completely torn. A horizontally oriented tear of the medial meniscal posterior horn reaches the inferior articular surface. A 1.5 cm bone bruise in the lateral femoral condyle is hypointense on T1-weighted and hyperintense on PD fat-suppressed images. Moderate knee joint effusion, larger than on the previous MRI. The PCL, MCL and LCL are intact. Intact lateral meniscus. The cartilage of the patella and trochlea is preserved.

IMPRESSION:
1. Complete ACL tear.
2. Horizontal tear, posterior horn of the medial meniscus.
3. 1.5 cm lateral femoral condyle bone bruise and moderate knee joint effusion, increased.""",
        "bullets": """MRI RIGHT KNEE WITHOUT CONTRAST

Findings:
- Anterior cruciate ligament: complete tear.
- Medial meniscus: horizontal tear of the posterior horn extending to the inferior articular surface.
- Lateral femoral condyle: 15 mm bone marrow contusion, low signal on T1WI, high signal on proton density fat-saturated images.
- Moderate joint effusion, increased since the prior MRI.
- Posterior cruciate, medial collateral and lateral collateral ligaments intact.
- Lateral meniscus intact.
- Patellofemoral cartilage preserved.

Impression:
1. Complete anterior cruciate ligament tear.
2. Horizontal tear of the posterior horn of the medial meniscus.
3. 15 mm lateral femoral condyle bone contusion and moderate joint effusion, increased.""",
        "per-site": """MRI RIGHT KNEE WITHOUT CONTRAST

FINDINGS:
There is a complete tear of the anterior cruciate ligament. There is a horizontal tear of the posterior horn of the medial meniscus extending to the inferior articular surface. A 15 mm bone marrow contusion in the lateral femoral condyle is low signal on T1WI and high signal on proton density fat-saturated images. There is a moderate joint effusion, increased since the prior MRI.
Posterior cruciate ligament: intact.
Medial collateral ligament: intact.
Lateral collateral ligament: intact.
Lateral meniscus: intact.
The patellofemoral cartilage is preserved.

IMPRESSION:
1. Complete anterior cruciate ligament tear.
2. Horizontal tear of the posterior horn of the medial meniscus.
3. 15 mm lateral femoral condyle bone contusion and moderate joint effusion, increased.""",
        "reordered": """MRI RIGHT KNEE WITHOUT CONTRAST

FINDINGS:
There is a moderate joint effusion, increased since the prior MRI. The posterior cruciate ligament, medial collateral ligament and lateral collateral ligament are intact. There is a complete tear of the anterior cruciate ligament. The lateral meniscus is intact. There is a horizontal tear of the posterior horn of the medial meniscus extending to the inferior articular surface. The patellofemoral cartilage is preserved. A 15 mm bone marrow contusion in the lateral femoral condyle is low signal on T1WI and high signal on proton density fat-saturated images.

IMPRESSION:
1. Horizontal tear of the posterior horn of the medial meniscus.
2. Complete anterior cruciate ligament tear.
3. 15 mm lateral femoral condyle bone contusion and moderate joint effusion, increased.""",
    },
    {
        "site": (("posterior horn of the medial meniscus", "anterior horn of the medial meniscus"),),
        "missed": (("A 15 mm bone marrow contusion in the lateral femoral condyle is low signal on T1WI and high signal on proton density fat-saturated images. ", ""),
                   ("3. 15 mm lateral femoral condyle bone contusion and moderate", "3. Moderate")),
        "invented": (("The patellofemoral cartilage is preserved.", "The patellofemoral cartilage is preserved. There is a 25 mm Baker cyst."),
                     (END, "\n4. 25 mm Baker cyst.")),
        "severity": (("moderate joint effusion", "small joint effusion"),),
        "size": (("15 mm", "25 mm"),),
        "change": (("increased since the prior MRI", "decreased since the prior MRI"), ("effusion, increased.", "effusion, decreased.")),
        "certainty": (("There is a horizontal tear", "There is a possible horizontal tear"), ("2. Horizontal tear", "2. Possible horizontal tear")),
        "negation": (("There is a complete tear of the anterior cruciate ligament.", "The anterior cruciate ligament is intact."),
                     ("1. Complete anterior cruciate ligament tear.", "1. Intact anterior cruciate ligament.")),
    },
)

MRI_LIVER = Source(
    "mri-liver", "MRI",
    """MRI ABDOMEN (LIVER) WITH CONTRAST

FINDINGS:
There is a 24 mm lesion in segment 6 of the liver, new since the prior study, with arterial phase hyperenhancement, washout on the portal venous phase and an enhancing capsule. It is mildly hyperintense on T2WI and shows restricted diffusion. The liver has a nodular contour consistent with cirrhosis. There is mild splenomegaly. A 12 mm cyst in the upper pole of the left kidney is high signal on T2WI and does not enhance. There is no ascites. The portal vein is patent.

IMPRESSION:
1. 24 mm segment 6 lesion, new since the prior study, with arterial hyperenhancement, washout and a capsule, consistent with hepatocellular carcinoma.
2. Cirrhosis with mild splenomegaly.
3. 12 mm simple cyst in the left kidney.""",
    {
        "synonyms": """MR LIVER, PRE AND POST GADOLINIUM

FINDINGS:
A new 2.4 cm lesion in hepatic segment VI is hypervascular in the arterial phase, washes out in the portal venous phase and has an enhancing capsule. The lesion is slightly T2 hyperintense and bright on DWI with low ADC. Nodular liver surface, in keeping with cirrhosis. The spleen is mildly enlarged. A 1.2 cm non-enhancing, T2-hyperintense cyst lies in the upper pole of the left kidney. No free intraperitoneal fluid. Patent portal vein.

IMPRESSION:
1. New 2.4 cm segment VI lesion with arterial phase hyperenhancement, washout and capsule, in keeping with hepatocellular carcinoma.
2. Cirrhotic liver; mild splenomegaly.
3. 1.2 cm simple left renal cyst.""",
        "bullets": """MRI ABDOMEN (LIVER) WITH CONTRAST

Findings:
- Segment 6: 24 mm lesion, new since the prior study; arterial phase hyperenhancement, portal venous washout, enhancing capsule; mildly hyperintense on T2WI; restricted diffusion.
- Nodular liver contour, consistent with cirrhosis.
- Mild splenomegaly.
- Left kidney: 12 mm cyst in the upper pole, high signal on T2WI, no enhancement.
- No ascites.
- Portal vein patent.

Impression:
- 24 mm segment 6 lesion, new since the prior study, with arterial hyperenhancement, washout and a capsule, consistent with hepatocellular carcinoma.
- Cirrhosis with mild splenomegaly.
- 12 mm simple cyst in the left kidney.""",
        "per-site": """MRI ABDOMEN (LIVER) WITH CONTRAST

FINDINGS:
There is a 24 mm lesion in segment 6 of the liver, new since the prior study:
Arterial phase: hyperenhancement.
Portal venous phase: washout, with an enhancing capsule.
T2WI: mildly hyperintense.
DWI: restricted diffusion.
The liver has a nodular contour consistent with cirrhosis. There is mild splenomegaly. A 12 mm cyst in the upper pole of the left kidney is high signal on T2WI and does not enhance. There is no ascites. The portal vein is patent.

IMPRESSION:
1. 24 mm segment 6 lesion, new since the prior study, with arterial hyperenhancement, washout and a capsule, consistent with hepatocellular carcinoma.
2. Cirrhosis with mild splenomegaly.
3. 12 mm simple cyst in the left kidney.""",
        "reordered": """MRI ABDOMEN (LIVER) WITH CONTRAST

FINDINGS:
The liver has a nodular contour consistent with cirrhosis. There is a 24 mm lesion in segment 6 of the liver, new since the prior study, with arterial phase hyperenhancement, washout on the portal venous phase and an enhancing capsule. It is mildly hyperintense on T2WI and shows restricted diffusion. The portal vein is patent. There is no ascites. A 12 mm cyst in the upper pole of the left kidney is high signal on T2WI and does not enhance. There is mild splenomegaly.

IMPRESSION:
1. 24 mm segment 6 lesion, new since the prior study, with arterial hyperenhancement, washout and a capsule, consistent with hepatocellular carcinoma.
2. 12 mm simple cyst in the left kidney.
3. Cirrhosis with mild splenomegaly.""",
    },
    {
        "side": (("left kidney", "right kidney"),),
        "site": (("segment 6", "segment 4"),),
        "missed": (("A 12 mm cyst in the upper pole of the left kidney is high signal on T2WI and does not enhance. ", ""),
                   ("\n3. 12 mm simple cyst in the left kidney.", "")),
        "invented": (("There is no ascites.", "Varices are present at the gastroesophageal junction. There is no ascites."),
                     (END, "\n4. Gastroesophageal varices.")),
        "severity": (("mild splenomegaly", "marked splenomegaly"),),
        "size": (("24 mm", "34 mm"),),
        "change": (("new since the prior study", "unchanged since the prior study"),),
        "certainty": (("consistent with hepatocellular carcinoma", "possibly hepatocellular carcinoma"),),
        "negation": (("The liver has a nodular contour consistent with cirrhosis.", "The liver contour is smooth, with no sign of cirrhosis."),
                     ("2. Cirrhosis with mild splenomegaly.", "2. No cirrhosis; mild splenomegaly.")),
    },
)

MRI_LUMBAR_TRANSLATED = Source(
    "mri-lumbar-degenerative", "MRI",
    """LUMBAR SPINE MRI, PLAIN SCAN

FINDINGS:
The physiological curvature of the lumbar spine is present. Lip-like hyperplasia is seen at the edges of the L3-L5 vertebral bodies. The L4/5 and L5/S1 intervertebral discs show decreased signal on T2WI. The L4/5 intervertebral disc protrudes posteriorly to the left, compressing the left side of the dural sac, and the left lateral recess is mildly narrowed. The L5/S1 intervertebral disc bulges diffusely. Patchy long T1 and long T2 signal is seen in the L5 vertebral body near the superior endplate, with high signal on fat-suppressed sequences, larger than on the previous MRI. The spinal canal is not narrowed. The conus medullaris is normal in signal and position. The paravertebral soft tissues are unremarkable.

IMPRESSION:
1. Degeneration of the lumbar spine.
2. L4/5 disc herniation (left posterior type) with mild narrowing of the left lateral recess; L5/S1 disc bulge.
3. Endplate inflammation at the superior endplate of L5, increased since the previous MRI.""",
    {
        "synonyms": """MRI OF THE LUMBAR SPINE WITHOUT CONTRAST

FINDINGS:
Normal lumbar lordosis. Marginal osteophytes at L3 through L5. Desiccation of the L4-5 and L5-S1 discs. At L4-5, a left paracentral disc protrusion indents the left ventral thecal sac and mildly narrows the left subarticular recess. At L5-S1, there is a diffuse disc bulge. Patchy T1 hypointense, T2 hyperintense signal in the L5 vertebral body adjacent to the superior endplate, hyperintense on STIR, more extensive than on the prior MRI. No spinal canal stenosis. The conus is normal in signal and position. The paraspinal soft tissues are unremarkable.

IMPRESSION:
1. Lumbar spondylosis.
2. Left paracentral L4-5 disc protrusion mildly narrowing the left subarticular recess; diffuse L5-S1 disc bulge.
3. Inflammatory endplate change at the superior endplate of L5, increased since the prior MRI.""",
        "bullets": """LUMBAR SPINE MRI, PLAIN SCAN

Findings:
- Lordosis: maintained.
- L3-L5 vertebral bodies: marginal osteophytes.
- L4-5 and L5-S1 discs: desiccated.
- L4-5: left posterior disc protrusion compressing the left side of the thecal sac; left lateral recess mildly narrowed.
- L5-S1: diffuse disc bulge.
- L5 superior endplate: patchy T1 hypointense, T2 hyperintense marrow signal, hyperintense on fat-suppressed images, larger than on the previous MRI.
- Spinal canal: not narrowed.
- Conus medullaris: normal signal and position.
- Paravertebral soft tissues: unremarkable.

Impression:
1. Lumbar spine degeneration.
2. L4-5 left posterior disc herniation with mild left lateral recess narrowing; L5-S1 disc bulge.
3. Endplate inflammation at the superior endplate of L5, increased since the previous MRI.""",
        "per-site": """LUMBAR SPINE MRI, PLAIN SCAN

FINDINGS:
The physiological curvature of the lumbar spine is present.
L3: lip-like hyperplasia at the vertebral edges.
L4: lip-like hyperplasia at the vertebral edges.
L5: lip-like hyperplasia at the vertebral edges.
L4/5: the disc shows decreased signal on T2WI, protrudes posteriorly to the left and compresses the left side of the dural sac; the left lateral recess is mildly narrowed.
L5/S1: the disc shows decreased signal on T2WI and bulges diffusely.
Patchy long T1 and long T2 signal is seen in the L5 vertebral body near the superior endplate, with high signal on fat-suppressed sequences, larger than on the previous MRI. The spinal canal is not narrowed. The conus medullaris is normal in signal and position. The paravertebral soft tissues are unremarkable.

IMPRESSION:
1. Degeneration of the lumbar spine.
2. L4/5 disc herniation (left posterior type) with mild narrowing of the left lateral recess; L5/S1 disc bulge.
3. Endplate inflammation at the superior endplate of L5, increased since the previous MRI.""",
        "reordered": """LUMBAR SPINE MRI, PLAIN SCAN

FINDINGS:
The spinal canal is not narrowed. The conus medullaris is normal in signal and position. The L4/5 intervertebral disc protrudes posteriorly to the left, compressing the left side of the dural sac, and the left lateral recess is mildly narrowed. The L5/S1 intervertebral disc bulges diffusely. The L4/5 and L5/S1 intervertebral discs show decreased signal on T2WI. Patchy long T1 and long T2 signal is seen in the L5 vertebral body near the superior endplate, with high signal on fat-suppressed sequences, larger than on the previous MRI. The physiological curvature of the lumbar spine is present. Lip-like hyperplasia is seen at the edges of the L3-L5 vertebral bodies. The paravertebral soft tissues are unremarkable.

IMPRESSION:
1. L4/5 disc herniation (left posterior type) with mild narrowing of the left lateral recess; L5/S1 disc bulge.
2. Endplate inflammation at the superior endplate of L5, increased since the previous MRI.
3. Degeneration of the lumbar spine.""",
    },
    {
        "side": (("protrudes posteriorly to the left, compressing the left side of the dural sac, and the left lateral recess",
                  "protrudes posteriorly to the right, compressing the right side of the dural sac, and the right lateral recess"),
                 ("(left posterior type) with mild narrowing of the left lateral recess", "(right posterior type) with mild narrowing of the right lateral recess")),
        "site": (("The L4/5 intervertebral disc protrudes", "The L2/3 intervertebral disc protrudes"), ("2. L4/5 disc herniation", "2. L2/3 disc herniation")),
        "missed": (("The L5/S1 intervertebral disc bulges diffusely. ", ""), ("; L5/S1 disc bulge", "")),
        "invented": (("The spinal canal is not narrowed.", "The spinal canal is not narrowed. A compression fracture of the L1 vertebral body is seen."),
                     (END, "\n4. Compression fracture of the L1 vertebral body.")),
        "severity": (("the left lateral recess is mildly narrowed", "the left lateral recess is severely narrowed"),
                     ("with mild narrowing of the left lateral recess", "with severe narrowing of the left lateral recess")),
        "change": (("larger than on the previous MRI", "unchanged from the previous MRI"), ("increased since the previous MRI", "unchanged since the previous MRI")),
        "certainty": (("Endplate inflammation at the superior endplate", "Possible endplate inflammation at the superior endplate"),),
        "negation": (("The spinal canal is not narrowed.", "The spinal canal is narrowed."),),
    },
)


# --- ultrasound -------------------------------------------------------------------------------

US_GALLBLADDER = Source(
    "us-abdomen", "US",
    """ULTRASOUND ABDOMEN

FINDINGS:
The gallbladder contains multiple mobile echogenic stones with posterior acoustic shadowing, the largest measuring 18 mm. The gallbladder wall is thickened, with pericholecystic fluid and a positive sonographic Murphy sign, consistent with acute cholecystitis. The common bile duct is not dilated. The liver is diffusely echogenic, consistent with mild hepatic steatosis, unchanged from the prior examination. A 14 mm anechoic cyst is present in the upper pole of the right kidney. The spleen and pancreas are unremarkable. There is no ascites.

IMPRESSION:
1. Cholelithiasis with acute cholecystitis.
2. Mild hepatic steatosis, unchanged.
3. 14 mm simple cyst in the upper pole of the right kidney.""",
    {
        "synonyms": """ABDOMINAL ULTRASOUND

FINDINGS:
Multiple mobile, shadowing, hyperechoic calculi lie within the gallbladder, the largest 1.8 cm. There is gallbladder wall thickening with fluid around the gallbladder and a positive sonographic Murphy's sign, in keeping with acute cholecystitis. Normal calibre common duct. The liver is diffusely bright, in keeping with mild fatty infiltration, stable since the previous study. The upper pole of the right kidney contains a 1.4 cm cyst with no internal echoes. Unremarkable spleen and pancreas. No free fluid.

IMPRESSION:
1. Gallstones with acute cholecystitis.
2. Mild fatty liver, stable.
3. 1.4 cm simple cyst, upper pole of the right kidney.""",
        "bullets": """ULTRASOUND ABDOMEN

Findings:
- Gallbladder: multiple mobile echogenic stones with posterior acoustic shadowing, largest 18 mm; wall thickening, pericholecystic fluid and positive sonographic Murphy sign, consistent with acute cholecystitis.
- Common bile duct: not dilated.
- Liver: diffusely echogenic, consistent with mild hepatic steatosis, unchanged from the prior examination.
- Right kidney: 14 mm anechoic cyst in the upper pole.
- Spleen and pancreas: unremarkable.
- No ascites.

Impression:
1. Cholelithiasis with acute cholecystitis.
2. Mild hepatic steatosis, unchanged.
3. 14 mm simple cyst in the upper pole of the right kidney.""",
        "per-site": """ULTRASOUND ABDOMEN

FINDINGS:
The gallbladder contains multiple mobile echogenic stones with posterior acoustic shadowing, the largest measuring 18 mm. The gallbladder wall is thickened, with pericholecystic fluid and a positive sonographic Murphy sign, consistent with acute cholecystitis. The common bile duct is not dilated. The liver is diffusely echogenic, consistent with mild hepatic steatosis, unchanged from the prior examination. A 14 mm anechoic cyst is present in the upper pole of the right kidney.
Spleen: unremarkable.
Pancreas: unremarkable.
There is no ascites.

IMPRESSION:
1. Cholelithiasis with acute cholecystitis.
2. Mild hepatic steatosis, unchanged.
3. 14 mm simple cyst in the upper pole of the right kidney.""",
        "reordered": """ULTRASOUND ABDOMEN

FINDINGS:
The liver is diffusely echogenic, consistent with mild hepatic steatosis, unchanged from the prior examination. The gallbladder contains multiple mobile echogenic stones with posterior acoustic shadowing, the largest measuring 18 mm. The common bile duct is not dilated. The gallbladder wall is thickened, with pericholecystic fluid and a positive sonographic Murphy sign, consistent with acute cholecystitis. There is no ascites. The spleen and pancreas are unremarkable. A 14 mm anechoic cyst is present in the upper pole of the right kidney.

IMPRESSION:
1. Cholelithiasis with acute cholecystitis.
2. 14 mm simple cyst in the upper pole of the right kidney.
3. Mild hepatic steatosis, unchanged.""",
    },
    {
        "side": (("right kidney", "left kidney"),),
        "site": (("upper pole", "lower pole"),),
        "missed": (("A 14 mm anechoic cyst is present in the upper pole of the right kidney. ", ""),
                   ("\n3. 14 mm simple cyst in the upper pole of the right kidney.", "")),
        "invented": (("The spleen and pancreas", "A 20 mm hypoechoic lesion is present in the right lobe of the liver. The spleen and pancreas"),
                     (END, "\n4. 20 mm hypoechoic lesion in the right lobe of the liver.")),
        "severity": (("mild hepatic steatosis", "severe hepatic steatosis"), ("Mild hepatic steatosis", "Severe hepatic steatosis")),
        "size": (("18 mm", "28 mm"),),
        "change": (("unchanged from the prior examination", "new since the prior examination"), ("steatosis, unchanged.", "steatosis, new.")),
        "certainty": (("consistent with acute cholecystitis", "suspicious for acute cholecystitis"),
                      ("1. Cholelithiasis with acute cholecystitis.", "1. Cholelithiasis with possible acute cholecystitis.")),
        "negation": (("The gallbladder wall is thickened, with pericholecystic fluid and a positive sonographic Murphy sign, consistent with acute cholecystitis.",
                      "The gallbladder wall is not thickened, there is no pericholecystic fluid and the sonographic Murphy sign is negative; there is no cholecystitis."),
                     ("1. Cholelithiasis with acute cholecystitis.", "1. Cholelithiasis without cholecystitis.")),
    },
)

US_THYROID = Source(
    "us-thyroid", "US",
    """ULTRASOUND THYROID

FINDINGS:
The thyroid gland is mildly enlarged, with homogeneous background echotexture. A 16 mm solid hypoechoic nodule with irregular margins and punctate echogenic foci is present in the lower pole of the right lobe, new since the prior examination. A 9 mm spongiform nodule in the left lobe is unchanged. The isthmus is normal in thickness. There is no cervical lymphadenopathy on either side.

IMPRESSION:
1. New 16 mm solid hypoechoic nodule in the lower pole of the right lobe with irregular margins and punctate echogenic foci, suspicious for papillary carcinoma. Fine-needle aspiration is recommended.
2. Unchanged 9 mm spongiform nodule in the left lobe, benign in appearance.
3. Mild thyroid enlargement.""",
    {
        "synonyms": """THYROID ULTRASOUND

FINDINGS:
Mild enlargement of the thyroid; the background parenchyma is homogeneous. A new 1.6 cm solid, low-echo nodule with irregular borders and microcalcifications lies in the inferior pole of the right lobe. A 0.9 cm spongiform nodule of the left lobe is stable. Normal isthmic thickness. No enlarged cervical lymph nodes bilaterally.

IMPRESSION:
1. New 1.6 cm solid hypoechoic nodule, inferior pole of the right lobe, with irregular borders and microcalcifications, suspicious for papillary carcinoma; FNA recommended.
2. Stable 0.9 cm spongiform left lobe nodule, benign-appearing.
3. Mildly enlarged thyroid.""",
        "bullets": """ULTRASOUND THYROID

Findings:
- Gland mildly enlarged; background echotexture homogeneous.
- Right lobe, lower pole: 16 mm solid hypoechoic nodule with irregular margins and punctate echogenic foci, new since the prior examination.
- Left lobe: 9 mm spongiform nodule, unchanged.
- Isthmus normal in thickness.
- No cervical lymphadenopathy on either side.

Impression:
1. New 16 mm solid hypoechoic nodule in the lower pole of the right lobe with irregular margins and punctate echogenic foci, suspicious for papillary carcinoma. Fine-needle aspiration is recommended.
2. Unchanged 9 mm spongiform nodule in the left lobe, benign in appearance.
3. Mild thyroid enlargement.""",
        "per-site": """ULTRASOUND THYROID

FINDINGS:
The thyroid gland is mildly enlarged, with homogeneous background echotexture. A 16 mm solid hypoechoic nodule with irregular margins and punctate echogenic foci is present in the lower pole of the right lobe, new since the prior examination. A 9 mm spongiform nodule in the left lobe is unchanged. The isthmus is normal in thickness.
Right neck: no cervical lymphadenopathy.
Left neck: no cervical lymphadenopathy.

IMPRESSION:
1. New 16 mm solid hypoechoic nodule in the lower pole of the right lobe with irregular margins and punctate echogenic foci, suspicious for papillary carcinoma. Fine-needle aspiration is recommended.
2. Unchanged 9 mm spongiform nodule in the left lobe, benign in appearance.
3. Mild thyroid enlargement.""",
        "reordered": """ULTRASOUND THYROID

FINDINGS:
There is no cervical lymphadenopathy on either side. The isthmus is normal in thickness. A 9 mm spongiform nodule in the left lobe is unchanged. The thyroid gland is mildly enlarged, with homogeneous background echotexture. A 16 mm solid hypoechoic nodule with irregular margins and punctate echogenic foci is present in the lower pole of the right lobe, new since the prior examination.

IMPRESSION:
1. New 16 mm solid hypoechoic nodule in the lower pole of the right lobe with irregular margins and punctate echogenic foci, suspicious for papillary carcinoma. Fine-needle aspiration is recommended.
2. Mild thyroid enlargement.
3. Unchanged 9 mm spongiform nodule in the left lobe, benign in appearance.""",
    },
    {
        "side": (("lower pole of the right lobe", "lower pole of the left lobe"),),
        "site": (("lower pole of the right lobe", "upper pole of the right lobe"),),
        "missed": (("A 9 mm spongiform nodule in the left lobe is unchanged. ", ""),
                   ("2. Unchanged 9 mm spongiform nodule in the left lobe, benign in appearance.\n3.", "2.")),
        "invented": (("The isthmus is normal in thickness.", "The isthmus is normal in thickness. A 5 mm colloid cyst with comet-tail artifact is present in the isthmus."),
                     (END, "\n4. 5 mm colloid cyst in the isthmus.")),
        "severity": (("mildly enlarged", "markedly enlarged"), ("3. Mild thyroid enlargement", "3. Marked thyroid enlargement")),
        "size": (("16 mm", "24 mm"),),
        "change": (("new since the prior examination", "unchanged since the prior examination"), ("1. New 16 mm", "1. Unchanged 16 mm")),
        "certainty": (("suspicious for papillary carcinoma", "consistent with papillary carcinoma"),),
        "negation": (("A 9 mm spongiform nodule in the left lobe is unchanged.", "No nodule is seen in the left lobe."),
                     ("2. Unchanged 9 mm spongiform nodule in the left lobe, benign in appearance.", "2. No left lobe nodule.")),
    },
)

US_RENAL = Source(
    "us-renal", "US",
    """ULTRASOUND KIDNEYS AND BLADDER

FINDINGS:
There is moderate hydronephrosis of the left kidney with a dilated proximal ureter, increased since the prior examination. A 7 mm echogenic shadowing calculus is present at the left ureterovesical junction. A 22 mm echogenic lesion in the upper pole of the right kidney is consistent with an angiomyolipoma. There is no hydronephrosis on the right. Renal cortical thickness and echogenicity are normal bilaterally. The bladder is adequately distended with a smooth wall.

IMPRESSION:
1. Moderate left hydronephrosis and hydroureter, increased, due to a 7 mm calculus at the left ureterovesical junction.
2. 22 mm echogenic lesion in the upper pole of the right kidney, consistent with an angiomyolipoma.""",
    {
        "synonyms": """RENAL AND BLADDER ULTRASOUND

FINDINGS:
Moderate left-sided pelvicalyceal dilatation with a dilated proximal ureter, worse than on the previous study. A 0.7 cm hyperechoic shadowing stone lies at the left vesicoureteric junction. A 2.2 cm hyperechoic lesion in the superior pole of the right kidney is in keeping with an angiomyolipoma. The right collecting system is not dilated. Normal cortical thickness and echogenicity of both kidneys. The urinary bladder is well distended and smooth-walled.

IMPRESSION:
1. Moderate left hydroureteronephrosis, worse, secondary to a 0.7 cm stone at the left vesicoureteric junction.
2. 2.2 cm hyperechoic lesion, superior pole of the right kidney, in keeping with an angiomyolipoma.""",
        "bullets": """ULTRASOUND KIDNEYS AND BLADDER

Findings:
- Left kidney: moderate hydronephrosis with a dilated proximal ureter, increased since the prior examination.
- Left ureterovesical junction: 7 mm echogenic shadowing calculus.
- Right kidney: 22 mm echogenic lesion in the upper pole, consistent with an angiomyolipoma; no hydronephrosis.
- Renal cortical thickness and echogenicity normal bilaterally.
- Bladder adequately distended, smooth wall.

Impression:
- Moderate left hydronephrosis and hydroureter, increased, due to a 7 mm calculus at the left ureterovesical junction.
- 22 mm echogenic lesion in the upper pole of the right kidney, consistent with an angiomyolipoma.""",
        "per-site": """ULTRASOUND KIDNEYS AND BLADDER

FINDINGS:
There is moderate hydronephrosis of the left kidney with a dilated proximal ureter, increased since the prior examination. A 7 mm echogenic shadowing calculus is present at the left ureterovesical junction. A 22 mm echogenic lesion in the upper pole of the right kidney is consistent with an angiomyolipoma. There is no hydronephrosis on the right.
Right kidney: normal cortical thickness and echogenicity.
Left kidney: normal cortical thickness and echogenicity.
The bladder is adequately distended with a smooth wall.

IMPRESSION:
1. Moderate left hydronephrosis and hydroureter, increased, due to a 7 mm calculus at the left ureterovesical junction.
2. 22 mm echogenic lesion in the upper pole of the right kidney, consistent with an angiomyolipoma.""",
        "reordered": """ULTRASOUND KIDNEYS AND BLADDER

FINDINGS:
Renal cortical thickness and echogenicity are normal bilaterally. A 22 mm echogenic lesion in the upper pole of the right kidney is consistent with an angiomyolipoma. There is no hydronephrosis on the right. The bladder is adequately distended with a smooth wall. A 7 mm echogenic shadowing calculus is present at the left ureterovesical junction. There is moderate hydronephrosis of the left kidney with a dilated proximal ureter, increased since the prior examination.

IMPRESSION:
1. 22 mm echogenic lesion in the upper pole of the right kidney, consistent with an angiomyolipoma.
2. Moderate left hydronephrosis and hydroureter, increased, due to a 7 mm calculus at the left ureterovesical junction.""",
    },
    {
        "side": (("upper pole of the right kidney", "upper pole of the left kidney"),),
        "site": (("ureterovesical junction", "ureteropelvic junction"),),
        "missed": (("A 22 mm echogenic lesion in the upper pole of the right kidney is consistent with an angiomyolipoma. ", ""),
                   ("\n2. 22 mm echogenic lesion in the upper pole of the right kidney, consistent with an angiomyolipoma.", "")),
        "invented": (("The bladder is", "There is a 25 mm simple cyst in the lower pole of the right kidney. The bladder is"),
                     (END, "\n3. 25 mm simple cyst in the lower pole of the right kidney.")),
        "severity": (("moderate hydronephrosis", "mild hydronephrosis"), ("Moderate left hydronephrosis", "Mild left hydronephrosis")),
        "size": (("7 mm", "12 mm"),),
        "change": (("increased since the prior examination", "decreased since the prior examination"), ("hydroureter, increased,", "hydroureter, decreased,")),
        "certainty": (("consistent with an angiomyolipoma", "possibly an angiomyolipoma"),),
        "negation": (("A 7 mm echogenic shadowing calculus is present at the left ureterovesical junction.", "No calculus is seen at the left ureterovesical junction."),
                     (", due to a 7 mm calculus at the left ureterovesical junction", ", with no calculus at the left ureterovesical junction")),
    },
)

US_PELVIS = Source(
    "us-pelvis", "US",
    """ULTRASOUND PELVIS, TRANSABDOMINAL AND TRANSVAGINAL

FINDINGS:
The uterus is anteverted and mildly enlarged. There is a 34 mm intramural fibroid in the posterior wall of the uterine body, unchanged from the prior study. The endometrium is normal in thickness. A 42 mm simple cyst is present in the left ovary, probably a functional cyst. The right ovary is normal, with several small follicles. There is a small amount of free fluid in the pouch of Douglas.

IMPRESSION:
1. 34 mm posterior intramural fibroid, unchanged.
2. 42 mm simple cyst in the left ovary, probably a functional cyst.
3. Small amount of free fluid in the pouch of Douglas.""",
    {
        "synonyms": """PELVIC ULTRASOUND, TRANSABDOMINAL AND ENDOVAGINAL

FINDINGS:
Anteverted, mildly bulky uterus. A 3.4 cm intramural leiomyoma of the posterior uterine wall is stable compared with the previous study. Normal endometrial thickness. The left ovary contains a 4.2 cm unilocular anechoic cyst, likely functional. Normal right ovary containing several small follicles. Small volume of free fluid in the rectouterine pouch.

IMPRESSION:
1. Stable 3.4 cm posterior intramural leiomyoma.
2. 4.2 cm simple left ovarian cyst, likely functional.
3. Small volume of free fluid in the rectouterine pouch.""",
        "bullets": """ULTRASOUND PELVIS, TRANSABDOMINAL AND TRANSVAGINAL

Findings:
- Uterus: anteverted, mildly enlarged; 34 mm intramural fibroid in the posterior wall of the body, unchanged from the prior study.
- Endometrium: normal thickness.
- Left ovary: 42 mm simple cyst, probably a functional cyst.
- Right ovary: normal, several small follicles.
- Small amount of free fluid in the pouch of Douglas.

Impression:
- 34 mm posterior intramural fibroid, unchanged.
- 42 mm simple cyst in the left ovary, probably a functional cyst.
- Small amount of free fluid in the pouch of Douglas.""",
        "per-site": """ULTRASOUND PELVIS, TRANSABDOMINAL AND TRANSVAGINAL

FINDINGS:
Uterus: anteverted and mildly enlarged, with a 34 mm intramural fibroid in the posterior wall of the body, unchanged from the prior study.
Endometrium: normal in thickness.
Left ovary: 42 mm simple cyst, probably a functional cyst.
Right ovary: normal, with several small follicles.
Pouch of Douglas: small amount of free fluid.

IMPRESSION:
1. 34 mm posterior intramural fibroid, unchanged.
2. 42 mm simple cyst in the left ovary, probably a functional cyst.
3. Small amount of free fluid in the pouch of Douglas.""",
        "reordered": """ULTRASOUND PELVIS, TRANSABDOMINAL AND TRANSVAGINAL

FINDINGS:
The right ovary is normal, with several small follicles. A 42 mm simple cyst is present in the left ovary, probably a functional cyst. There is a small amount of free fluid in the pouch of Douglas. The uterus is anteverted and mildly enlarged. The endometrium is normal in thickness. There is a 34 mm intramural fibroid in the posterior wall of the uterine body, unchanged from the prior study.

IMPRESSION:
1. 42 mm simple cyst in the left ovary, probably a functional cyst.
2. 34 mm posterior intramural fibroid, unchanged.
3. Small amount of free fluid in the pouch of Douglas.""",
    },
    {
        "side": (("left ovary", "right ovary"), ("The right ovary is normal", "The left ovary is normal")),
        "site": (("posterior wall", "anterior wall"), ("posterior intramural", "anterior intramural")),
        "missed": (("There is a small amount of free fluid in the pouch of Douglas.", ""),
                   ("\n3. Small amount of free fluid in the pouch of Douglas.", "")),
        "invented": (("The endometrium is normal in thickness.", "The endometrium is normal in thickness. There is a 20 mm subserosal fibroid at the fundus."),
                     (END, "\n4. 20 mm subserosal fundal fibroid.")),
        "severity": (("mildly enlarged", "markedly enlarged"),),
        "size": (("42 mm", "62 mm"),),
        "change": (("unchanged from the prior study", "increased since the prior study"), ("fibroid, unchanged.", "fibroid, increased.")),
        "certainty": (("probably a functional cyst", "consistent with a functional cyst"),),
        "negation": (("There is a small amount of free fluid in the pouch of Douglas.", "There is no free fluid in the pouch of Douglas."),
                     ("3. Small amount of free fluid in the pouch of Douglas.", "3. No free fluid in the pouch of Douglas.")),
    },
)

# --- radiographs outside the chest ------------------------------------------------------------

XR_WRIST = Source(
    "xr-wrist", "XR",
    """WRIST RADIOGRAPHS, THREE VIEWS

FINDINGS:
There is a healing fracture of the right distal radius fixed with a volar plate and screws. The hardware is in good position, with no loosening or breakage. The fracture is in anatomic alignment, with moderate callus formation, increased since the prior radiograph. There is an ununited fracture of the ulnar styloid, displaced by 4 mm. There is mild periarticular osteopenia. The distal radioulnar joint is congruent and the carpal alignment is normal.

IMPRESSION:
1. Healing right distal radius fracture after volar plate fixation, in anatomic alignment, with moderate callus, increased since the prior radiograph. Hardware intact without loosening.
2. Ununited ulnar styloid fracture, displaced by 4 mm.
3. Mild periarticular osteopenia.""",
    {
        "synonyms": """RADIOGRAPHS OF THE WRIST, 3 VIEWS

FINDINGS:
Healing right distal radial fracture after internal fixation with a volar plate and screws. The fixation hardware is satisfactorily positioned and intact, without loosening. Anatomic alignment of the fracture, with moderate callus, more than on the previous film. The ulnar styloid fracture has not united; the fragment is displaced 4 mm. Mild juxta-articular osteopenia. Congruent distal radioulnar joint; normal carpal alignment.

IMPRESSION:
1. Healing right distal radial fracture after volar plate internal fixation, anatomically aligned, with moderate callus, increased since the previous film. Intact hardware, no loosening.
2. Non-united ulnar styloid fracture with 4 mm displacement.
3. Mild juxta-articular osteopenia.""",
        "bullets": """WRIST RADIOGRAPHS, THREE VIEWS

Findings:
- Right distal radius: healing fracture, volar plate and screw fixation.
- Hardware: good position; no loosening or breakage.
- Alignment: anatomic; moderate callus formation, increased since the prior radiograph.
- Ulnar styloid: ununited fracture, displaced by 4 mm.
- Mild periarticular osteopenia.
- Distal radioulnar joint congruent; carpal alignment normal.

Impression:
1. Healing right distal radius fracture after volar plate fixation, in anatomic alignment, with moderate callus, increased since the prior radiograph. Hardware intact without loosening.
2. Ununited ulnar styloid fracture, displaced by 4 mm.
3. Mild periarticular osteopenia.""",
        "per-site": """WRIST RADIOGRAPHS, THREE VIEWS

FINDINGS:
There is a healing fracture of the right distal radius fixed with a volar plate and screws.
Plate: good position, no breakage.
Screws: good position, no loosening or breakage.
The fracture is in anatomic alignment, with moderate callus formation, increased since the prior radiograph. There is an ununited fracture of the ulnar styloid, displaced by 4 mm. There is mild periarticular osteopenia.
Distal radioulnar joint: congruent.
Carpus: normal alignment.

IMPRESSION:
1. Healing right distal radius fracture after volar plate fixation, in anatomic alignment, with moderate callus, increased since the prior radiograph. Hardware intact without loosening.
2. Ununited ulnar styloid fracture, displaced by 4 mm.
3. Mild periarticular osteopenia.""",
        "reordered": """WRIST RADIOGRAPHS, THREE VIEWS

FINDINGS:
The distal radioulnar joint is congruent and the carpal alignment is normal. There is mild periarticular osteopenia. There is a healing fracture of the right distal radius fixed with a volar plate and screws. The fracture is in anatomic alignment, with moderate callus formation, increased since the prior radiograph. The hardware is in good position, with no loosening or breakage. There is an ununited fracture of the ulnar styloid, displaced by 4 mm.

IMPRESSION:
1. Healing right distal radius fracture after volar plate fixation, in anatomic alignment, with moderate callus, increased since the prior radiograph. Hardware intact without loosening.
2. Mild periarticular osteopenia.
3. Ununited ulnar styloid fracture, displaced by 4 mm.""",
    },
    {
        "side": (("right distal radius", "left distal radius"),),
        "site": (("ulnar styloid", "radial styloid"),),
        "missed": (("There is an ununited fracture of the ulnar styloid, displaced by 4 mm. ", ""),
                   ("2. Ununited ulnar styloid fracture, displaced by 4 mm.\n3.", "2.")),
        "invented": (("There is mild periarticular osteopenia.", "There is a nondisplaced fracture of the scaphoid waist. There is mild periarticular osteopenia."),
                     (END, "\n4. Nondisplaced scaphoid waist fracture.")),
        "severity": (("mild periarticular osteopenia", "severe periarticular osteopenia"), ("Mild periarticular osteopenia", "Severe periarticular osteopenia")),
        "size": (("4 mm", "9 mm"),),
        "change": (("increased since the prior radiograph", "unchanged since the prior radiograph"),),
        "certainty": (("There is an ununited fracture", "There is a probable ununited fracture"), ("2. Ununited", "2. Probable ununited")),
        "negation": (("There is mild periarticular osteopenia.", "There is no osteopenia."), ("3. Mild periarticular osteopenia.", "3. No osteopenia.")),
    },
)

XR_ANKLE = Source(
    "xr-ankle", "XR",
    """ANKLE RADIOGRAPHS, THREE VIEWS

FINDINGS:
There is an oblique fracture of the left lateral malleolus at the level of the syndesmosis, displaced by 3 mm, unchanged in position since the prior radiograph. The medial clear space is widened, suggesting deltoid ligament injury. There is moderate lateral soft tissue swelling. The medial and posterior malleoli are intact. The talar dome is intact. There is a small plantar calcaneal spur.

IMPRESSION:
1. Oblique fracture of the left lateral malleolus at the level of the syndesmosis (Weber B), displaced by 3 mm, unchanged in position.
2. Widened medial clear space, suggesting deltoid ligament injury.
3. Moderate lateral soft tissue swelling.""",
    {
        "synonyms": """RADIOGRAPHS OF THE ANKLE, AP, MORTISE AND LATERAL

FINDINGS:
Oblique fracture of the left distal fibula (lateral malleolus) at the level of the tibiofibular syndesmosis, with 3 mm displacement, in unchanged position compared with the previous radiograph. Widening of the medial clear space raises the possibility of a deltoid ligament injury. Moderate soft tissue swelling over the lateral malleolus. No fracture of the medial or posterior malleolus. The talar dome is intact. Small inferior calcaneal enthesophyte.

IMPRESSION:
1. Weber B oblique fracture of the left lateral malleolus, 3 mm displacement, position unchanged.
2. Medial clear space widening, suggesting deltoid ligament injury.
3. Moderate lateral soft tissue swelling.""",
        "bullets": """ANKLE RADIOGRAPHS, THREE VIEWS

Findings:
- Left lateral malleolus: oblique fracture at the level of the syndesmosis, displaced by 3 mm, unchanged in position since the prior radiograph.
- Medial clear space widened, suggesting deltoid ligament injury.
- Moderate lateral soft tissue swelling.
- Medial and posterior malleoli intact.
- Talar dome intact.
- Small plantar calcaneal spur.

Impression:
1. Oblique fracture of the left lateral malleolus at the level of the syndesmosis (Weber B), displaced by 3 mm, unchanged in position.
2. Widened medial clear space, suggesting deltoid ligament injury.
3. Moderate lateral soft tissue swelling.""",
        "per-site": """ANKLE RADIOGRAPHS, THREE VIEWS

FINDINGS:
There is an oblique fracture of the left lateral malleolus at the level of the syndesmosis, displaced by 3 mm, unchanged in position since the prior radiograph. The medial clear space is widened, suggesting deltoid ligament injury. There is moderate lateral soft tissue swelling.
Medial malleolus: intact.
Posterior malleolus: intact.
Talar dome: intact.
There is a small plantar calcaneal spur.

IMPRESSION:
1. Oblique fracture of the left lateral malleolus at the level of the syndesmosis (Weber B), displaced by 3 mm, unchanged in position.
2. Widened medial clear space, suggesting deltoid ligament injury.
3. Moderate lateral soft tissue swelling.""",
        "reordered": """ANKLE RADIOGRAPHS, THREE VIEWS

FINDINGS:
There is moderate lateral soft tissue swelling. The talar dome is intact. There is an oblique fracture of the left lateral malleolus at the level of the syndesmosis, displaced by 3 mm, unchanged in position since the prior radiograph. The medial and posterior malleoli are intact. There is a small plantar calcaneal spur. The medial clear space is widened, suggesting deltoid ligament injury.

IMPRESSION:
1. Oblique fracture of the left lateral malleolus at the level of the syndesmosis (Weber B), displaced by 3 mm, unchanged in position.
2. Moderate lateral soft tissue swelling.
3. Widened medial clear space, suggesting deltoid ligament injury.""",
    },
    {
        "side": (("left lateral malleolus", "right lateral malleolus"),),
        "site": (("left lateral malleolus", "left posterior malleolus"), ("The medial and posterior malleoli", "The medial and lateral malleoli")),
        "missed": (("There is moderate lateral soft tissue swelling. ", ""), ("\n3. Moderate lateral soft tissue swelling.", "")),
        "invented": (("There is a small plantar calcaneal spur.", "There is a small plantar calcaneal spur. There is a nondisplaced fracture of the base of the fifth metatarsal."),
                     (END, "\n4. Nondisplaced fracture of the base of the fifth metatarsal.")),
        "severity": (("moderate lateral soft tissue swelling", "mild lateral soft tissue swelling"),
                     ("Moderate lateral soft tissue swelling", "Mild lateral soft tissue swelling")),
        "size": (("3 mm", "8 mm"),),
        "change": (("unchanged in position", "increased in displacement"),),
        "certainty": (("suggesting deltoid ligament injury", "consistent with deltoid ligament injury"),),
        "negation": (("The medial clear space is widened, suggesting deltoid ligament injury.", "The medial clear space is normal."),
                     ("2. Widened medial clear space, suggesting deltoid ligament injury.", "2. Normal medial clear space.")),
    },
)

XR_SPINE = Source(
    "xr-lumbar-spine", "XR",
    """LUMBAR SPINE RADIOGRAPHS, AP AND LATERAL

FINDINGS:
There is a new compression fracture of the T12 vertebral body with mild loss of anterior height. There is grade 1 anterolisthesis of L4 on L5, measuring 4 mm. Moderate disc space narrowing is present at L5-S1 with small anterior osteophytes. There is a mild scoliosis of the lumbar spine, convex to the right. The remaining vertebral body heights are maintained. The pedicles are intact. The sacroiliac joints are unremarkable.

IMPRESSION:
1. New T12 compression fracture with mild loss of anterior height.
2. Grade 1 anterolisthesis of L4 on L5, 4 mm.
3. Moderate degenerative disc space narrowing at L5-S1.
4. Mild lumbar scoliosis, convex to the right.""",
    {
        "synonyms": """RADIOGRAPHS LUMBAR SPINE, 2 VIEWS

FINDINGS:
New T12 vertebral compression fracture with mild anterior height loss. Grade I anterolisthesis of L4 on L5 (4 mm). Moderate loss of L5/S1 disc height with small anterior osteophytes. Mild dextroconvex lumbar scoliosis. Vertebral body heights are otherwise preserved. Pedicles intact. Normal sacroiliac joints.

IMPRESSION:
1. New compression fracture of T12, mild anterior height loss.
2. Grade I L4 on L5 anterolisthesis measuring 4 mm.
3. Moderate degenerative narrowing of the L5/S1 disc space.
4. Mild dextroconvex lumbar scoliosis.""",
        "bullets": """LUMBAR SPINE RADIOGRAPHS, AP AND LATERAL

Findings:
1. T12: new compression fracture, mild loss of anterior height.
2. L4 on L5: grade 1 anterolisthesis, 4 mm.
3. L5-S1: moderate disc space narrowing, small anterior osteophytes.
4. Mild lumbar scoliosis, convex to the right.
5. Other vertebral body heights maintained.
6. Pedicles intact.
7. Sacroiliac joints unremarkable.

Impression:
1. New T12 compression fracture with mild loss of anterior height.
2. Grade 1 anterolisthesis of L4 on L5, 4 mm.
3. Moderate degenerative disc space narrowing at L5-S1.
4. Mild lumbar scoliosis, convex to the right.""",
        "per-site": """LUMBAR SPINE RADIOGRAPHS, AP AND LATERAL

FINDINGS:
There is a new compression fracture of the T12 vertebral body with mild loss of anterior height. There is grade 1 anterolisthesis of L4 on L5, measuring 4 mm. Moderate disc space narrowing is present at L5-S1 with small anterior osteophytes. There is a mild scoliosis of the lumbar spine, convex to the right. The remaining vertebral body heights are maintained. The pedicles are intact.
Right sacroiliac joint: unremarkable.
Left sacroiliac joint: unremarkable.

IMPRESSION:
1. New T12 compression fracture with mild loss of anterior height.
2. Grade 1 anterolisthesis of L4 on L5, 4 mm.
3. Moderate degenerative disc space narrowing at L5-S1.
4. Mild lumbar scoliosis, convex to the right.""",
        "reordered": """LUMBAR SPINE RADIOGRAPHS, AP AND LATERAL

FINDINGS:
There is a mild scoliosis of the lumbar spine, convex to the right. The sacroiliac joints are unremarkable. Moderate disc space narrowing is present at L5-S1 with small anterior osteophytes. There is grade 1 anterolisthesis of L4 on L5, measuring 4 mm. The pedicles are intact. There is a new compression fracture of the T12 vertebral body with mild loss of anterior height. The remaining vertebral body heights are maintained.

IMPRESSION:
1. New T12 compression fracture with mild loss of anterior height.
2. Moderate degenerative disc space narrowing at L5-S1.
3. Grade 1 anterolisthesis of L4 on L5, 4 mm.
4. Mild lumbar scoliosis, convex to the right.""",
    },
    {
        "side": (("convex to the right", "convex to the left"),),
        "site": (("T12", "L2"),),
        "missed": (("There is grade 1 anterolisthesis of L4 on L5, measuring 4 mm. ", ""),
                   ("2. Grade 1 anterolisthesis of L4 on L5, 4 mm.\n3. Moderate degenerative disc space narrowing at L5-S1.\n4.",
                    "2. Moderate degenerative disc space narrowing at L5-S1.\n3.")),
        "invented": (("The pedicles are intact.", "There is a pars interarticularis defect at L5 on the left. The pedicles are intact."),
                     (END, "\n5. Left L5 pars interarticularis defect.")),
        "severity": (("Moderate disc space narrowing", "Severe disc space narrowing"), ("3. Moderate degenerative", "3. Severe degenerative")),
        "size": (("4 mm", "9 mm"),),
        "change": (("There is a new compression", "There is an unchanged compression"), ("1. New T12", "1. Unchanged T12")),
        "certainty": (("There is a new compression", "There is a probable new compression"), ("1. New T12", "1. Probable new T12")),
        "negation": (("There is grade 1 anterolisthesis of L4 on L5, measuring 4 mm.", "There is no anterolisthesis."),
                     ("2. Grade 1 anterolisthesis of L4 on L5, 4 mm.", "2. No anterolisthesis.")),
    },
)

XR_HIP = Source(
    "xr-hip-arthroplasty", "XR",
    """PELVIS AND HIP RADIOGRAPHS

FINDINGS:
There is a left total hip arthroplasty. The acetabular component is in satisfactory position, without loosening. There is a new 3 mm lucency at the bone-cement interface around the proximal femoral stem, suspicious for early loosening. Mild heterotopic ossification is present lateral to the left hip. There is moderate osteoarthritis of the right hip with joint space narrowing and osteophytes. The sacroiliac joints and pubic symphysis are unremarkable. No acute fracture is seen.

IMPRESSION:
1. Left total hip arthroplasty with a new 3 mm lucency around the proximal femoral stem, suspicious for early loosening.
2. Moderate osteoarthritis of the right hip.
3. Mild heterotopic ossification lateral to the left hip.""",
    {
        "synonyms": """RADIOGRAPHS OF THE PELVIS AND HIPS

FINDINGS:
Left total hip replacement. The acetabular cup is well positioned with no sign of loosening. A new 3 mm radiolucent line at the cement-bone interface surrounds the proximal femoral component, raising concern for early loosening. Mild heterotopic bone formation lateral to the left hip. Moderate degenerative change of the right hip with loss of joint space and osteophyte formation. Normal sacroiliac joints and symphysis pubis. No acute fracture.

IMPRESSION:
1. Left total hip replacement with a new 3 mm radiolucent line around the proximal femoral component, concerning for early loosening.
2. Moderate right hip osteoarthritis.
3. Mild heterotopic ossification lateral to the left hip.""",
        "bullets": """PELVIS AND HIP RADIOGRAPHS

Findings:
- Left total hip arthroplasty.
- Acetabular component: satisfactory position, no loosening.
- Femoral stem: new 3 mm lucency at the bone-cement interface around the proximal stem, suspicious for early loosening.
- Mild heterotopic ossification lateral to the left hip.
- Right hip: moderate osteoarthritis with joint space narrowing and osteophytes.
- Sacroiliac joints and pubic symphysis unremarkable.
- No acute fracture.

Impression:
- Left total hip arthroplasty with a new 3 mm lucency around the proximal femoral stem, suspicious for early loosening.
- Moderate osteoarthritis of the right hip.
- Mild heterotopic ossification lateral to the left hip.""",
        "per-site": """PELVIS AND HIP RADIOGRAPHS

FINDINGS:
There is a left total hip arthroplasty. The acetabular component is in satisfactory position, without loosening. There is a new 3 mm lucency at the bone-cement interface around the proximal femoral stem, suspicious for early loosening. Mild heterotopic ossification is present lateral to the left hip. There is moderate osteoarthritis of the right hip with joint space narrowing and osteophytes.
Right sacroiliac joint: unremarkable.
Left sacroiliac joint: unremarkable.
Pubic symphysis: unremarkable.
No acute fracture is seen.

IMPRESSION:
1. Left total hip arthroplasty with a new 3 mm lucency around the proximal femoral stem, suspicious for early loosening.
2. Moderate osteoarthritis of the right hip.
3. Mild heterotopic ossification lateral to the left hip.""",
        "reordered": """PELVIS AND HIP RADIOGRAPHS

FINDINGS:
No acute fracture is seen. There is moderate osteoarthritis of the right hip with joint space narrowing and osteophytes. There is a left total hip arthroplasty. There is a new 3 mm lucency at the bone-cement interface around the proximal femoral stem, suspicious for early loosening. The acetabular component is in satisfactory position, without loosening. The sacroiliac joints and pubic symphysis are unremarkable. Mild heterotopic ossification is present lateral to the left hip.

IMPRESSION:
1. Left total hip arthroplasty with a new 3 mm lucency around the proximal femoral stem, suspicious for early loosening.
2. Mild heterotopic ossification lateral to the left hip.
3. Moderate osteoarthritis of the right hip.""",
    },
    {
        "side": (("osteoarthritis of the right hip", "osteoarthritis of the left hip"),),
        "site": (("proximal femoral stem", "distal femoral stem"),),
        "missed": (("Mild heterotopic ossification is present lateral to the left hip. ", ""),
                   ("\n3. Mild heterotopic ossification lateral to the left hip.", "")),
        "invented": (("No acute fracture is seen.", "There is a 15 mm bone island in the right iliac bone. No acute fracture is seen."),
                     (END, "\n4. 15 mm bone island in the right iliac bone.")),
        "severity": (("moderate osteoarthritis", "severe osteoarthritis"), ("Moderate osteoarthritis", "Severe osteoarthritis")),
        "size": (("3 mm", "6 mm"),),
        "change": (("a new 3 mm", "an unchanged 3 mm"),),
        "certainty": (("suspicious for early loosening", "consistent with early loosening"),),
        "negation": (("There is a new 3 mm lucency at the bone-cement interface around the proximal femoral stem, suspicious for early loosening.",
                      "There is no lucency around the femoral stem to suggest loosening."),
                     ("with a new 3 mm lucency around the proximal femoral stem, suspicious for early loosening",
                      "without lucency around the femoral stem or loosening")),
    },
)

# Radiographs outside the chest written as reports translated from another language often read
# ("lip-like hyperplasia", "high-density shadow", "the intervertebral space is narrowed"), each
# rewritten in the wording of an English-language report.

XR_KNEE = Source(
    "xr-knee-degenerative", "XR",
    """RIGHT KNEE RADIOGRAPHS, ANTEROPOSTERIOR AND LATERAL

FINDINGS:
Lip-like bony hyperplasia is seen at the margins of the right femoral condyles, the tibial plateau and the patella. The intercondylar eminences of the tibia are sharpened. The medial joint space of the right knee is narrowed, more than on the previous radiograph, with sclerosis of the subchondral bone. A round high-density shadow about 6 mm in size is seen in the posterior part of the knee joint, possibly a loose body. No obvious bone destruction is seen. The suprapatellar soft tissue is mildly swollen.

IMPRESSION:
1. Degenerative changes of the right knee joint, with narrowing of the medial joint space, progressed since the previous radiograph.
2. A 6 mm high-density body in the posterior knee joint, possibly a loose body.
3. Mild suprapatellar soft tissue swelling.""",
    {
        "synonyms": """RADIOGRAPHS OF THE RIGHT KNEE, TWO VIEWS

FINDINGS:
Marginal osteophytes arise from the right femoral condyles, the tibial plateau and the patella. The tibial spines are peaked. The medial compartment of the right knee is narrowed, more than on the prior study, with subchondral sclerosis. A rounded 6 mm calcific density projects over the posterior knee joint and may represent a loose body. There is no osseous destruction. There is mild soft tissue swelling above the patella.

IMPRESSION:
1. Osteoarthritis of the right knee with medial compartment narrowing, worse than on the prior study.
2. 6 mm calcific density in the posterior knee joint, which may represent a loose body.
3. Mild suprapatellar soft tissue swelling.""",
        "bullets": """RIGHT KNEE RADIOGRAPHS, ANTEROPOSTERIOR AND LATERAL

Findings:
- Femoral condyles, tibial plateau and patella: marginal osteophytes.
- Tibial spines: peaked.
- Medial compartment: narrowed, more than on the prior study; subchondral sclerosis.
- Posterior knee joint: round 6 mm dense body, possibly a loose body.
- No bone destruction.
- Suprapatellar soft tissues: mildly swollen.

Impression:
1. Right knee osteoarthritis with medial compartment narrowing, progressed since the prior study.
2. 6 mm dense body in the posterior knee joint, possibly a loose body.
3. Mild suprapatellar soft tissue swelling.""",
        "per-site": """RIGHT KNEE RADIOGRAPHS, ANTEROPOSTERIOR AND LATERAL

FINDINGS:
Right femoral condyles: marginal lip-like bony hyperplasia.
Right tibial plateau: marginal lip-like bony hyperplasia.
Right patella: marginal lip-like bony hyperplasia.
Tibial intercondylar eminences: sharpened.
Medial joint space of the right knee: narrowed, more than on the previous radiograph, with subchondral sclerosis.
Posterior knee joint: a round high-density shadow about 6 mm in size, possibly a loose body.
Bones: no destruction.
Suprapatellar soft tissue: mildly swollen.

IMPRESSION:
1. Degenerative changes of the right knee joint, with narrowing of the medial joint space, progressed since the previous radiograph.
2. A 6 mm high-density body in the posterior knee joint, possibly a loose body.
3. Mild suprapatellar soft tissue swelling.""",
        "reordered": """RIGHT KNEE RADIOGRAPHS, ANTEROPOSTERIOR AND LATERAL

FINDINGS:
The medial joint space of the right knee is narrowed, more than on the previous radiograph, with sclerosis of the subchondral bone. The suprapatellar soft tissue is mildly swollen. Lip-like bony hyperplasia is seen at the margins of the right femoral condyles, the tibial plateau and the patella. The intercondylar eminences of the tibia are sharpened. No obvious bone destruction is seen. A round high-density shadow about 6 mm in size is seen in the posterior part of the knee joint, possibly a loose body.

IMPRESSION:
1. Degenerative changes of the right knee joint, with narrowing of the medial joint space, progressed since the previous radiograph.
2. Mild suprapatellar soft tissue swelling.
3. A 6 mm high-density body in the posterior knee joint, possibly a loose body.""",
    },
    {
        "side": (("The medial joint space of the right knee", "The medial joint space of the left knee"),),
        "site": (("The medial joint space", "The lateral joint space"), ("narrowing of the medial joint space", "narrowing of the lateral joint space")),
        "missed": (("A round high-density shadow about 6 mm in size is seen in the posterior part of the knee joint, possibly a loose body. ", ""),
                   ("2. A 6 mm high-density body in the posterior knee joint, possibly a loose body.\n3.", "2.")),
        "invented": (("No obvious bone destruction is seen.", "A transverse fracture line is seen in the right patella. No obvious bone destruction is seen."),
                     (END, "\n4. Transverse fracture of the right patella.")),
        "severity": (("mildly swollen", "markedly swollen"), ("3. Mild suprapatellar", "3. Marked suprapatellar")),
        "size": (("about 6 mm", "about 15 mm"), ("A 6 mm", "A 15 mm")),
        "change": (("more than on the previous radiograph", "unchanged from the previous radiograph"), ("progressed since the previous radiograph", "unchanged since the previous radiograph")),
        "certainty": (("possibly a loose body", "a loose body"),),
        "negation": (("The suprapatellar soft tissue is mildly swollen.", "The suprapatellar soft tissue is not swollen."),
                     ("3. Mild suprapatellar soft tissue swelling.", "3. No suprapatellar soft tissue swelling.")),
    },
)

XR_CERVICAL = Source(
    "xr-cervical-spine", "XR",
    """CERVICAL SPINE RADIOGRAPHS, ANTEROPOSTERIOR, LATERAL AND OBLIQUE

FINDINGS:
The physiological lordosis of the cervical spine is straightened. Lip-like hyperplasia is seen at the anterior and posterior margins of the C4-C6 vertebral bodies. The C5/6 intervertebral space is narrowed, more than on the previous radiograph. The right C5/6 intervertebral foramen is mildly narrowed. A strip-like high-density shadow about 12 mm long is seen behind the spinous process of C6, probably calcification of the nuchal ligament. The alignment of the vertebral bodies is normal, and no obvious bone destruction is seen. The prevertebral soft tissue is not thickened.

IMPRESSION:
1. Degenerative changes of the cervical spine, with narrowing of the C5/6 intervertebral space, progressed since the previous radiograph, and mild narrowing of the right C5/6 foramen.
2. Probable calcification of the nuchal ligament.""",
    {
        "synonyms": """RADIOGRAPHS OF THE CERVICAL SPINE, THREE VIEWS

FINDINGS:
There is loss of the normal cervical lordosis. Anterior and posterior osteophytes are present at C4 through C6. The C5-6 disc space is narrowed, more than on the prior study. There is mild right C5-C6 neural foraminal narrowing. A linear 12 mm calcific density posterior to the C6 spinous process probably represents nuchal ligament calcification. Vertebral alignment is maintained, with no osseous destruction. The prevertebral soft tissues are of normal thickness.

IMPRESSION:
1. Cervical spondylosis with C5-6 disc space narrowing, worse than on the prior study, and mild right C5-6 foraminal narrowing.
2. Probable nuchal ligament calcification.""",
        "bullets": """CERVICAL SPINE RADIOGRAPHS, ANTEROPOSTERIOR, LATERAL AND OBLIQUE

Findings:
- Lordosis: straightened.
- C4-C6 vertebral bodies: anterior and posterior osteophytes.
- C5-C6 disc space: narrowed, more than on the prior study.
- Right C5-C6 neural foramen: mildly narrowed.
- Posterior to the C6 spinous process: linear 12 mm calcific density, probably nuchal ligament calcification.
- Alignment: normal. No bone destruction.
- Prevertebral soft tissues: normal thickness.

Impression:
1. Cervical spondylosis; C5-C6 disc space narrowing, progressed since the prior study; mild right C5-C6 foraminal narrowing.
2. Probable nuchal ligament calcification.""",
        "per-site": """CERVICAL SPINE RADIOGRAPHS, ANTEROPOSTERIOR, LATERAL AND OBLIQUE

FINDINGS:
The physiological lordosis of the cervical spine is straightened.
C4: lip-like hyperplasia at the anterior and posterior vertebral margins.
C5: lip-like hyperplasia at the anterior and posterior vertebral margins.
C6: lip-like hyperplasia at the anterior and posterior vertebral margins.
C5/6: the intervertebral space is narrowed, more than on the previous radiograph; the right intervertebral foramen is mildly narrowed.
A strip-like high-density shadow about 12 mm long is seen behind the spinous process of C6, probably calcification of the nuchal ligament. The alignment of the vertebral bodies is normal, and no obvious bone destruction is seen. The prevertebral soft tissue is not thickened.

IMPRESSION:
1. Degenerative changes of the cervical spine, with narrowing of the C5/6 intervertebral space, progressed since the previous radiograph, and mild narrowing of the right C5/6 foramen.
2. Probable calcification of the nuchal ligament.""",
        "reordered": """CERVICAL SPINE RADIOGRAPHS, ANTEROPOSTERIOR, LATERAL AND OBLIQUE

FINDINGS:
The alignment of the vertebral bodies is normal, and no obvious bone destruction is seen. The prevertebral soft tissue is not thickened. The C5/6 intervertebral space is narrowed, more than on the previous radiograph. The right C5/6 intervertebral foramen is mildly narrowed. The physiological lordosis of the cervical spine is straightened. Lip-like hyperplasia is seen at the anterior and posterior margins of the C4-C6 vertebral bodies. A strip-like high-density shadow about 12 mm long is seen behind the spinous process of C6, probably calcification of the nuchal ligament.

IMPRESSION:
1. Probable calcification of the nuchal ligament.
2. Degenerative changes of the cervical spine, with narrowing of the C5/6 intervertebral space, progressed since the previous radiograph, and mild narrowing of the right C5/6 foramen.""",
    },
    {
        "side": (("The right C5/6 intervertebral foramen", "The left C5/6 intervertebral foramen"), ("the right C5/6 foramen", "the left C5/6 foramen")),
        "site": (("The C5/6 intervertebral space", "The C3/4 intervertebral space"), ("narrowing of the C5/6 intervertebral space", "narrowing of the C3/4 intervertebral space")),
        "missed": (("A strip-like high-density shadow about 12 mm long is seen behind the spinous process of C6, probably calcification of the nuchal ligament. ", ""),
                   ("\n2. Probable calcification of the nuchal ligament.", "")),
        "invented": (("The prevertebral soft tissue is not thickened.", "The prevertebral soft tissue is not thickened. A compression fracture of the C7 vertebral body is seen."),
                     (END, "\n3. Compression fracture of the C7 vertebral body.")),
        "severity": (("The right C5/6 intervertebral foramen is mildly narrowed.", "The right C5/6 intervertebral foramen is severely narrowed."),
                     ("and mild narrowing of the right C5/6 foramen", "and severe narrowing of the right C5/6 foramen")),
        "size": (("about 12 mm long", "about 30 mm long"),),
        "change": (("more than on the previous radiograph", "unchanged from the previous radiograph"), ("progressed since the previous radiograph", "unchanged since the previous radiograph")),
        "certainty": (("probably calcification of the nuchal ligament", "calcification of the nuchal ligament"), ("2. Probable calcification", "2. Calcification")),
        "negation": (("The right C5/6 intervertebral foramen is mildly narrowed.", "The intervertebral foramina are not narrowed."),
                     (", and mild narrowing of the right C5/6 foramen", "; the foramina are not narrowed")),
    },
)

XR_HAND = Source(
    "xr-hand-fracture", "XR",
    """LEFT HAND RADIOGRAPHS, POSTEROANTERIOR AND OBLIQUE

FINDINGS:
A fracture line is seen at the base of the proximal phalanx of the left fifth finger, extending into the metacarpophalangeal joint, with ulnar displacement of the distal fragment of about 2 mm. A small bone fragment is seen beside the ulnar side of the fifth metacarpal head, possibly an avulsion fragment. The surrounding soft tissue is swollen, less than on the radiograph of 3 days ago. The other bones of the left hand show no obvious fracture. The joint spaces are normal. Bone density is slightly decreased.

IMPRESSION:
1. Intra-articular fracture of the base of the proximal phalanx of the left fifth finger, with 2 mm ulnar displacement.
2. Small bone fragment beside the fifth metacarpal head, possibly an avulsion fragment.
3. Soft tissue swelling, decreased since the previous radiograph.
4. Mild osteopenia.""",
    {
        "synonyms": """RADIOGRAPHS OF THE LEFT HAND, TWO VIEWS

FINDINGS:
There is an intra-articular fracture through the base of the left small finger proximal phalanx, with the distal fragment displaced 2 mm ulnarly. A tiny ossific fragment adjacent to the ulnar aspect of the fifth metacarpal head may represent an avulsion fragment. Soft tissue swelling around the fracture has decreased since the radiographs of 3 days ago. No other fracture of the left hand. The joint spaces are preserved. There is mild osteopenia.

IMPRESSION:
1. Intra-articular left small finger proximal phalanx base fracture with 2 mm ulnar displacement.
2. Tiny ossific fragment adjacent to the fifth metacarpal head, which may represent an avulsion fragment.
3. Soft tissue swelling, less than on the previous radiographs.
4. Mild osteopenia.""",
        "bullets": """LEFT HAND RADIOGRAPHS, POSTEROANTERIOR AND OBLIQUE

Findings:
- Left fifth proximal phalanx base: fracture extending into the metacarpophalangeal joint; distal fragment displaced 2 mm ulnarly.
- Ulnar side of the fifth metacarpal head: small bone fragment, possibly an avulsion fragment.
- Soft tissues: swelling, less than on the radiograph of 3 days ago.
- Other bones of the left hand: no fracture.
- Joint spaces: normal.
- Mild osteopenia.

Impression:
1. Intra-articular fracture of the left fifth proximal phalanx base, 2 mm ulnar displacement.
2. Possible avulsion fragment beside the fifth metacarpal head.
3. Soft tissue swelling, decreased since the previous radiograph.
4. Mild osteopenia.""",
        "per-site": """LEFT HAND RADIOGRAPHS, POSTEROANTERIOR AND OBLIQUE

FINDINGS:
Proximal phalanx of the left fifth finger: a fracture line at the base, extending into the metacarpophalangeal joint, with ulnar displacement of the distal fragment of about 2 mm.
Fifth metacarpal head: a small bone fragment beside its ulnar side, possibly an avulsion fragment.
Soft tissue: swollen, less than on the radiograph of 3 days ago.
Other bones of the left hand: no obvious fracture.
Joints: normal joint spaces.
Bone density: slightly decreased.

IMPRESSION:
1. Intra-articular fracture of the base of the proximal phalanx of the left fifth finger, with 2 mm ulnar displacement.
2. Small bone fragment beside the fifth metacarpal head, possibly an avulsion fragment.
3. Soft tissue swelling, decreased since the previous radiograph.
4. Mild osteopenia.""",
        "reordered": """LEFT HAND RADIOGRAPHS, POSTEROANTERIOR AND OBLIQUE

FINDINGS:
Bone density is slightly decreased. The joint spaces are normal. A fracture line is seen at the base of the proximal phalanx of the left fifth finger, extending into the metacarpophalangeal joint, with ulnar displacement of the distal fragment of about 2 mm. The surrounding soft tissue is swollen, less than on the radiograph of 3 days ago. A small bone fragment is seen beside the ulnar side of the fifth metacarpal head, possibly an avulsion fragment. The other bones of the left hand show no obvious fracture.

IMPRESSION:
1. Intra-articular fracture of the base of the proximal phalanx of the left fifth finger, with 2 mm ulnar displacement.
2. Mild osteopenia.
3. Small bone fragment beside the fifth metacarpal head, possibly an avulsion fragment.
4. Soft tissue swelling, decreased since the previous radiograph.""",
    },
    {
        "side": (("left fifth finger", "right fifth finger"), ("other bones of the left hand", "other bones of the right hand")),
        "site": (("proximal phalanx of the left fifth finger", "proximal phalanx of the left fourth finger"),),
        "missed": (("A small bone fragment is seen beside the ulnar side of the fifth metacarpal head, possibly an avulsion fragment. ", ""),
                   ("2. Small bone fragment beside the fifth metacarpal head, possibly an avulsion fragment.\n3. Soft tissue swelling, decreased since the previous radiograph.\n4.",
                    "2. Soft tissue swelling, decreased since the previous radiograph.\n3.")),
        "invented": (("The joint spaces are normal.", "The joint spaces are normal. A fracture of the scaphoid waist is seen."),
                     (END, "\n5. Fracture of the scaphoid waist.")),
        "severity": (("Bone density is slightly decreased.", "Bone density is markedly decreased."), ("4. Mild osteopenia.", "4. Severe osteopenia.")),
        "size": (("about 2 mm", "about 8 mm"), ("with 2 mm ulnar", "with 8 mm ulnar")),
        "change": (("less than on the radiograph of 3 days ago", "more than on the radiograph of 3 days ago"),
                   ("decreased since the previous radiograph", "increased since the previous radiograph")),
        "certainty": (("possibly an avulsion fragment", "an avulsion fragment"),),
        "negation": (("Bone density is slightly decreased.", "Bone density is normal."), ("4. Mild osteopenia.", "4. Normal bone density.")),
    },
)

XR_ANKLE_FIXATION = Source(
    "xr-ankle-fixation", "XR",
    """LEFT ANKLE RADIOGRAPHS AFTER SURGERY, ANTEROPOSTERIOR AND LATERAL

FINDINGS:
After internal fixation of a bimalleolar fracture of the left ankle. A steel plate and six screws are seen in the distal fibula, in good position, with no loosening or breakage. The fibular fracture line is blurred, with a moderate amount of callus, more than on the previous radiograph. A cannulated screw is seen in the medial malleolus, surrounded by a lucent zone about 2 mm wide, possibly early loosening. The ankle mortise is symmetrical. The surrounding soft tissue is mildly swollen.

IMPRESSION:
1. Healing left lateral malleolus fracture after plate fixation, with moderate callus, increased since the previous radiograph.
2. A 2 mm lucency around the medial malleolus screw, possibly early loosening.
3. Mild soft tissue swelling.""",
    {
        "synonyms": """LEFT ANKLE, TWO VIEWS, POSTOPERATIVE

FINDINGS:
Status post open reduction and internal fixation of a left bimalleolar fracture. A lateral plate with six screws transfixes the distal fibula; the hardware is well positioned and intact, without loosening. The fibular fracture line is indistinct, with moderate callus, increased from the prior film. A cannulated screw transfixes the medial malleolus and is surrounded by 2 mm of lucency, which may represent early loosening. The mortise is congruent. There is mild soft tissue swelling.

IMPRESSION:
1. Healing left distal fibular fracture after plate fixation, with moderate callus, increased from the prior film.
2. 2 mm periscrew lucency at the medial malleolus, which may represent early loosening.
3. Mild soft tissue swelling.""",
        "bullets": """LEFT ANKLE RADIOGRAPHS AFTER SURGERY, ANTEROPOSTERIOR AND LATERAL

Findings:
- Bimalleolar fracture of the left ankle after internal fixation.
- Distal fibula: plate and six screws; good position, no loosening or breakage.
- Fibular fracture: line indistinct; moderate callus, more than on the prior film.
- Medial malleolus: cannulated screw with a 2 mm surrounding lucency, possibly early loosening.
- Ankle mortise: congruent.
- Soft tissues: mild swelling.

Impression:
1. Healing left lateral malleolus fracture after plate fixation; moderate callus, increased since the prior film.
2. 2 mm lucency around the medial malleolus screw, possibly early loosening.
3. Mild soft tissue swelling.""",
        "per-site": """LEFT ANKLE RADIOGRAPHS AFTER SURGERY, ANTEROPOSTERIOR AND LATERAL

FINDINGS:
After internal fixation of a bimalleolar fracture of the left ankle.
Plate: in the distal fibula, good position, no breakage.
Screws of the fibular plate: six, good position, no loosening or breakage.
Fibular fracture: the fracture line is blurred, with a moderate amount of callus, more than on the previous radiograph.
Medial malleolus: a cannulated screw surrounded by a lucent zone about 2 mm wide, possibly early loosening.
Ankle mortise: symmetrical.
Soft tissue: mildly swollen.

IMPRESSION:
1. Healing left lateral malleolus fracture after plate fixation, with moderate callus, increased since the previous radiograph.
2. A 2 mm lucency around the medial malleolus screw, possibly early loosening.
3. Mild soft tissue swelling.""",
        "reordered": """LEFT ANKLE RADIOGRAPHS AFTER SURGERY, ANTEROPOSTERIOR AND LATERAL

FINDINGS:
After internal fixation of a bimalleolar fracture of the left ankle. The ankle mortise is symmetrical. The surrounding soft tissue is mildly swollen. A cannulated screw is seen in the medial malleolus, surrounded by a lucent zone about 2 mm wide, possibly early loosening. A steel plate and six screws are seen in the distal fibula, in good position, with no loosening or breakage. The fibular fracture line is blurred, with a moderate amount of callus, more than on the previous radiograph.

IMPRESSION:
1. A 2 mm lucency around the medial malleolus screw, possibly early loosening.
2. Healing left lateral malleolus fracture after plate fixation, with moderate callus, increased since the previous radiograph.
3. Mild soft tissue swelling.""",
    },
    {
        "side": (("bimalleolar fracture of the left ankle", "bimalleolar fracture of the right ankle"), ("1. Healing left lateral", "1. Healing right lateral")),
        "site": (("A cannulated screw is seen in the medial malleolus, surrounded", "A cannulated screw is seen in the lateral malleolus, surrounded"),
                 ("around the medial malleolus screw", "around the lateral malleolus screw")),
        "missed": (("A cannulated screw is seen in the medial malleolus, surrounded by a lucent zone about 2 mm wide, possibly early loosening. ", ""),
                   ("2. A 2 mm lucency around the medial malleolus screw, possibly early loosening.\n3.", "2.")),
        "invented": (("The ankle mortise is symmetrical.", "The ankle mortise is symmetrical. A fracture of the base of the fifth metatarsal is seen."),
                     (END, "\n4. Fracture of the base of the fifth metatarsal.")),
        "severity": (("a moderate amount of callus", "a small amount of callus"), ("with moderate callus", "with minimal callus")),
        "size": (("about 2 mm wide", "about 5 mm wide"), ("2. A 2 mm", "2. A 5 mm")),
        "change": (("more than on the previous radiograph", "unchanged from the previous radiograph"), ("increased since the previous radiograph", "unchanged since the previous radiograph")),
        "certainty": (("possibly early loosening", "consistent with loosening"),),
        "negation": (("The surrounding soft tissue is mildly swollen.", "The surrounding soft tissue is not swollen."), ("3. Mild soft tissue swelling.", "3. No soft tissue swelling.")),
    },
)

XR_RADIUS_FIXATION = Source(
    "xr-radius-fixation", "XR",
    """LEFT WRIST RADIOGRAPHS AFTER SURGERY, POSTEROANTERIOR AND LATERAL

FINDINGS:
Re-examination after internal fixation of a fracture of the left distal radius: a steel plate and several screws are seen in the distal radius, in good position, with no loosening or breakage. The fracture line is still visible, the fracture ends are in good alignment, and a small amount of callus is seen, more than on the previous radiograph. The ulnar styloid process is fractured, with displacement of the fragment by about 2 mm. A small bony density is seen beside the radial styloid, possibly an old avulsion fragment. The wrist joint space is normal. The surrounding soft tissue is slightly swollen.

IMPRESSION:
1. After internal fixation of a left distal radius fracture: hardware in good position, fracture ends in good alignment, with a small amount of callus, increased since the previous radiograph.
2. Fracture of the left ulnar styloid process, displaced by 2 mm.
3. Slight soft tissue swelling.""",
    {
        "synonyms": """LEFT WRIST, TWO VIEWS, POSTOPERATIVE

FINDINGS:
Follow-up after open reduction and internal fixation of a left distal radius fracture: a volar plate with multiple screws transfixes the distal radius; the hardware is well positioned, without loosening or breakage. The fracture line remains visible, the fracture is in anatomic alignment, and there is a small amount of callus, increased from the prior film. There is a fracture of the ulnar styloid, with 2 mm displacement of the fragment. A tiny ossific density adjacent to the radial styloid may represent a remote avulsion fragment. The radiocarpal joint space is preserved. There is mild soft tissue swelling.

IMPRESSION:
1. Status post internal fixation of a left distal radius fracture, hardware well positioned, fracture in anatomic alignment with a small amount of callus, increased from the prior film.
2. Ulnar styloid fracture with 2 mm displacement.
3. Mild soft tissue swelling.""",
        "bullets": """LEFT WRIST RADIOGRAPHS AFTER SURGERY, POSTEROANTERIOR AND LATERAL

Findings:
- Left distal radius: plate and several screws after internal fixation; good position; no loosening or breakage.
- Distal radius fracture: fracture line still visible; good alignment; small amount of callus, more than on the previous radiograph.
- Ulnar styloid process: fracture, fragment displaced by about 2 mm.
- Beside the radial styloid: small bony density, possibly an old avulsion fragment.
- Wrist joint space: normal.
- Soft tissue: slightly swollen.

Impression:
1. After internal fixation of a left distal radius fracture: hardware in good position, fracture ends in good alignment, with a small amount of callus, increased since the previous radiograph.
2. Fracture of the left ulnar styloid process, displaced by 2 mm.
3. Slight soft tissue swelling.""",
        "per-site": """LEFT WRIST RADIOGRAPHS AFTER SURGERY, POSTEROANTERIOR AND LATERAL

FINDINGS:
Left distal radius: a steel plate and several screws, in good position, with no loosening or breakage.
Left distal radius fracture: fracture line still visible, fracture ends in good alignment, a small amount of callus, more than on the previous radiograph.
Left ulnar styloid process: fractured, with displacement of the fragment by about 2 mm.
Left radial styloid: a small bony density beside it, possibly an old avulsion fragment.
Left wrist joint: joint space normal.
Soft tissue around the left wrist: slightly swollen.

IMPRESSION:
1. After internal fixation of a left distal radius fracture: hardware in good position, fracture ends in good alignment, with a small amount of callus, increased since the previous radiograph.
2. Fracture of the left ulnar styloid process, displaced by 2 mm.
3. Slight soft tissue swelling.""",
        "reordered": """LEFT WRIST RADIOGRAPHS AFTER SURGERY, POSTEROANTERIOR AND LATERAL

FINDINGS:
The ulnar styloid process is fractured, with displacement of the fragment by about 2 mm. Re-examination after internal fixation of a fracture of the left distal radius: a steel plate and several screws are seen in the distal radius, in good position, with no loosening or breakage. The surrounding soft tissue is slightly swollen. The fracture line is still visible, the fracture ends are in good alignment, and a small amount of callus is seen, more than on the previous radiograph. The wrist joint space is normal. A small bony density is seen beside the radial styloid, possibly an old avulsion fragment.

IMPRESSION:
1. Fracture of the left ulnar styloid process, displaced by 2 mm.
2. After internal fixation of a left distal radius fracture: hardware in good position, fracture ends in good alignment, with a small amount of callus, increased since the previous radiograph.
3. Slight soft tissue swelling.""",
    },
    {
        "side": (("fracture of the left distal radius:", "fracture of the right distal radius:"), ("a left distal radius fracture:", "a right distal radius fracture:")),
        "site": (("The ulnar styloid process is fractured", "The radial styloid process is fractured"),
                 ("2. Fracture of the left ulnar styloid process", "2. Fracture of the left radial styloid process")),
        "missed": (("The ulnar styloid process is fractured, with displacement of the fragment by about 2 mm. ", ""),
                   ("2. Fracture of the left ulnar styloid process, displaced by 2 mm.\n3.", "2.")),
        "invented": (("The wrist joint space is normal.", "A fracture line is seen in the waist of the scaphoid. The wrist joint space is normal."),
                     (END, "\n4. Fracture of the left scaphoid waist.")),
        "severity": (("slightly swollen", "markedly swollen"), ("3. Slight soft tissue swelling.", "3. Marked soft tissue swelling.")),
        "size": (("by about 2 mm", "by about 9 mm"), ("displaced by 2 mm", "displaced by 9 mm")),
        "change": (("more than on the previous radiograph", "unchanged from the previous radiograph"), ("increased since the previous radiograph", "unchanged since the previous radiograph")),
        "certainty": (("possibly an old avulsion fragment", "an old avulsion fragment"),),
        "negation": (("The surrounding soft tissue is slightly swollen.", "The surrounding soft tissue is not swollen."),
                     ("3. Slight soft tissue swelling.", "3. No soft tissue swelling.")),
    },
)

XR_CLAVICLE_FIXATION = Source(
    "xr-clavicle-fixation", "XR",
    """RIGHT CLAVICLE RADIOGRAPH AFTER SURGERY

FINDINGS:
Postoperative review of a right clavicle fracture: a steel plate and screws are seen fixing the middle segment of the right clavicle, in good position, without loosening or breakage. The fracture line is blurred, and the fracture ends are well aligned, with a little callus formation, more than on the previous radiograph. A small bone fragment about 5 mm is seen below the fracture site, possibly a displaced butterfly fragment. The right acromioclavicular joint is normal. The soft tissue around the right shoulder is mildly swollen.

IMPRESSION:
1. After plate fixation of a right mid-clavicular fracture: hardware in good position, fracture ends well aligned, with a little callus, increased since the previous radiograph.
2. A 5 mm bone fragment below the fracture, possibly a butterfly fragment.
3. Mild soft tissue swelling around the right shoulder.""",
    {
        "synonyms": """RIGHT CLAVICLE, ONE VIEW, POSTOPERATIVE

FINDINGS:
Status post open reduction and internal fixation of a right midshaft clavicle fracture with a plate and screws; the hardware is well positioned, with no loosening or breakage. The fracture line is indistinct and the fracture is in anatomic alignment, with minimal callus, increased from the prior film. A 5 mm osseous fragment inferior to the fracture site may represent a displaced butterfly fragment. The right acromioclavicular joint is unremarkable. There is mild soft tissue swelling about the right shoulder.

IMPRESSION:
1. Internal fixation of a right midshaft clavicle fracture, hardware well positioned, anatomic alignment, minimal callus, increased from the prior film.
2. 5 mm fragment inferior to the fracture, possibly a butterfly fragment.
3. Mild soft tissue swelling about the right shoulder.""",
        "bullets": """RIGHT CLAVICLE RADIOGRAPH AFTER SURGERY

Findings:
- Right clavicle: plate and screws after fixation of a middle segment fracture; good position; no loosening or breakage.
- Fracture: line blurred; ends well aligned; a little callus, more than on the previous radiograph.
- Below the fracture site: a 5 mm bone fragment, possibly a displaced butterfly fragment.
- Right acromioclavicular joint: normal.
- Soft tissue around the right shoulder: mildly swollen.

Impression:
1. After plate fixation of a right mid-clavicular fracture: hardware in good position, fracture ends well aligned, with a little callus, increased since the previous radiograph.
2. A 5 mm bone fragment below the fracture, possibly a butterfly fragment.
3. Mild soft tissue swelling around the right shoulder.""",
        "per-site": """RIGHT CLAVICLE RADIOGRAPH AFTER SURGERY

FINDINGS:
Right clavicle, middle segment: a steel plate and screws, in good position, without loosening or breakage.
Right clavicle fracture: fracture line blurred, fracture ends well aligned, a little callus formation, more than on the previous radiograph.
Below the right clavicle fracture site: a bone fragment about 5 mm, possibly a displaced butterfly fragment.
Right acromioclavicular joint: normal.
Right shoulder soft tissue: mildly swollen.

IMPRESSION:
1. After plate fixation of a right mid-clavicular fracture: hardware in good position, fracture ends well aligned, with a little callus, increased since the previous radiograph.
2. A 5 mm bone fragment below the fracture, possibly a butterfly fragment.
3. Mild soft tissue swelling around the right shoulder.""",
        "reordered": """RIGHT CLAVICLE RADIOGRAPH AFTER SURGERY

FINDINGS:
The soft tissue around the right shoulder is mildly swollen. Postoperative review of a right clavicle fracture: a steel plate and screws are seen fixing the middle segment of the right clavicle, in good position, without loosening or breakage. A small bone fragment about 5 mm is seen below the fracture site, possibly a displaced butterfly fragment. The right acromioclavicular joint is normal. The fracture line is blurred, and the fracture ends are well aligned, with a little callus formation, more than on the previous radiograph.

IMPRESSION:
1. Mild soft tissue swelling around the right shoulder.
2. After plate fixation of a right mid-clavicular fracture: hardware in good position, fracture ends well aligned, with a little callus, increased since the previous radiograph.
3. A 5 mm bone fragment below the fracture, possibly a butterfly fragment.""",
    },
    {
        "side": (("of a right clavicle fracture: a steel plate and screws are seen fixing the middle segment of the right clavicle",
                  "of a left clavicle fracture: a steel plate and screws are seen fixing the middle segment of the left clavicle"),
                 ("1. After plate fixation of a right mid-clavicular fracture", "1. After plate fixation of a left mid-clavicular fracture")),
        "site": (("The soft tissue around the right shoulder is mildly swollen.", "The soft tissue around the right elbow is mildly swollen."),
                 ("3. Mild soft tissue swelling around the right shoulder.", "3. Mild soft tissue swelling around the right elbow.")),
        "missed": (("A small bone fragment about 5 mm is seen below the fracture site, possibly a displaced butterfly fragment. ", ""),
                   ("2. A 5 mm bone fragment below the fracture, possibly a butterfly fragment.\n3.", "2.")),
        "invented": (("The right acromioclavicular joint is normal.", "A fracture of the right scapular neck is seen. The right acromioclavicular joint is normal."),
                     (END, "\n4. Fracture of the right scapular neck.")),
        "severity": (("mildly swollen", "markedly swollen"), ("3. Mild soft tissue swelling", "3. Marked soft tissue swelling")),
        "size": (("about 5 mm", "about 15 mm"), ("2. A 5 mm bone fragment", "2. A 15 mm bone fragment")),
        "change": (("more than on the previous radiograph", "unchanged from the previous radiograph"), ("increased since the previous radiograph", "unchanged since the previous radiograph")),
        "certainty": (("possibly a displaced butterfly fragment", "a displaced butterfly fragment"),),
        "negation": (("The soft tissue around the right shoulder is mildly swollen.", "The soft tissue around the right shoulder is not swollen."),
                     ("3. Mild soft tissue swelling around the right shoulder.", "3. No soft tissue swelling around the right shoulder.")),
    },
)

# --- reader-v18: vascular CT, soft-tissue and joint MRI, and a brain MRI written as translated
# reports read (issue 43)

CTA_HEAD_NECK = Source(
    "cta-head-neck", "CT",
    """HEAD AND NECK CT ANGIOGRAPHY

FINDINGS:
The aortic arch is of the normal type, and its three branches arise normally. Calcified plaques are seen at the bifurcation of the bilateral common carotid arteries, with mild luminal stenosis. The cervical segments of the bilateral internal carotid arteries are smooth, without stenosis. The right vertebral artery is slender, the left is dominant. The M1 segment of the left middle cerebral artery shows severe stenosis. The A1 and A2 segments of the bilateral anterior cerebral arteries and the right middle cerebral artery are normal in course, without obvious stenosis. A saccular outpouching about 4 mm is seen at the anterior communicating artery, slightly larger than on the previous CTA. The P2 segment of the left posterior cerebral artery is occluded, and its distal branches are not opacified. The right posterior cerebral artery arises mainly from the right internal carotid artery through a thick posterior communicating artery, with a slender P1 segment, probably a fetal-type variant. No obvious abnormality is seen in the basilar artery.

IMPRESSION:
1. Atherosclerosis of the head and neck arteries: calcified plaques at the bilateral carotid bifurcations with mild stenosis; severe stenosis of the M1 segment of the left middle cerebral artery.
2. Occlusion of the P2 segment of the left posterior cerebral artery.
3. Saccular aneurysm of the anterior communicating artery, about 4 mm, increased slightly since the previous CTA.
4. Slender right vertebral artery with a dominant left vertebral artery; right posterior cerebral artery probably of fetal type.""",
    {
        "synonyms": """CT ANGIOGRAPHY OF THE HEAD AND NECK

FINDINGS:
Normal aortic arch configuration with conventional three-vessel branching. Calcified plaque at both carotid bifurcations causing mild narrowing. Both cervical ICAs are smooth, with no stenosis. Hypoplastic right vertebral artery; the left vertebral artery is dominant. High-grade stenosis of the left MCA M1 segment. Both ACAs (A1 and A2) and the right MCA follow a normal course with no significant narrowing. A 4 mm saccular aneurysm arises from the ACoA, slightly enlarged compared with the prior CTA. The left PCA is occluded at P2, with no opacification of its distal branches. The right PCA fills predominantly from the right ICA via a prominent PComA, and the right P1 is hypoplastic, likely a fetal-origin variant. The basilar artery is unremarkable.

IMPRESSION:
1. Cervical and intracranial atherosclerotic disease: calcified plaque with mild narrowing at both carotid bifurcations; high-grade stenosis of the left MCA M1 segment.
2. Left PCA occlusion at P2.
3. 4 mm saccular ACoA aneurysm, slightly enlarged since the prior CTA.
4. Hypoplastic right vertebral artery with left vertebral dominance; likely fetal-origin right PCA.""",
        "bullets": """HEAD AND NECK CT ANGIOGRAPHY

Findings:
- Aortic arch: normal type; three branches arise normally.
- Common carotid bifurcations, both sides: calcified plaques, mild luminal stenosis.
- Cervical internal carotid arteries, both sides: smooth, no stenosis.
- Vertebral arteries: right slender; left dominant.
- Left middle cerebral artery, M1 segment: severe stenosis.
- Anterior cerebral arteries (A1, A2), both sides, and right middle cerebral artery: normal course, no obvious stenosis.
- Anterior communicating artery: saccular outpouching of about 4 mm, slightly larger than on the previous CTA.
- Left posterior cerebral artery, P2 segment: occluded; distal branches not opacified.
- Right posterior cerebral artery: supplied mainly from the right internal carotid artery via a thick posterior communicating artery; slender P1 segment; probably a fetal-type variant.
- Basilar artery: no obvious abnormality.

Impression:
1. Head and neck atherosclerosis: calcified plaques with mild stenosis at both carotid bifurcations; severe stenosis of the left middle cerebral artery M1 segment.
2. Left posterior cerebral artery P2 segment occlusion.
3. Anterior communicating artery saccular aneurysm, about 4 mm, increased slightly since the previous CTA.
4. Slender right vertebral artery, left vertebral artery dominant; right posterior cerebral artery probably of fetal type.""",
        "per-site": """HEAD AND NECK CT ANGIOGRAPHY

FINDINGS:
Aortic arch: normal type, with its three branches arising normally.
Right common carotid artery bifurcation: calcified plaque, mild luminal stenosis.
Left common carotid artery bifurcation: calcified plaque, mild luminal stenosis.
Right internal carotid artery, cervical segment: smooth, no stenosis.
Left internal carotid artery, cervical segment: smooth, no stenosis.
Right vertebral artery: slender.
Left vertebral artery: dominant.
Left middle cerebral artery, M1 segment: severe stenosis.
Right anterior cerebral artery, A1 and A2 segments: normal course, no obvious stenosis.
Left anterior cerebral artery, A1 and A2 segments: normal course, no obvious stenosis.
Right middle cerebral artery: normal course, no obvious stenosis.
Anterior communicating artery: a saccular outpouching about 4 mm, slightly larger than on the previous CTA.
Left posterior cerebral artery, P2 segment: occluded, distal branches not opacified.
Right posterior cerebral artery: arises mainly from the right internal carotid artery through a thick posterior communicating artery, with a slender P1 segment, probably a fetal-type variant.
Basilar artery: no obvious abnormality.

IMPRESSION:
1. Atherosclerosis of the head and neck arteries: calcified plaques at the bilateral carotid bifurcations with mild stenosis; severe stenosis of the M1 segment of the left middle cerebral artery.
2. Occlusion of the P2 segment of the left posterior cerebral artery.
3. Saccular aneurysm of the anterior communicating artery, about 4 mm, increased slightly since the previous CTA.
4. Slender right vertebral artery with a dominant left vertebral artery; right posterior cerebral artery probably of fetal type.""",
        "reordered": """HEAD AND NECK CT ANGIOGRAPHY

FINDINGS:
A saccular outpouching about 4 mm is seen at the anterior communicating artery, slightly larger than on the previous CTA. The M1 segment of the left middle cerebral artery shows severe stenosis. The P2 segment of the left posterior cerebral artery is occluded, and its distal branches are not opacified. The A1 and A2 segments of the bilateral anterior cerebral arteries and the right middle cerebral artery are normal in course, without obvious stenosis. No obvious abnormality is seen in the basilar artery. The right posterior cerebral artery arises mainly from the right internal carotid artery through a thick posterior communicating artery, with a slender P1 segment, probably a fetal-type variant. The right vertebral artery is slender, the left is dominant. The aortic arch is of the normal type, and its three branches arise normally. The cervical segments of the bilateral internal carotid arteries are smooth, without stenosis. Calcified plaques are seen at the bifurcation of the bilateral common carotid arteries, with mild luminal stenosis.

IMPRESSION:
1. Saccular aneurysm of the anterior communicating artery, about 4 mm, increased slightly since the previous CTA.
2. Occlusion of the P2 segment of the left posterior cerebral artery.
3. Atherosclerosis of the head and neck arteries: calcified plaques at the bilateral carotid bifurcations with mild stenosis; severe stenosis of the M1 segment of the left middle cerebral artery.
4. Slender right vertebral artery with a dominant left vertebral artery; right posterior cerebral artery probably of fetal type.""",
    },
    {
        "side": (("M1 segment of the left middle cerebral artery", "M1 segment of the right middle cerebral artery"),
                 ("anterior cerebral arteries and the right middle cerebral artery", "anterior cerebral arteries and the left middle cerebral artery")),
        "site": (("at the bifurcation of the bilateral common carotid arteries", "at the origins of the bilateral vertebral arteries"),
                 ("at the bilateral carotid bifurcations", "at the bilateral vertebral artery origins")),
        "missed": (("The P2 segment of the left posterior cerebral artery is occluded, and its distal branches are not opacified. ", ""),
                   ("2. Occlusion of the P2 segment of the left posterior cerebral artery.\n3. Saccular", "2. Saccular"),
                   ("\n4. Slender", "\n3. Slender")),
        "invented": (("No obvious abnormality is seen in the basilar artery.",
                      "No obvious abnormality is seen in the basilar artery. A non-calcified plaque is seen in the V4 segment of the left vertebral artery, with moderate luminal stenosis."),
                     (END, "\n5. Moderate stenosis of the V4 segment of the left vertebral artery.")),
        "severity": (("shows severe stenosis", "shows mild stenosis"), ("; severe stenosis of the M1", "; mild stenosis of the M1")),
        "size": (("about 4 mm", "about 9 mm"),),
        "change": (("slightly larger than on the previous CTA", "unchanged from the previous CTA"),
                   ("increased slightly since the previous CTA", "unchanged since the previous CTA")),
        "certainty": (("probably a fetal-type variant", "a fetal-type variant"), ("probably of fetal type", "of fetal type")),
        "negation": (("The P2 segment of the left posterior cerebral artery is occluded, and its distal branches are not opacified.",
                      "The P2 segment of the left posterior cerebral artery is patent, and its distal branches are well opacified."),
                     ("2. Occlusion of the P2 segment of the left posterior cerebral artery.", "2. No occlusion of the left posterior cerebral artery.")),
    },
)

CT_CORONARY = Source(
    "ct-coronary", "CT",
    """CORONARY CT ANGIOGRAPHY

FINDINGS:
The coronary arteries arise normally from the aortic sinuses, and the distribution is right dominant. The coronary artery calcium score is 126 (Agatston). The left main coronary artery and the left circumflex artery show no obvious plaque, and their lumens are not narrowed. A mixed plaque is seen in the proximal segment of the left anterior descending artery, with moderate luminal stenosis, larger than on the previous CTA. The middle segment of the left anterior descending artery runs within the myocardium for about 20 mm, consistent with a myocardial bridge. A small low-density focus is seen on the wall of the middle segment of the right coronary artery, probably a non-calcified plaque, with mild luminal stenosis. The heart is normal in size. No pericardial effusion is seen.

IMPRESSION:
1. Coronary atherosclerosis, right dominant type; calcium score 126.
2. Mixed plaque in the proximal left anterior descending artery with moderate stenosis, increased since the previous CTA.
3. Myocardial bridge in the middle segment of the left anterior descending artery, about 20 mm long.
4. Probable non-calcified plaque in the middle segment of the right coronary artery, with mild stenosis.""",
    {
        "synonyms": """CT CORONARY ANGIOGRAPHY

FINDINGS:
Normal coronary origins; right-dominant circulation. Agatston calcium score: 126. The LM and LCx are free of plaque, with no stenosis. Mixed (partially calcified) plaque in the proximal LAD causing moderate (50-69%) stenosis, progressed compared with the prior CTA. A 20 mm intramyocardial course of the mid LAD, in keeping with a myocardial bridge. A small focus of low attenuation along the wall of the mid RCA, likely noncalcified plaque, with mild (25-49%) stenosis. Normal cardiac size. No pericardial effusion.

IMPRESSION:
1. Coronary artery disease in a right-dominant system; Agatston score 126.
2. Proximal LAD mixed plaque with moderate stenosis, progressed since the prior CTA.
3. Mid LAD myocardial bridge, 20 mm in length.
4. Likely noncalcified plaque in the mid RCA with mild stenosis.""",
        "bullets": """CORONARY CT ANGIOGRAPHY

Findings:
- Coronary origins: normal, from the aortic sinuses.
- Dominance: right.
- Calcium score: 126 (Agatston).
- Left main and left circumflex arteries: no obvious plaque; lumens not narrowed.
- Left anterior descending artery, proximal segment: mixed plaque, moderate luminal stenosis, larger than on the previous CTA.
- Left anterior descending artery, middle segment: intramyocardial course of about 20 mm, consistent with a myocardial bridge.
- Right coronary artery, middle segment: small low-density focus on the wall, probably a non-calcified plaque; mild luminal stenosis.
- Heart: normal size.
- Pericardium: no effusion.

Impression:
1. Coronary atherosclerosis, right dominant; calcium score 126.
2. Proximal left anterior descending artery mixed plaque, moderate stenosis, increased since the previous CTA.
3. Mid left anterior descending artery myocardial bridge, about 20 mm long.
4. Probable non-calcified plaque of the mid right coronary artery, mild stenosis.""",
        "per-site": """CORONARY CT ANGIOGRAPHY

FINDINGS:
The coronary arteries arise normally from the aortic sinuses, and the distribution is right dominant. The coronary artery calcium score is 126 (Agatston).
Left main coronary artery: no obvious plaque, lumen not narrowed.
Left circumflex artery: no obvious plaque, lumen not narrowed.
Proximal left anterior descending artery: mixed plaque, moderate luminal stenosis, larger than on the previous CTA.
Middle left anterior descending artery: runs within the myocardium for about 20 mm, consistent with a myocardial bridge.
Middle right coronary artery: a small low-density focus on the wall, probably a non-calcified plaque, with mild luminal stenosis.
Heart: normal in size.
Pericardium: no effusion.

IMPRESSION:
1. Coronary atherosclerosis, right dominant type; calcium score 126.
2. Mixed plaque in the proximal left anterior descending artery with moderate stenosis, increased since the previous CTA.
3. Myocardial bridge in the middle segment of the left anterior descending artery, about 20 mm long.
4. Probable non-calcified plaque in the middle segment of the right coronary artery, with mild stenosis.""",
        "reordered": """CORONARY CT ANGIOGRAPHY

FINDINGS:
The heart is normal in size. No pericardial effusion is seen. A mixed plaque is seen in the proximal segment of the left anterior descending artery, with moderate luminal stenosis, larger than on the previous CTA. A small low-density focus is seen on the wall of the middle segment of the right coronary artery, probably a non-calcified plaque, with mild luminal stenosis. The left main coronary artery and the left circumflex artery show no obvious plaque, and their lumens are not narrowed. The middle segment of the left anterior descending artery runs within the myocardium for about 20 mm, consistent with a myocardial bridge. The coronary artery calcium score is 126 (Agatston). The coronary arteries arise normally from the aortic sinuses, and the distribution is right dominant.

IMPRESSION:
1. Mixed plaque in the proximal left anterior descending artery with moderate stenosis, increased since the previous CTA.
2. Probable non-calcified plaque in the middle segment of the right coronary artery, with mild stenosis.
3. Myocardial bridge in the middle segment of the left anterior descending artery, about 20 mm long.
4. Coronary atherosclerosis, right dominant type; calcium score 126.""",
    },
    # no side error: a coronary CT angiogram states no finding of a left or right side (dominance is
    # a normal variant)
    {
        "site": (("in the proximal segment of the left anterior descending artery", "in the distal segment of the left anterior descending artery"),
                 ("2. Mixed plaque in the proximal left anterior descending artery", "2. Mixed plaque in the distal left anterior descending artery")),
        "missed": (("A small low-density focus is seen on the wall of the middle segment of the right coronary artery, probably a non-calcified plaque, with mild luminal stenosis. ", ""),
                   ("\n4. Probable non-calcified plaque in the middle segment of the right coronary artery, with mild stenosis.", "")),
        "invented": (("No pericardial effusion is seen.", "No pericardial effusion is seen. A thrombus is seen in the left atrial appendage."),
                     (END, "\n5. Thrombus in the left atrial appendage.")),
        "severity": (("with moderate luminal stenosis", "with severe luminal stenosis"), ("with moderate stenosis", "with severe stenosis")),
        "size": (("about 20 mm", "about 45 mm"),),
        "change": (("larger than on the previous CTA", "unchanged from the previous CTA"), ("increased since the previous CTA", "unchanged since the previous CTA")),
        "certainty": (("probably a non-calcified plaque", "a non-calcified plaque"), ("4. Probable non-calcified plaque", "4. Non-calcified plaque")),
        "negation": (("No pericardial effusion is seen.", "A pericardial effusion is seen."),),
    },
)


MRI_THIGH_MASS = Source(
    "mri-thigh-mass", "MRI",
    """LEFT THIGH MRI, PLAIN AND ENHANCED SCAN

FINDINGS:
An oval mass of long T1 and long T2 signal is seen in the vastus lateralis muscle of the left thigh, about 45 mm x 30 mm, with a clear boundary, larger than on the previous MRI. After enhancement the lesion shows heterogeneous enhancement. Patchy high signal on fat-suppressed sequences is seen in the surrounding muscle, in keeping with mild edema. Reticular high signal on fat-suppressed sequences is seen in the subcutaneous fat of the lateral left thigh, in keeping with edema. A small amount of fluid signal is seen in the left knee joint. No abnormal signal is seen in the left femur. Several small lymph nodes are seen in the left inguinal region, the largest about 8 mm in short axis. The left sciatic nerve and the femoral vessels are normal in course and signal. The adductor and posterior muscle groups of the left thigh show normal signal.

IMPRESSION:
1. Oval mass in the left vastus lateralis muscle, about 45 mm x 30 mm, with heterogeneous enhancement, increased in size since the previous MRI: possibly a soft tissue sarcoma; please correlate with biopsy.
2. Mild edema of the surrounding muscle; subcutaneous edema of the lateral left thigh.
3. Small effusion in the left knee joint.
4. Several small lymph nodes in the left inguinal region.""",
    {
        "synonyms": """MRI OF THE LEFT THIGH WITHOUT AND WITH CONTRAST

FINDINGS:
There is a well-circumscribed ovoid intramuscular mass within the left vastus lateralis, T1 hypointense and T2 hyperintense, measuring 4.5 x 3.0 cm, enlarged compared with the prior MRI. On postcontrast images the lesion enhances heterogeneously. Patchy STIR hyperintensity in the adjacent musculature reflects mild edema. Reticular STIR hyperintensity in the subcutaneous fat along the lateral aspect of the left thigh reflects edema. There is a small left knee joint effusion. Normal marrow signal throughout the left femur. Several subcentimetric left inguinal lymph nodes, the largest measuring 8 mm in short-axis diameter. The left sciatic nerve and femoral vessels are normal in course and signal. The adductor and hamstring compartments of the left thigh are normal in signal.

IMPRESSION:
1. 4.5 x 3.0 cm heterogeneously enhancing ovoid intramuscular mass in the left vastus lateralis, enlarged compared with the prior MRI; a soft tissue sarcoma is possible, and tissue sampling is recommended for correlation.
2. Mild perilesional muscle edema; subcutaneous edema along the lateral left thigh.
3. Small left knee joint effusion.
4. Several small left inguinal lymph nodes.""",
        "bullets": """LEFT THIGH MRI, PLAIN AND ENHANCED SCAN

Findings:
- Left vastus lateralis muscle: oval mass, long T1 and long T2 signal, about 45 mm x 30 mm, clear boundary, larger than on the previous MRI.
- Lesion after enhancement: heterogeneous enhancement.
- Surrounding muscle: patchy high signal on fat-suppressed sequences, in keeping with mild edema.
- Subcutaneous fat of the lateral left thigh: reticular high signal on fat-suppressed sequences, in keeping with edema.
- Left knee joint: a small amount of fluid.
- Left femur: no abnormal signal.
- Left inguinal region: several small lymph nodes, the largest about 8 mm in short axis.
- Left sciatic nerve and femoral vessels: normal course and signal.
- Adductor and posterior muscle groups of the left thigh: normal signal.

Impression:
1. Oval mass in the left vastus lateralis muscle, about 45 mm x 30 mm, with heterogeneous enhancement, increased in size since the previous MRI: possibly a soft tissue sarcoma; please correlate with biopsy.
2. Mild edema of the surrounding muscle; subcutaneous edema of the lateral left thigh.
3. Small effusion in the left knee joint.
4. Several small lymph nodes in the left inguinal region.""",
        "per-site": """LEFT THIGH MRI, PLAIN AND ENHANCED SCAN

FINDINGS:
An oval mass of long T1 and long T2 signal is seen in the vastus lateralis muscle of the left thigh, about 45 mm x 30 mm, with a clear boundary, larger than on the previous MRI. After enhancement the lesion shows heterogeneous enhancement. Patchy high signal on fat-suppressed sequences is seen in the surrounding muscle, in keeping with mild edema. Reticular high signal on fat-suppressed sequences is seen in the subcutaneous fat of the lateral left thigh, in keeping with edema. A small amount of fluid signal is seen in the left knee joint. No abnormal signal is seen in the left femur. Several small lymph nodes are seen in the left inguinal region, the largest about 8 mm in short axis.
Left sciatic nerve: normal in course and signal.
Left femoral artery: normal in course and signal.
Left femoral vein: normal in course and signal.
Adductor muscle group of the left thigh: normal signal.
Posterior muscle group of the left thigh: normal signal.

IMPRESSION:
1. Oval mass in the left vastus lateralis muscle, about 45 mm x 30 mm, with heterogeneous enhancement, increased in size since the previous MRI: possibly a soft tissue sarcoma; please correlate with biopsy.
2. Mild edema of the surrounding muscle; subcutaneous edema of the lateral left thigh.
3. Small effusion in the left knee joint.
4. Several small lymph nodes in the left inguinal region.""",
        "reordered": """LEFT THIGH MRI, PLAIN AND ENHANCED SCAN

FINDINGS:
No abnormal signal is seen in the left femur. The adductor and posterior muscle groups of the left thigh show normal signal. An oval mass of long T1 and long T2 signal is seen in the vastus lateralis muscle of the left thigh, about 45 mm x 30 mm, with a clear boundary, larger than on the previous MRI. Patchy high signal on fat-suppressed sequences is seen in the surrounding muscle, in keeping with mild edema. After enhancement the lesion shows heterogeneous enhancement. Several small lymph nodes are seen in the left inguinal region, the largest about 8 mm in short axis. A small amount of fluid signal is seen in the left knee joint. The left sciatic nerve and the femoral vessels are normal in course and signal. Reticular high signal on fat-suppressed sequences is seen in the subcutaneous fat of the lateral left thigh, in keeping with edema.

IMPRESSION:
1. Small effusion in the left knee joint.
2. Oval mass in the left vastus lateralis muscle, about 45 mm x 30 mm, with heterogeneous enhancement, increased in size since the previous MRI: possibly a soft tissue sarcoma; please correlate with biopsy.
3. Several small lymph nodes in the left inguinal region.
4. Mild edema of the surrounding muscle; subcutaneous edema of the lateral left thigh.""",
    },
    {
        "side": (("left inguinal region", "right inguinal region"),),
        "site": (("vastus lateralis", "vastus medialis"),),
        "missed": (("A small amount of fluid signal is seen in the left knee joint. ", ""),
                   ("3. Small effusion in the left knee joint.\n4.", "3.")),
        "invented": (("No abnormal signal is seen in the left femur.",
                      "No abnormal signal is seen in the left femur. A cystic lesion about 25 mm is seen in the left popliteal fossa, in keeping with a popliteal cyst."),
                     (END, "\n5. Left popliteal cyst.")),
        "severity": (("in keeping with mild edema", "in keeping with marked edema"), ("2. Mild edema", "2. Marked edema")),
        "size": (("45 mm x 30 mm", "72 mm x 50 mm"),),
        "change": (("larger than on the previous MRI", "unchanged from the previous MRI"),
                   ("increased in size since the previous MRI", "unchanged in size since the previous MRI")),
        "certainty": (("possibly a soft tissue sarcoma", "consistent with a soft tissue sarcoma"),),
        "negation": (("Reticular high signal on fat-suppressed sequences is seen in the subcutaneous fat of the lateral left thigh, in keeping with edema.",
                      "No abnormal signal is seen in the subcutaneous fat of the lateral left thigh."),
                     ("; subcutaneous edema of the lateral left thigh.", "; no subcutaneous edema of the lateral left thigh.")),
    },
)

MRI_HIP = Source(
    "mri-hip", "MRI",
    """BILATERAL HIP MRI, PLAIN SCAN

FINDINGS:
A geographic area of abnormal signal is seen under the articular surface of the right femoral head, about 22 mm x 18 mm, bordered by a low-signal band on T1WI and showing a double line sign on T2WI, larger than on the previous MRI. Patchy long T1 and long T2 signal is seen in the right femoral head and neck, with high signal on fat-suppressed sequences, in keeping with bone marrow edema. The articular surface of the right femoral head is smooth, with no collapse. A small amount of long T2 fluid signal is seen in the right hip joint. The left femoral head is normal in shape and signal. Linear high signal is seen in the anterosuperior part of the left acetabular labrum, possibly a degenerative tear. The right gluteus medius tendon is thickened at its insertion on the greater trochanter, with increased signal on T2WI. No abnormal signal is seen in the pelvic bones. The hip joint spaces are preserved on both sides.

IMPRESSION:
1. Avascular necrosis of the right femoral head (ARCO stage II), the necrotic area about 22 mm x 18 mm, increased since the previous MRI; no collapse of the articular surface.
2. Bone marrow edema of the right femoral head and neck.
3. Small effusion of the right hip joint.
4. Abnormal signal in the left acetabular labrum, possibly a degenerative tear.
5. Tendinopathy of the right gluteus medius.""",
    {
        "synonyms": """MRI OF BOTH HIPS WITHOUT CONTRAST

FINDINGS:
In the right femoral head there is a 2.2 x 1.8 cm geographic subchondral focus outlined by a T1 hypointense margin, with the double-line sign on T2-weighted images, enlarged compared with the prior MRI. Patchy T1 hypointense, T2 hyperintense signal involving the right femoral head and neck, hyperintense on STIR, represents marrow edema. The right femoral head articular surface is smooth and intact, without collapse. Small right hip effusion. The left femoral head is normal in contour and signal. A linear hyperintense signal in the anterosuperior left acetabular labrum may represent a degenerative tear. The right gluteus medius tendon is thickened and T2 hyperintense at the greater trochanteric insertion. Normal marrow signal in the bony pelvis. Both hip joint spaces are maintained.

IMPRESSION:
1. ARCO stage II osteonecrosis of the right femoral head, necrotic segment 2.2 x 1.8 cm, enlarged compared with the prior MRI; no subchondral collapse.
2. Marrow edema in the right femoral head and neck.
3. Small right hip effusion.
4. Left acetabular labral signal abnormality, possibly a degenerative tear.
5. Right gluteus medius tendinopathy.""",
        "bullets": """BILATERAL HIP MRI, PLAIN SCAN

Findings:
- Right femoral head: geographic subchondral area of abnormal signal, about 22 mm x 18 mm, low-signal band on T1WI, double line sign on T2WI, larger than on the previous MRI.
- Right femoral head and neck: patchy long T1 and long T2 signal, high on fat-suppressed sequences, in keeping with bone marrow edema.
- Right femoral head articular surface: smooth, no collapse.
- Right hip joint: a small amount of fluid.
- Left femoral head: normal shape and signal.
- Left acetabular labrum: linear high signal in the anterosuperior part, possibly a degenerative tear.
- Right gluteus medius tendon: thickened at the greater trochanter insertion, increased T2 signal.
- Pelvic bones: no abnormal signal.
- Hip joint spaces: preserved on both sides.

Impression:
1. Avascular necrosis of the right femoral head (ARCO stage II), the necrotic area about 22 mm x 18 mm, increased since the previous MRI; no collapse of the articular surface.
2. Bone marrow edema of the right femoral head and neck.
3. Small effusion of the right hip joint.
4. Abnormal signal in the left acetabular labrum, possibly a degenerative tear.
5. Tendinopathy of the right gluteus medius.""",
        "per-site": """BILATERAL HIP MRI, PLAIN SCAN

FINDINGS:
A geographic area of abnormal signal is seen under the articular surface of the right femoral head, about 22 mm x 18 mm, bordered by a low-signal band on T1WI and showing a double line sign on T2WI, larger than on the previous MRI.
Right femoral head: patchy long T1 and long T2 signal, with high signal on fat-suppressed sequences, in keeping with bone marrow edema.
Right femoral neck: patchy long T1 and long T2 signal, with high signal on fat-suppressed sequences, in keeping with bone marrow edema.
The articular surface of the right femoral head is smooth, with no collapse. A small amount of long T2 fluid signal is seen in the right hip joint. The left femoral head is normal in shape and signal. Linear high signal is seen in the anterosuperior part of the left acetabular labrum, possibly a degenerative tear. The right gluteus medius tendon is thickened at its insertion on the greater trochanter, with increased signal on T2WI. No abnormal signal is seen in the pelvic bones.
Right hip joint space: preserved.
Left hip joint space: preserved.

IMPRESSION:
1. Avascular necrosis of the right femoral head (ARCO stage II), the necrotic area about 22 mm x 18 mm, increased since the previous MRI; no collapse of the articular surface.
2. Bone marrow edema of the right femoral head and neck.
3. Small effusion of the right hip joint.
4. Abnormal signal in the left acetabular labrum, possibly a degenerative tear.
5. Tendinopathy of the right gluteus medius.""",
        "reordered": """BILATERAL HIP MRI, PLAIN SCAN

FINDINGS:
The left femoral head is normal in shape and signal. Linear high signal is seen in the anterosuperior part of the left acetabular labrum, possibly a degenerative tear. No abnormal signal is seen in the pelvic bones. A small amount of long T2 fluid signal is seen in the right hip joint. Patchy long T1 and long T2 signal is seen in the right femoral head and neck, with high signal on fat-suppressed sequences, in keeping with bone marrow edema. A geographic area of abnormal signal is seen under the articular surface of the right femoral head, about 22 mm x 18 mm, bordered by a low-signal band on T1WI and showing a double line sign on T2WI, larger than on the previous MRI. The hip joint spaces are preserved on both sides. The articular surface of the right femoral head is smooth, with no collapse. The right gluteus medius tendon is thickened at its insertion on the greater trochanter, with increased signal on T2WI.

IMPRESSION:
1. Abnormal signal in the left acetabular labrum, possibly a degenerative tear.
2. Bone marrow edema of the right femoral head and neck.
3. Tendinopathy of the right gluteus medius.
4. Avascular necrosis of the right femoral head (ARCO stage II), the necrotic area about 22 mm x 18 mm, increased since the previous MRI; no collapse of the articular surface.
5. Small effusion of the right hip joint.""",
    },
    {
        "side": (("left acetabular labrum", "right acetabular labrum"),),
        "site": (("gluteus medius", "gluteus minimus"),),
        "missed": (("A small amount of long T2 fluid signal is seen in the right hip joint. ", ""),
                   ("3. Small effusion of the right hip joint.\n4.", "3."), ("5. Tendinopathy", "4. Tendinopathy")),
        "invented": (("No abnormal signal is seen in the pelvic bones.",
                      "No abnormal signal is seen in the pelvic bones. A fluid collection about 15 mm is seen in the left trochanteric bursa, in keeping with bursitis."),
                     (END, "\n6. Left trochanteric bursitis.")),
        "severity": (("A small amount of long T2 fluid signal", "A large amount of long T2 fluid signal"),
                     ("3. Small effusion", "3. Large effusion")),
        "size": (("22 mm x 18 mm", "40 mm x 32 mm"),),
        "change": (("larger than on the previous MRI", "unchanged from the previous MRI"),
                   ("increased since the previous MRI", "unchanged since the previous MRI")),
        "certainty": (("possibly a degenerative tear", "consistent with a degenerative tear"),),
        "negation": (("Patchy long T1 and long T2 signal is seen in the right femoral head and neck, with high signal on fat-suppressed sequences, in keeping with bone marrow edema.",
                      "No bone marrow edema is seen in the right femoral head and neck."),
                     ("2. Bone marrow edema of the right femoral head and neck.", "2. No bone marrow edema of the right femoral head and neck.")),
    },
)


MRI_BRAIN_TRANSLATED = Source(
    "mri-brain-infarcts", "MRI",
    """BRAIN MRI, PLAIN SCAN AND DWI

FINDINGS:
Patchy long T1 and long T2 signal is seen in the left corona radiata, with high signal on DWI and low signal on ADC, new compared with the previous MRI. Multiple dot-like long T1 and long T2 signals are seen in the bilateral basal ganglia and the right thalamus, with low signal on FLAIR and no high signal on DWI. Patchy high signal on FLAIR is seen in the white matter around the bilateral lateral ventricles. A dot-like low signal about 3 mm is seen in the left cerebellar hemisphere on SWI. The ventricular system is slightly enlarged, and the sulci and fissures are widened and deepened. The midline structures are centered. Mucosal thickening is seen in the bilateral maxillary sinuses. No abnormal signal is seen in the brainstem.

IMPRESSION:
1. Acute infarction in the left corona radiata, new since the previous MRI.
2. Multiple old lacunar infarcts in the bilateral basal ganglia and the right thalamus.
3. White matter degeneration around the bilateral lateral ventricles.
4. Brain atrophy.
5. A 3 mm low-signal focus on SWI in the left cerebellar hemisphere, possibly a microbleed.
6. Bilateral maxillary sinusitis.""",
    {
        "synonyms": """MRI BRAIN WITHOUT CONTRAST, WITH DIFFUSION

FINDINGS:
An area of T1 hypointense, T2 hyperintense signal in the left corona radiata shows restricted diffusion (bright on DWI, dark on the ADC map); it was not present on the prior MRI. Multiple punctate T1 hypointense, T2 hyperintense foci in both basal ganglia and the right thalamus are hypointense on FLAIR and do not restrict diffusion. There is patchy periventricular FLAIR hyperintensity in the white matter on both sides. A 3 mm focus of susceptibility in the left cerebellar hemisphere. The ventricles are mildly enlarged, with prominent sulci and fissures. No midline shift. Mucosal thickening of both maxillary sinuses. The brainstem is normal in signal.

IMPRESSION:
1. New acute infarct in the left corona radiata compared with the prior MRI.
2. Multiple chronic lacunar infarcts in both basal ganglia and the right thalamus.
3. Periventricular white matter degeneration, bilateral.
4. Cerebral volume loss.
5. 3 mm susceptibility focus in the left cerebellar hemisphere, possibly a microhemorrhage.
6. Sinusitis of both maxillary sinuses.""",
        "bullets": """BRAIN MRI, PLAIN SCAN AND DWI

Findings:
- Left corona radiata: patchy long T1, long T2 signal, high on DWI and low on ADC; new compared with the previous MRI.
- Bilateral basal ganglia and right thalamus: multiple dot-like long T1, long T2 signals, low on FLAIR, without high signal on DWI.
- White matter around both lateral ventricles: patchy high signal on FLAIR.
- Left cerebellar hemisphere: dot-like low signal on SWI, about 3 mm.
- Ventricular system: slightly enlarged; sulci and fissures widened and deepened.
- Midline structures: centered.
- Bilateral maxillary sinuses: mucosal thickening.
- Brainstem: no abnormal signal.

Impression:
1. Acute infarction, left corona radiata, new since the previous MRI.
2. Multiple old lacunar infarcts, bilateral basal ganglia and right thalamus.
3. White matter degeneration around both lateral ventricles.
4. Brain atrophy.
5. 3 mm SWI low-signal focus in the left cerebellar hemisphere, possibly a microbleed.
6. Bilateral maxillary sinusitis.""",
        "per-site": """BRAIN MRI, PLAIN SCAN AND DWI

FINDINGS:
Left corona radiata: patchy long T1 and long T2 signal, high signal on DWI and low signal on ADC, new compared with the previous MRI.
Left basal ganglia: multiple dot-like long T1 and long T2 signals, low signal on FLAIR, no high signal on DWI.
Right basal ganglia: multiple dot-like long T1 and long T2 signals, low signal on FLAIR, no high signal on DWI.
Right thalamus: dot-like long T1 and long T2 signals, low signal on FLAIR, no high signal on DWI.
White matter around the left lateral ventricle: patchy high signal on FLAIR.
White matter around the right lateral ventricle: patchy high signal on FLAIR.
Left cerebellar hemisphere: a dot-like low signal about 3 mm on SWI.
The ventricular system is slightly enlarged, and the sulci and fissures are widened and deepened. The midline structures are centered.
Left maxillary sinus: mucosal thickening.
Right maxillary sinus: mucosal thickening.
Brainstem: no abnormal signal.

IMPRESSION:
1. Acute infarction in the left corona radiata, new since the previous MRI.
2. Multiple old lacunar infarcts in the left basal ganglia, the right basal ganglia and the right thalamus.
3. White matter degeneration around the left and right lateral ventricles.
4. Brain atrophy.
5. A 3 mm low-signal focus on SWI in the left cerebellar hemisphere, possibly a microbleed.
6. Sinusitis of the left and right maxillary sinuses.""",
        "reordered": """BRAIN MRI, PLAIN SCAN AND DWI

FINDINGS:
The midline structures are centered. No abnormal signal is seen in the brainstem. The ventricular system is slightly enlarged, and the sulci and fissures are widened and deepened. Multiple dot-like long T1 and long T2 signals are seen in the bilateral basal ganglia and the right thalamus, with low signal on FLAIR and no high signal on DWI. Patchy long T1 and long T2 signal is seen in the left corona radiata, with high signal on DWI and low signal on ADC, new compared with the previous MRI. Mucosal thickening is seen in the bilateral maxillary sinuses. A dot-like low signal about 3 mm is seen in the left cerebellar hemisphere on SWI. Patchy high signal on FLAIR is seen in the white matter around the bilateral lateral ventricles.

IMPRESSION:
1. Acute infarction in the left corona radiata, new since the previous MRI.
2. Brain atrophy.
3. White matter degeneration around the bilateral lateral ventricles.
4. Multiple old lacunar infarcts in the bilateral basal ganglia and the right thalamus.
5. Bilateral maxillary sinusitis.
6. A 3 mm low-signal focus on SWI in the left cerebellar hemisphere, possibly a microbleed.""",
    },
    {
        "side": (("Patchy long T1 and long T2 signal is seen in the left corona radiata", "Patchy long T1 and long T2 signal is seen in the right corona radiata"),
                 ("1. Acute infarction in the left corona radiata", "1. Acute infarction in the right corona radiata")),
        "site": (("is seen in the left cerebellar hemisphere on SWI", "is seen in the left occipital lobe on SWI"),
                 ("on SWI in the left cerebellar hemisphere", "on SWI in the left occipital lobe")),
        "missed": ((" Mucosal thickening is seen in the bilateral maxillary sinuses.", ""), ("\n6. Bilateral maxillary sinusitis.", "")),
        "invented": (("No abnormal signal is seen in the brainstem.", "Patchy long T1 and long T2 signal is seen in the pons, with high signal on DWI."),
                     (END, "\n7. Acute infarction in the pons.")),
        "severity": (("The ventricular system is slightly enlarged", "The ventricular system is markedly enlarged"),),
        "size": (("A dot-like low signal about 3 mm", "A dot-like low signal about 9 mm"), ("5. A 3 mm low-signal focus", "5. A 9 mm low-signal focus")),
        "change": (("new compared with the previous MRI", "unchanged from the previous MRI"), ("new since the previous MRI", "unchanged since the previous MRI")),
        "certainty": (("possibly a microbleed", "a microbleed"),),
        "negation": (("No abnormal signal is seen in the brainstem.", "Abnormal signal is seen in the brainstem."),),
    },
)


SOURCES: tuple[Source, ...] = (CT_HEAD, CT_CHEST, CT_ABDOMEN, CT_SPINE, MRI_BRAIN, MRI_SPINE, MRI_KNEE,
                               MRI_LIVER, US_GALLBLADDER, US_THYROID, US_RENAL, US_PELVIS, XR_WRIST,
                               XR_ANKLE, XR_SPINE, XR_HIP, XR_KNEE, XR_CERVICAL, XR_HAND, XR_ANKLE_FIXATION,
                               XR_RADIUS_FIXATION, XR_CLAVICLE_FIXATION, MRI_LUMBAR_TRANSLATED, CT_ABDOMEN_TRANSLATED, CT_CHEST_TRANSLATED,
                               CTA_HEAD_NECK, CT_CORONARY, MRI_THIGH_MASS, MRI_HIP, MRI_BRAIN_TRANSLATED)

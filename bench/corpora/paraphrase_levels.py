"""Two of SSREE's error levels written by hand for twenty-three of our own reports
(``paraphrase_reports``): *all normal*, every abnormal finding said to be normal (SSREE's L4),
and *turned*, every sentence's polarity turned (L5: an abnormal finding denied, a normal
statement made abnormal).
Each is a Findings section; the reference is the Findings of its source, so that every metric
reads the same text. A good metric scores a faithful rewrite above *all normal*, and *all normal*
above *turned* (which keeps no statement of the reference); ``bench paraphrases`` prints how
many reports each metric orders so. Chosen where RadSEM ranked SSREE's L5 above its L4: radiographs
of bones and joints after fracture and fixation, and reports written as translated reports read;
then (reader-v18) head and neck and coronary CT angiography, a thigh and a hip MRI and a brain MRI,
and six reports of CT, MRI and ultrasound written in a radiologist's English.
"""
from __future__ import annotations

# source name -> (all normal, turned)
LEVELS: dict[str, tuple[str, str]] = {
    "xr-knee-degenerative": (
        # all normal
        "No osteophytes are seen at the margins of the right femoral condyles, the tibial plateau or the patella. "
        "The tibial intercondylar eminences are normal in shape. The medial joint space of the right knee is preserved, "
        "with no subchondral sclerosis. No high-density body is seen in the posterior part of the knee joint. "
        "No bone destruction is seen. The suprapatellar soft tissue is not swollen.",
        # turned
        "The margins of the right femoral condyles, the tibial plateau and the patella are smooth, without bony hyperplasia. "
        "The tibial intercondylar eminences are not sharpened. The medial joint space of the right knee is not narrowed, "
        "and the subchondral bone shows no sclerosis. No loose body is seen in the posterior knee joint. "
        "Bone destruction is seen in the right knee. The suprapatellar soft tissue is normal."),
    "xr-cervical-spine": (
        "The physiological lordosis of the cervical spine is maintained. The margins of the C4-C6 vertebral bodies show no "
        "bony hyperplasia. The C5/6 intervertebral space is normal in height. The right C5/6 intervertebral foramen is not narrowed. "
        "No high-density shadow is seen behind the spinous process of C6. The vertebral bodies are normally aligned, "
        "and no bone destruction is seen. The prevertebral soft tissue is not thickened.",
        "The physiological lordosis of the cervical spine is preserved. No lip-like hyperplasia is seen at the margins of the "
        "C4-C6 vertebral bodies. The C5/6 intervertebral space is not narrowed. The right C5/6 intervertebral foramen is normal. "
        "No calcification is seen behind the spinous process of C6. The vertebral bodies are malaligned, and bone destruction "
        "is seen. The prevertebral soft tissue is thickened."),
    "xr-hand-fracture": (
        "No fracture line is seen at the base of the proximal phalanx of the left fifth finger, and the metacarpophalangeal "
        "joint is intact. No bone fragment is seen beside the fifth metacarpal head. The surrounding soft tissue is not swollen. "
        "The other bones of the left hand show no fracture. The joint spaces are normal. Bone density is normal.",
        "The proximal phalanx of the left fifth finger is intact, with no displacement. No avulsion fragment is seen beside "
        "the fifth metacarpal head. The soft tissue around the fifth finger is normal. A fracture is seen in the other bones of "
        "the left hand. The joint spaces are narrowed. Bone density is normal."),
    "xr-ankle-fixation": (
        "The left ankle shows no internal fixation. No plate or screws are seen in the distal fibula. No fibular fracture line "
        "is seen, and there is no callus. No screw is seen in the medial malleolus, and no lucent zone is present. "
        "The ankle mortise is symmetrical. The surrounding soft tissue is not swollen.",
        "The left ankle shows no internal fixation. No plate or screws are seen in the distal fibula; the hardware shows "
        "loosening. No callus is seen at the fibula. No lucent zone is seen around the medial malleolus. "
        "The ankle mortise is asymmetrical. The surrounding soft tissue is normal."),
    "mri-lumbar-degenerative": (
        "The physiological curvature of the lumbar spine is present. No bony hyperplasia is seen at the edges of the L3-L5 "
        "vertebral bodies. The L4/5 and L5/S1 intervertebral discs are normal in signal on T2WI. The L4/5 intervertebral disc "
        "does not protrude, the dural sac is not compressed, and the left lateral recess is not narrowed. The L5/S1 "
        "intervertebral disc does not bulge. The L5 vertebral body is normal in signal. The spinal canal is not narrowed. "
        "The conus medullaris is normal in signal and position. The paravertebral soft tissues are unremarkable.",
        "The physiological curvature of the lumbar spine is straightened. The edges of the L3-L5 vertebral bodies are smooth. "
        "The L4/5 and L5/S1 intervertebral discs are normal in signal on T2WI. The L4/5 disc shows no protrusion, and the "
        "left lateral recess is normal. The L5/S1 disc shows no bulge. No abnormal signal is seen in the L5 vertebral body. "
        "The spinal canal is narrowed. The conus medullaris is abnormal in signal. The paravertebral soft tissues are swollen."),
    "ct-abdomen-cysts": (
        "The liver is normal in size and shape, with smooth margins, and the proportion of the hepatic lobes is normal. "
        "No low-density lesion is seen in the right lobe of the liver. The gallbladder is not enlarged, and its wall is not "
        "thickened. The intrahepatic and extrahepatic bile ducts are not dilated. The spleen and pancreas show no abnormal "
        "density. No low-density lesion is seen in the left kidney. The right kidney shows no abnormality. No enlarged lymph "
        "nodes are seen in the retroperitoneum. No diverticula are seen in the sigmoid colon.",
        "The liver is enlarged, with irregular margins. No cyst is seen in the right lobe of the liver. The gallbladder is "
        "enlarged, and its wall is thickened. The intrahepatic and extrahepatic bile ducts are dilated. The spleen and pancreas "
        "show abnormal density. No cyst is seen in the left kidney. The right kidney shows abnormal density. Enlarged lymph "
        "nodes are seen in the retroperitoneum. The sigmoid colon shows no diverticula."),
    "ct-chest-pneumonia": (
        "The thorax is symmetrical. The lung markings are normal. No patchy opacity is seen in the lower lobe of the left lung. "
        "No nodule is seen in the right upper lobe. No strip-like shadow is seen in the lingula. The trachea and main bronchi "
        "are unobstructed. No enlarged lymph nodes are seen in the mediastinum. The heart shadow is not enlarged, and no "
        "coronary calcification is seen. The pleura is not thickened. No effusion is seen in either pleural cavity.",
        "The thorax is asymmetrical. The lung markings are normal. The lower lobe of the left lung is clear. No nodule is seen "
        "in the right upper lobe. The lingula is clear. The trachea and main bronchi are obstructed. Enlarged lymph nodes are "
        "seen in the mediastinum. The heart shadow is enlarged, and the coronary arteries show no calcification. The pleura is "
        "normal. Effusion is seen in both pleural cavities."),
    "xr-wrist": (
        "The right distal radius shows no fracture and no fixation hardware. No callus is seen. The ulnar styloid is intact. "
        "Bone density is normal. The distal radioulnar joint is congruent and the carpal alignment is normal.",
        "The right distal radius shows no fracture and no plate or screws. The hardware is loose. No callus formation is "
        "seen. The ulnar styloid is intact. There is no osteopenia. The distal radioulnar joint is incongruent and the carpal "
        "alignment is abnormal."),
    "xr-ankle": (
        "The left lateral malleolus is intact. The medial clear space is normal. There is no soft tissue swelling. The medial "
        "and posterior malleoli are intact. The talar dome is intact. There is no calcaneal spur.",
        "No fracture of the left lateral malleolus is seen. The medial clear space is not widened. There is no soft tissue "
        "swelling. The medial and posterior malleoli are fractured. The talar dome is fractured. There is no calcaneal spur."),
    "xr-hip-arthroplasty": (
        "There is no left hip arthroplasty. No lucency is seen around the proximal femur. There is no heterotopic ossification "
        "lateral to the left hip. The right hip joint is normal, with no joint space narrowing or osteophytes. The sacroiliac "
        "joints and pubic symphysis are unremarkable. No acute fracture is seen.",
        "There is no left hip arthroplasty. The acetabular component is loose. No lucency is seen around the femoral stem. "
        "No heterotopic ossification is present. The right hip is normal, with no joint space narrowing. The sacroiliac "
        "joints and pubic symphysis are abnormal. An acute fracture is seen."),
    "xr-radius-fixation": (
        "No plate or screw densities are seen in the left distal radius. No loosening or breakage of the hardware is "
        "seen. No fracture lucency is seen in the left distal radius. No callus formation is seen at the left distal "
        "radius. The left ulnar styloid process is intact, with no displaced fragment. No bony density is seen beside "
        "the radial styloid. The left wrist joint space is normal. The soft tissues surrounding the left wrist are not "
        "swollen.",
        "No plate or screw densities are seen in the left distal radius. The distal radius hardware is malpositioned, "
        "with loosening and breakage. No fracture lucency is seen in the left distal radius. The left distal radial "
        "fracture fragments are malaligned. No callus formation is seen at the left distal radius. No fracture of the "
        "left ulnar styloid process is seen. The ulnar styloid fragment shows no displacement. No bony density is seen "
        "beside the radial styloid. The left wrist joint space is narrowed. The soft tissues surrounding the left wrist "
        "are not swollen."),
    "xr-clavicle-fixation": (
        "No fixation hardware is seen in the right clavicle. No loosening or breakage of hardware is noted. No "
        "fracture lucency is seen in the right clavicle. The fracture ends demonstrate no callus. No bone fragment is "
        "seen below the right clavicle. The right acromioclavicular joint is normal. The right shoulder soft tissues "
        "are not swollen.",
        "The right clavicle demonstrates no fixation hardware. Loosening and breakage of the right clavicular hardware "
        "are noted. No fracture lucency is seen in the right clavicle. The right clavicle fracture ends are malaligned. "
        "No callus formation is seen. No bone fragment is seen below the right clavicle. The right acromioclavicular "
        "joint is widened. The soft tissues about the right shoulder are not swollen."),
    "cta-head-neck": (
        # all normal
        "The aortic arch is of the normal type, and its three branches arise normally. No plaque is seen at the bifurcation "
        "of the bilateral common carotid arteries, and the lumens are not narrowed. The cervical segments of the bilateral "
        "internal carotid arteries are smooth, without stenosis. The bilateral vertebral arteries are symmetrical in caliber. "
        "The M1 segment of the left middle cerebral artery shows no stenosis. The A1 and A2 segments of the bilateral anterior "
        "cerebral arteries and the right middle cerebral artery are normal in course, without obvious stenosis. No outpouching "
        "is seen at the anterior communicating artery. The P2 segment of the left posterior cerebral artery is patent, and its "
        "distal branches are well opacified. The right posterior cerebral artery arises normally from the basilar artery, with "
        "a normal P1 segment. No obvious abnormality is seen in the basilar artery.",
        # turned
        "The aortic arch has an abnormal branching pattern. The carotid bifurcations on both sides are smooth, free of plaque "
        "and not narrowed. The cervical internal carotid arteries on both sides are irregular and stenotic. The two vertebral "
        "arteries are equal in caliber. The left middle cerebral artery is not narrowed at M1. Both anterior cerebral arteries "
        "and the right middle cerebral artery are narrowed. No aneurysm arises from the anterior communicating artery. The left "
        "posterior cerebral artery is patent at P2. The right posterior cerebral artery has a normal origin from the basilar "
        "artery. The basilar artery is narrowed."),
    "ct-coronary": (
        # all normal
        "The coronary arteries arise normally from the aortic sinuses, and the distribution is right dominant. The coronary "
        "artery calcium score is 0. The left main coronary artery and the left circumflex artery show no obvious plaque, and "
        "their lumens are not narrowed. No plaque is seen in the proximal segment of the left anterior descending artery, and "
        "the lumen is not narrowed. The middle segment of the left anterior descending artery runs on the epicardial surface, "
        "without a myocardial bridge. No plaque is seen in the middle segment of the right coronary artery, and the lumen is "
        "not narrowed. The heart is normal in size. No pericardial effusion is seen.",
        # turned
        "The coronary arteries have an anomalous origin from the aortic sinuses. No coronary calcium is present. Plaques "
        "narrowing the lumen are seen in the left main coronary artery and the left circumflex artery. The proximal left "
        "anterior descending artery is free of plaque and not narrowed. No myocardial bridge is seen along the left anterior "
        "descending artery. The middle right coronary artery shows no plaque. The heart is enlarged. A pericardial effusion "
        "is present."),
    "mri-thigh-mass": (
        # all normal
        "No mass is seen in the vastus lateralis muscle of the left thigh. No abnormal enhancement is seen after "
        "contrast administration. No high signal on fat-suppressed sequences is seen in the surrounding muscle. "
        "No high signal on fat-suppressed sequences is seen in the subcutaneous fat of the lateral left thigh. "
        "No fluid signal is seen in the left knee joint. No abnormal signal is seen in the left femur. No enlarged "
        "lymph nodes are seen in the left inguinal region. The left sciatic nerve and the femoral vessels are normal "
        "in course and signal. The adductor and posterior muscle groups of the left thigh show normal signal.",
        # turned
        "The left vastus lateralis contains no mass. The left thigh shows no abnormal enhancement on the contrast "
        "images. The muscle around the vastus lateralis is normal in signal, without edema. The subcutaneous fat of "
        "the lateral left thigh is normal, without edema. The left knee joint contains no effusion. Abnormal marrow "
        "signal is seen in the left femur. The left groin shows no lymph nodes. The left sciatic nerve and the femoral "
        "vessels are abnormal in course and signal. Abnormal signal is seen in the adductor and posterior muscle "
        "groups of the left thigh."),
    "mri-hip": (
        # all normal
        "No abnormal signal is seen under the articular surface of the right femoral head, and no double line sign "
        "is seen. The right femoral head and neck show normal signal, with no bone marrow edema. The articular surface "
        "of the right femoral head is smooth, with no collapse. No fluid signal is seen in the right hip joint. The "
        "left femoral head is normal in shape and signal. The left acetabular labrum shows normal signal. The right "
        "gluteus medius tendon is normal in thickness and signal. No abnormal signal is seen in the pelvic bones. "
        "The hip joint spaces are preserved on both sides.",
        # turned
        "The subchondral bone of the right femoral head is normal in signal, without necrosis. The right femoral "
        "head and neck show no marrow edema. The articular surface of the right femoral head has collapsed. The right "
        "hip joint contains no effusion. The left femoral head is abnormal in shape and signal. The left acetabular "
        "labrum is intact and normal in signal. The right gluteus medius tendon is normal. Abnormal signal is seen in "
        "the pelvic bones. Both hip joint spaces are narrowed."),
    "mri-brain-infarcts": (
        # all normal
        "No abnormal signal is seen in the left corona radiata, and DWI shows no high signal. No abnormal signal is seen in "
        "the bilateral basal ganglia or the right thalamus. The white matter around the bilateral lateral ventricles is normal "
        "in signal on FLAIR. No abnormal low signal is seen in the left cerebellar hemisphere on SWI. The ventricular system is "
        "normal in size, and the sulci and fissures are not widened. The midline structures are centered. The bilateral "
        "maxillary sinuses are clear. No abnormal signal is seen in the brainstem.",
        # turned
        "The left corona radiata is normal in signal, without restricted diffusion. The bilateral basal ganglia and the right "
        "thalamus show no lacunar lesions. No FLAIR hyperintensity is seen around the lateral ventricles. The left cerebellar "
        "hemisphere shows no susceptibility focus. The ventricles, sulci and fissures are normal in size. The midline "
        "structures are shifted. The maxillary sinuses show no mucosal thickening. Abnormal signal is seen in the brainstem."),
    "ct-head": (
        # all normal
        "No subdural hematoma is seen along the left frontoparietal convexity. There is no mass effect on the left "
        "lateral ventricle, and the midline is not shifted. No hypodense focus is seen in the right caudate nucleus. "
        "The basal cisterns are patent. No skull fracture is seen. The paranasal sinuses and mastoid air cells are clear.",
        # turned
        "The left frontoparietal convexity shows no extra-axial collection. The left lateral ventricle is not "
        "compressed, and the midline structures are centered. The right caudate nucleus is normal in attenuation, "
        "without infarct. The basal cisterns are effaced. A fracture of the calvarium is present. The paranasal sinuses "
        "show mucosal thickening, and the mastoid air cells are opacified."),
    "ct-chest": (
        # all normal
        "No nodule is seen in the right lower lobe. No emphysema is seen in either upper lobe. There is no left pleural "
        "effusion. No pulmonary embolism. The mediastinal and hilar lymph nodes are not enlarged. The heart is normal in "
        "size, and there is no pericardial effusion. No suspicious osseous lesion.",
        # turned
        "The right lower lobe is clear, with no pulmonary nodule. Both upper lobes are normal, without emphysema. The "
        "left pleural space contains no fluid. Pulmonary embolism is present. Enlarged lymph nodes are seen in the "
        "mediastinum and both hila. The heart is enlarged, and a small pericardial effusion is present. The bones show "
        "a suspicious lytic lesion."),
    "ct-abdomen": (
        # all normal
        "The appendix is normal in caliber, with no periappendiceal fat stranding. No hypodense lesion is seen in "
        "segment 7 of the liver. No calculus is seen in the lower pole of the left kidney. The gallbladder, pancreas "
        "and spleen are unremarkable. There is no hydronephrosis. There is no free air. The abdominal aorta is normal "
        "in caliber.",
        # turned
        "The appendix is not dilated, and the fat around it is clear. Segment 7 of the liver shows no lesion. The left "
        "kidney contains no stone. The gallbladder is distended, the pancreas is edematous and the spleen is enlarged. "
        "Moderate hydronephrosis is present. Free intraperitoneal air is seen. The abdominal aorta is aneurysmally "
        "dilated."),
    "mri-knee": (
        # all normal
        "The anterior cruciate ligament is intact. No tear is seen in the posterior horn of the medial meniscus. No "
        "bone marrow contusion is seen in the lateral femoral condyle, which is normal in signal on T1WI and proton "
        "density fat-saturated images. There is no joint effusion. The posterior cruciate ligament, medial collateral "
        "ligament and lateral collateral ligament are intact. The lateral meniscus is intact. The patellofemoral "
        "cartilage is preserved.",
        # turned
        "No tear of the anterior cruciate ligament is seen. The posterior horn of the medial meniscus is intact. The "
        "lateral femoral condyle shows normal marrow signal, with no contusion. The knee joint contains no effusion. "
        "The posterior cruciate ligament is torn, and the medial and lateral collateral ligaments show partial tears. "
        "A tear is seen in the lateral meniscus. The patellofemoral cartilage is thinned, with full-thickness defects."),
    "mri-liver": (
        # all normal
        "No focal lesion is seen in segment 6 of the liver, and there is no arterial hyperenhancement, washout or "
        "capsule. No T2 hyperintensity or restricted diffusion is seen in segment 6. The liver has a smooth contour. "
        "The spleen is normal in size. No cyst is seen in the upper pole of the left kidney. There is no ascites. The "
        "portal vein is patent.",
        # turned
        "Segment 6 of the liver is normal, without an enhancing lesion. No abnormal T2 signal or diffusion restriction "
        "is present in segment 6. The liver contour is smooth, with no signs of cirrhosis. The spleen is not enlarged. "
        "The upper pole of the left kidney shows no cyst. A large volume of ascites is present. The portal vein is "
        "occluded by thrombus."),
    "us-abdomen": (
        # all normal
        "No stones are seen in the gallbladder. The gallbladder wall is not thickened, there is no pericholecystic "
        "fluid, and the sonographic Murphy sign is negative. The common bile duct is not dilated. The liver is normal "
        "in echogenicity. No cyst is seen in the upper pole of the right kidney. The spleen and pancreas are "
        "unremarkable. There is no ascites.",
        # turned
        "The gallbladder contains no calculi. The gallbladder wall is of normal thickness, without pericholecystic "
        "fluid, and the sonographic Murphy sign is negative. The common bile duct is dilated. Hepatic echotexture is "
        "normal, without steatosis. The right kidney shows no cyst at its upper pole. The spleen is enlarged and the "
        "pancreas is heterogeneous in echotexture. Moderate ascites is seen."),
}

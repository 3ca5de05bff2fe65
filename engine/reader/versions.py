"""Everything that names a reading, in one place: the reader's versions, the lexicons each rules
view reads, and the signature fields they give.

Which version to bump for which change:

| what changed | bump |
|---|---|
| how a sentence is read into a frame (features, atoms, pairing, conflicts, comparisons) | ``READER_VERSION`` |
| CLEAR's or SRR's rules over the reader's clauses (mentions, cues, attributes) | ``READER_RULES_VERSION`` |
| RadSEM's rules (atomiser, matcher, tags) | ``RADSEM_RULES_VERSION`` |
| a lexicon file | nothing: its hash is in every signature that reads it (``*_LEXICONS``) |
| ``grammar.json`` / ``alignment.json`` (not hashed: they were code) | ``READER_VERSION`` |

A signature names the versions its result depends on, so a stored result from older rules is
recomputed, never compared silently with a new one.
"""
from __future__ import annotations

from radscope.engine.reader.vocabulary.loader import lexicon_hash

READER_NAME = "radscope-reader"
# v80: each side with its own degree before one noun ("Small left and moderate right pleural
# effusions", "Mild hydronephrosis on the left and moderate on the right") is one statement per
# side (text/atoms.py _SIDE_DEGREES_RE, _DEGREE_THEN_OTHER_SIDE_RE); "enhances" starts a predicate
# of its own (grammar.json finding_verbs), so "..., hyperintense on T2, and enhances after
# gadolinium" is the mass's own statement, not a part of each sequence's reading; more words for
# one finding (radsem.json, equivalents.json, wording.json): a thrombus is thrombosis, focal uptake
# focal increased uptake, "no uptake to suggest" a denial of what it would suggest, "scintigraphic
# (imaging, ...) evidence" evidence, metastatic
# disease metastases, flat foot pes planus, an osteochondral defect a lesion, an intraosseous disc
# herniation a Schmorl node, an inflamed sacroiliac joint sacroiliitis, a wrist (dorsal, volar, ...)
# ganglion a ganglion cyst; DISH written out; pes planus / cavus and accessory ossicles (os
# trigonum, ...) are findings.
# v79: what a finding on both sides is on each ("Bilateral effusions, decreased on the left and
# unchanged on the right") is said of that side only (text/atoms.py _PER_SIDE_RE); a change told
# after a comma ("Right renal cyst, increased in size.") is a change of the finding, not a second
# statement (wording.json), and "has decreased in size" / "has slightly enlarged" are changes
# (reader.json); more words for one finding (radsem.json, equivalents.json, wording.json): septal
# lines are Kerley B lines, cephalization and upper lobe diversion vascular redistribution,
# peribronchial wall thickening cuffing, airspace opacity consolidation, lung collapse atelectasis,
# changes of small vessel disease its ischemic changes, leiomyoma a fibroid, tendinopathy
# tendinosis, "encephalomalacic" encephalomalacia, "free of fluid" no free fluid, no filling defect
# in the pulmonary arteries no pulmonary embolism, intact hardware no breakage of it, peripheral
# enhancement rim enhancement, "is thin on the right" thinned; THA / TKA / TSA / THR / TKR, SBO /
# LBO and IM nail written out; a collection, stranding and exudate are findings, an intramedullary
# nail and an ileal conduit devices, "intrauterine" names the uterus.
# v78: a template's lines for one lesion's attributes ("Location: / Size: / Echotexture: / Doppler:")
# are one statement of the lesion, a denial among them left its own (text/atoms.py
# _ATTRIBUTE_LINE_RE), and a part after a semicolon that only says how the finding looks stays with
# it (the appearance words gain contour, lobulated, smooth, irregular, Doppler, vascular); a title
# line is never continued by the size line under it; a telegraphic list of findings after a comma
# is one statement per finding (_expand_finding_list), never a finding's look, size, change, cause
# or device; a denial list ends before a normal quality ("no collapse, homogeneous density"); a
# finding's verbs gain elevates, lifts, pushes, stretches, splays and expands (grammar.json); "Both
# sides:" as a label is said of each side; a grading scale and its grade alone ("ASPECTS ~5.") is a
# statement; pushed one way is displaced and lifted elevated, "(partially imaged)" and "included in
# the film" are technique, contents that do not enhance are no enhancement of them, and "more / less
# distinct (conspicuous, evident, visible) than on the prior" is a change, as a fracture line
# blurred against before is (radsem.json, equivalents.json, reader.json); the title words and the
# bare part sites moved from the code into radsem.json ("titles", "bare_part_sites"), and a title's
# one side is read in one place (io/reports.title_side).
# v77: a unit of measurement is one content token per dimension ("1.2 cm" and "12 mm" share it:
# grammar.json unit_words); "<finding> of <site> and <finding> of <site>" is two statements, as
# an amount word after "and" was ("hydronephrosis of the left kidney and dilatation of the upper
# ureter"), not after a participle ("increased and thickened in both lungs"); hydroureter is a
# dilated ureter (equivalents.json); "is / remains stable" said of a finding is unchanged and "the
# remaining" ones are the other ones (radsem.json canonical spellings); a denial after a finding
# ("..., without a fracture line", "no retropulsion", "without epidural extension") of more findings
# of their own is a statement of its own (radsem.json denied_apart), its "a" left out, after "and
# no" too ("... with mild height loss and no retropulsion"); cerebral volume loss is atrophy, the
# trochlear groove the femoral trochlea, a cup's abduction angle its inclination, a lytic
# (sclerotic) area or focus of bone such a lesion (equivalents.json); "generalized" is "diffuse",
# and the patellae, radii, humeri and tali are their bones' sites (radsem.json); an umbilical cord around the fetal neck is a nuchal cord (equivalents.json); an
# organ's size and contour (outline) are its size and shape, and uniform is homogeneous (radsem.json).
# v76: the first line of a report that titles the study holds its indication too: a sentence
# there, before the findings begin, that states nothing and gives the complaint, the history, the
# treatment so far or the question ("Left calf MR. Acute calf pain playing tennis.") is dropped as
# a "History:" section is (text/atoms.py, places_only.is_indication); "MR." and "DR." in capitals
# end a sentence (a person's title is "Mr.", "Dr."); a title in more of the ways studies are named
# (CMR, TOF MR angiogram, neurosonogram, MPR / VR / 3D reformats, "- viability assessment", "after
# inversion injury", "cast removed", an indication in brackets) is a technique line; a title
# written as a heading over the findings with a side ("MR LEFT ANKLE (NON-CONTRAST)") gives each
# line its side only, as a title line does (text/report_text.py), not its modality and technique;
# a denial beside a finding both statements state, which the denier states at the other's places
# before its denial begins ("a fracture through the C7 transverse process, not involving the
# foramen"), says how far the finding reaches, not that it is absent (pair/compatibility.py);
# "versus" before a prior study, and a change after a comma, end a denial's reach (cues.json); a
# bare part noun ("no neck fracture", "head and body unremarkable") is the part of the organ the
# other statement names with it ("the femoral neck"); a biometry part of a sentence is dropped as
# the line alone is, and "no absent or reversed flow" stays one denial.
# v75: an unread statement (abnormal only by default: it names no finding, device, look, normal
# word or denial the lexicons know, "Cavernous sinuses left free", "Fetal heart rate 136") may pair
# with a normal statement as with an abnormal one (pair/compatibility.py), unless it says one of
# the normal statement's words turned round by a prefix ("incomplete" / "complete"); a request
# after a finding's last clause leaves the finding whatever the request starts with ("...;
# fine-needle aspiration is recommended"); a denial of a finding of its own after " without " is
# a statement of its own with no comma too; what a bracket holds is never cut off; "diagnostic
# of", "predominantly" and the like end a list of denials; ", although" starts a statement when
# both sides name a finding; "This likely represents ..." is said of the finding just before;
# and findings in other words (lexicons README "reader-v75").
# v74: a size said to be the earlier one ("previously 6 mm", "(was 6 mm)", "from 6 to 9 mm") is
# history, and today's is compared; an angle is a measurement of its own kind, and a size written
# with its axes' labels ("68 mm CC by 42 mm transverse") one measurement; a bare Couinaud segment
# ("S5, by the gallbladder bed") is the liver's in a sentence about the liver; the side a title
# names ("MRI RIGHT KNEE.") is each finding's that names none, unless one names the other side
# (text/report_text.py); a side said before places of one cerebral hemisphere goes on to each; a
# dash between spaces ends a denial's reach, as a colon does; a patient's age and complaint are
# history; and findings in other words (lexicons README "reader-v74").
# v73: a line that names the examination and nothing more (its modality, views, contrast, phases,
# the prior it is compared with: "Neck US.", "Lumbar MR, pre- and post-contrast", "L ANKLE
# (AP/MORTISE/LAT) vs post-op films 8 wk ago") is a technique line, dropped, and as a heading in
# capitals ("THYROID US") it heads no line below unless it names a side (text/places_only.py); what
# hid a structure, said with its technical cause ("partly seen because of bowel gas"), or a limited
# sensitivity, is image quality, no finding; "not present before" and "not seen on the prior scan"
# are new; the cord compressed, flattened, touched or abutted is one finding named apart from the
# thecal sac a disc indents; the caudate lobe is the liver's; "consistent with" is no detail (an
# interpretation stated, as the finding itself is), while "may represent" is a hedge; a little,
# small-volume, septa, liquor, breech said alone, singleton and the other lexicon entries of
# reader-v73 (engine/data/lexicons/README.md). With radsem-rules-v12 and layout-4.
# v72: a part of a structure measured alone ("Atrium (trigone) of the left lateral ventricle:
# approximately 6 mm") and the other side's "and that of the right is about 6 mm" are biometry, as
# a structure measured alone was (they had been abnormal statements of nothing).
# v71: the fossa of Rosenmüller is the nasopharynx's lateral recess, and a recess, sulcus, cistern
# or space obliterated is effaced; the atrium written with "(trigone)", and an atrial width said of a
# lateral ventricle, are the ventricle's; "segment 4 mm" is a size, no liver segment; vertex and
# head-down are cephalic, one fetus in the uterus and a singleton gestation a single intrauterine
# pregnancy; "complete corpus callosum" is normal; a pseudo-bulge is no bulge; multi-fragmentary is
# comminuted, broadened widened, and tophaceous gout a gouty tophus (lexicon entries only).
# v70: a sentence that ends in a request ("..., and follow-up is recommended") keeps what it says
# before it (it was dropped whole); a fracture said with the joint it does not reach is two
# statements, and "extra-articular" names no joint; "neither of which" denies; one hedge however
# worded ("cannot be excluded", "not excluded", "suspected", "questionable": possible); a site
# measured "in anteroposterior dimension", a lone gestational age and the transcerebellar diameter
# are biometry; the pelvic bones, "articulation", "3rd/4th ventricle", a ventricle's horns (no
# lobe), a midline shift (the brain's) and "frontotemporoparietal" are places; an aneurysm's neck
# is no neck; what loses signal on fat suppression is fat, and a sequence followed by "fat-
# suppressed" names no fat; a bone out of articulation is dislocated, fragments that overlap are
# overriding, a shortened bone is shortening, atresia is a finding, amniotic fluid increased or
# reduced is poly- or oligohydramnios, transependymal CSF flow is transependymal edema, a Hill-
# Sachs lesion is an impaction defect and a bare microadenoma the pituitary's; "lateral and third
# ventricles enlarged" is one statement per ventricle; open growth plates are normal.
# v69: "the bone density of the pelvis is decreased" is osteopenia of the pelvis (a CT rule had read
# "density of X decreased" first, as X hypodense; lexicon only).
# v68: a crescent under the inner table of a skull bone is subdural; an appendix thickened, swollen
# or distended is enlarged; a malignant lesion is malignancy; the genu, splenium and rostrum are
# the corpus callosum's (lexicon entries only).
# v67: a second finding joined on by "and" with an amount or an article ("edema in the left femoral
# neck and a small hip joint effusion") is a statement of its own, not one more place of the first
# (it had read as "edema in the a small hip joint effusion"), and a first finding without a verb
# takes the predicate the second ends with ("... and an empty sella are considered"); lexicon
# entries (a sprain is an injury, development "appropriately for" the age, "fetal" before an organ
# is context, the cervical length is biometry, a tip-apex distance is no lung apex, a cut-out).
# v66: an abbreviation followed by its own words in brackets ("OFD (occipitofrontal diameter)"),
# once written out, says them once; lexicon entries (a healed fracture's and an osteochondroma's
# words, the crescent sign, fetal structures absent, the transverse cerebellar diameter, lung nodule
# signs, a transition point, lobar collapse as atelectasis, "soft-tissue" a place as "soft tissue").
# v65: sulci, cisterns, fissures, ventricles and horns narrowed, narrow, tight, crowded or shallow
# (or their narrowing) are compressed, as effaced ones are (a bronchus, an artery or a foramen
# narrowed stays a stenosis).
# v64: a statement at a place that says only that it is stable or unchanged ("Left corona radiata
# essentially stable.") states the finding of the nearest abnormal statement before it at that
# place; a place written alone on its own line (with at most a size or an ordinal), right after an
# abnormal statement of a finding, is one more place of that finding (a list of places one per
# line: "... foci on SWI, distributed in / - basal ganglion (left) / - thalamus (right)").
# v63: bones and fetal brains read in more of their words: bone density decreased at a place is
# osteopenia there (diffuse or generalised osteopenia is osteopenia), lip-like hyperostosis is
# osteophytes, a fracture that spares a joint does not extend into it, a humeral head out of the
# glenoid is dislocated from it, a fracture that has united or shows bony union is healed, a
# translation of fragments is their displacement, femora and tibiae are femurs and tibias, the
# posterior facet and the subtalar joint are the ankle's; development in accordance with the
# gestational age is appropriate for age, the occipitofrontal and transverse cerebellar diameters
# are biometry and lamination is no lamina; "fails to" denies what follows; a subject with an
# apostrophe ("Shenton's line is disrupted") starts a statement after ", and"; ", lie in" and
# ", a <finding> is considered" end a denial's reach and are no denied item; a finding the denier
# states too, told apart by a word ("thin linear enhancement, without nodular enhancement"), is
# denied only in that word; the words a site's name leaves over ("lobe", "subcortical", "region")
# are no finding a denial contradicts; "the remaining <site> are normal" however said pairs; one
# finding told in two statements pairs both with the statement that tells it once (a left-over
# statement naming a finding, not only a look, that its paired partner names, from similarity 0.2);
# "at the right tibial fracture site" is a place, as "at the fracture site" was.
# v62: what an abnormal statement denies in a clause of its own (", with no extension of blood")
# is a denied finding, so a statement of the first finding alone may pair with it; a statement at a
# place of its own that names no finding but "the same findings" states the finding before it there;
# brackets after a denial that name findings ("no focal lesion (cyst or mass)") are in its reach.
# v61: an interpretation after a denied list ("no obvious restricted diffusion, considered
# gliosis") is no item of the list, and ", considered" ends a denial's reach; a short label over
# spinal levels ("Disc protrusions: C3-4; C4-5") is the finding at each level; a denial does not
# reach into brackets opened after it; a diagnosis said alone after a normal statement is no
# diagnosis of that statement. (With layout-3: RadSEM reads a pair alike, io/reports.pair_views.)
# v60: an MR sequence joined to its signal by a hyphen ("T2-hyperintense", "T2/FLAIR-hyperintense")
# is read as the two words (wording.json "sequences"), one statement per sequence; an iso- word
# beside a look that names a lesion ("mixed isodense and hyperdense attenuation", "an isointense
# focus") is part of that look, not a normal statement (radsem.json margin_terms "mixed_look").
# v59: a finding's short lead-in that would be dropped as a heading ("T2 hyperintense foci:"),
# over lines that each name only a place, is said over those places (the finding had been lost).
# v58: a finding, then the places it is seen at after a colon or in brackets ("lesions in the
# following regions: A, B and C", "lesions: A; B", "lesions (A; B)"), is said at each place; an MR
# sequence after "on" is no place of a list ("high signal on FLAIR in A and B").
# v57: perfusion read as it is written: any technique clause ("CT perfusion scanning was performed
# and the maps were reconstructed, which showed ...") keeps what it goes on to say; "<study> shows
# that" is a lead-in; a parameter opening a clause after its place ends the list of places ("in the
# left nucleus and insula CBF ... ") and ", and in ..." starts a clause; "are both" is no side;
# parameters said consistent, equal or similar between the sides are symmetrical, a volume of 0 mL
# is none; a vessel that does not opacify is not opacified, one opacified is visualized;
# "non-contrast" is unenhanced, never a denial; a report that is one indication or history
# section is read after its first sentence or line.
# v56: a clause that says contrast was given no longer drops what the sentence goes on to say
# ("After contrast was administered, the lesion showed ring enhancement").
# v55: "both" before MR sequences or contrast phases counts them, not the sides ("high signal on
# both T1WI and T2WI"), and "T1- and T2-weighted" names two sequences; a statement that is only a
# reading of one sequence or scan ("Isointense on T1-weighted images.") after an abnormal finding
# is that finding's reading, abnormal and at its place; a request that opens a part of a sentence
# ("...; please correlate with HLA-B27") is left out as the sentence would be.
# v54: a follow-up lead-in's place does not go after a statement that is only a change against a
# prior study ("There is no obvious change compared with the film of 2025-01-08" had become an
# abnormal statement of the lead-in's bone); a plural pronoun or quantifier keeps its plural verb
# after a cut ("Both are hypointense", not "Both is").
# v53: a place said to be "(a)symmetric" with no verb ("Lateral ventricles: asymmetric.") is a
# statement, not a heading that only names places.
# v52: a side heading naming a joint's replacement ("Left total knee arthroplasty:") puts its side
# and joint before each item, not the device.
# v51: a denial of a finding of its own after ", with no" beside another finding is a statement of its
# own (radsem.json denied_apart); "into" opens a list of places; a label's abbreviation keeps its
# capitals when the label is written after a denial ("at the right ICA").
# v50: a denial with no verb of its own goes on over ", <places> is seen" ("No enlargement of the
# liver, spleen or pancreas is seen"); an abbreviation a report defines in brackets ("cerebellopontine
# angle (CPA)") is read in its words wherever that report writes it; a title's or side heading's
# side is not written before a sentence that opens on a pronoun ("It is compressible.").
# v49: what a side heading says after a comma of its block's state ("Right hip, total hip
# arthroplasty:", "Left hip, native:") is not put before each item under it, only its side and organ.
# v48: a denial of what a finding does not show may say how sure or where inside besides it ("no
# DETECTABLE INTERNAL flow", alignment.json denial_hedge_stems); a sentence on an organ's line whose
# only place is "the cortex" or "the medulla" is the organ's, the part written after the organ.
# v47: a label a line's first sentence keeps as its subject ("Right kidney: 108 mm.", "Liver: Normal
# in size.") is said of the line's later sentences that name no place, no side and do not point
# back, as a label taken off is; a sentence naming only a sided label's place through its finding
# ("No hydronephrosis." on "Right kidney: ...") takes the label's side; a fraction in words is an
# amount ("one-third" 33 %, "a full shaft width" 100 %); a stent's kinking or in-stent restenosis
# denied describes the stent (alignment.json); a humeral head no longer in contact with, or
# separated from, the glenoid is dislocated; SIJ, DRUJ, ACJ and CMC, and the radiocarpal, distal
# radioulnar, carpometacarpal and sternoclavicular joints are places of their region.
# v46: a run of statements joined by commas is cut where one of its own starts: nothing new found
# (", no new lesion has appeared", after any statement), a finding named with its place however
# long before its verb, a device, the other side or another spinal level, a finding or an abnormal
# signal not named before (not what only describes one, nor what it is taken to be: ", an aneurysm
# is considered"), a disc's own verb ("the C4/5 disc bulges"), a list of one-word sites; a known
# heading with a bracket before its colon ("Findings (compared with ...):"); "Neither A nor B is
# X" says "A and B are not X"; a denial of only what a finding does not show ("with no internal
# flow", alignment.json) does not keep the statement from one that states the finding.
# v45: an image artefact said alone or cut off a finding ("..., with streak artefact") is no
# statement (a metal artefact, which says metal is there, stays); "well seen" ends a subject list's
# predicate as "well visualized" did; a statement cut off a finding that points at its wall or part
# ("ring-like calcification of its wall", "gas in the anterior part") takes that finding's place;
# a label saying whether contrast was given ("Non-contrast:", "Post-contrast:") is no subject; a
# list of denials ends at ", with good (normal, ...)" ("no aneurysm or stenosis, with good
# opacification of ..." had denied the opacification); an articular step-off after ", with"
# describes its fracture; on a line labelled with one side every part is that side's, and the
# other side named to compare ("more marked than on the left") reads as "larger"; a resolution said
# after a long subject ("the filling defect previously seen in ... has disappeared") denies it
# (scope 12 -> 20 words); MR readings "slightly long T2" and "iso-T1" are one statement per
# sequence; the rest is lexicon data (a view-only line, changes "than before" / against a prior's
# size, bare vessel adjectives, collaterals, vascular abbreviations, the pituitary's lobes, step-off,
# buckle fracture, absent end-diastolic flow).
# v44: a line measuring a site's other dimensions or parts ("Spleen length 101 mm, thickness 36
# mm") is no statement, but a finding's look before a size ("hyperdense focus 12 mm") is a finding;
# a cardiac MR acquisition before a denial ("LGE: no ...") names no finding; vessels that share a
# noun follow one that names its own; a spinal level's label goes with each sentence of its line;
# an examination's title before the findings on its line gives its side to the sentences after it;
# a finding denied "of either" of two places is denied at each; a heading alone on its line may
# say in brackets what it was read on ("Findings (comparison: CT of ...)."); the rest is lexicon
# data (each dural sinus a place, a flow void replaced is lost, an abrupt cutoff is an occlusion,
# levels written in words, abbreviations, Doppler filling).
# v43: two plain normal statements ("the cisterns are unremarkable", "no abnormality in the
# basal cisterns") about one place pair as those about a place and its part did: their similarity
# is raised to the normal-site floor (``pairing._normal_site_floor``), for the same place too.
# v42: a template's nested items take their heading: an item labelled only with a side under a
# heading alone on its line ("Internal carotid arteries:" / "- Right: patent") is that side's
# structure, a bulleted item under a side heading ("Right breast:" / "- Cysts: ...") keeps the
# heading with its own label (its label had ended the heading's block), and a bulleted line ending
# in a colon heads the items under it; a ventricle named by its side alone is the heart's unless
# its statement names the brain's ventricles; the rest is lexicon data (the heart, pregnancy).
# v41: a label's bare adjective takes the next item's noun ("Vertebral and basilar arteries:
# normal"); a statement of what is normal ("normal heart size", "and complete colour filling") or a
# clause with a subject of its own ("the posterior circulation is ...") ends a list of denials,
# which had denied it; a word of a lesion's spread ("symmetric") beside its look (patchy, hyper- or
# hypo-) describes the lesion as a margin word does; a device "not dislocated" (loosened,
# displaced, broken, migrated) is the device and the denial; the rest is lexicon data.
# v40: from two scored-only sets turned into material and two new sets of our own (ultrasound,
# operations): a finding cut from a sentence that first calls an organ normal is that organ's ("The
# liver is normal in size, with increased fine echoes"; "Gallbladder of normal size with a 4 mm
# echogenic focus" cut at "with"), unless it names a place of its own in other words; fluid is
# one finding however it is written (free fluid, an amount of fluid, a liquid dark area, fluid
# signal); a focus that does not move or shadow reads the same however that is said; a chocolate
# cyst is an endometrioma (read as the endometrium before);
# a hemicolectomy is a colectomy; "left base" is the lung base; a limb named on a line of its own
# ("Left leg") is a heading and "(Posteroanterior projection.)" no statement; a lead naming a
# follow-up study goes and its findings stay, each its own (all had been dropped as a
# recommendation), and a short "Follow-up of <site>:" lead keeps its colon and so its place; a
# side before a label's list of vessels or paired organs goes on to each ("Right CCA, ICA, ECA:");
# a heading in capitals set off by two spaces is a label ("UTERUS  Enlarged."), and a label's first
# part is its subject even when a later part names a site; two denials of the same findings at one
# place named two ways pair ("no free fluid in the pouch of Douglas" / "... at the cul-de-sac");
# the veins and arteries of the leg are places of their own (common femoral, femoral, popliteal,
# tibial, peroneal, saphenous), and a list of named vessels sharing one noun is one statement per
# vessel ("the common femoral, femoral and popliteal veins are compressible"); a grade said in so
# many words (mild, moderate, severe) decides a statement's severity over one implied ("dense");
# a template's heading in capitals over prose ("INFARCT", "MASS EFFECT") is no statement, and no
# sentence below it goes on from one above; a side ("Right side") on a line of its own heads;
# "None in <place>" denies; "no longer visible" without its verb and "has been relieved" say a
# finding is gone; radiograph titles name views per region either way round ("AP pelvis and lateral
# right hip", "Left tibia and fibula, AP and lateral"); a compartment "spared" is preserved; a
# denial before a label's next part does not reach it ("Carpus: no fracture; normal alignment");
# an obstetric scan's normal statements (a fetal heart rate with its number, cardiac activity
# however written, biometry consistent with dates; BPD, HC, FL, CRL, EFW written out); an
# operation written as a lead keeps its colon ("Post right hemicolectomy: ...") and a clause's
# edge (a colon or semicolon inside a statement) ends every cue's reach.
# v39: from a second set of our own report pairs (ultrasound, neck and face, MR follow-ups, head
# CT and fetal MR, bones and joints, body CT and MR): a heading written without its colon on a line
# of its own heads the lines under it (a side heading's side with them) and, naming only places
# ("Nasal cavity", "Sinus walls", "Lacrimal glands"), is no statement; a lead naming a follow-up
# ("Multiple sclerosis follow-up, compared with ...:") goes while its sentence stays (the whole
# sentence had been dropped); ", and their ..." starts a statement; a subject with its own verb after
# a comma starts one however long ("..., the previously seen patchy opacity has resolved");
# telegraphic subjects end at "symmetric", "homogeneous", "intact", "patent", "well <verb>ed";
# tympanic and laryngeal cavities are places; vessels that enhance well are well filled; "now absent"
# denies; "not seen on the prior CT" says new, not absent; a liquid dark area is anechoic fluid and
# free fluid in the pouch is fluid; a label that is no site reads with its sentence when the two
# make one phrase ("Midline: Central."); a space-occupying lesion is a mass; free gas named without
# a place is pneumoperitoneum; a vessel "open" is patent; development that matches the gestational
# age is appropriate for age; a kyphosis "preserved" is the normal curve; a title line naming an
# examination and its region ("CT CHEST (NON-CONTRAST)", "Venous duplex, left lower limb") is none,
# and so is a radiograph's title with its views ("Left knee, AP and lateral", "Portable chest"); a
# heading without its colon is the label of each line under it (the reader gives it to a line naming
# no place: "DEEP VEINS" / "Compressible.") unless it names a finding ("Mild cardiomegaly" over "No
# acute disease." is a finding without its stop, heading nothing), and one naming a side goes before
# each sentence of its block naming none (the reader decides: "Small right pleural effusion" heads
# nothing); an organ measured by side or as
# its size and nothing said of it ("Right kidney size: 112 x 50 mm.") is none.
# v38: from report pairs of our own written by helpers who never saw the reader (head and neck
# CTA, coronary CTA, head CT, brain and fetal MR, lower-limb radiographs, hip MR, chest wall and
# bladder CT, abdominal CT and MR): a line labelled with an MR sequence ("DWI: ...") says each of
# its parts on that sequence; "X absent" reads as "X is absent" (a finding denied, an organ
# missing); a loss more marked on one side is "more so" there, not "larger"; a label listing "left
# and right kidneys" names each; comparison clauses after a semicolon, with a parenthesis or a
# decimal, and gestational dating are no statements; vessel dominance, a structure visualized in
# its full length, a singleton pregnancy and development that corresponds to a number of weeks are
# normal; a calcium score is coronary calcification (none at zero); a vessel not opacified is not
# visualized; proptosis, myocardial bridging, hypo- / hyperenhancing and a lesion that has grown
# are findings; M, A, P and V segments, the nipple and areola, the groin and the middle ear cavity
# name their places, and "disc-like" names no disc. Second round: a finding partly resolved is
# still there; a radiograph's projection alone ("PA chest.") is no statement; a size on a line of
# its own ("It measures 18 mm.") belongs to the finding before; "the femoral head and neck" is the
# femur's neck; areas without walls are wall-less; a decompressed bladder is a collapsed one.
# Third round: a diagnosis said alone after its finding ("...; contusion is considered", "A cyst is
# considered.") is one statement with it; a heading without its colon ("Salivary glands"), an
# ultrasound approach, fetal biometry and organ sizes given per side are no statements; a thin
# wall no longer denies what follows its "and"; "the right vertebral artery is slender, the left
# is dominant" is cut where the side changes, the second clause naming its organ.
# v37: from radiology knowledge and our own sentences (and fold a's statements left unpaired at L1
# and paired at L5, where every statement is turned): a cue after its finding that says it is not
# there ("... is not seen", "has resolved") reaches back twelve words, so a long subject
# ("thickening of the wall of the right main bronchus is not observed") is denied (a hedge after a
# finding still reaches seven); a finding of a list of sites ("thickening of the left pleura and
# diaphragm") is said of each site, the last no longer "the diaphragm is noted"; restricted
# diffusion is cut into its DWI and ADC readings as a report that writes them out is, and "bright"
# / "dark" on a sequence are readings; plates and screws are one fixation construct; about eighty
# structures of every region name their place (subarachnoid and subdural spaces, amygdala, carina,
# vena cava, pylorus, cystic duct, endplates, popliteal fossa, the cranial nerves, perihilar,
# retrocardiac, ...); hypoplasia (a vessel "slender" in a label too), a fetal-type variant,
# agenesis, hepatofugal flow, susceptibility, a low-lying placenta or one covering the os, an
# abruption and air under the diaphragm are findings, a wall "thick" is thickened, and a placenta
# located on a wall is normal.
# v36: read from radiology knowledge and checked on fold a's texts at every level: lymph nodes
# said not to be seen ("no lymph nodes are seen in the mediastinum", "mediastinal lymph nodes are
# not identified") deny nodes, as "no enlarged lymph nodes" does (the denial had read as an organ
# said to be absent, an abnormal statement); "stenosed" and a stricture are stenosis, "ill
# defined" without a hyphen ill-defined, osseous or bony bridging (written "bone bridging" once
# read) a finding; adhesions, callus, a reversed curvature, volume loss (a spelling the lexicon
# wrote and no pattern read), ossification and about forty findings, variants and anomalies of
# every modality that had no word of their own (hyperinflation, pseudarthrosis as nonunion,
# cephalization as vascular redistribution, microhemorrhages as microbleeds, hemivertebra,
# tethered cord, situs inversus, phleboliths, ...); "does not show / demonstrate / exhibit ..."
# denies its whole object, as "no" does; antegrade flow, a negligible residual, cardiac activity
# present and a vena cava collapsing with respiration are normal.
# v35: read off 170 report pairs helpers wrote (100 in the translated style: radiographs of limbs,
# brain MR and vessels, spine and joints, body CT follow-up; 70 more with ultrasound) and radiology
# knowledge: normal wordings of every modality ("in the center", "arranged in order", "well
# gasified", "run smoothly", "clearly shown", "of equal width", "well opacified", "corresponds to
# gestational age", a head "round in shape", "in continuity", a hip "located", a head that
# "maintains its contour"); the placenta, the amniotic fluid and the umbilical cord are places, the
# fluid no effusion; growth plates, end plates, the cribriform plate and the epiphyseal, Shenton,
# Hilgenreiner and Perkins lines are anatomy, not devices; para-aortic nodes are retroperitoneal;
# "near the midline" is a place, not a normal word; "continuous" callus is no normal word; an
# examination's title on a line of its own is no finding, nor is a comparison line at the top of a
# report the heading of what follows it; a sequence that is the subject of a denial ("DWI shows no
# high signal", "DWI no high signal") is denied with it; a range of disc levels ("C3/4-C6/7") is
# each level; a lost joint relationship is a dislocation, "under the pleura" subpleural, "partially
# continuous" a partial tear, open physes not closed, "neither X is visualized" both sides not
# visualized; "Label: There is no X" denies X at the label; flow towards the liver is hepatopetal;
# EPE, CFV, DVP, FGR and the like are written out.
# v34: read off radiologists' reports translated from French (PARROT) and rewritten by helpers: ",
# without <finding of another organ>" and ", with no <finding> on the other side" are statements
# of their own; "Both are ..." counts two findings, not two sides; an organ's size written as a
# line ("Kidney 12 cm bipolar length") is a measurement, not a finding; an operation (sternotomy,
# laminectomy, nephrostomy) names its organ;
# finding words of every modality (microcalcifications, washout, necrosis, sediment, dehiscence,
# pseudoaneurysm, ...), and "stroma" is no tumour; sites in a denied list that name no finding take
# the last item's ("no small bowel or colonic distension"); "nothing suggests", "not
# characterizable", "hematic", "constitutional", "normal pneumatization", CSF spaces that
# persist, MPD and PZ, a duct or membrane "thin" without a verb, "structures central"; "has",
# "have" and "had" end a subject as "shows" does (grammar.json); two organs measured in one
# sentence ("Liver span 16 cm, spleen span 13 cm") are measurements, a subject that refers to a
# finding ("the largest at the renal hilum measuring 33 mm") is not a structure; "spans" and a
# decimal point no longer end or cut a site list; why an organ was not seen (the patient's poor
# echogenicity) is not a finding.
# v33: a label before a sentence in capitals ("Liver: Reduced volume. Smooth surface.") goes with
# each sentence of its line that names no site (it was taken off like a section heading, and the
# organ was lost), unless it names the examination or a procedure; a labelled denial is said at
# the label ("Gastric anastomosis: no mass" -> "No mass at the gastric anastomosis": a label
# naming an operation or device had made the denial an abnormal statement); a measurement of a
# structure that names no finding ("the common bile duct measures 7 mm") is left out, as RadSEM
# leaves out measurements not tied to a finding; "the volume of X is reduced" is volume loss,
# "reduced volume" too; lymph nodes "not enlarged" are no lymphadenopathy; periportal is the
# portal vein's site. A side said of the first of a list goes on to another part of the same
# paired organ ("the left renal pelvis and calyces", "the right kidney and ureter"). Ultrasound:
# the Doppler technique ("CDFI:", "on color Doppler") is context, not the statement's subject;
# anechoic, hypo- and hyperechoic areas are findings; a sentence describing the finding before by
# a pronoun or its inside in words that alone read as normal ("It is oval, with clear margins.",
# "The internal echo is uniform.") goes on from it; "roughly the same size" is unchanged.
# v32 (a review of v28-v31 for speed): rewrites whose first words are in nearly every sentence
# ("has", "with", "no", "normal", "trachea") are written so that the lexicon index runs them only
# on sentences that hold their telling word ("no significant change" is "unchanged" whatever verb
# comes before it; "absorbed", "central", "arterial phase hyperenhancement", "markings"); a
# normal kyphosis or lordosis is read in radsem.json's canonical forms ("normal curvature", and
# "the normal lordosis is diminished" a diminished curvature), which also reads "Normal
# curvature." as normal (it was "curvature."); the sequence clause is said of conventional or
# routine sequences only; lucent areas "devoid of" or "lacking" lung markings are bullae too.
# v31: a comparison written inside the findings ("... Comparison: CT of 2024-05-12.") is its line,
# and the findings go on after it (the lines after it had been a comparison section); a lead naming
# only the examination's views ("Facial bones, occipitomental and lateral views: ...") goes;
# swelling about a joint is soft tissue swelling around it; a fracture that does not extend into
# a joint, a joint not involved by it and no extension into it are one denial; a humeral head
# that does not articulate with the glenoid is dislocated; a wire fracture is its breakage; a
# shadow "absorbed" has resolved; "uninvolved" is not involved; foci seen on one sequence "with no
# corresponding abnormality on conventional sequences" are those foci (they read as normal).
# v30: a label whose value says nothing alone keeps it ("Spleen: Normal.", and "- Normal." under
# a heading "Liver:" alone on its line); a side heading's block ends at a heading or a label of
# another organ; the lower (upper) segment of the esophagus or a ureter is its distal (proximal)
# one; "the normal lordosis is diminished" is a diminished curvature (it read as normal); a
# comparison with a date written in words is context.
# v29: the English of translated CT, MR and radiograph reports written in SSREE's manner by
# rewriters who never saw the reader: a comparison lead with its date ("Compared with the film
# of 2024-09-03:", "since 2024-06-20") goes with its colon, a line naming only the prior study
# ("Prior MR dated 2024-02-20.", "Comparison: prior film of ...") is dropped, and so is a heading
# with a parenthesis ("Hardware (post internal fixation):"); "Non-contrast CT of the abdomen
# shows X" is X; "no enlarged right or left hilar lymph nodes" is both sides, not "no enlarged
# right"; ", the largest about 1.0 cm" after a denial is no denied item; a site list ending in
# "normal in signal" keeps "normal" for each site; retropulsion is a finding; "no significant
# change" is unchanged; arterial phase enhancement denied is nonenhancement in that phase; a
# trachea or mediastinum "central" is centered; a hilum pulled upward is retracted superiorly;
# tortuous dilated vessels are varices; a part that cannot be accurately assessed is one limit.
# v28: radiograph and MR wording of reports translated from Chinese, found by rewriters who
# never saw the reader: an examination's title line ("Right elbow joint DR anteroposterior and
# lateral position:", "AP and lateral views of the right knee", "Right knee joint.") is dropped
# and a side heading naming the examination lends only its side; a recommended study ("CT is
# suggested", "MRI correlation") is dropped; "both the anterior and posterior" are two positions,
# not two sides; a quality of a site list ("the bone density of the pelvis and the femurs") is
# said of each site; ", the boundary is clear" is a well-defined margin, not a normal statement;
# a normal or preserved kyphosis or lordosis is a normal curvature, "scoliotic to the left" a
# levoscoliosis, a continuous sequence of the vertebrae a normal alignment, a posterior edge not
# protruding backward no retropulsion, a femoral head seated in the acetabulum not dislocated,
# "consistent with age" appropriate for age, psoas shadows its margins, lucent areas without lung
# markings bullae, ligamenta flava the ligamentum flavum.
# v27: the wording of reports translated from French (equivalents.json ``translated``): an organ's
# integrity is the organ intact, a vessel's permeability its patency, a slender or thin duct is not
# dilated, a formation is a lesion, a T2 hypersignal is T2 hyperintense, the perimedullary fluid
# spaces are the CSF spaces; "no signs / evidence of X" is "no X", a complication denied is
# "uncomplicated", "steatotic" is steatosis, a full bladder is a filled one, a thin wall or tympanic
# membrane is not thickened, a part not visible, not assessed or obscured because of gas is one
# limit; "intra- or extrahepatic" writes the prefix on each word; "Hemorrhage: none" is "no
# hemorrhage"; a study named with its date is no finding; a size or a participle after a denial's
# comma is not denied; an exception of one word leaves its sentence whole (v26 dropped it).
# v26: an exception is a finding of its own ("no X except / other than / apart from Y" is "no other
# X" and Y); a list of sites ends before a finding of a site ("... of the left kidney and dilatation
# of the left ureter"), and bare spinal levels share the noun of the last ("the L3/4 and L4/5
# discs"); a placeless "irregular", "ill-defined" or wall thickening describes the finding before
# it; fluid in a joint, the thoracic cavity or the pericardium is an effusion; an echo enhanced or
# reduced is hyper- or hypoechoic and an uneven, disordered or uniform one an echotexture; a lost
# fatty hilum, an "absent" organ and "non-visualization" keep their meaning (they were denials);
# the porta hepatis and the pouch of Douglas are places; "thin" is hypoplastic for a vessel only.
# v25: a normal quality denied is the abnormal quality (equivalents.json ``denied_quality``):
# margins or a surface "not smooth" are irregular, a lesion "not well defined / circumscribed" or
# whose margins are "not clear / sharp" is ill-defined, a costophrenic angle "not sharp" is blunted,
# a vessel "not patent" is occluded, "not aligned" is malaligned, hardware "not in a good position"
# is malpositioned, a sinus "not well aerated" poorly aerated, a cortex "not continuous" broken, a
# lung "not fully expanded" incompletely expanded and "fully expanded" normal; an absent flow void
# is lost, and a fat plane that is absent or not seen is lost and one preserved is intact (the two
# opposite).
# v24: a finding without a verb ends its statement before ", the <place> is ..." when it is
# denied or the place is called normal or denied something: "No fracture, the ankle joint is
# congruent" and "Mild soft tissue swelling, the joint space is not narrowed" are two statements
# each ("no" was said of the joint, the swelling was "not narrowed"), and ", or the <place> is
# ..." ends a list rather than starting a statement; a device's endoleak
# is denied as its loosening is; "intracranial" before "arterial", "vascular" or "aneurysm" names
# the brain's arteries; the dural venous sinuses are vessels (not the paranasal sinuses; nor is the
# renal, coronary or piriform sinus); the cisterna magna, "septi pellucidi" and the tibiofemoral and
# patellofemoral joints are named; "joint space loss" is joint space narrowing; a vein that is
# compressible, a uterus anteverted or retroflexed, organs in proportion or similar in size,
# hepatopetal or triphasic flow, flow voids, follicles, a circle of Willis that is complete, a
# moderately filled bladder and three-vessel runoff are normal.
# v23: the words that say which part of an organ ("upper", "middle", "mid", "lower", "superior",
# "inferior", "anterior", "posterior") share the noun of a site list as place adjectives do: "the
# right upper and middle lobes" is the right upper lobe and the right middle lobe, "the anterior
# and posterior mediastinum" two places; a site list may follow "involves" / "affects" as it
# follows "involving"; "thalami" names the thalamus; lymph nodes called normal, normal in size or
# not enlarged are no lymphadenopathy there, as "no enlarged lymph nodes" is, swollen nodes are
# lymphadenopathy, and lymph nodes said to be present are a finding (as nodes "seen" were);
# "normal in size with a <finding>" attaches a second finding as ", with" does; a spine curved
# sideways is a scoliosis to that side; exudation is stranding; pneumobilia, pneumatosis, portal
# venous and other named gas and air bronchograms are findings.
# v22: statements joined by commas are each a statement whatever their verb ("..., the brainstem
# shows no abnormal signal", "..., the cerebellum has ..."), not only with "is" / "are"; after a
# statement, ", no <finding> is seen" is a denial of its own where the statement before is normal
# or the denial names another place, and ", <something> is seen / noted in <place>" a statement of
# its own at a place the one before did not name; a signal denied on some MRI sequences ("no
# restricted diffusion", read as no high DWI and no low ADC signal) says nothing against the same
# signal asserted on others ("T2 hyperintense"); proton density (PDWI, PD-weighted) is an MRI
# sequence; "uneven" echo or signal is heterogeneous; hydronephrosis is of the kidney, and a
# renal collecting system dilated or "separated" is hydronephrosis; a "strong echo" is hyperechoic.
# v21: the reader's alignment (CREPE's and VERT's rules views) pairs under RadSEM's settings whole,
# a short statement mostly contained in a longer one included; cortical bone is the bone's cortex
# (it read as the brain's); the thoracic cage or wall is the chest wall; "isthmic" is the isthmus;
# "normal (wall) thickness" and "thickness within normal limits" are "not thickened"; free fluid
# in the pelvis is ascites in the pelvis; a reading on a line of its own per MR sequence ("T1:
# hypointense.") is a statement, not dropped as a stray letter and one word.
# v20: "between A and B" is one relation, not a list; a denial of one thing before ", and" is a
# statement of its own; vessels, margins, planes or a differentiation not clearly seen are
# ill-defined; an organ's abnormal density, signal or echo and another structure after ", with"
# are two findings; free intraperitoneal gas is pneumoperitoneum; a denial of any abnormal look of
# a whole ("no abnormal signal in the brain parenchyma") is a plain normal statement about it, for
# its parts and for the alignment too; pelvic / abdominal read as pelvis / abdomen;
# ventriculomegaly is enlarged ventricles; "pathologically enlarged" is enlarged; an underfilled
# bladder is a finding; a listed site with a preposition of its own keeps it; symmetry is
# symmetric; "Portable chest film." names the technique; both sides named in other words ("on
# the left and on the right", "left-sided and right-sided", "left greater than right") are a
# statement per side.
# v19: the abdominopelvic cavity is the abdomen (it was no place, and "cavity" a finding); the
# anterior / posterior horn of a meniscus is not the lateral ventricle's; "malleoli" is the plural
# of malleolus; "tears" is an abnormal word as "tear" is; a side between a lung zone and "lung"
# ("the lower right lung") names the same zone.
# v18: a label that lists sites ("Bilateral basal ganglia and right thalamus: ...", "Anterior
# cerebral arteries, both sides, and right middle cerebral artery: ...") is one line per site; a
# part after a semicolon that only says how the finding changed ("; new compared with the
# previous MRI", "; larger than on the prior CT") is that finding's change; a prior study named
# CTA, MRA, MR or radiographs is removed whole (it left "A" behind); ", with a clear boundary"
# describes the finding before (a boundary with another organ is still a finding); "high / low
# on <sequence>" is hyper- / hypointense; coronary dominance and vessels "equal in caliber" are
# normal; a slender vessel is hypoplastic; "arise" ends a clause as "is" does; a comparison stops
# at a colon (the diagnosis after it stays); "45 mm x 30 mm" is one measurement; the quadriceps
# and gluteal muscles are places; "Please correlate ..." is a request, not a finding.
# v17: a statement that names no place goes on from the abnormal statement just before it on the
# same line ("A plaque in the mid RCA. Mild stenosis." is a stenosis of the RCA), the items of a
# list each standing alone; a sentence repeated word for word under another place is kept once
# per place; ", with <finding>, is seen in <site>" gives both findings the site; a site may have
# several parents (a malleolus is part of the ankle and of its bone); pneumothorax and hemothorax
# are pleural, ascites and pneumoperitoneum peritoneal; an organ operation (mastectomy,
# cholecystectomy, lobectomy, ...) is the organ absent after surgery; fluid in the abdominal or
# pelvic cavity is ascites however the sentence puts it; CBD, LAD, LCX and RCA written out;
# periarticular is the joint, the medial or lateral compartment the knee; honeycombing in any
# wording; enlarged nodes are lymphadenopathy; sparse trabeculae are osteopenia; an unseen
# ligament is torn, grade III meniscal signal a tear; free gas under a hemidiaphragm is
# pneumoperitoneum; a lost fatty hilum in any wording.
# v16: over eighty common findings the lexicons did not know are findings (osteopenia, disc
# desiccation, dissection, nonunion, malalignment, cholecystitis, ventriculomegaly, fibroids,
# goiter, avascular necrosis, volvulus, hydrosalpinx, empyema, sarcoidosis, Chiari malformation,
# ...), so a report of one of them alone is read; "cholecystitis" and "cholecystectomy" are no
# longer read as the gallbladder, a "loose body" no longer as loosening; a quality said of its
# site is the site's quality ("the density of the left hilum is increased" = "the left hilum is
# hyperdense"; signal with its sequence, echo, a radiograph's transparency); a device's shadow on a
# radiograph is the device, and a device after ", with" is a finding of its own; a denial in
# front of "in the nodule" (or lesion, mass, cyst, ...) leaves that finding stated; a radiograph's
# upper, mid and lower zones are the lobes; radial, ulnar and fibular are the radius, ulna and
# fibula, prostatomegaly and thyromegaly the organ enlarged, "enlarged mediastinal lymph nodes"
# lymphadenopathy, the neural foramina one foramen word; a wedge-shaped vertebral body is a
# compression, a vertebra that slips forward an anterolisthesis; overlapping fracture ends
# override; a device denial leaves no dangling verb behind. Cancer is a finding, any -ectomy,
# -otomy or -ostomy an operation (was five of them); more places: the insula, vermis, optic nerves
# and chiasm, hypopharynx and epiglottis, anal canal, trochanters, plantar fascia, odontoid,
# skin, mandible and maxilla, testis and scrotum, adnexa, omentum, the abdomen's quadrants. In
# the alignment, one statement calling normal what the other calls abnormal of one finding
# ('screws in good position' / 'malpositioned') is a conflict of character. Also: 'does not
# restrict diffusion' is that denial; ADC values said low or high are ADC hypo- or
# hyperintensity; a disc that 'exhibits' low T2 signal is desiccated; a curvature that 'becomes
# straight' is straightened; the corticomedullary differentiation names the kidney; blooming is
# a finding; 'tendin\w+' no longer takes tendinosis for the tendon; a discontinuous ligament,
# tendon, labrum or meniscus is torn; 'labral' is the labrum; '(see image report)' goes and the
# sentence before it stays; one hedge however worded (probably / likely, compatible with / in
# keeping with / consistent with, concerning / worrisome / suspicious for); a finding 'not present
# on the prior study' is new; fibrous cords, strands or bands are linear fibrosis (a 'cord' was
# the spinal cord) and fluid in a pleural cavity a pleural effusion.
# v15: each named artery is a place of its own (the internal, common and external carotid, the
# middle, anterior and posterior cerebral, the communicating, basilar and vertebral arteries; ICA,
# MCA and the others written out), and so are the prostate's transition and peripheral zones; the
# vertebral artery is no vertebra, the basilar artery no lung base, an intracranial segment or
# artery no skull; the intracranial and the extracranial segment are opposite places; a bare
# "parenchyma" names no organ (it was the lung); the site names the canonical spellings had made
# unreadable ("cardiac silhouette", "pancreatic head", "vertebral body") are listed as they are
# read; "narrowings" is stenosis, "occluded" occlusion, "caliber" size and "common duct" the
# common bile duct; a sentence written as one word that names a finding ("Cardiomegaly.") is a
# statement; in a line labelled with a finding, a bare part naming none is a part of it
# ("Fracture: line blurred; ends well aligned"); a change in size after ", with" is the finding's
# ("..., with an increased size"), not a finding; a denial names its place in the organ as a
# statement does ("no focus in the intracranial segment"); "partial absence" and a structure
# absent after surgery are findings, not denials; hypervascular or enhancing in the arterial phase
# is arterial phase hyperenhancement, "washes out" washout, "mural" thickening or enhancement the
# wall's, "layered" stratified; a finding's adjective is its noun (inflamed, necrotic, metastatic,
# hydronephrotic, ...) and a rupture a tear; an item of a site list may name a part with its whole
# ("the lingular segment of the left upper lobe"); a cavum (septum pellucidum, vergae, velum
# interpositum) is a finding, not a structure seen; a thyroid lobe or isthmus is the thyroid.
# v14: a place named by a finding ("screws at the fracture site") is not a finding of the statement
# (it was a word of it: the hardware statement read as a fracture); a cortical break is an
# abnormality however written; distorted, disturbed, deranged or abnormal alignment and loss of
# alignment are malalignment; in a labelled line a denial of what may go wrong with a device ("Right
# clavicle: plate and screws; no loosening") is said of the device, not the label, every other part
# naming no site is said of the labelled site ("Liver: normal size; smooth contour"), and a device
# denial is about the device, not one named by the procedure that placed it ("after internal
# fixation").
# v13: a rewrite that reads a denial as one word ("no joint space narrowing" as "normal joint
# space", "no enhancement" as "nonenhancement", "without internal echoes" as "anechoic") leaves
# the denial as written when "or" / "nor" goes on to name more ("no joint space narrowing or
# osteophytes" read the osteophytes as present); a structure said to be there and the same
# structure said not to be ("lymph nodes are visualized" / "... are absent", "the thyroid lobe is
# not visualized" / "... is identified") cannot both be true; an unacceptable or unsatisfactory
# alignment, a malaligned fracture or a malpositioned device, is not a normal one; a fixator is a
# device; the one place a follow-up lead-in names ("Follow-up after fixation of a fracture of the
# right tibia: ...") is where the report's findings after it are, when their sentence names no
# place of its own; a device stated with a denial of what may go wrong with it ("a plate in the
# distal fibula, in good position, with no loosening or breakage") is two findings, the device and
# one denial per complication ("No loosening of the plate."), and such a denial names its place by
# the device: it denies that complication of the device wherever the other statement puts it; a
# nonanatomic, unsatisfactory or poor alignment is malalignment; "X despite a Y" is two
# statements; a styloid process is part of its bone, not the wrist, and a bone fragment names no
# place; "below the fracture site" says where, not what (the fracture is not the fragment's
# finding); in a labelled line, a part after a semicolon that only says how the subject sits
# ("good position", "good alignment") goes on describing it; a report whose every sentence was
# dropped reads the parts of a sentence that are not dropped themselves ("New pneumothorax despite
# a chest tube; recommend follow-up").
# v12: radiographs outside the chest and reports written as translations read, read off our own
# paraphrase corpus: "more / less than on the previous radiograph" and a prior study named by its
# age ("the radiograph of 3 days ago") are changes; a range of vertebrae ("C4-C6", "C4 through
# C6") is each vertebra and disc level it covers; ribs, fingers, toes, metacarpals and
# metatarsals by number are places ("the 4th vs the 5th finger"); "ulnar side" and "radial
# deviation" name a direction, not a bone; a joint named with its structure ("metacarpophalangeal
# joint", "knee joint") is part of it (grammar.json: "joint" a part noun); subchondral bone
# belongs to the joint; metacarpals and metatarsals are bones of their own, and the spine is a
# bone; a margin word beside a finding named by its look ("a hypodense focus with a clear
# boundary") does not make the statement normal; a denial list ends where "probably ..." or
# "similar to ..." begins; a comparison's topic is read in canonical words; an organ's shadow is
# its silhouette and "is not enlarged" is "is normal in size".
# v11: a part noun bound to a structure ("renal cortex", "the head of the right femur", "cortex
# break of the fibula") names a part of it, not a region of its own (brain, head, neck,
# brainstem); a follow-up lead-in ending in a colon goes and its findings stay; a hyphenated
# word is its words for similarity ("fluid-attenuation" = "fluid attenuation"); a statement that
# names no site is kept apart from one that does only below 0.25 similarity (was 0.4); readings
# of MR sequences each with its own noun ("a focus of low signal on T1WI, an area of high signal
# on T2WI") are one statement per sequence; a denial after a semicolon in a labelled line is said
# of the label ("Hardware: good position; no loosening or breakage").
# v10: a list of sites is read item by item (nested lists, "as well as", adjectives that share the
# noun after them and the words before the first: "the subcortical regions of the bilateral
# frontal, parietal and temporal lobes"; parts before "of <whole>"); one-word places and levels
# share a noun ("mediastinal or hilar lymphadenopathy"); a finding list without a verb and two
# finding adjectives of one subject are one statement each, and so is each verb by which a finding
# acts ("compresses ... and moderately narrows ..."); where the largest lies is not where the
# statement is; a clinical-history lead-in goes, and a technique lead ending in "was performed:"
# goes while its findings stay; grammar.json's part nouns and finding verbs.
# v9: a list of kinds before one noun names one finding per kind ("patchy and linear opacities");
# a denial that another statement's finding lies within contradicts it, and that statement pairs
# only with one that states the denied finding too; what a finding does to other structures
# (", obscuring the right hemidiaphragm") is a finding at their sites; a finding matched by two
# statements is matched once (VERT's M); "more pronounced on the right" is a side, not a change;
# a denial of a finding the other statement does not state ("bulge without nerve root
# compression" / "disc bulge") does not contradict it; subdural bleeds are hematomas, old is chronic;
# a spinal level written as one token ("l5-s1") is a place, not a finding word.
# v8: opposite appearances (enhancement / non-enhancement, iso- / hyper- or hypointense); a denial
# of another finding only ("thickening without effusion") does not contradict the finding alone;
# lobes named from their lung, one per lobe; an organ said only to be there is normal; sentences
# cut where the grammar says (past-tense verbs, lone modifiers, adjective lists, "; the largest");
# CREPE's F only for a comparison that describes a change, C only for a misplaced finding (not
# two denials in other places). v7: a finding named by reference ("the fracture", "it") reads the site of the one it refers to;
# spinal levels are places, not finding words; numbers and units read apart. v6: each modality's equivalent forms read as one (equivalents.json), a finding's appearance
# kept with it (", with low signal on T1WI"; a lead-in's lines), one statement per MR sequence,
# opposite places and liver segments, telegraphic labels kept. v5: findings as frames (sizes in mm within a tolerance, change over time), wording.json,
# comparisons as context. v4: sections as written (RESULT(S), CONCLUSION, sub-headings), the
# impression read apart. v3: radsem-rules-v5 atoms (level and site lists, joined continuations).
READER_VERSION = "reader-v80"
READER_RULES_VERSION = "rules-v5"  # v5: telegraphic labels kept; v4: sentences read through wording.json
RADSEM_RULES_VERSION = "radsem-rules-v13"  # v13: two statements that grade the finding apart (mild / severe, each said by one only), or of which one only hedges it, share no detail ("none"); v12: a finding named in the plural counts as "multiple" against a statement that says multiple, and a size said in one statement only is no differing detail; v11: a statement naming no site is kept apart only below 0.25 similarity; v10: site lists, shared nouns, finding lists and finding adjectives written one per sentence; v9: a statement the other report denies pairs only with one that states the denied finding; kinds and effects written one per sentence; v8: a finding that names no abnormality against one that does is part-whole; v7: per-sequence atoms, places; v6: size and change-over-time contradictions

# The lexicon files whose content can change each view's reading (their hash goes into its
# signature). ``wording`` is read by every rules reader: every sentence passes through it.
RADSEM_LEXICONS = ("cues", "radsem", "wording", "equivalents")
READER_LEXICONS = tuple(dict.fromkeys((*RADSEM_LEXICONS, "clear_attributes", "reader")))
CLEAR_LEXICONS = ("cues", "clear_conditions", "clear_attributes", "wording")
SRR_LEXICONS = ("clear_conditions", "srr_leaves")  # read on top of READER_LEXICONS


def reader_signature(*extra_lexicons: str) -> dict[str, str]:
    """What identifies a reading: reader name and version, rules version, and the hash of the
    lexicons it read (the reader's, plus ``extra_lexicons`` a view reads on top)."""
    return {"reader": READER_NAME, "reader_version": READER_VERSION, "rules": READER_RULES_VERSION,
            "lexicon": lexicon_hash(*READER_LEXICONS, *extra_lexicons)}

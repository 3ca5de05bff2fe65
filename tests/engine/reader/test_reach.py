"""Issue 43, reader-v7: a sentence that names its finding by reference reads where that finding
is, a spinal level says where (not what), and the places and normal words of modalities beyond
the chest are read as such. Hand-written sentences; no ../shared data."""
from __future__ import annotations

import pytest

from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.registry import production
from radscope.engine.context import RuntimeContext
from radscope.engine.reader.attributes.place import ABNORMAL, NORMAL, sentence_features
from radscope.engine.reader.findings import read_report
from radscope.engine.reader.pair.align import read_pair
from radscope.engine.reader.pair.compatibility import incompatibility_reason


def test_a_finding_named_by_reference_reads_the_site_of_the_one_it_refers_to():
    reading = read_report("There is a healing fracture of the right distal radius. "
                          "The fracture is in anatomic alignment, with callus formation.")
    fracture, alignment = reading.findings
    assert fracture.sites == alignment.sites == ("radius",)
    assert alignment.laterality == ("right",)


def test_a_pronoun_refers_to_the_nearest_finding_with_a_site():
    reading = read_report("A 12 mm nodule in the left kidney. Arterial phase enhancement. "
                          "It is hyperintense on T2WI.")
    assert reading.findings[-1].sites == ("kidney",)
    assert reading.findings[1].sites == ()  # no reference word: left as written


def test_a_reference_without_an_earlier_finding_of_that_kind_keeps_no_site():
    reading = read_report("A nodule in the liver. The fracture is in anatomic alignment.")
    assert reading.findings[-1].sites == ()


def test_a_fracture_of_another_bone_is_not_a_restatement_of_the_first():
    reference = ("There is a healing fracture of the right distal radius. "
                 "The fracture is in anatomic alignment.")
    candidate = reference + " There is a nondisplaced fracture of the scaphoid waist."
    pair = read_pair(reference, candidate)
    assert len(pair.only_candidate) == 1 and not pair.restated


def test_a_spinal_level_is_a_place_not_a_shared_finding_word():
    f = sentence_features("There is a pars interarticularis defect at L5 on the left.")
    assert "l5" in f.levels and "l5" not in f.asserted
    assert f.sites == frozenset({"spine"}) and "defect" in f.core
    short = sentence_features("There is a pars defect at L5.")  # the site does not take the finding
    assert short.sites == frozenset({"spine"}) and "defect" in short.core
    reference = "There is grade 1 anterolisthesis of L4 on L5. The pedicles are intact."
    candidate = ("There is grade 1 anterolisthesis of L4 on L5. There is a pars "
                 "interarticularis defect at L5 on the left. The pedicles are intact.")
    assert len(read_pair(reference, candidate).only_candidate) == 1


@pytest.mark.parametrize("sentence, normality", [
    ("The nasal cavity is clear.", NORMAL),  # a cavity that is a place, not a cavitation
    ("The uterine cavity is normal.", NORMAL),
    ("No effusion in the joint cavity.", NORMAL),
    ("A cavity in the right upper lobe.", ABNORMAL),
    ("The right patellar position is anatomic.", NORMAL),
    ("Hepatic vasculature is clearly delineated.", NORMAL),
    ("The mastoid air cells are well pneumatized.", NORMAL),
    ("The left temporal lobe is isointense on T1-weighted imaging.", NORMAL),
    ("The lesion is iso- to hypointense on T1WI.", ABNORMAL),
    ("A nodule isointense to muscle on T1.", ABNORMAL),
    ("Distorted alignment of the right ribs.", ABNORMAL),
    ("There is grade 1 anterolisthesis of L4 on L5.", ABNORMAL),
])
def test_normal_and_abnormal_words_beyond_the_chest(sentence, normality):
    assert sentence_features(sentence).normality == normality


def test_the_portal_venous_phase_is_a_phase_not_the_portal_vein():
    assert not sentence_features("Washout on the portal venous phase.").sites
    assert sentence_features("The portal vein is patent.").sites == frozenset({"portal vein"})


def test_a_size_written_without_a_space_stays_with_its_finding():
    glued = read_report("In segment S2 of the liver, a small nodule is seen, with low signal "
                        "on T1WI, measuring about 5x6mm.")
    spaced = read_report("In segment S2 of the liver, a small nodule is seen, with low signal "
                         "on T1WI, measuring about 5 x 6 mm.")
    assert len(glued.findings) == len(spaced.findings) == 1
    assert glued.findings[0].features.sizes == spaced.findings[0].features.sizes != ()


def test_the_invented_fracture_costs_crepe_and_vert():
    reference = ("There is a healing fracture of the right distal radius fixed with a plate. "
                 "The fracture is in anatomic alignment, with moderate callus formation. "
                 "There is mild periarticular osteopenia.")
    candidate = reference + " There is a nondisplaced fracture of the scaphoid waist."
    ctx = RuntimeContext(options={"extractor": "rules"})
    pair = ReportPair("t", reference, candidate)
    crepe = production().get("crepe").build(ctx).score_pair(pair)
    vert = production().get("vert").build(ctx).score_pair(pair)
    assert crepe.details["clinical_errors"]["invented"] == 1
    assert vert.score < 1.0
    assert production().get("vert").build(ctx).score_pair(ReportPair("t", reference, reference)).score == 1.0


# --- reader-v8 ------------------------------------------------------------------------------------


def test_a_subject_list_ends_at_a_past_tense_verb():
    assert len(read_report("The liver, spleen and pancreas showed no abnormality.").findings) == 3


def test_a_lone_modifier_shares_the_noun_of_the_subject_it_starts():
    findings = read_report("Bony or soft tissue abnormalities are not seen.").findings
    assert len(findings) == 1 and findings[0].normal


def test_a_list_of_adjectives_takes_the_noun_that_follows_them():
    reading = read_report("Fractures of the left temporal, parietal, and occipital bones are seen.")
    assert [f.text for f in reading.findings] == [
        "Fractures of the left temporal bones are seen.",
        "Fractures of the parietal bones are seen.",
        "Fractures of the occipital bones are seen."]


@pytest.mark.parametrize("sentence, normality", [
    ("The gallbladder is seen.", NORMAL),  # an organ said to be there, nothing more
    ("Right upper lobe present.", NORMAL),
    ("The gallbladder is not seen.", ABNORMAL),  # an organ not seen stays a finding
    ("A nodule is seen in the liver.", ABNORMAL),
    ("The left anterior cerebral artery is outside normal limits.", ABNORMAL),
    ("None of the nodules show calcification.", NORMAL),
])
def test_presence_and_limits(sentence, normality):
    assert sentence_features(sentence).normality == normality


@pytest.mark.parametrize("reference, candidate", [
    ("A cystic lesion in the right kidney, without enhancement after contrast.",
     "The right renal cystic lesion demonstrates enhancement."),
    ("The lesion in the right kidney is isointense on T1WI.",
     "The lesion in the right kidney is hyperintense on T1WI."),
])
def test_opposite_appearances_are_not_one_finding(reference, candidate):
    pair = read_pair(reference, candidate)
    (link,) = pair.links
    assert "character" in link.conflicts  # the reader's error: an opposite description
    ref, cand = pair.reference.findings[0].features, pair.candidate.findings[0].features
    assert incompatibility_reason(ref, cand) == "opposite directions"  # RadSEM never pairs them


def test_hand_and_foot_are_places():
    assert sentence_features("Fracture of the right second toe.").sites == frozenset({"foot"})
    assert sentence_features("Fracture of the proximal phalanx.").sites == frozenset({"phalanx"})
    assert sentence_features("Soft tissue swelling of the left index finger.").sites >= {"hand"}


def test_similar_to_the_prior_study_reads_as_unchanged():
    reading = read_report("A 13 mm nodule in the right upper lobe, similar to the previous CT "
                          "on 2025-5-21.")
    assert reading.findings[0].change == "unchanged"
    assert "previous" not in reading.findings[0].text


def test_leaving_out_an_unchanged_comparison_is_listed_not_counted():
    ctx = RuntimeContext(options={"extractor": "rules"})
    crepe = production().get("crepe").build(ctx)
    nodule = "A 13 mm nodule in the right upper lobe"
    unchanged = crepe.score_pair(ReportPair("t", f"{nodule}, unchanged since the prior study.",
                                            f"{nodule}."))
    grown = crepe.score_pair(ReportPair("t", f"{nodule}, increased since the prior study.",
                                        f"{nodule}."))
    assert unchanged.score == 0.0
    assert unchanged.details["reading"]["comparisons_dropped"] == [0]  # listed, not counted
    assert grown.score == 1.0 and grown.details["errors"][0]["category"] == "F"

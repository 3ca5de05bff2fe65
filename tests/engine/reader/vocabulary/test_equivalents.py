"""Issue 43: a finding read from any modality's form of words gives the same frame. One test per
family of ``equivalents.json`` (its own examples, so that a family without a tested example
cannot be added), and the distributive reading: one statement over several sites or sequences
and one line per site or sequence are the same findings. No ../shared data."""
from __future__ import annotations

import pytest

from radscope.engine.api import Scorer
from radscope.engine.reader.pair.compatibility import incompatibility_reason
from radscope.engine.reader.vocabulary.equivalents import families
from radscope.engine.reader.findings import read_report
from radscope.engine.reader.attributes.place import SentenceFeatures, sentence_features

FAMILIES = families()


def frame(features: SentenceFeatures) -> tuple[object, ...]:
    """What a metric compares of one statement (its wording aside)."""
    return (features.tokens, features.sites, features.sides, features.levels, features.sequences,
            features.normality, features.directions, features.positions, features.segments)


def test_every_family_the_issue_names_is_in_the_lexicon():
    assert {"mr_signal", "ct_density", "ultrasound_echo", "nuclear_uptake", "hardware", "spine",
            "anatomy", "normal_study"} <= set(FAMILIES)
    for name, family in FAMILIES.items():
        assert family["about"] and family["rewrites"] and family["examples"], name


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_each_family_reads_its_forms_as_one_frame(name):
    for group in FAMILIES[name]["examples"]:
        first, *others = [sentence_features(sentence) for sentence in group]
        for other in others:
            assert frame(other) == frame(first), (name, first.text, other.text)


@pytest.fixture(scope="module")
def scorer():
    with Scorer(["radsem", "crepe", "vert"], extractor="rules") as s:
        yield s


def scores(scorer: Scorer, reference: str, candidate: str) -> dict[str, float | None]:
    record = scorer.score([reference], [candidate]).records[0]["metrics"]
    return {name: record[name]["score"] for name in ("radsem", "crepe", "vert")}


MR_ONE_SENTENCE = ("FINDINGS: Patchy lesions are seen in the left parietal lobe and both basal "
                   "ganglia, with low signal on T1WI and high signal on T2WI.")
MR_PER_SITE = ("FINDINGS:\nLeft parietal lobe: patchy T1 hypointense, T2 hyperintense lesion.\n"
               "Right basal ganglia: patchy T1 hypointense, T2 hyperintense lesion.\n"
               "Left basal ganglia: patchy T1 hypointense, T2 hyperintense lesion.")
MR_PER_SEQUENCE = ("FINDINGS:\nThere is a new 22 mm mass in the right temporal lobe:\nT1WI: low "
                   "signal.\nT2WI: high signal.\nPost-gadolinium: ring enhancement.")
MR_SEQUENCES_IN_ONE = ("FINDINGS: There is a new 22 mm mass in the right temporal lobe that is "
                       "hypointense on T1-weighted images and hyperintense on T2-weighted images, "
                       "with rim enhancement after contrast administration.")


@pytest.mark.parametrize(("reference", "candidate"), [
    (MR_ONE_SENTENCE, MR_PER_SITE),
    (MR_SEQUENCES_IN_ONE, MR_PER_SEQUENCE),
])
def test_one_statement_over_sites_or_sequences_is_its_lines(scorer, reference, candidate):
    for ref, cand in ((reference, candidate), (candidate, reference)):
        result = scores(scorer, ref, cand)
        assert result["radsem"] >= 0.95 and result["vert"] >= 0.95, result


def test_a_lesion_described_sequence_by_sequence_is_one_statement_per_sequence():
    texts = [f.text for f in read_report(MR_SEQUENCES_IN_ONE).findings]
    assert len(texts) == 2 and "T1-weighted" in texts[0] and "T2-weighted" in texts[1]
    assert all("22 mm mass in the right temporal lobe" in text for text in texts)
    assert all("rim enhancement" in text for text in texts)  # ", with ..." stays with its finding


@pytest.mark.parametrize(("reference", "candidate", "reason"), [
    ("A tear of the posterior horn of the medial meniscus.",
     "A tear of the anterior horn of the medial meniscus.", "different place in the organ"),
    ("A 14 mm cyst in the upper pole of the right kidney.",
     "A 14 mm cyst in the lower pole of the right kidney.", "different place in the organ"),
    ("A 32 mm hypodense lesion in segment 7 of the liver.",
     "A 32 mm hypodense lesion in segment 3 of the liver.", "different place in the organ"),
    ("At L4-5 a disc extrusion compresses the left L5 nerve root.",
     "At L3-4 a disc extrusion compresses the left L5 nerve root.", "different spinal level"),
    ("A 7 mm calculus at the left ureterovesical junction.",
     "A 7 mm calculus at the left ureteropelvic junction.", "unrelated sites"),
])
def test_a_finding_moved_within_its_organ_is_another_finding(reference, candidate, reason):
    assert incompatibility_reason(sentence_features(reference), sentence_features(candidate)) == reason


def test_a_disc_level_written_before_with_is_read_whole():
    # "at L5-S1 with ..." was read as L5 alone (the MR-sequence guard took "with" for "W").
    assert sentence_features("Disc space narrowing is present at L5-S1 with osteophytes.").levels \
        == frozenset({"l5-s1"})


@pytest.mark.parametrize(("reference", "candidate"), [
    ("The fibroid in the uterine body is unchanged from the prior study.",
     "The fibroid in the uterine body has increased since the prior study."),
    ("Moderate left hydronephrosis, increased since the prior examination.",
     "Moderate left hydronephrosis, decreased since the prior examination."),
])
def test_a_change_told_against_the_prior_study_is_read(scorer, reference, candidate):
    result = scores(scorer, reference, candidate)  # not a chest radiograph: CREPE does not apply
    assert result["radsem"] < 1 and result["vert"] < 1, result


@pytest.mark.parametrize("hedge", ["Probable", "Likely", "Presumed"])
def test_a_hedge_is_a_certainty_change(scorer, hedge):
    reference = "FINDINGS: Acute compression fracture of the L1 vertebral body."
    result = scores(scorer, reference, reference.replace("Acute", f"{hedge} acute"))
    assert result["radsem"] < 1 and result["vert"] < 1, result

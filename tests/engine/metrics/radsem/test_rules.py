"""RadSEM rules extractor: atomic sentences, polarity, normality, laterality, matching, schema.

The reports are written for the test; expected values are derived by hand in the comments.
"""
import json

import pytest

from radscope.engine.io.examples import example_pairs
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.radsem.extract import RadsemExtraction
from radscope.engine.metrics.radsem.rules_match import tag_pair
from radscope.engine.metrics.radsem.score import score_tags
from radscope.engine.reader.text.atoms import atomize, atomize_sentence
from radscope.engine.reader.pair.compatibility import (
    anatomical_relationship,
    incompatibility_reason,
    lexical_similarity,
)
from radscope.engine.reader.attributes.place import sentence_features
from radscope.engine.reader.versions import RADSEM_RULES_VERSION
from tests.reference.radsem import tags_from_model_json


def test_negated_list_is_split_one_item_each():
    out = atomize_sentence("No pleural effusion, pneumothorax or consolidation is seen.")
    assert len(out) == 3
    assert all(s.lower().startswith("no ") for s in out)


def test_coordinated_negation_gives_one_negative_atom_per_item():
    assert atomize_sentence("There is neither pleural effusion nor pneumothorax.") == [
        "There is no pleural effusion.", "There is no pneumothorax."]
    assert atomize_sentence("Neither effusion nor pneumothorax.") == ["No effusion.",
                                                                      "No pneumothorax."]
    # a predicate stays one sentence, both words denied
    (only,) = atomize_sentence("The heart is neither enlarged nor displaced.")
    assert only == "The heart is not enlarged or displaced."
    assert sentence_features(only).normality == "normal"


def test_a_bare_side_in_a_negated_list_takes_the_noun_and_its_suffix():
    assert atomize_sentence("No left- or right-sided pleural effusion is present.") == [
        "No left-sided pleural effusion is present.", "No right-sided pleural effusion is present."]


def test_no_doubled_negation_and_verbs_agree_after_splitting():
    assert atomize_sentence("There is no pleural effusion and no pneumothorax.") == [
        "There is no pleural effusion.", "There is no pneumothorax."]
    assert atomize_sentence("Heart size and mediastinal contours are normal.") == [
        "Heart size is normal.", "Mediastinal contours are normal."]
    assert atomize_sentence("Both lungs are clear.") == ["Left lung is clear.",
                                                         "Right lung is clear."]
    # a bare side shares the noun of the last item
    assert atomize_sentence("No left or right pleural effusion is seen.") == [
        "No left pleural effusion is seen.", "No right pleural effusion is seen."]


def test_coordinated_clauses_split_but_lists_stay_whole():
    # two statements joined by ", and": one atom each
    assert atomize_sentence("Bilateral ventricles are enlarged, and the cerebral sulci and "
                            "cisterns are widened.") == [
        "Left ventricles are enlarged.", "Right ventricles are enlarged.",
        "Cerebral sulci are widened.", "Cisterns are widened."]
    # ", and <side> ..." ending a subject list is not a new statement
    assert atomize_sentence("The trachea, right main bronchus, and left main bronchus are "
                            "patent.") == ["Trachea is patent.", "Right main bronchus is patent.",
                                           "Left main bronchus is patent."]
    # a normal statement with an abnormal one attached by ", with"
    assert atomize_sentence("Left lung shows good transparency, with patchy shadows at the "
                            "left lung base.") == ["Left lung shows good transparency.",
                                                   "Patchy shadows at the left lung base."]
    # adjectives in a site list share the noun after them (a temporal bone is not a lobe), and
    # the side before the first goes with each
    assert atomize_sentence("Fractures of the left temporal and parietal bones.") == [
        "Fractures of the left temporal bones.", "Fractures of the left parietal bones."]
    # a sub-heading alone names no finding
    assert atomize_sentence("T1-weighted findings:") == []
    # a plural paired organ "on both sides": one side each, the phrase not repeated
    assert atomize_sentence("The lateral ventricles on both sides are enlarged.") == [
        "The left lateral ventricle is enlarged.", "The right lateral ventricle is enlarged."]


def test_cardiomediastinal_silhouette_contains_heart_and_mediastinum():
    whole = sentence_features("The cardiomediastinal silhouette is within normal limits.")
    for part in ("Heart size is normal.", "Mediastinal contours are normal."):
        assert anatomical_relationship(whole, sentence_features(part)) == "part-whole"
    assert incompatibility_reason(sentence_features("Heart size is normal."),
                    sentence_features("Mediastinal contours are normal.")) == "unrelated sites"


def test_faithful_normal_chest_example_scores_at_least_0_9(radsem_rules):
    pair = next(e.pair for e in example_pairs() if e.pair.id == "normal-chest")
    assert score_tags(radsem_rules.read_pair(pair).tags).score >= 0.9


def test_faithful_paraphrase_scores_above_a_missed_pneumothorax(radsem_rules):
    pairs = {e.pair.id: e.pair for e in example_pairs()}
    faithful, missed = (score_tags(radsem_rules.read_pair(pairs[name]).tags).score
                        for name in ("normal-chest", "missed-pneumothorax"))
    assert faithful > missed


def test_faithful_paraphrases_are_matched(radsem_rules):
    # each pair states the same facts in other words: every atom pairs, nothing left over
    for reference, candidate in [
        ("There is neither pleural effusion nor pneumothorax.",
         "No pleural effusion. No pneumothorax."),
        ("The cardiomediastinal silhouette is within normal limits.",
         "Heart size and mediastinal contours are normal."),
        ("Bilateral ventricles are enlarged, and the cerebral sulci and cisterns are widened.",
         "Both ventricles are dilated. The cerebral sulci and cisterns are widened."),
    ]:
        tags = radsem_rules.read_pair(ReportPair("t", reference, candidate)).tags
        assert tags.pairs and not tags.unmatched_sentences, (reference, tags.unmatched_sentences)


def test_spinal_level_lists_give_one_atom_per_level():
    # commas only, and a list whose "or" belongs to the finding ("bulge or protrusion")
    assert atomize_sentence("Disc protrusions are seen at C3/4, C4/5, C5/6.") == [
        "Disc protrusions are seen at C3/4.", "Disc protrusions are seen at C4/5.",
        "Disc protrusions are seen at C5/6."]
    out = atomize_sentence("At L1\u2013L2, L2\u2013L3, and L5\u2013S1, the intervertebral discs "
                           "demonstrate bulge or protrusion.")
    assert [sorted(sentence_features(s).levels) for s in out] == [["l1-l2"], ["l2-l3"], ["l5-s1"]]
    # ", and C6/7" ends the list of levels; it starts no finding of its own
    out = atomize_sentence("Disc protrusions are seen at C3/4, C4/5, and C6/7 levels, with "
                           "compression of the dural sac.")
    assert [sorted(sentence_features(s).levels) for s in out[:3]] == [
        ["c3-c4"], ["c4-c5"], ["c6-c7"]]
    # the level's digits are no size detail: the same level written two ways pairs fully
    a, b = (sentence_features(t) for t in ("Disc protrusion at C3/4.", "The C3-4 disc protrudes."))
    assert not a.details and not b.details and a.levels == b.levels


def test_t1_t2_and_liver_segments_are_no_spinal_levels():
    assert not sentence_features("T2 hyperintense lesion in the left frontal lobe.").levels
    assert not sentence_features("A nodule in liver segment S7.").levels
    assert sentence_features("Fracture of the T2 vertebral body.").levels == {"t2"}
    assert sentence_features("Disc herniation at L5-S1.").levels == {"l5-s1"}


def test_sites_listed_after_around_are_written_out():
    out = atomize_sentence("Enlarged lymph nodes are seen around the gastric antrum, the hepatic "
                           "hilum, and the pancreatic head.")
    assert len(out) == 3 and "gastric antrum" in out[0] and "pancreatic head" in out[2]


def test_image_references_and_dates_are_no_details():
    (only,) = atomize_sentence("A 5 mm nodule is seen in the right lower lobe (Srs6 img92), "
                               "unchanged since 2023-6-2.")
    assert "img" not in only.lower()
    assert sentence_features(only).details == {"size", "nodule"}  # a size is one detail
    assert atomize_sentence("A cyst (IM 5) is seen in the liver.") == ["A cyst is seen in the liver."]
    assert atomize_sentence("A cyst is seen in the liver (image: 204).") == [
        "A cyst is seen in the liver."]


def test_sizes_with_units_written_on_are_read_and_micronodules_are_small_nodules():
    a = sentence_features("A nodule measuring approximately 28\u00d725mm.")
    b = sentence_features("A nodule measuring approximately 28 x 25 mm.")
    assert a.details == b.details == {"size", "nodule"}
    assert a.sizes == b.sizes == (("mm", ((28.0, 28.0), (25.0, 25.0))),)
    assert sentence_features("Multiple micronodules.").details == sentence_features(
        "Multiple small nodules.").details
    assert "illdefined" in sentence_features("An indistinctly marginated nodule.").details


def test_a_sentence_continuing_the_previous_finding_joins_it():
    sentences, _ = atomize("Multiple cysts are seen in the liver. The largest measures 8 mm. "
                           "A mass is seen in the left kidney. Unclear borders. "
                           "The margins of the spleen are smooth.")
    assert sentences[:2] == ["Multiple cysts are seen in the liver, the largest measures 8 mm.",
                             "A mass is seen in the left kidney, unclear borders."]
    assert len(sentences) == 3  # a sentence naming its own site stays apart


def test_a_comma_before_another_subject_and_verb_starts_a_statement():
    assert atomize_sentence("The heart is enlarged, the pericardium is unremarkable.") == [
        "The heart is enlarged.", "The pericardium is unremarkable."]
    # a subject list, or a relative clause, is no new statement
    assert len(atomize_sentence("The liver, spleen and pancreas are normal.")) == 3
    assert len(atomize_sentence("A nodule is seen in the left lobe, which is calcified.")) == 1


def test_a_denial_about_another_site_is_its_own_atom():
    assert atomize_sentence("The heart is enlarged, with no abnormality in the pericardium.") == [
        "The heart is enlarged.", "No abnormality in the pericardium."]
    # a denial without a site describes the finding itself and stays with it
    assert atomize_sentence("A cyst is seen in the liver, with no enhancement.") == [
        "A cyst is seen in the liver, with no enhancement."]


def test_compound_lobes_and_organ_surroundings_name_their_sites():
    assert sentence_features("A focus in the right frontotemporal region.").sites == {
        "frontal lobe", "temporal lobe"}
    assert sentence_features("Perihepatic fluid is present.").sites == {"liver"}
    assert sentence_features("Perisplenic fluid is present.").sites == {"spleen"}


def test_an_examination_title_is_dropped_a_finding_on_ct_is_not():
    assert atomize_sentence("Right Shoulder Joint MRI.") == []
    assert atomize_sentence("A nodule on CT.") == ["A nodule on CT."]


def test_a_lead_that_introduces_the_findings_goes():
    assert atomize_sentence("After intravenous injection of contrast via the cubital vein, the "
                            "scan shows: The left inferior pulmonary vein is heterogeneously "
                            "opacified.") == [
        "The left inferior pulmonary vein is heterogeneously opacified."]


def test_a_bilateral_word_gives_the_side_once():
    assert atomize_sentence("Patchy opacities are seen in both lower lungs.") == [
        "Patchy opacities are seen in left lower lung.",
        "Patchy opacities are seen in right lower lung."]
    # a side-qualified plural of the brain's ventricles is a lateral ventricle
    left, _ = atomize_sentence("Bilateral ventricles are enlarged.")
    assert sentence_features(left).sites == {"lateral ventricle"}
    assert sentence_features("Opacities are seen subpleurally in the left lung.").sites == {
        "subpleural"}


def test_qualifiers_of_a_denial_do_not_lower_the_similarity():
    a, b = (sentence_features(t) for t in ("No obvious enhancement is seen.",
                                           "No significant enhancement is seen."))
    assert lexical_similarity([a], [b])[0, 0] == 1.0


def test_the_same_abnormality_inflected_otherwise_is_equivalent():
    pair = tag_pair(sentence_features("The dural sac is compressed at C4-5."),
                    sentence_features("Compression of the dural sac at C4-5."))
    assert pair.asserted_abnormality_relationship == "equivalent"
    # the same one-way change in size or amount in other words
    pair = tag_pair(sentence_features("The left lateral ventricle is enlarged."),
                    sentence_features("The left lateral ventricle shows dilatation."))
    assert pair.asserted_abnormality_relationship == "equivalent"
    pair = tag_pair(sentence_features("Enhancement of the lesion is decreased."),
                    sentence_features("Enhancement of the lesion is reduced."))
    assert pair.asserted_abnormality_relationship == "equivalent"
    # a dense shadow on CT is a hyperdense one
    pair = tag_pair(sentence_features("A punctate dense shadow is seen in the right kidney."),
                    sentence_features("The right kidney shows a punctate hyperdense focus."))
    assert pair.asserted_abnormality_relationship == "equivalent"


def test_a_finding_that_names_no_abnormality_is_the_general_of_one_that_does():
    general = sentence_features("The main pulmonary artery trunk width is approximately 40 mm.")
    particular = sentence_features("Stenosis of the main pulmonary artery is seen.")
    assert not general.core and particular.core
    assert tag_pair(general, particular).asserted_abnormality_relationship == "part-whole"
    assert tag_pair(general, general).asserted_abnormality_relationship == "equivalent"


@pytest.mark.parametrize("reference, candidate", [
    ("Tracheal intubation in place.", "An endotracheal tube is present within the trachea."),
    ("No choledocholithiasis is seen.", "No common bile duct stones."),
    ("The bile ducts are nondilated.", "The bile ducts are not dilated."),
    ("The bladder is in a catheterized state.", "A urinary catheter is in the bladder."),
    ("No cholelithiasis.", "No gallstones are seen in the gallbladder."),
    ("Perihepatic free fluid is present.", "Effusion is present around the liver."),
    ("The sulci are prominent.", "The sulci are widened."),
    ("Elongated hyperdensities in the bile duct.", "Elongated hyperdense foci in the bile duct."),
    ("A right thoracostomy tube is in place.", "A right-sided drainage tube is in place."),
])
def test_synonyms_read_alike(reference, candidate):
    a, b = sentence_features(reference), sentence_features(candidate)
    assert a.normality == b.normality and incompatibility_reason(a, b) is None


def test_both_lungs_become_left_and_right():
    out = atomize_sentence("Scattered nodules are seen in both lungs.")
    assert len(out) == 2
    assert "left lung" in out[0].lower() and "right lung" in out[1].lower()


def test_plural_paired_organ_without_side_is_split():
    out = atomize_sentence("The kidneys are normal in size.")
    assert [("left" in s.lower(), "right" in s.lower()) for s in out] == [(True, False), (False, True)]


def test_coordinated_subjects_are_split():
    out = atomize_sentence("The spleen, pancreas and gallbladder are unremarkable.")
    assert len(out) == 3


def test_clauses_with_different_normality_are_split():
    out = atomize_sentence("The heart is normal in size, but there is a small left pleural effusion.")
    normalities = [sentence_features(s).normality for s in out]
    assert normalities == ["normal", "abnormal"]


def test_comparison_and_technique_sentences_are_dropped():
    sentences, notes = atomize("FINDINGS: Axial images were obtained after contrast was administered. "
                               "The liver is normal. Recommend follow-up in 3 months.")
    assert sentences == ["The liver is normal."]
    assert len(notes) == 2


def test_a_finding_said_to_be_absent_is_denied_an_organ_absent_is_not():
    assert sentence_features("Hydronephrosis is absent in the left kidney.").normality == "normal"
    assert sentence_features("The gallbladder is absent.").normality == "abnormal"
    # a blanket denial covers attribute words
    assert sentence_features("The morphology and signal of the spleen show no abnormality."
                             ).normality == "normal"


def test_devices_count_as_abnormal():
    assert sentence_features("A pacemaker is seen in the left chest wall.").normality == "abnormal"


def test_a_denied_normal_word_beside_a_denied_finding_stays_a_denial():
    for text in ("No clear evidence of pneumothorax.", "No distinct fracture line is seen."):
        assert sentence_features(text).normality == "normal", text
    for text in ("The lungs are not clear.", "The vessel is not patent."):
        assert sentence_features(text).normality == "abnormal", text


@pytest.mark.parametrize("text", ["Right-sided hydropneumothorax is present.",
                                  "The inferior vena cava contains a small filling defect.",
                                  "Nasal septum deviation is present.",
                                  "The cortex of the left kidney is thinned.",
                                  "Osseous proliferation of the vertebral bodies is noted."])
def test_findings_the_lexicon_names(text):
    features = sentence_features(text)
    assert features.normality == "abnormal" and features.core, text


def test_polarity_and_normality():
    negated = sentence_features("No pleural effusion is seen on the left.")
    affirmed = sentence_features("A left pleural effusion is present.")
    assert negated.normality == "normal" and affirmed.normality == "abnormal"
    # Negating a normal word makes an abnormal statement.
    assert sentence_features("The trachea is not patent.").normality == "abnormal"
    assert incompatibility_reason(negated, affirmed) == "normal vs abnormal"


def test_laterality_and_direction_conflicts():
    left = sentence_features("A nodule is seen in the left lower lobe.")
    right = sentence_features("A nodule is seen in the right lower lobe.")
    assert incompatibility_reason(left, right) == "left vs right"
    hypo = sentence_features("A hypodense lesion is seen in the liver.")
    hyper = sentence_features("A hyperdense lesion is seen in the liver.")
    assert incompatibility_reason(hypo, hyper) == "opposite directions"
    assert incompatibility_reason(left, sentence_features("A small nodule is noted in the left lower lobe.")) is None


def test_second_predicate_of_one_subject_is_split():
    out = atomize_sentence("The proximal left anterior descending artery contains calcified plaque "
                           "and demonstrates mild luminal narrowing.")
    assert out == ["The proximal left anterior descending artery contains calcified plaque.",
                   "The proximal left anterior descending artery demonstrates mild luminal narrowing."]
    # A negated subject is left alone (the negated-list rule owns it).
    assert len(atomize_sentence("No effusion or thickening is seen.")) == 2


def test_abnormal_statement_and_its_denial_never_pair():
    # The device is asserted on both sides, but one places its tip at T6 and the other denies it.
    placed = sentence_features("The catheter tip is located at the level of T6.")
    denied = sentence_features("The catheter tip does not project at the level of T6.")
    assert placed.normality == denied.normality == "abnormal"
    assert incompatibility_reason(placed, denied) == "asserted vs negated"
    # "not clearly visible" denies what it follows.
    assert sentence_features("The fracture line is not clearly visible.").normality == "normal"
    # Acceptable vs unsatisfactory alignment cannot both hold.
    good = sentence_features("Alignment of the fracture fragments is acceptable.")
    poor = sentence_features("Alignment of the fracture fragments is unsatisfactory.")
    assert incompatibility_reason(good, poor) is not None


def test_unrelated_sites_do_not_pair():
    liver = sentence_features("A cyst is seen in the liver.")
    kidney = sentence_features("A cyst is seen in the kidney.")
    assert incompatibility_reason(liver, kidney) == "unrelated sites"
    # The lower lobe is part of the lung: related, so compatible.
    whole = sentence_features("A nodule is seen in the left lung.")
    part = sentence_features("A nodule is seen in the left lower lobe.")
    assert incompatibility_reason(whole, part) is None


def _score(extractor, reference: str, candidate: str) -> float:
    return score_tags(extractor.read_pair(ReportPair("t", reference, candidate)).tags).score


REFERENCE = ("A 5 mm nodule is seen in the right upper lobe. No pleural effusion. "
             "The heart is normal in size. The liver is normal.")


def test_identical_report_scores_one(radsem_rules):
    # Every sentence pairs with itself, all weights 1, nothing unmatched -> 1.0 per class.
    assert _score(radsem_rules, REFERENCE, REFERENCE) == 1.0


def test_flipped_finding_scores_lower_than_paraphrase(radsem_rules):
    paraphrase = ("In the right upper lobe there is a 5 mm nodule. No pleural effusion is seen. "
                  "Heart size is normal. The liver is unremarkable.")
    negated = ("No nodule is seen in the right upper lobe. No pleural effusion. "
               "The heart is normal in size. The liver is normal.")
    swapped = ("A 5 mm nodule is seen in the left upper lobe. No pleural effusion. "
               "The heart is normal in size. The liver is normal.")
    good = _score(radsem_rules, REFERENCE, paraphrase)
    # The negated and the swapped nodule cannot pair with the reference nodule: the abnormal
    # class has M = 0 -> F1 0, so the score is at most the normal class's 0.1 share.
    assert _score(radsem_rules, REFERENCE, negated) <= 0.1
    assert _score(radsem_rules, REFERENCE, swapped) <= 0.1
    assert good > 0.9


def test_output_passes_the_strict_tag_schema(radsem_rules):
    extraction = radsem_rules.read_pair(ReportPair("t", REFERENCE, "Right upper lobe nodule. Normal heart."))
    data = extraction.tags.to_json()
    strict = tags_from_model_json(json.dumps(data), strict=True)
    assert strict.to_json() == data
    sentences = set(extraction.ref_sentences) | set(extraction.gen_sentences)
    for pair in data["pairs"]:
        assert pair["ref_sentence"] in extraction.ref_sentences
        assert pair["gen_sentence"] in extraction.gen_sentences
    for item in data["unmatched_sentences"]:
        assert item["sentence"] in sentences
    assert RadsemExtraction.from_json(extraction.to_json()).to_json() == extraction.to_json()


def test_model_info_and_signature(radsem_rules):
    info = radsem_rules.model()
    assert info.id == RADSEM_RULES_VERSION and info.demo_grade is False
    fields = radsem_rules.signature_fields()
    assert fields["sim"] == "lexical-dice" and fields["extractor"] == "rules"
    assert fields["rules"] == RADSEM_RULES_VERSION and fields["reader_version"].startswith("reader-")


def test_radsem_reads_the_clinical_readers_statements(radsem_rules):
    from radscope.engine.reader.findings import read_report

    reference = "Small left pleural effusion. No pneumothorax."
    extraction = radsem_rules.read_pair(ReportPair("t", reference, "No pneumothorax."))
    assert extraction.ref_sentences == [f.text for f in read_report(reference).findings]


def test_an_unusable_encoder_is_named_not_hidden(monkeypatch, caplog):
    import radscope.engine.runtimes.encoder_session  # noqa: F401 - bound to the real resolver first
    import radscope.models.artifacts
    from radscope import engine, models
    from radscope.engine.metrics.radsem.rules import build_extractor
    from radscope.models.resolve import ModelNotAvailable

    def absent(*_args, **_kwargs):
        raise ModelNotAvailable("bundled model 'minilm-embedder' is missing at /nowhere")

    monkeypatch.setattr(models.artifacts, "resolve_artifact", absent)
    with caplog.at_level("WARNING"), pytest.raises(RuntimeError) as failure:
        build_extractor(None, similarity="encoder")
    message = str(failure.value)
    assert "model artifact cannot be resolved" in message and "ModelNotAvailable" in message
    assert "/nowhere" in message and message in caplog.text

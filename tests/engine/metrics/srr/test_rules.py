"""SRR labels from rules: a handful of sentences with their leaves and statuses, and the
metric around them (same details shape as the encoder, scored by the unchanged scorer)."""
import pytest

from radscope.engine.context import RuntimeContext
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.registry import production
from radscope.engine.metrics.srr.metric import SrrEncoderExtractor
from radscope.engine.metrics.srr.rule_labels import leaf_rules, sentence_labels

AIR_SPACE = "Air space opacity\u2013multifocal"  # the leaf's name has an en dash


@pytest.mark.parametrize("sentence, labels", [
    ("Small left pleural effusion.", ["Simple pleural effusion (Present)"]),
    ("No pneumothorax or pleural effusion.",
     ["Simple pleural effusion (Absent)", "Simple pneumothorax (Absent)"]),
    ("Possible right lower lobe pneumonia.", ["Pneumonia (Uncertain)"]),
    ("The heart size is normal.", ["Cardiomegaly (Absent)"]),
    ("Healing fracture of the left seventh rib.", ["Acute rib fracture (Present)"]),
    ("Right-sided PICC line terminates in the SVC.", ["PICC line (Present)"]),
    ("Endotracheal tube terminates 4 cm above the carina.", []),  # well placed: no leaf
    ("Endotracheal tube is too low, in the right main bronchus.",
     ["Suboptimal endotracheal tube (Present)"]),
    ("Calcified granuloma in the right upper lobe.", []),  # granuloma is no lung lesion
    ("No acute cardiopulmonary process.", ["No Finding"]),
    ("A 2 cm hypodense nodule in the right lobe of the liver.", []),  # not a lung nodule
    ("The uterine cavity is centrally located.", []),  # no cavitating lung lesion
])
def test_sentence_labels(sentence, labels):
    assert list(sentence_labels(sentence)) == labels


@pytest.mark.parametrize("sentence, labels", [
    # present, uncertain and absent, each as a radiologist would read the sentence
    ("Moderate cardiomegaly.", ["Cardiomegaly (Present)"]),
    ("Cannot exclude a small left pneumothorax.", ["Simple pneumothorax (Uncertain)"]),
    ("Left lower lobe opacity may represent atelectasis or pneumonia.",
     [f"{AIR_SPACE} (Present)", "Atelectasis (Uncertain)",
      "Pneumonia (Uncertain)"]),
    ("There is no evidence of pulmonary edema.", ["Edema (Absent)"]),
    ("No focal consolidation.", [f"{AIR_SPACE} (Absent)"]),  # no consolidation leaf
    ("Mild pulmonary vascular congestion.", ["Pulmonary congestion (Present)"]),
    # cardiac leads are a pacemaker's (v2); monitor leads on the skin are no device in the chest
    ("Leads overlie the right atrium and right ventricle.", ["Pacemaker (Present)"]),
    ("Left-sided cardiac device with leads in the right ventricle.", ["Pacemaker (Present)"]),
    ("Overlying EKG leads.", []),
    ("External cardiac monitor leads project over the chest.", []),
    ("Median sternotomy wires are intact.", []),  # SRR-BERT has no leaf for them
    ("Increased interstitial markings.", []),  # a nonspecific pattern, no fibrosis
    ("Please note that nondisplaced fractures may not be demonstrated.", []),  # a disclaimer
    ("The lateral most screw is fractured.", []),  # hardware, not bone
    ("Minimally displaced fracture of the scaphoid.", []),  # no chest bone: no rib fracture
    ("There is thickening of the fissure.", ["Pleural scarring (Present)"]),  # fissures are pleura
])
def test_more_sentence_labels(sentence, labels):
    assert list(sentence_labels(sentence)) == labels


@pytest.mark.parametrize("left, right, both, label", [
    ("Small left pleural effusion.", "Small right pleural effusion.",
     "Small bilateral pleural effusions.", "Simple pleural effusion (Present)"),
    ("Left upper lobe nodule.", "Right upper lobe nodule.", "Nodules in both upper lobes.",
     "Nodule/Solitary lung nodule (Present)"),
    ("Left basilar atelectasis.", "Right basilar atelectasis.", "Bibasilar atelectasis.",
     "Atelectasis (Present)"),
])
def test_the_leaves_carry_no_side(left, right, both, label):
    # SRR-BERT's leaves name no side: the three sentences get the same label.
    assert [label] == list(sentence_labels(left)) == list(sentence_labels(right)) \
        == list(sentence_labels(both))


def test_srr_labels_and_clear_read_the_same_clauses():
    from radscope.engine.metrics.clear.rules import read_report as clear_read

    text = "Possible left lower lobe pneumonia. No pneumothorax; small right effusion."
    clear = clear_read(text).presence
    assert clear["Pneumonia"] == "unclear" and clear["Pneumothorax"] == "negative"
    assert clear["Pleural Effusion"] == "positive"
    labels = {label for sentence in clear_read(text).sentences
              for label in sentence_labels(sentence)}
    assert labels == {"Pneumonia (Uncertain)", "Simple pneumothorax (Absent)",
                      "Simple pleural effusion (Present)"}


def test_the_lexicon_names_every_finding_leaf():
    rules, _, _ = leaf_rules()
    assert len(rules) == 54  # the 55 leaves less "No Finding"


def test_metric_scores_the_rule_labels_with_the_srr_scorer():
    ctx = RuntimeContext(options={"extractor": "rules"})
    metric = production().get("srr").build(ctx)
    result = metric.score_pair(ReportPair(
        "t", "Small left pleural effusion. Heart size is normal.",
        "Small left pleural effusion. Mild cardiomegaly."))
    d = result.details
    assert d["reference_labels"] == ["Cardiomegaly (Absent)", "Simple pleural effusion (Present)"]
    assert d["candidate_labels"] == ["Cardiomegaly (Present)", "Simple pleural effusion (Present)"]
    assert result.score == pytest.approx(0.5)  # one of two labels shared on each side
    assert d["reader"]["name"] == "rules" and "not the SRR-BERT model" in d["reader"]["label"]
    assert [u["labels"] for u in d["utterances"]["candidate"]] == [
        ["Simple pleural effusion (Present)"], ["Cardiomegaly (Present)"]]


def test_model_options_choose_the_reader():
    rules = RuntimeContext(options={"extractor": "rules"})
    assert type(production().get("srr").build(rules).extractor).__name__ == "SrrRulesExtractor"
    assert type(production().get("crepe").build(rules).extractor).__name__ == "CrepeRulesExtractor"
    # --extractor llm keeps the encoders, as before the reader; naming a model always does.
    llm = RuntimeContext(options={"extractor": "llm"})
    named = RuntimeContext(options={"extractor": "rules", "srr_model": "srr-minilm-demo"})
    for ctx in (llm, named):
        metric = production().get("srr").build(ctx)
        assert isinstance(metric.extractor, SrrEncoderExtractor)
        assert metric.extractor.model_name == "srr-minilm-demo"
    forced = RuntimeContext(options={"extractor": "llm", "crepe_model": "rules"})
    assert type(production().get("crepe").build(forced).extractor).__name__ == "CrepeRulesExtractor"


def test_a_pair_the_chest_labels_say_nothing_about_is_not_applicable():
    metric = production().get("srr").build(RuntimeContext(options={"extractor": "rules"}))
    result = metric.score_pair(ReportPair("t", "Small meningioma along the left frontal convexity.",
                                          "Small meningioma along the right frontal convexity."))
    assert result.score is None and result.error.startswith("not applicable")
    assert result.details["reader"]["name"] == "rules"

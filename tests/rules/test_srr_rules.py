"""SRR labels from rules: a handful of sentences with their leaves and statuses, and the
metric around them (same details shape as the encoder, scored by the unchanged scorer)."""
import pytest

from engine.metrics import registry
from engine.metrics.srr.metric import SrrMetric
from engine.reader.srr_labels import leaf_rules, sentence_labels
from engine.reports import ReportPair


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


def test_the_lexicon_names_every_finding_leaf():
    rules, _, _ = leaf_rules()
    assert len(rules) == 54  # the 55 leaves less "No Finding"


def test_metric_scores_the_rule_labels_with_the_srr_scorer():
    ctx = registry.RuntimeContext(options={"extractor": "rules"})
    metric = registry.get("srr").build(ctx)
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
    rules = registry.RuntimeContext(options={"extractor": "rules"})
    assert type(registry.get("srr").build(rules)).__name__ == "SrrRulesMetric"
    assert type(registry.get("crepe").build(rules)).__name__ == "CrepeRulesMetric"
    # --extractor llm keeps the encoders, as before the reader; naming a model always does.
    llm = registry.RuntimeContext(options={"extractor": "llm"})
    named = registry.RuntimeContext(options={"extractor": "rules", "srr_model": "srr-minilm-demo"})
    for ctx in (llm, named):
        metric = registry.get("srr").build(ctx)
        assert isinstance(metric, SrrMetric) and metric.model_name == "srr-minilm-demo"
    forced = registry.RuntimeContext(options={"extractor": "llm", "crepe_model": "rules"})
    assert type(registry.get("crepe").build(forced)).__name__ == "CrepeRulesMetric"


def test_a_pair_the_chest_labels_say_nothing_about_is_not_applicable():
    metric = registry.get("srr").build(registry.RuntimeContext(options={"extractor": "rules"}))
    result = metric.score_pair(ReportPair("t", "Small meningioma along the left frontal convexity.",
                                          "Small meningioma along the right frontal convexity."))
    assert result.score is None and result.error.startswith("not applicable")
    assert result.details["reader"]["name"] == "rules"

"""CLEAR stage 3 (pure scoring) and its schema/validation layer.

Every expected number is derived by hand in a comment next to the assertion.
"""
from __future__ import annotations

import json

import jsonschema
import pytest
from sklearn.metrics import f1_score

from radscope.engine.metrics.clear.schema import (
    CHANGE,
    CONDITIONS,
    DESCRIPTIVE_LOCATION,
    FIRST_OCCURRENCE,
    NA,
    RECOMMENDATION,
    SEVERITY,
    TOP5,
    ClearPairExtraction,
    ClearReportExtraction,
    attribute_answer_schema,
    attributes_for,
    fast_answer_schema,
    normalise_choice,
    normalise_phrases,
    presence_schema,
    validate_attribute_answer,
    validate_fast_answer,
    validate_presence,
)
from radscope.engine.metrics.clear.score import (
    ClearPairScore,
    best_match_similarity,
    bleu4_similarity,
    clamp_judgement,
    pair_f1,
    rouge_l_similarity,
    score_pair,
)
from tests.reference.clear import ClearCorpusScore, score_corpus, score_presence

# ----------------------------------------------------------------------------- helpers


def labels(default: str = "unclear", **overrides: str) -> dict[str, str]:
    """13 presence labels; keyword names use underscores for spaces."""
    out = {c: default for c in CONDITIONS}
    for key, value in overrides.items():
        name = key.replace("_", " ")
        assert name in out, name
        out[name] = value
    return out


def attrs(condition: str, location=("N/A",), recommendation=("N/A",), first=NA, change=NA,
          severity=NA) -> dict:
    """A complete attribute dict for one condition (choice attributes only where they apply)."""
    full = {FIRST_OCCURRENCE: first, CHANGE: change, SEVERITY: severity,
            DESCRIPTIVE_LOCATION: list(location), RECOMMENDATION: list(recommendation)}
    return {a: full[a] for a in attributes_for(condition)}


def pair(ref_labels, cand_labels, ref_attrs=None, cand_attrs=None, llm=None) -> ClearPairExtraction:
    return ClearPairExtraction(ClearReportExtraction(ref_labels, ref_attrs or {}),
                               ClearReportExtraction(cand_labels, cand_attrs or {}),
                               llm or {})


def presence_only(ref_labels, cand_labels) -> ClearPairScore:
    """Score a pair whose true positives (if any) get all-N/A attributes on both sides."""
    tps = [c for c in CONDITIONS if ref_labels[c] == cand_labels[c] == "positive"]
    filled = {c: attrs(c) for c in tps}
    return score_pair(pair(ref_labels, cand_labels, filled, filled))


# ----------------------------------------------------------------------------- presence


def test_unclear_is_neither_class_at_pair_level():
    ref = labels(Atelectasis="positive")
    # Candidate "unclear": reference positive -> one false negative for positive F1
    # (tp=0, fn=1 -> F1 0). No report has a negative cell -> negative F1 degenerate -> 1.0.
    s = presence_only(ref, labels(Atelectasis="unclear"))
    assert s.pos_f1 == 0.0 and not s.pos_f1_degenerate
    assert s.neg_f1 == 1.0 and s.neg_f1_degenerate
    assert s.score == s.pos_f1
    # Candidate "negative" instead: still a false negative for positive F1, and now also a
    # false positive for negative F1 (tp=0, fp=1 -> 0).
    s = presence_only(ref, labels(Atelectasis="negative"))
    assert s.pos_f1 == 0.0
    assert s.neg_f1 == 0.0 and not s.neg_f1_degenerate


def test_unclear_is_neither_class_over_corpus():
    # Reference positive + candidate unclear: the condition's negative column is empty on both
    # sides -> n/a for negative F1, while positive F1 is 0 (truth [1], pred [0]).
    p = score_presence([labels(Atelectasis="positive")], [labels(Atelectasis="unclear")])
    assert p.positive.per_condition["Atelectasis"] == 0.0
    assert p.negative.per_condition["Atelectasis"] is None
    assert p.negative.micro_f1 is None  # no negative cell anywhere
    # 13 cells, all "not negative" on both sides -> cell accuracy 1.0
    assert p.negative.cell_accuracy == 1.0


def test_pair_with_no_positive_anywhere_is_degenerate():
    s = presence_only(labels("negative"), labels("negative"))
    assert s.pos_f1 == 1.0 and s.pos_f1_degenerate
    # 13 negatives on both sides: tp=13 -> F1 1, not degenerate
    assert s.neg_f1 == 1.0 and not s.neg_f1_degenerate
    # Candidate invents one positive: tp=0, fp=1 -> F1 0, and no longer degenerate
    s = presence_only(labels("negative"), labels("negative", Fracture="positive"))
    assert s.pos_f1 == 0.0 and not s.pos_f1_degenerate


SINGLE_REF = labels(Cardiomegaly="positive", Edema="positive", Pneumothorax="negative")
SINGLE_CAND = labels(Cardiomegaly="positive", Edema="negative", Pneumothorax="negative")


def test_single_pair_corpus_absent_conditions_and_supported_averages():
    c = score_corpus([presence_only(SINGLE_REF, SINGLE_CAND)])
    pos, neg = c.presence.positive, c.presence.negative
    # Positive class: Cardiomegaly truth [1] pred [1] -> 1; Edema truth [1] pred [0] -> 0;
    # the other 11 are never positive on either side -> n/a.
    assert pos.per_condition["Cardiomegaly"] == 1.0
    assert pos.per_condition["Edema"] == 0.0
    assert [k for k, v in pos.per_condition.items() if v is None] == [
        k for k in CONDITIONS if k not in ("Cardiomegaly", "Edema")]
    # @13 counts the 11 n/a as 0 (reference behaviour): (1 + 0) / 13; supported: (1 + 0) / 2
    assert pos.f1_at13 == pytest.approx(1 / 13)
    assert pos.f1_at13_supported == pytest.approx(0.5)
    # code top-5 positive = Cardiomegaly, Edema, Consolidation, Atelectasis, Pleural Effusion:
    # (1 + 0 + 0 + 0 + 0) / 5 = 0.2; supported among them: Cardiomegaly, Edema -> 0.5
    assert pos.f1_at5 == pytest.approx(0.2)
    assert pos.f1_at5_supported == pytest.approx(0.5)
    # Negative class: Pneumothorax truth [1] pred [1] -> 1; Edema truth [0] pred [1] -> 0.
    assert neg.per_condition["Pneumothorax"] == 1.0
    assert neg.per_condition["Edema"] == 0.0
    assert neg.per_condition["Fracture"] is None
    assert neg.f1_at13 == pytest.approx(1 / 13)
    assert neg.f1_at13_supported == pytest.approx(0.5)
    # code top-5 negative = Edema, Consolidation, Pneumonia, Pneumothorax, Pleural Effusion:
    # (0 + 0 + 0 + 1 + 0) / 5 = 0.2; supported: Edema, Pneumothorax -> 0.5
    assert neg.f1_at5 == pytest.approx(0.2)
    assert neg.f1_at5_supported == pytest.approx(0.5)
    # Positive cells: truth {Card, Edema}, pred {Card}: tp1 fn1 -> micro F1 2/3; one of the 13
    # cells differs -> cell accuracy 12/13. Negative: truth {Ptx}, pred {Ptx, Edema}: tp1 fp1.
    assert pos.micro_f1 == pytest.approx(2 / 3)
    assert pos.cell_accuracy == pytest.approx(12 / 13)
    assert neg.micro_f1 == pytest.approx(2 / 3)
    assert neg.cell_accuracy == pytest.approx(12 / 13)
    # One pair: the corpus mean pair score is that pair's positive F1 (tp1 fn1 -> 2/3).
    assert c.n_pairs == 1 and c.mean_pair_score == pytest.approx(2 / 3)
    assert c.top5_set == "code"


def test_both_top5_sets():
    assert TOP5["code"]["positive"] != TOP5["code"]["negative"]
    assert TOP5["paper"]["positive"] == TOP5["paper"]["negative"]
    p = score_presence([SINGLE_REF], [SINGLE_CAND], top5="paper")
    assert p.top5_set == "paper"
    assert p.positive.top5 == ["Pneumothorax", "Pneumonia", "Edema", "Pleural Effusion",
                               "Consolidation"]
    # paper set, positive: only Edema is supported (F1 0); the other four count 0 -> 0 / 5
    assert p.positive.f1_at5 == 0.0
    assert p.positive.f1_at5_supported == 0.0
    # paper set, negative: Pneumothorax 1, Edema 0, the rest 0 -> 1/5; supported -> 1/2
    assert p.negative.f1_at5 == pytest.approx(0.2)
    assert p.negative.f1_at5_supported == pytest.approx(0.5)
    # @13 does not depend on the set
    assert p.positive.f1_at13 == pytest.approx(1 / 13)
    # output names the set in JSON
    assert p.to_json()["top5_set"] == "paper"
    with pytest.raises(ValueError, match="top-5"):
        score_presence([SINGLE_REF], [SINGLE_CAND], top5="mine")


def test_true_micro_f1_differs_from_cell_accuracy():
    # Pair A: reference positive {Atelectasis, Edema}, candidate {Atelectasis}.
    # Pair B: reference no positive, candidate {Fracture}.
    ref = [labels("negative", Atelectasis="positive", Edema="positive"), labels("negative")]
    cand = [labels("negative", Atelectasis="positive"), labels("negative", Fracture="positive")]
    p = score_presence(ref, cand).positive
    # 26 cells: tp=1 (A/Atelectasis), fn=1 (A/Edema), fp=1 (B/Fracture)
    # true micro-F1 = 2*1 / (2*1 + 1 + 1) = 0.5; cell accuracy = 24/26 = 12/13
    assert p.micro_f1 == pytest.approx(0.5)
    assert p.cell_accuracy == pytest.approx(12 / 13)
    # the reference code's "micro f1" (sklearn average='micro' on flattened 0/1) is the accuracy
    flat_t = [int(r[c] == "positive") for r in ref for c in CONDITIONS]
    flat_p = [int(r[c] == "positive") for r in cand for c in CONDITIONS]
    assert f1_score(flat_t, flat_p, average="micro") == pytest.approx(p.cell_accuracy)
    # per condition: Atelectasis 1, Edema 0 (missed), Fracture 0 (invented); @13 = 1/13,
    # supported mean over those three = 1/3
    assert p.per_condition["Fracture"] == 0.0
    assert p.f1_at13 == pytest.approx(1 / 13)
    assert p.f1_at13_supported == pytest.approx(1 / 3)
    # corpus from pair scores: pair A F1 = 2/(2+1) = 2/3, pair B F1 = 0 -> mean 1/3
    c = score_corpus([presence_only(r, k) for r, k in zip(ref, cand)])
    assert c.mean_pair_score == pytest.approx(1 / 3)
    assert c.n_degenerate_pairs == 0
    assert c.n_pairs_with_rows == 1  # only pair A has a true positive


def test_presence_inputs_are_checked():
    with pytest.raises(ValueError, match="2 reference label sets but 1"):
        score_presence([SINGLE_REF, SINGLE_REF], [SINGLE_CAND])
    with pytest.raises(ValueError, match="no pairs"):
        score_corpus([])


# ----------------------------------------------------------------------------- choice attributes


def two_pair_choice_corpus() -> list[ClearPairScore]:
    # Pair 1 true positives: Atelectasis, Edema, Support Devices (no choice attributes).
    ref1 = labels("negative", Atelectasis="positive", Edema="positive", Support_Devices="positive")
    p1 = pair(ref1, ref1,
              {"Atelectasis": attrs("Atelectasis", first="current", change="stable",
                                    severity="mild"),
               "Edema": attrs("Edema", first="current", change="improving", severity="moderate"),
               "Support Devices": attrs("Support Devices")},
              {"Atelectasis": attrs("Atelectasis", first="current", change="worsening",
                                    severity="mild"),
               "Edema": attrs("Edema", first="current", change="improving", severity="severe"),
               "Support Devices": attrs("Support Devices")})
    # Pair 2 true positive: Atelectasis.
    ref2 = labels("negative", Atelectasis="positive")
    p2 = pair(ref2, ref2,
              {"Atelectasis": attrs("Atelectasis", first="previous", change=NA, severity=NA)},
              {"Atelectasis": attrs("Atelectasis", first="previous", change="stable",
                                    severity=NA)})
    return [score_pair(p1), score_pair(p2)]


def test_choice_attribute_averaging():
    pairs = two_pair_choice_corpus()
    c = score_corpus(pairs)
    sev = c.choice[SEVERITY]
    # severity rows: (p1, Atelectasis, mild=mild -> 1), (p1, Edema, moderate/severe -> 0),
    #                (p2, Atelectasis, N/A=N/A -> 1)
    # micro 2/3; per condition Atelectasis 2/2=1, Edema 0 -> 0.5; per pair p1 1/2, p2 1 -> 0.75
    assert sev.n_rows == 3
    assert sev.micro == pytest.approx(2 / 3)
    assert sev.condition_averaged == pytest.approx(0.5)
    assert sev.report_averaged == pytest.approx(0.75)
    assert sev.per_condition == {"Atelectasis": 1.0, "Edema": 0.0}
    chg = c.choice[CHANGE]
    # change rows: (p1, Atel, stable/worsening -> 0), (p1, Edema, improving -> 1),
    #              (p2, Atel, N/A/stable -> 0)
    # micro 1/3; per condition Atel 0, Edema 1 -> 0.5; per pair p1 0.5, p2 0 -> 0.25
    assert chg.micro == pytest.approx(1 / 3)
    assert chg.condition_averaged == pytest.approx(0.5)
    assert chg.report_averaged == pytest.approx(0.25)
    # first occurrence agrees on every row
    assert c.choice[FIRST_OCCURRENCE].micro == 1.0
    # per-pair agreement: pair 1 severity 1/2, pair 2 severity 1/1
    assert pairs[0].choice_agreement[SEVERITY] == pytest.approx(0.5)
    assert pairs[1].choice_agreement[SEVERITY] == 1.0
    # Support Devices contributes list rows only (2 list attributes), never choice rows
    assert {r.condition for r in pairs[0].choice_rows} == {"Atelectasis", "Edema"}
    assert len([r for r in pairs[0].list_rows if r.condition == "Support Devices"]) == 2


def test_pairs_without_true_positives_have_no_attribute_rows():
    s = presence_only(labels("negative"), labels("negative", Edema="positive"))
    assert s.true_positives == [] and s.choice_rows == [] and s.list_rows == []
    assert s.choice_agreement[SEVERITY] is None
    c = score_corpus([s])
    assert c.choice[SEVERITY].n_rows == 0 and c.choice[SEVERITY].micro is None
    assert c.lists[DESCRIPTIVE_LOCATION].rouge_l.report_averaged is None


def test_table_marks_mismatches():
    s = two_pair_choice_corpus()[0]
    rows = {r.condition: r.cells for r in s.table}
    assert len(s.table) == 13 and list(rows) == list(CONDITIONS)
    assert rows["Edema"][SEVERITY].reference == "moderate"
    assert rows["Edema"][SEVERITY].candidate == "severe"
    assert rows["Edema"][SEVERITY].match is False
    assert rows["Edema"]["presence"].match is True
    # Support Devices has no severity: nothing compared
    assert rows["Support Devices"][SEVERITY].match is None
    # a non-true-positive condition: presence compared, attributes not
    assert rows["Fracture"]["presence"].reference == "negative"
    assert rows["Fracture"][DESCRIPTIVE_LOCATION].match is None


def test_table_presence_mismatch_and_list_match():
    ref = labels("negative", Pleural_Effusion="positive")
    cand = labels("unclear", Pleural_Effusion="positive")
    s = score_pair(pair(ref, cand,
                        {"Pleural Effusion": attrs("Pleural Effusion",
                                                   location=["Left pleural effusion.",
                                                             "small"])},
                        {"Pleural Effusion": attrs("Pleural Effusion",
                                                   location=["small", "left pleural effusion"])}))
    rows = {r.condition: r.cells for r in s.table}
    assert rows["Fracture"]["presence"].match is False  # negative vs unclear
    # same phrases up to case, punctuation and order -> a match
    assert rows["Pleural Effusion"][DESCRIPTIVE_LOCATION].match is True


# ----------------------------------------------------------------------------- list attributes


def test_best_match_similarity():
    same = ["small left pleural effusion"]
    # identical 4-word phrases: every n-gram precision is 1 and there is no brevity penalty
    assert best_match_similarity(same, same, bleu4_similarity) == pytest.approx(1.0)
    assert best_match_similarity(same, same, rouge_l_similarity) == pytest.approx(1.0)
    # extra candidate phrases cost nothing; case and punctuation are ignored
    extra = ["tension pneumothorax on the right", "Small left pleural effusion."]
    assert best_match_similarity(same, extra, bleu4_similarity) == pytest.approx(1.0)
    # a reference phrase with no counterpart scores 0 (no shared word -> BLEU 0, LCS 0):
    # mean of (1, 0) = 0.5
    ref = ["small left pleural effusion", "chest tube in place"]
    assert best_match_similarity(ref, same, bleu4_similarity) == pytest.approx(0.5)
    assert best_match_similarity(ref, same, rouge_l_similarity) == pytest.approx(0.5)
    # ROUGE-L partial: "left lower lobe atelectasis" vs "small left pleural effusion" share
    # the LCS "left": P = R = 1/4 -> F 0.25; mean with the exact match = (0.25 + 1) / 2
    ref = ["left lower lobe atelectasis", "small left pleural effusion"]
    assert best_match_similarity(ref, same, rouge_l_similarity) == pytest.approx(0.625)
    # a missing candidate -> 0; empty candidate entries are skipped; empty reference entry -> 0
    assert best_match_similarity(same, [], rouge_l_similarity) == 0.0
    assert best_match_similarity(same, ["", "  "], rouge_l_similarity) == 0.0
    assert best_match_similarity(["", "small left pleural effusion"], same,
                                 rouge_l_similarity) == pytest.approx(0.5)


def test_clamp_judgement():
    assert clamp_judgement(1.4) == 1.0
    assert clamp_judgement(-0.2) == 0.0
    assert clamp_judgement(0.3) == 0.3
    assert clamp_judgement(None) is None
    assert clamp_judgement(float("nan")) is None


def two_pair_list_corpus() -> list[ClearPairScore]:
    # Pair 1: Pleural Effusion location identical (row 1.0), Support Devices location with no
    # shared word (row 0.0). LLM: 1.4 -> clamped 1.0, and an unparsable answer.
    ref1 = labels("negative", Pleural_Effusion="positive", Support_Devices="positive")
    p1 = pair(ref1, ref1,
              {"Pleural Effusion": attrs("Pleural Effusion",
                                         location=["small left pleural effusion"]),
               "Support Devices": attrs("Support Devices",
                                        location=["endotracheal tube above carina"])},
              {"Pleural Effusion": attrs("Pleural Effusion",
                                         location=["small left pleural effusion"]),
               "Support Devices": attrs("Support Devices",
                                        location=["right jugular line"])},
              llm={"Pleural Effusion": {DESCRIPTIVE_LOCATION: 1.4},
                   "Support Devices": {DESCRIPTIVE_LOCATION: None}})
    # Pair 2: Pleural Effusion location, one of two reference phrases found (row 0.5); LLM 0.3.
    ref2 = labels("negative", Pleural_Effusion="positive")
    p2 = pair(ref2, ref2,
              {"Pleural Effusion": attrs("Pleural Effusion",
                                         location=["small left pleural effusion",
                                                   "chest tube in place"])},
              {"Pleural Effusion": attrs("Pleural Effusion",
                                         location=["small left pleural effusion"])},
              llm={"Pleural Effusion": {DESCRIPTIVE_LOCATION: 0.3}})
    return [score_pair(p1), score_pair(p2)]


def test_list_attribute_aggregation():
    c = score_corpus(two_pair_list_corpus())
    loc = c.lists[DESCRIPTIVE_LOCATION]
    # rows: (p1, PE, 1), (p1, SD, 0), (p2, PE, 0.5), for both BLEU-4 and ROUGE-L
    # micro = 1.5/3 = 0.5; per condition PE (1 + 0.5)/2 = 0.75, SD 0 -> 0.375;
    # per pair p1 (1 + 0)/2 = 0.5, p2 0.5 -> 0.5
    for sim in (loc.bleu4, loc.rouge_l):
        assert sim.n_rows == 3
        assert sim.micro == pytest.approx(0.5)
        assert sim.condition_averaged == pytest.approx(0.375)
        assert sim.report_averaged == pytest.approx(0.5)
    # LLM: parsed rows (p1, PE, 1.0 after clamping), (p2, PE, 0.3); SD unparsable, counted
    # micro 0.65, condition (PE only) 0.65, report p1 1.0, p2 0.3 -> 0.65
    assert loc.llm.n_rows == 2 and loc.llm_unparsable == 1
    assert loc.llm.micro == pytest.approx(0.65)
    assert loc.llm.condition_averaged == pytest.approx(0.65)
    assert loc.llm.report_averaged == pytest.approx(0.65)
    # recommendation was never judged: no LLM value, nothing counted as unparsable
    rec = c.lists[RECOMMENDATION]
    assert rec.n_rows == 3 and rec.llm.micro is None and rec.llm_unparsable == 0
    # N/A vs N/A recommendations: identical one-token strings -> ROUGE-L 1 on every row
    assert rec.rouge_l.micro == pytest.approx(1.0)


# ----------------------------------------------------------------------------- JSON round trip


def test_json_round_trip():
    pairs = two_pair_choice_corpus() + two_pair_list_corpus()
    for s in pairs:
        back = ClearPairScore.from_json(json.loads(json.dumps(s.to_json())))
        assert back == s
    corpus = score_corpus(pairs, top5="paper")
    data = json.loads(json.dumps(corpus.to_json()))
    assert data["presence"]["top5_set"] == "paper"
    assert "pos_f1@13" in data["presence"] and "neg_cell_accuracy" in data["presence"]
    assert ClearCorpusScore.from_json(data) == corpus
    # corpus aggregates recomputed from stored pair results equal the direct ones
    stored = [ClearPairScore.from_json(json.loads(json.dumps(s.to_json()))) for s in pairs]
    assert score_corpus(stored, top5="paper") == corpus


def test_extraction_json_round_trip():
    ref = labels("negative", Edema="positive")
    e = pair(ref, ref, {"Edema": attrs("Edema", severity="mild", location=["bilateral"])},
             {"Edema": attrs("Edema", severity="moderate")},
             llm={"Edema": {DESCRIPTIVE_LOCATION: 0.5, RECOMMENDATION: None}})
    back = ClearPairExtraction.from_json(json.loads(json.dumps(e.to_json())))
    assert back == e
    assert back.true_positives() == ["Edema"]


# ---------------------------------------------------------------------------- schema, validation


def test_validate_presence_errors_name_the_problem():
    good = labels("negative")
    with pytest.raises(ValueError, match="missing 'Edema'"):
        validate_presence({k: v for k, v in good.items() if k != "Edema"})
    with pytest.raises(ValueError, match="unexpected 'No Finding'"):
        validate_presence({**good, "No Finding": "positive"})
    with pytest.raises(ValueError, match=r"'Fracture' is 'maybe'"):
        validate_presence({**good, "Fracture": "maybe"})
    with pytest.raises(ValueError, match="JSON object"):
        validate_presence(["positive"] * 13)
    # case and white space are forgiven; NA spellings mean unclear (as in the reference code)
    out = validate_presence({**good, "Edema": " Positive", "Fracture": "NaN"})
    assert out["Edema"] == "positive" and out["Fracture"] == "unclear"


def test_attribute_normalisers():
    assert normalise_choice(SEVERITY, "Moderate") == "moderate"
    assert normalise_choice(SEVERITY, "nan") == NA
    assert normalise_choice(CHANGE, ["stable"]) == "stable"
    with pytest.raises(ValueError, match="'unchanged'"):
        normalise_choice(CHANGE, "unchanged")
    assert normalise_phrases(["NaN"]) == [NA]
    assert normalise_phrases([]) == [NA]
    assert normalise_phrases(["n/a", " left base "]) == ["left base"]
    assert normalise_phrases("left base") == ["left base"]
    with pytest.raises(ValueError, match="non-string item 3"):
        normalise_phrases(["left", 3], DESCRIPTIVE_LOCATION, "Edema")


def test_attribute_validation_errors():
    with pytest.raises(ValueError, match="'severity' does not apply to 'Support Devices'"):
        validate_attribute_answer("Support Devices", SEVERITY, {"answer": "mild"})
    with pytest.raises(ValueError, match="missing 'answer'"):
        validate_attribute_answer("Edema", SEVERITY, {"value": "mild"})
    assert validate_attribute_answer("Edema", SEVERITY, {"answer": "Mild"}) == "mild"
    with pytest.raises(ValueError, match="unknown condition 'Lung'"):
        validate_attribute_answer("Lung", SEVERITY, {"answer": "mild"})
    # fast mode: every attribute of every requested condition
    answer = {"Edema": attrs("Edema"), "Support Devices": attrs("Support Devices")}
    assert validate_fast_answer(answer, ["Edema", "Support Devices"])["Edema"][SEVERITY] == NA
    del answer["Edema"][CHANGE]
    with pytest.raises(ValueError, match="attributes of 'Edema': missing 'change'"):
        validate_fast_answer(answer, ["Edema", "Support Devices"])
    with pytest.raises(ValueError, match="unexpected 'Support Devices'"):
        validate_fast_answer({"Support Devices": attrs("Support Devices")}, [])


def test_extraction_records_reject_bad_data():
    ref = labels("negative", Edema="positive")
    with pytest.raises(ValueError, match="'Atelectasis', which this report labels 'negative'"):
        ClearReportExtraction(ref, {"Atelectasis": attrs("Atelectasis")})
    report = ClearReportExtraction(ref, {"Edema": attrs("Edema")})
    with pytest.raises(ValueError, match="choice attribute 'severity'"):
        ClearPairExtraction(report, report, {"Edema": {SEVERITY: 0.5}})
    with pytest.raises(ValueError, match="number or null"):
        ClearPairExtraction(report, report, {"Edema": {RECOMMENDATION: "high"}})
    # a true positive whose attributes are incomplete cannot be scored
    partial = ClearReportExtraction(ref, {"Edema": {SEVERITY: "mild"}})
    with pytest.raises(ValueError, match="candidate report lacks .*'Edema'"):
        score_pair(ClearPairExtraction(report, partial))


ALLOWED_SCHEMA_KEYWORDS = {"type", "enum", "properties", "required", "additionalProperties",
                           "items", "minItems"}


def _keywords(schema: dict) -> set[str]:
    """Schema keywords used anywhere (property names under "properties" are not keywords)."""
    found = set(schema)
    for name, sub in schema.get("properties", {}).items():
        found |= _keywords(sub)
    if isinstance(schema.get("items"), dict):
        found |= _keywords(schema["items"])
    return found


def test_schemas_accept_good_and_reject_bad_answers():
    schemas = [presence_schema(), fast_answer_schema(list(CONDITIONS))]
    schemas += [attribute_answer_schema(a) for a in (SEVERITY, DESCRIPTIVE_LOCATION)]
    for s in schemas:
        jsonschema.Draft202012Validator.check_schema(s)
        assert _keywords(s) <= ALLOWED_SCHEMA_KEYWORDS
    jsonschema.validate(labels("negative"), presence_schema())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(labels("negative", Edema="maybe"), presence_schema())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({k: v for k, v in labels().items() if k != "Edema"},
                            presence_schema())
    fast = fast_answer_schema(["Edema", "Support Devices"])
    good = {"Edema": attrs("Edema", location=["bilateral perihilar"]),
            "Support Devices": attrs("Support Devices")}
    jsonschema.validate(good, fast)
    with pytest.raises(jsonschema.ValidationError):  # severity is not asked for devices
        jsonschema.validate({**good, "Support Devices": {**good["Support Devices"],
                                                         SEVERITY: NA}}, fast)
    with pytest.raises(jsonschema.ValidationError):  # a list needs at least one phrase
        jsonschema.validate({"answer": []}, attribute_answer_schema(RECOMMENDATION))
    assert attribute_answer_schema(SEVERITY)["properties"]["answer"]["enum"] == [
        "mild", "moderate", "severe", "mixed", NA]


def test_pair_f1_equals_sklearn_on_random_cells():
    # The numpy F1 must give sklearn's exact float (zero_division=1.0) on any cells, including
    # the degenerate all-empty case and rows with few cells set.
    import numpy as np

    rng = np.random.default_rng(0)
    for density in (0.0, 0.05, 0.2, 0.5, 0.9):
        for _ in range(200):
            ref = rng.random(13) < density
            cand = rng.random(13) < density
            f1, degenerate = pair_f1(list(ref), list(cand))
            assert f1 == float(f1_score(ref.astype(int), cand.astype(int), zero_division=1.0))
            assert degenerate == (not ref.any() and not cand.any())
    with pytest.raises(ValueError, match="shape"):
        pair_f1([True] * 13, [True] * 12)


def test_corpus_presence_f1s_equal_sklearns_on_random_labels():
    # Per-condition F1, micro-F1 and cell accuracy are computed in numpy; they must be the
    # floats sklearn gives (zero_division=0), including conditions no report mentions.
    import numpy as np
    from sklearn.metrics import accuracy_score

    rng = np.random.default_rng(1)
    classes = ["positive", "negative", "unclear"]
    for n, weights in ((1, None), (7, [0.1, 0.2, 0.7]), (60, None), (60, [0.02, 0.08, 0.9])):
        ref = [dict(zip(CONDITIONS, rng.choice(classes, 13, p=weights))) for _ in range(n)]
        cand = [dict(zip(CONDITIONS, rng.choice(classes, 13, p=weights))) for _ in range(n)]
        scores = score_presence(ref, cand)
        for label, got in (("positive", scores.positive), ("negative", scores.negative)):
            truth = np.array([[r[c] == label for c in CONDITIONS] for r in ref]).astype(int)
            pred = np.array([[r[c] == label for c in CONDITIONS] for r in cand]).astype(int)
            f1s = f1_score(truth, pred, average=None, zero_division=0)
            supported = truth.any(axis=0) | pred.any(axis=0)
            assert got.per_condition == {c: (float(f1s[i]) if supported[i] else None)
                                         for i, c in enumerate(CONDITIONS)}
            assert got.f1_at13 == float(np.mean(f1s))
            expected_micro = (float(f1_score(truth.ravel(), pred.ravel(), zero_division=0))
                              if supported.any() else None)
            assert got.micro_f1 == expected_micro
            assert got.cell_accuracy == float(accuracy_score(truth.ravel(), pred.ravel()))

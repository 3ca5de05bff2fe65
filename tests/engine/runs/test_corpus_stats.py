"""Typed per-pair statistics: figures equal the corpus aggregates the metrics reported before
(recorded from the old ``Metric.corpus`` on rules-reader results of the example pairs), stored
results are validated, intervals behave, and ``compare_systems`` gives verdicts with the
signature and demo-grade checks."""
from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from radscope.engine.metrics.clear.stats import ClearStats
from radscope.engine.metrics.framework.registry import production
from radscope.engine.metrics.framework.signature import parse_signature
from radscope.engine.metrics.framework.statistics_by_metric import statistics_for
from radscope.engine.runs.compare import LEFT_OUT_DEMO, compare_systems
from radscope.engine.runs.summary import corpus_block
from radscope.engine.statistics import record_percentile as cs

RECORDED = json.loads((Path(__file__).parents[2] / "fixtures" / "corpus_stats" / "recorded.json")
                      .read_text(encoding="utf-8"))


def _ok(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in results if r.get("error") is None and r.get("score") is not None]


def _same(old: Any, new: Any, path: str = "") -> None:
    """Equal, floats to 12 significant digits (summation order may move the last bit)."""
    if isinstance(old, dict):
        assert isinstance(new, dict) and set(old) == set(new), path
        for key in old:
            _same(old[key], new[key], f"{path}/{key}")
    elif isinstance(old, float) and isinstance(new, float):
        assert math.isclose(old, new, rel_tol=1e-12, abs_tol=1e-15), (path, old, new)
    else:
        assert old == new, (path, old, new)


@pytest.mark.parametrize("metric", sorted(RECORDED))
def test_figures_equal_the_old_corpus_aggregates(metric):
    recorded = RECORDED[metric]
    spec = statistics_for(metric)
    table = cs.RecordTable(spec.record, [spec.from_result(r, pair=str(i))
                                         for i, r in enumerate(_ok(recorded["results"]))])
    assert len(table) > 20
    block = corpus_block(spec, table, parse_signature(recorded["signature"]), n_resamples=200)
    _same(recorded["corpus"], block["corpus"])
    assert block["headline"], "every model metric names its headline figures"


def test_headline_figures_are_bit_identical_to_the_old_ones():
    clear = RECORDED["clear"]
    stats = [ClearStats.from_result(r) for r in _ok(clear["results"])]
    from radscope.engine.metrics.clear.stats import aggregate

    figures = aggregate(stats, parse_signature(clear["signature"]))
    assert figures["presence.pos_f1@13"] == clear["corpus"]["presence"]["pos_f1@13"]
    assert figures["presence.pos_f1@5"] == clear["corpus"]["presence"]["pos_f1@5"]
    radsem = RECORDED["radsem"]
    spec = statistics_for("radsem")
    figures = cs.aggregate(spec, [spec.from_result(r) for r in _ok(radsem["results"])], {})
    assert figures["abnormal.mean_f1"] == radsem["corpus"]["abnormal"]["mean_f1"]
    assert figures["mean"] == radsem["corpus"]["mean"]
    srr = RECORDED["srr"]
    from radscope.engine.metrics.srr.stats import aggregate as srr_aggregate

    spec = statistics_for("srr")
    figures = srr_aggregate([spec.from_result(r) for r in _ok(srr["results"])],
                            parse_signature(srr["signature"]))
    for level in ("leaf", "upper"):
        for average in ("micro", "macro"):
            for key in ("precision", "recall", "f1"):
                assert figures[f"{level}.{average}.{key}"] == srr["corpus"][level][average][key]


def test_record_table_round_trips_and_stays_small():
    spec = statistics_for("clear")
    records = [spec.from_result(r) for r in _ok(RECORDED["clear"]["results"])]
    table = cs.RecordTable(spec.record, records)
    # repr: NaN (an LLM judgement never asked for) is not equal to itself
    assert [repr(r) for r in table] == [repr(r) for r in records]
    assert repr(table[-1]) == repr(records[-1])
    assert table.nbytes() / len(table) < 200


def test_a_result_that_does_not_fit_names_metric_pair_and_field():
    good = _ok(RECORDED["clear"]["results"])[0]
    broken = {k: v for k, v in good.items() if k != "candidate_presence"}
    with pytest.raises(cs.StatsError, match=r"clear: pair 7: .*'candidate_presence'"):
        ClearStats.from_result(broken, pair="7")
    radsem = dict(_ok(RECORDED["radsem"]["results"])[0])
    radsem["abnormal"] = {**radsem["abnormal"], "rule": "guess"}
    with pytest.raises(cs.StatsError, match=r"radsem: pair x: field 'abnormal.rule'"):
        statistics_for("radsem").from_result(radsem, pair="x")
    crepe = {"score": 1.0, "counts": {"a": 1}, "total": 1.0}
    with pytest.raises(cs.StatsError, match=r"crepe: pair 3: .*'counts\."):
        statistics_for("crepe").from_result(crepe, pair="3")


def test_an_older_statistics_version_is_refused():
    good = dict(_ok(RECORDED["clear"]["results"])[0], stats_version=ClearStats.STATS_VERSION + 1)
    with pytest.raises(cs.StatsError, match="statistics version"):
        ClearStats.from_result(good, pair="1")


def test_summary_names_a_misfit_instead_of_partial_figures():
    from radscope.engine.context import RuntimeContext
    from radscope.engine.metrics.framework.registry import production
    from radscope.engine.runs.summary import SummaryBuilder

    metric = production().get("crepe").build(RuntimeContext(options={"extractor": "rules", "crepe_model": "rules"}))
    builder = SummaryBuilder([metric])
    builder.add_row({"crepe": {"score": 1.0, "error": None, "counts": {}, "total": 1.0}}, pair_id="p1")
    entry = builder.summary(Counter())["metrics"]["crepe"]
    assert "crepe: pair p1" in entry["corpus"]["error"] and entry["corpus_figures"] == {}
    assert entry["mean"] == 1.0  # the mean of scores is still a valid number


def _score_rows(metric: str, scores: list[float], **extra: Any) -> list[dict[str, Any]]:
    return [{"id": str(i), "metrics": {metric: {"score": s, "error": None, **extra}}}
            for i, s in enumerate(scores)]


def test_intervals_contain_the_value_and_shrink_with_n():
    spec = statistics_for("crepe")
    rng = np.random.default_rng(1)
    widths = []
    for n in (50, 800):
        records = [spec.record(tuple(float(x) for x in rng.poisson(1.0, 6)), 0.0) for _ in range(n)]
        figures = cs.figure_intervals(spec, records, {}, n_resamples=400)
        for f in figures.values():
            if f["ci_low"] is not None:
                assert f["ci_low"] <= f["value"] <= f["ci_high"]
        key = next(iter(k for k in figures if k.startswith("mean_counts.")))
        widths.append(figures[key]["ci_high"] - figures[key]["ci_low"])
    assert widths[1] < widths[0] / 2  # ~ 1 / sqrt(16) = 1/4 expected


def _clear_rows(results: list[dict[str, Any]], signature: str, **extra: Any) -> list[dict[str, Any]]:
    return [{"id": str(i), "metrics": {"clear": {**r, "signature": signature, **extra}}}
            for i, r in enumerate(results)]


def test_compare_systems_gives_figure_verdicts_and_checks_signatures():
    clear = RECORDED["clear"]
    good = _ok(clear["results"])
    perfect = [{**r, "candidate_presence": r["reference_presence"], "score": 1.0,
                "choice_rows": [{**c, "candidate": c["reference"]} for c in _tp_rows(r, "choice")],
                "list_rows": _tp_rows(r, "list")} for r in good]
    rows_a = _clear_rows(good, clear["signature"])
    rows_b = _clear_rows(perfect, clear["signature"])
    result = compare_systems(rows_a, rows_b, ["clear"], figure_resamples=300)["clear"]
    assert result["same_setup"] is True
    f13 = result["figures"]["presence.pos_f1@13"]
    assert f13["diff"] > 0 and f13["ci_low"] > 0 and f13["p_value"] < 0.05
    assert f13["verdict"] == "B better (p < 0.05)" and result["headline"][0] == "presence.pos_f1@13"
    json.dumps(result, allow_nan=False)  # the app writes it into the summary download
    other = clear["signature"].replace("top5:code", "top5:paper")
    mixed = compare_systems(rows_a, _clear_rows(perfect, other), ["clear"], figure_resamples=50)["clear"]
    assert mixed["same_setup"] is False and mixed["signature_differences"] == {"top5": ("code", "paper")}
    assert mixed["verdict"].startswith("no verdict: set-ups differ (top5)")


def _tp_rows(result: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    """The rows a perfect candidate (same labels as the reference) has: every reference
    positive is a true positive (attributes copied from the recorded rows where present)."""
    from radscope.engine.metrics.clear.schema import CHOICE_ATTRIBUTES, CONDITION_ATTRIBUTES, LIST_ATTRIBUTES

    positives = [c for c, label in result["reference_presence"].items() if label == "positive"]
    have = {(r["condition"], r["attribute"]): r for r in result[f"{kind}_rows"]}
    names = CHOICE_ATTRIBUTES if kind == "choice" else LIST_ATTRIBUTES
    out = []
    for c in positives:
        for a in CONDITION_ATTRIBUTES[c]:
            if a in names:
                out.append(have.get((c, a)) or (
                    {"condition": c, "attribute": a, "reference": "N/A", "candidate": "N/A"}
                    if kind == "choice" else
                    {"condition": c, "attribute": a, "reference": [], "candidate": [], "bleu4": 1.0,
                     "rouge_l": 1.0, "llm": None, "llm_status": "absent"}))
    return out


def test_demo_grade_metrics_are_left_out_unless_asked():
    rows_a = _score_rows("bleu", [0.1 * i for i in range(10)], demo_grade=True)
    rows_b = _score_rows("bleu", [0.1 * i + 0.3 for i in range(10)], demo_grade=True)
    result = compare_systems(rows_a, rows_b, ["bleu"])["bleu"]
    assert result["verdict"] == LEFT_OUT_DEMO and result["figures"] == {}
    assert result["paired"]["mean_diff"] == pytest.approx(0.3)  # the numbers stay visible
    asked = compare_systems(rows_a, rows_b, ["bleu"], include_demo=True)["bleu"]
    assert asked["verdict"] == "B better (p < 0.05)"
    assert asked["figures"] == {}  # the mean is the first row's, with its one p-value


def test_a_new_statistics_version_changes_the_signature(monkeypatch):
    """Bumping a record's STATS_VERSION (and, as the check below demands, its scoring's
    ``stats_version``) makes stored results of the old one stale: the signature changes
    (resumed runs score the pairs again) and old payloads are refused."""
    from radscope.engine.context import RuntimeContext
    from radscope.engine.metrics.framework.registry import production

    ctx = RuntimeContext(options={"extractor": "rules", "crepe_model": "rules"})
    metric = production().get("crepe").build(ctx)
    spec = statistics_for("crepe")
    before = metric.signature()
    assert "stats:" not in before
    monkeypatch.setattr(spec.record, "STATS_VERSION", 2)
    monkeypatch.setattr(type(metric.scoring), "stats_version", 2)
    assert production().get("crepe").build(ctx).signature() == before + "|stats:2"
    with pytest.raises(cs.StatsError, match="crepe: pair 4: statistics version 1"):
        spec.from_result({"score": 1.0, "counts": {}, "total": 1.0, "stats_version": 1}, pair="4")


def test_terminal_summary_prints_headline_figures_with_intervals():
    from radscope.engine.context import RuntimeContext
    from radscope.engine.metrics.framework.registry import production
    from radscope.engine.runs.summary import SummaryBuilder, format_summary

    recorded = RECORDED["radsem"]
    metric = production().get("radsem").build(RuntimeContext(options={"extractor": "rules"}))
    builder = SummaryBuilder([metric], {"radsem": recorded["signature"]}, n_resamples=200)
    for result in recorded["results"]:
        builder.add_row({"radsem": result})
    summary = builder.summary(Counter())
    f1 = summary["metrics"]["radsem"]["corpus_figures"]["abnormal.mean_f1"]
    assert (f"abnormal.mean_f1 {f1['value']:.4f} [{f1['ci_low']:.4f}, {f1['ci_high']:.4f}]"
            in format_summary(summary))
    json.dumps(summary, allow_nan=False)  # plain JSON: undefined figures are null, not NaN


def test_intervals_cover_the_true_value_about_95_percent_of_the_time():
    """CREPE-shaped records with Poisson(1) counts: the true mean per category is 1. Over 120
    simulated corpora of 150 pairs, the percentile interval should miss it about 5 % of the
    time (a binomial 95 % range for 120 draws is roughly 90 to 99 %)."""
    spec = statistics_for("crepe")
    rng = np.random.default_rng(7)
    hits = 0
    for trial in range(120):
        counts = rng.poisson(1.0, (150, 6)).astype(float)
        records = [spec.record(tuple(row), float(row.sum())) for row in counts]
        f = cs.figure_intervals(spec, records, {}, n_resamples=300, seed=trial)["mean_counts.A"]
        hits += f["ci_low"] <= 1.0 <= f["ci_high"]
    assert 0.88 <= hits / 120 <= 0.995


def test_paired_test_rejects_about_5_percent_under_the_null_and_finds_a_real_gap():
    spec = statistics_for("crepe")
    rng = np.random.default_rng(11)

    def corpus(lam: float) -> list[Any]:
        counts = rng.poisson(lam, (120, 6)).astype(float)
        return [spec.record(tuple(row), float(row.sum())) for row in counts]

    rejected = sum(cs.paired_figures(spec, corpus(1.0), corpus(1.0), {}, n_resamples=200,
                                     seed=t)["mean_total"].p_value < 0.05 for t in range(80))
    assert rejected / 80 <= 0.15
    gap = cs.paired_figures(spec, corpus(1.0), corpus(1.5), {}, n_resamples=500)["mean_total"]
    assert gap.p_value < 0.01 and 0 < gap.ci_low < 3.0 < gap.ci_high  # true B - A = 6 x 0.5


def _scoring_classes() -> list[type]:
    from radscope.engine.metrics.framework.extraction import Scoring
    from radscope.engine.metrics.framework.registry import production

    production()  # imports every metric module, so every scoring class exists
    found, todo = [], [Scoring]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.startswith("radscope.engine.metrics."):
            found.append(cls)
    return found


def test_every_scoring_names_the_version_of_its_statistics_record() -> None:
    """``Metric.signature`` reads ``stats_version`` from the metric's scoring, not from the
    record: every scoring of a family with a record must name that record's STATS_VERSION."""
    declared = {name: production().get(name).statistics for name in production().names()
                if production().get(name).statistics is not None}
    assert set(declared) == {"clear", "crepe", "radsem", "srr", "vert", "bleu", "bleu1"}  # each declares its record
    checked = []
    for cls in _scoring_classes():
        family = cls.__module__.split("radscope.engine.metrics.", 1)[1].split(".")[0]
        # The lexical module's BLEU scoring fills the record of both BLEU metrics.
        families = ["bleu", "bleu1"] if cls.__name__ == "BleuScoring" else [family]
        for name in families:
            if name in declared:
                assert cls.stats_version == declared[name].record.STATS_VERSION, cls
                checked.append(name)
    assert set(checked) == set(declared)  # every declared family has a scoring here


@pytest.mark.parametrize("metric", sorted(RECORDED))
def test_every_figure_declares_its_direction(metric):
    """compare is right by construction: no figure without a declared direction."""
    spec = statistics_for(metric)
    recorded = RECORDED[metric]
    stats = [spec.from_result(r, pair=str(i)) for i, r in enumerate(_ok(recorded["results"]))]
    options = parse_signature(recorded["signature"])
    figures = cs.aggregate(spec, stats, options)
    assert figures
    for name in figures:
        assert spec.direction_of(name) in ("higher", "lower", "descriptive", "metric"), name
    score_figure = spec.score_figure_for(options)
    if score_figure is not None:  # it is the mean per-pair score: it takes that mean's interval
        scores = [r["score"] for r in _ok(recorded["results"])]
        assert figures[score_figure] == pytest.approx(float(np.mean(scores)), rel=1e-12)


def test_compare_verdicts_follow_each_figures_direction():
    """Issue 24: RadSEM abnormal.unmatched_gen a = 226, b = 0 was called "A better"; a count
    of sentences got a verdict; the mean had three p-values."""
    radsem = _ok(RECORDED["radsem"]["results"])
    signature = RECORDED["radsem"]["signature"]

    def rows(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{"id": str(i), "metrics": {"radsem": {**r, "signature": signature}}}
                for i, r in enumerate(results)]

    extra = ["Invented finding."] * 3
    invented = [{**r, "abnormal": {**r["abnormal"], "unmatched_gen": r["abnormal"]["unmatched_gen"] + 3},
                 "extraction": {**r["extraction"],
                                "gen_sentences": [*r["extraction"]["gen_sentences"], *extra]}}
                for r in radsem]
    result = compare_systems(rows(radsem), rows(invented), ["radsem"], figure_resamples=300)["radsem"]
    unmatched = result["figures"]["abnormal.unmatched_gen"]
    assert unmatched["direction"] == "lower" and unmatched["diff"] > 0
    assert unmatched["verdict"] == "A better (p < 0.05)"  # B invents more: A is better
    sentences = result["figures"]["mean_gen_sentences"]
    assert sentences["direction"] == "descriptive" and sentences["verdict"] == "descriptive: no verdict"
    assert "mean" not in result["figures"]
    assert "p_value" in result["paired"] and "p_permutation" not in result["paired"]
    for figure in result["figures"].values():
        assert [key for key in figure if key.startswith("p_")] == ["p_value"]

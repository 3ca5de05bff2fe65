"""The rules benchmarks: triplet generator, MeSH mappings, the MeSH command, registered metrics."""
import io
import json
import tarfile

from bench.commands import main as bench_main
from bench.quality.rules import mesh_conditions, srr_condition_map, srr_presence
from bench.corpora.rules_triplets import (
    build_triplets,
    flip,
    paraphrase,
    triplet_accuracy,
)
from radscope.engine.context import RuntimeContext
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.clear.schema import CONDITIONS
from radscope.engine.metrics.framework.registry import production
from radscope.engine.reader.versions import READER_RULES_VERSION, READER_VERSION
from radscope.models.srr_labels import vocabulary


def test_paraphrase_is_a_real_rewrite():
    assert paraphrase("No pleural effusion.") == "Pleural effusion is not seen."
    assert paraphrase("Pneumothorax is not seen.") == "No pneumothorax is seen."
    assert paraphrase("In the right lower lobe, a nodule is seen.") == \
        "A nodule is seen in the right lower lobe."


def test_flips_change_one_thing():
    assert flip("A nodule is seen in the left lung.", "laterality") == "A nodule is seen in the right lung."
    assert flip("A nodule is seen in the left lung.", "negation") == "A nodule is not seen in the left lung."
    assert flip("No pleural effusion is seen.", "negation") == "Pleural effusion is seen."
    assert flip("Small left pleural effusion.", "severity") == "Large left pleural effusion."
    assert flip("The heart is normal.", "normal-abnormal") == "The heart is abnormal."
    # A sentence with both sides cannot flip laterality.
    assert flip("Nodules in the left and right lungs.", "laterality") is None


def test_triplets_are_deterministic_and_scored():
    sentences = {"mine": ["No pleural effusion.", "A nodule is seen in the left lung.",
                          "The heart is normal.", "Small left pleural effusion."]}
    first, second = build_triplets(sentences, 5), build_triplets(sentences, 5)
    assert first == second and first
    # A scorer that always prefers the paraphrase is right on every triplet ...
    para = {t.paraphrase for t in first}
    always = triplet_accuracy(first, lambda pairs: [1.0 if c in para else 0.0 for _, c in pairs])
    assert always["overall"] == 100.0
    # ... and a constant scorer ties everywhere, which counts as wrong.
    assert triplet_accuracy(first, lambda pairs: [0.5] * len(pairs))["overall"] == 0.0


def test_mesh_mapping():
    assert mesh_conditions(("Pleural Effusion/left/small",)) == {"Pleural Effusion"}
    assert mesh_conditions(("Cardiac Shadow/enlarged/mild",)) == {"Cardiomegaly"}
    assert mesh_conditions(("Opacity/lung/base/left",)) == {"Lung Opacity"}
    assert mesh_conditions(("Costophrenic Angle/right/blunted",)) == {"Pleural Effusion"}
    assert mesh_conditions(("Calcified Granuloma/lung/upper lobe/right",)) == set()
    assert mesh_conditions(("normal",)) == set()
    assert mesh_conditions(("Hydropneumothorax/left",)) == {"Pleural Effusion", "Pneumothorax"}


def test_registered_metrics_use_the_rules_extractors():
    ctx = RuntimeContext(options={"extractor": "rules"})
    try:
        pair = ReportPair("p", "Small left pleural effusion. No pneumothorax.",
                          "Small left pleural effusion. No pneumothorax.")
        for name in ("radsem", "clear"):
            metric = production().get(name).build(ctx)
            result = metric.score_pairs([pair])[0]
            assert result.error is None, result.error
            assert "rules" in metric.signature()
            # Identical reports agree fully.
            assert result.score == 1.0, name
    finally:
        ctx.close()


def test_srr_labels_become_clear_presence():
    # Present beats Absent across sentences; a leaves-only label (no status) counts as Present.
    got = srr_presence(["Simple pleural effusion (Absent)", "Loculated pleural effusion (Present)",
                        "Simple pneumothorax (Absent)", "Cardiomegaly (Uncertain)", "PICC line"])
    assert got["Pleural Effusion"] == "positive"
    assert got["Pneumothorax"] == "negative"
    assert got["Cardiomegaly"] == "unclear"
    assert got["Support Devices"] == "positive"
    assert got["Edema"] == "unclear"  # not mentioned
    assert "Consolidation" not in got  # SRR-BERT has no such leaf


def test_srr_mapping_names_real_labels():
    leaves = set(vocabulary().leaves)
    for condition, mapped in srr_condition_map().items():
        assert condition in CONDITIONS
        assert mapped and set(mapped) <= leaves, condition


def _iu_archive(path, reports):
    """A tiny archive in the NLMCXR_reports.tgz layout: one XML per report with MeSH majors."""
    with tarfile.open(path, "w:gz") as tar:
        for i, (findings, codes) in enumerate(reports):
            majors = "".join(f"<major>{c}</major>" for c in codes)
            xml = (f'<eCitation><uId id="CXR{i}"/><MedlineCitation><Article><Abstract>'
                   f'<AbstractText Label="FINDINGS">{findings}</AbstractText>'
                   f'<AbstractText Label="IMPRESSION">See findings.</AbstractText>'
                   f'</Abstract></Article></MedlineCitation><MeSH>{majors}</MeSH></eCitation>')
            data = xml.encode()
            info = tarfile.TarInfo(f"ecgen-radiology/{i}.xml")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


def test_mesh_benchmark_runs_both_labellers(tmp_path):
    archive = tmp_path / "NLMCXR_reports.tgz"
    _iu_archive(archive, [
        ("Small left pleural effusion. No pneumothorax.", ["Pleural Effusion/left/small"]),
        ("The heart is enlarged. No pleural effusion.", ["Cardiomegaly/mild"]),
        ("The lungs are clear. Heart size is normal.", ["normal"]),
    ])
    runs = {"clear-rules": (["--labeller", "clear-rules"], READER_RULES_VERSION, False),
            "srr-rules": (["--labeller", "srr"], f"rules reader ({READER_VERSION})", False),
            "srr-demo": (["--labeller", "srr", "--srr-model", "srr-minilm-demo"],
                         "srr-minilm-demo", True)}
    for name, (flags, model, demo) in runs.items():
        out = tmp_path / f"{name}.json"
        assert bench_main(["rules-mesh", "--data", str(archive), *flags, "--out", str(out)]) == 0
        report = json.loads(out.read_text())
        assert report["n_reports"] == 3 and report["labeller"] == flags[1]
        assert report["model"] == model and report["demo_grade"] is demo
        effusion = report["per_condition"]["Pleural Effusion"]
        assert effusion["support"] == 1
        assert effusion["tp"] + effusion["fn"] == 1
        assert report["per_condition"]["Consolidation"]["mapped"] is (name == "clear-rules")
    # SRR labels from rules read these plain reports exactly (for the conditions SRR can name).
    srr_rules = json.loads((tmp_path / "srr-rules.json").read_text())
    assert srr_rules["per_condition"]["Pleural Effusion"]["tp"] == 1
    assert srr_rules["per_condition"]["Cardiomegaly"]["tp"] == 1
    assert srr_rules["pos_micro_f1"] == 1.0
    # The rules extractor reads these three plain reports exactly.
    rules = json.loads((tmp_path / "clear-rules.json").read_text())
    assert rules["per_condition"]["Pleural Effusion"]["tp"] == 1
    assert rules["per_condition"]["Cardiomegaly"]["tp"] == 1
    assert rules["pos_micro_f1"] == 1.0


def test_reader_speed_benchmark_reports_both_ways_of_running(tmp_path):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps({"id": str(i), "reference": ref, "candidate": cand}) + "\n"
                             for i, (ref, cand) in enumerate([
                                 ("Small left pleural effusion.", "Small right pleural effusion."),
                                 ("Mild cardiomegaly. No pneumothorax.", "Normal heart size.")])))
    out = tmp_path / "speed.json"
    assert bench_main(["rules-reader", "--data", str(pairs), "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["n_pairs"] == 2
    for key in ("together_ms", "separate_ms", "together_cpu_ms", "separate_cpu_ms"):
        assert set(report[key]) == {"median", "p90", "mean"}
    assert set(report["signatures"]) == {"clear", "radsem", "crepe", "vert", "srr"}
    assert "|extractor:rules|reader:radscope-reader|" in report["signatures"]["crepe"]

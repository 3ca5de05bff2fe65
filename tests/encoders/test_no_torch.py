"""The app's encoder path needs neither torch nor transformers (runtime environment)."""
import importlib.util
import json
import subprocess
import sys

from tests.conftest import ROOT, run_cli


def test_torch_and_transformers_are_not_installed_here():
    assert importlib.util.find_spec("torch") is None
    assert importlib.util.find_spec("transformers") is None


def test_cli_scores_crepe_and_srr_without_torch(tmp_path):
    rows = [
        {"id": "same", "reference": "Small left pleural effusion. Heart size is normal.",
         "candidate": "Small left pleural effusion. Heart size is normal."},
        {"id": "worse", "reference": "Small left pleural effusion. Heart size is normal.",
         "candidate": "Large right pleural effusion. Moderate cardiomegaly."},
    ]
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out, summary = tmp_path / "r.jsonl", tmp_path / "s.json"
    proc = run_cli("score", "--input", str(pairs), "--metrics", "crepe,srr", "--out", str(out),
                   "--summary", str(summary), "--no-progress", "--encoder-threads", "2",
                   "--extractor", "llm")  # the encoders, as before the rules reader existed
    assert proc.returncode == 0, proc.stderr
    results = [json.loads(line)["metrics"] for line in out.read_text().splitlines()]
    for metrics in results:
        assert metrics["crepe"]["error"] is None and metrics["srr"]["error"] is None
        assert metrics["crepe"]["model"] == "crepe-minilm-demo" and metrics["crepe"]["demo_grade"]
        assert set(metrics["crepe"]["counts"]) == {"A", "B", "C", "D", "E", "F"}
    # Identical reports: fewer predicted errors and a perfect label agreement.
    assert results[0]["crepe"]["score"] < results[1]["crepe"]["score"]
    assert results[0]["srr"]["score"] == 1.0
    s = json.loads(summary.read_text())
    assert s["metrics"]["crepe"]["corpus"]["n_pairs"] == 2
    assert s["metrics"]["srr"]["corpus"]["leaf"]["n_reports"] == 2


def test_importing_the_encoder_runtime_loads_no_torch():
    code = ("import sys; import radscope.engine.runtimes.encoder_session as m; "
            "e = m.SentenceEmbedder(threads=1); e.embed(['No pneumothorax.']); "
            "from radscope.engine.metrics.framework.registry import production; production(); "
            "print('torch' in sys.modules, 'transformers' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "False"]

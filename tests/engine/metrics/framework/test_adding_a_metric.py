"""docs/adding-a-metric.md's template, built from the page itself: its two code blocks become
modules, registered only through the registry's public way (``with_modules``), and every entry
point carries the new metric with no other file edited: the CLI's ``score`` (rows, CSV export,
summary), the API's ``Scorer``, the corpus summary, the app's panel and the export table."""
from __future__ import annotations

import csv
import importlib
import json
import re
import sys
from pathlib import Path

import pytest

from radscope.engine import commands as cli
from radscope.engine.api import Scorer
from radscope.engine.io.export import write_results_csv
from radscope.engine.metrics.framework.registry import (
    MetricRegistry,
    export_columns_of,
    family_of,
    production,
    statistics_of,
)
from radscope.engine.metrics.framework.statistics_by_metric import statistics_for

DOC = Path(__file__).parents[4] / "docs" / "adding-a-metric.md"
ENGINE_MODULE = "radscope_template_wordratio"
VIEW_MODULE = "radscope_template_wordratio_view"
REFERENCES = ["No pleural effusion. Heart size is normal.", "Small left pleural effusion."]
CANDIDATES = ["No effusion.", "Small left pleural effusion with adjacent atelectasis."]
RATIOS = [2 / 7, 7 / 4]  # candidate words / reference words
CORPUS_RATIO = 9 / 11


def _doc_block(first_line: str) -> str:
    """The code block of the page that starts with ``first_line``."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    found = [b for b in blocks if b.startswith(first_line + "\n")]
    assert len(found) == 1, f"docs/adding-a-metric.md has no single block starting {first_line!r}"
    return found[0]


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> MetricRegistry:
    folder = tmp_path_factory.mktemp("template")
    (folder / f"{ENGINE_MODULE}.py").write_text(_doc_block("# engine/metrics/wordratio.py"), encoding="utf-8")
    (folder / f"{VIEW_MODULE}.py").write_text(_doc_block("# ui/views/wordratio.py"), encoding="utf-8")
    sys.path.insert(0, str(folder))
    try:
        importlib.import_module(VIEW_MODULE)  # a view module under ui/views is imported by the package
        yield production().with_modules([ENGINE_MODULE])
    finally:
        sys.path.remove(str(folder))


def test_the_spec_declares_everything(registry: MetricRegistry) -> None:
    assert "wordratio" in registry and "wordratio" not in production()
    assert family_of("wordratio") == "wordratio"
    assert statistics_for("wordratio") is statistics_of("wordratio")
    assert statistics_of("wordratio").metric == "wordratio"
    assert export_columns_of("wordratio") is registry.get("wordratio").export_columns


def test_cli_scores_exports_and_summarises_it(registry: MetricRegistry, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps({"id": f"p{i}", "reference": r, "candidate": c}) + "\n"
                             for i, (r, c) in enumerate(zip(REFERENCES, CANDIDATES, strict=True))),
                     encoding="utf-8")
    out, table, summary = tmp_path / "out.jsonl", tmp_path / "out.csv", tmp_path / "summary.json"
    assert cli.main(["metrics"], registry=registry) == 0
    assert re.search(r"^wordratio\s+Word ratio\s+higher is better", capsys.readouterr().out, re.M)
    code = cli.main(["score", "--input", str(pairs), "--metrics", "wordratio", "--out", str(out),
                     "--csv", str(table), "--summary", str(summary), "--db", str(tmp_path / "db.sqlite"),
                     "--no-progress"], registry=registry)
    assert code == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["metrics"]["wordratio"]["score"] for r in rows] == pytest.approx(RATIOS)
    with table.open(encoding="utf-8", newline="") as handle:
        cells = list(csv.DictReader(handle))
    assert [float(c["wordratio_score"]) for c in cells] == pytest.approx(RATIOS)
    assert [(c["wordratio_reference_words"], c["wordratio_candidate_words"]) for c in cells] == [
        ("7", "2"), ("4", "7")]
    entry = json.loads(summary.read_text(encoding="utf-8"))["metrics"]["wordratio"]
    assert entry["corpus"] == {"corpus_ratio": pytest.approx(CORPUS_RATIO)}
    assert entry["headline"] == ["corpus_ratio"] and entry["n"] == 2


def test_api_scores_and_summarises_it(registry: MetricRegistry) -> None:
    with Scorer(["wordratio"], registry=registry) as scorer:
        assert list(scorer.score(REFERENCES, CANDIDATES).array("wordratio")) == pytest.approx(RATIOS)
        corpus = scorer.score_corpus(REFERENCES, CANDIDATES)
    entry = corpus.summary["metrics"]["wordratio"]
    assert entry["corpus"] == {"corpus_ratio": pytest.approx(CORPUS_RATIO)}
    assert entry["corpus_figures"]["corpus_ratio"]["value"] == pytest.approx(CORPUS_RATIO)
    assert entry["title"] == "Word ratio"


def test_the_panel_and_the_export_table_carry_it(registry: MetricRegistry) -> None:
    from radscope.ui.views import render, view_for

    with Scorer(["wordratio"], registry=registry) as scorer:
        records = scorer.score(REFERENCES, CANDIDATES).records
    result = records[1]["metrics"]["wordratio"]
    assert view_for("wordratio").__module__ == VIEW_MODULE
    panel = render("wordratio", result)
    assert "<b>Reference words</b> 4" in panel.summary_html
    assert "<b>Candidate words</b> 7" in panel.summary_html

    class Sink(list[str]):
        def write(self, text: str) -> int:
            self.append(text)
            return len(text)

    sink = Sink()
    assert write_results_csv(sink, lambda: records, export_columns_of) == 2  # type: ignore[arg-type]
    header = next(csv.reader(["".join(sink).splitlines()[0]]))
    assert header == ["id", "wordratio_score", "wordratio_error", "wordratio_model", "wordratio_signature",
                      "wordratio_reference_words", "wordratio_candidate_words"]

"""Issue 34: every report the project ships (example pairs, the layout and style corpora), scored
against itself, is perfect in every clinical metric, or not applicable with its reason. The same
check over ../shared/data is the benchmark ``python -m bench identity``."""
from __future__ import annotations

from bench.quality.identity import distinct, self_scores, shipped_reports


def test_every_shipped_report_is_perfect_against_itself():
    texts = distinct(shipped_reports())
    assert len(texts) > 400
    table = self_scores(texts)
    for name, row in table.items():
        assert row["imperfect"] == [], (name, row["imperfect"][:3])
        assert row["perfect"] + row["not_applicable"] == len(texts)

"""docs/metrics.md's card tables are the metric cards' own words (engine/metrics/framework/card_tables.py)."""
import dataclasses
from pathlib import Path

from radscope.engine.metrics.framework.card_tables import render
from radscope.engine.metrics.framework.registry import MetricRegistry, production

PAGE = Path(__file__).resolve().parents[4] / "docs" / "metrics.md"


def test_the_tables_of_docs_metrics_md_match_the_cards():
    page = PAGE.read_text(encoding="utf-8")
    assert render(page, production()) == page, \
        "docs/metrics.md differs from the cards: run python -m radscope.engine.metrics.framework.card_tables --write"


def test_a_changed_card_changes_the_page():
    registry = production()
    specs = [registry.get(name) for name in registry.names()]
    renamed = [dataclasses.replace(s, card=dataclasses.replace(s.card, title="CLEAR-renamed"))
               if s.name == "clear" else s for s in specs]
    page = PAGE.read_text(encoding="utf-8")
    assert "| CLEAR-renamed | `clear` |" in render(page, MetricRegistry(renamed))

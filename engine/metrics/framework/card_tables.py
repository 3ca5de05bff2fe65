"""docs/metrics.md's card tables, written from the metric cards so that the two cannot drift.

``python -m radscope.engine.metrics.framework.card_tables`` prints the tables; ``--write`` replaces them in
docs/metrics.md (a checkout), between the ``<!-- cards:NAME -->`` and ``<!-- /cards:NAME -->``
markers. ``tests/engine/metrics/framework/test_card_tables.py`` fails when the page and the cards differ.
"""
from __future__ import annotations

import argparse
import re
import sys

from radscope.engine.metrics.framework.base import MetricCard
from radscope.engine.metrics.framework.registry import MetricRegistry, production


def _cards(registry: MetricRegistry) -> list[MetricCard]:
    """The cards, the report-reading metrics first, the lexical baselines last (registry order within)."""
    specs = [registry.get(name) for name in registry.names()]
    return [s.card for s in specs if s.kind != "lexical"] + [s.card for s in specs if s.kind == "lexical"]


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def metrics_table(registry: MetricRegistry) -> str:
    rows = ["| metric | CLI name | what it measures | direction | range |", "|---|---|---|---|---|"]
    for card in _cards(registry):
        direction = "higher is better" if card.direction == "higher" else "**lower** is better"
        rows.append(f"| {card.title} | `{card.name}` | {_cell(card.measures)} | {direction} | {card.range_text()} |")
    return "\n".join(rows)


def scope_table(registry: MetricRegistry) -> str:
    rows = ["| metric | designed for | sections it reads | error kinds its score can see |", "|---|---|---|---|"]
    for card in _cards(registry):
        reads = ", ".join(card.reads) or "the whole text"
        sees = ", ".join(sorted(card.sees)) or "none by design (word overlap)"
        rows.append(f"| `{card.name}` | {card.intended_studies.text} | {reads} | {sees} |")
    return "\n".join(rows)


TABLES = {"metrics": metrics_table, "scope": scope_table}


def render(page: str, registry: MetricRegistry) -> str:
    """``page`` with every marked table rewritten from ``registry``'s cards."""
    for name, table in TABLES.items():
        pattern = re.compile(rf"(<!-- cards:{name} [^\n]*-->\n)(?:.*?\n)?(<!-- /cards:{name} -->)", re.S)
        found = pattern.search(page)
        if found is None:
            raise ValueError(f"docs/metrics.md has no <!-- cards:{name} --> ... <!-- /cards:{name} --> block")
        page = page[:found.start()] + found.group(1) + table(registry) + "\n" + found.group(2) + page[found.end():]
    return page


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="docs/metrics.md's tables from the metric cards")
    parser.add_argument("--write", action="store_true", help="rewrite the tables in docs/metrics.md")
    args = parser.parse_args(argv)
    registry = production()
    if not args.write:
        print("\n\n".join(table(registry) for table in TABLES.values()))
        return 0
    from radscope.layout import repository_root

    path = repository_root() / "docs" / "metrics.md"
    path.write_text(render(path.read_text(encoding="utf-8"), registry), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The pass Valgrind counts (``bench.speed.reward_instructions``) is a real fresh pass: it runs
inside the C callback, scores every pair, and the text caches were emptied before it."""
from __future__ import annotations

from bench.speed import reward_instructions
from bench.speed.reward_side import Side, text_caches


def test_the_counted_pass_scores_every_pair_with_fresh_caches() -> None:
    side = Side("", 6, 6)
    assert reward_instructions.counted_pass(side, "api:radsem") == 0
    # the pass ran after the caches were emptied: what it read is all that is cached now
    reader = [c for c in text_caches() if c.__wrapped__.__name__ == "read_report"]
    assert reader and all(c.cache_info().hits + c.cache_info().misses > 0 for c in reader)


def test_the_command_names_its_row_and_pairs(capsys) -> None:
    assert reward_instructions.main(["--pairs", "4", "--batch", "4"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("api:radsem: 4 pairs (assets/examples.json (no --data)), 0 errors")

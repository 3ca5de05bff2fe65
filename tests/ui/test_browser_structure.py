""""Structure report" in a real browser with no judge set: the rules rewrite answers at once,
labelled as the rules rewrite, with the Findings under organ-system headers and a numbered
Impression (Debian chromium through Playwright, with test_browser.py's page fixture)."""
from __future__ import annotations

import pytest

from radscope.engine.io.examples import example_pairs
from tests.ui.test_browser import real_page  # noqa: F401 - the fixture, shared

pytestmark = pytest.mark.browser


def test_structure_report_without_a_judge_gives_the_rules_rewrite(real_page):  # noqa: F811
    page = real_page
    candidate = next(e for e in example_pairs() if e.pair.id == "effusion-laterality").pair.candidate
    page.locator("#candidate textarea").fill(candidate)
    page.locator("#structure-section").get_by_text("Rewrite a report in the structured format").click()
    page.locator("#structure").click()
    out = page.locator("#structure-output")
    out.locator(".rs-structured").wait_for(timeout=60_000)
    assert "rules rewrite (clinical reader, no LLM)" in out.inner_text()
    assert out.locator("i", has_text="Pleura").count() == 1
    assert out.locator("ol.rs-list li").count() >= 1
    assert not page.locator("#structure-cancel").is_visible()  # nothing long-running to cancel

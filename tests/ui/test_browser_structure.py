""""Structure report" in a real browser with no judge set: the rules rewrite answers at once,
labelled as the rules rewrite, with the Findings under organ-system headers and a numbered
Impression (Debian chromium through Playwright, with test_browser.py's page fixture); on an
IU CXR1015-shaped report written by the project, every finding is listed in its own words under
the organ it is about, and the empty header fields say so rather than "None"."""
from __future__ import annotations

import pytest

from radscope.engine.io.examples import example_pairs
from tests.ui.test_browser import real_page  # noqa: F401 - the fixture, shared

pytestmark = pytest.mark.browser

CXR1015_SHAPED = (
    "FINDINGS: Patchy and streaky bibasilar opacities, a wedge-shaped density projected over the "
    "heart on the lateral view. No definite pleural effusion seen, no typical signs of pulmonary "
    "edema. Allowing for differences in technique stable cardiomediastinal silhouette with normal "
    "heart size.\nIMPRESSION: Bibasilar opacities, left more than right, likely a mix of "
    "atelectasis and consolidation.")


def _structure(page, text: str):
    page.locator("#candidate textarea").fill(text)
    # The structured rewrite sits in a closed section below the results.
    page.locator("#structure-section").get_by_text("Rewrite a report in the structured format").click()
    page.locator("#structure").click()
    out = page.locator("#structure-output")
    out.locator(".rs-structured").wait_for(timeout=60_000)
    return out


def _under(out, header: str) -> list[str]:
    """The bullets listed under one Findings header."""
    block = out.locator("div", has=out.page.locator("i", has_text=header)).last
    return block.locator("xpath=following-sibling::ul[1]/li").all_inner_texts()


def test_structure_report_without_a_judge_gives_the_rules_rewrite(real_page):  # noqa: F811
    page = real_page
    candidate = next(e for e in example_pairs() if e.pair.id == "effusion-laterality").pair.candidate
    out = _structure(page, candidate)
    assert "rules rewrite (report sentences by organ, no LLM)" in out.inner_text()
    assert out.locator("i", has_text="Pleura").count() == 1
    assert out.locator("ol.rs-list li").count() >= 1
    assert not page.locator("#structure-cancel").is_visible()  # nothing long-running to cancel


def test_structure_report_keeps_a_cxr1015_shaped_report_whole(real_page):  # noqa: F811
    out = _structure(real_page, CXR1015_SHAPED)
    text = out.inner_text()
    assert _under(out, "Lungs and Airways") == [
        "Patchy and streaky bibasilar opacities, a wedge-shaped density projected over the heart "
        "on the lateral view.", "No typical signs of pulmonary edema."]
    assert _under(out, "Pleura") == ["No definite pleural effusion seen."]
    stable = ("Allowing for differences in technique stable cardiomediastinal silhouette with "
              "normal heart size.")
    assert _under(out, "Cardiovascular") == [stable]
    assert _under(out, "Hila and Mediastinum") == [stable]
    assert out.locator("ol.rs-list li").all_inner_texts() == [
        "Bibasilar opacities, left more than right, likely a mix of atelectasis and consolidation."]
    assert "Comparison: not given in the report" in text and "None" not in text

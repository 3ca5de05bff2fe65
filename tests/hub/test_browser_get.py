"""In a real browser: the Models tab's "Get" on CREPE (from the fake Hub) shows its licence
and live progress, "Use it" switches the Compare tab to it, and the CREPE panel then names the
fetched model instead of the demo-grade one; Cancel stops a judge download, and the next Get
resumes it."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from radscope.engine.io.examples import example_pairs
from tests.hub.conftest import CREPE_ID, JUDGE_FILE, JUDGE_ID, needs_export_env, served_app
from tests.ui.conftest import artifacts_dir

pytestmark = pytest.mark.browser
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


@pytest.fixture
def app_url(env, tmp_path):
    with served_app(env, tmp_path) as (url, _):
        yield url


@pytest.fixture
def models_page(app_url, request):
    """The app's Models tab in Debian chromium; a screenshot is kept when the test fails."""
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian chromium is needed for the browser tests: run `make system-deps`")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(60_000)
        page.goto(app_url)
        page.wait_for_selector("#run")
        page.get_by_role("tab", name="Models").click()
        failed_before = request.session.testsfailed
        yield page
        if request.session.testsfailed > failed_before:  # keep what the browser showed
            page.screenshot(path=str(artifacts_dir() / f"failed-{request.node.name}.png"), full_page=True)
        browser.close()


@needs_export_env
def test_get_crepe_in_the_browser_then_compare_names_it(models_page, hub):
    page = models_page
    row = page.locator(f"#get-row-{CREPE_ID}")
    assert "licence: not stated" in row.inner_text() and "not on this machine" in row.inner_text()
    page.click(f"#get-{CREPE_ID}")
    page.wait_for_selector("#get-progress[data-step]")  # live progress while it works
    steps_seen = set()
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not page.locator(f"[data-ready='{CREPE_ID}']").count():
        # one call in the page: the progress line may go between a count and a read, and a
        # read of a locator that has gone waits its whole timeout
        step = page.evaluate(
            "() => document.querySelector('#get-progress')?.getAttribute('data-step') ?? null")
        steps_seen.add(step)
        time.sleep(0.2)
    assert page.locator(f"[data-ready='{CREPE_ID}']").count(), page.locator("#get-status").inner_text()
    assert "export" in steps_seen, steps_seen
    assert "ready" in row.inner_text()
    page.screenshot(path=str(artifacts_dir() / "models-get-crepe.png"), full_page=True)
    page.click("#get-use")
    page.wait_for_selector("#get-status .rs-ok")

    page.get_by_role("tab", name="Compare").click()
    example = next(e for e in example_pairs() if e.pair.id == "effusion-laterality")
    page.locator("#examples").get_by_text(example.title, exact=True).click()
    page.wait_for_function("() => document.querySelector('#reference textarea').value.length > 0")
    page.click("#run")
    page.wait_for_selector("#compare-status [data-done]", timeout=180_000)
    head = page.locator("#head-crepe")
    assert CREPE_ID in head.inner_text(), head.inner_text()
    assert head.locator(".rs-demo").count() == 0 and head.locator(".rs-score").count() == 1


def test_cancel_stops_a_download_and_get_resumes_it(models_page, hub):
    page = models_page
    hub.slow[JUDGE_FILE] = 0.1  # about 5 s for the whole file
    page.click(f"#get-{JUDGE_ID.replace('.', '-')}")
    page.wait_for_selector("#get-progress[data-step=download] progress[value]")
    page.click("#get-cancel")
    page.wait_for_selector("#get-status .rs-error")
    assert "cancelled during 'download'" in page.locator("#get-status").inner_text()
    hub.slow.clear()
    page.click(f"#get-{JUDGE_ID.replace('.', '-')}")
    page.wait_for_selector(f"[data-ready='{JUDGE_ID}']", timeout=120_000)
    first, resumed = hub.ranges(JUDGE_FILE)[:2]
    assert first is None and resumed and resumed.startswith("bytes=")

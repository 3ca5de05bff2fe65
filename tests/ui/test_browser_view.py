"""The answer in view, on a laptop and on a projector (1440 x 900, 1280 x 720), in Debian chromium:
Run is on the first screen; after Run the clinical overview is in the window, and it is there
before any metric's panel has a score. The page's times are measured beside the /compare API's
for the same pair in the same run, and written to the artifacts folder (view-timing-*.json).

The app is the one users get (the project's metrics, default options), warmed by one run first,
as ``app.py`` warms it at start-up."""
from __future__ import annotations

import json
import statistics
import time

import pytest

from radscope.engine.io.examples import example_pairs
from tests.ui.conftest import artifacts_dir

pytestmark = pytest.mark.browser

SIZES = [(1440, 900), (1280, 720)]
PAIR = "effusion-laterality"
WARM = "normal-chest"
# When the overview, a panel's score and the end of the run first appear after Run is clicked.
WATCH = """() => {
  window.rsTimes = {};
  const seen = (key, selector) => {
    if (window.rsTimes[key] === undefined && document.querySelector(selector)) {
      const box = document.querySelector(selector).getBoundingClientRect();
      window.rsTimes[key] = {t: performance.now() - window.rsClick, top: box.top, bottom: box.bottom};
    }
  };
  new MutationObserver(() => {
    seen('overview', '#clinical-summary');
    seen('panel', '[id^=head-] .rs-score');
    seen('done', '#compare-status [data-done]');
  }).observe(document.body, {childList: true, subtree: true, characterData: true});
  document.querySelector('#run').addEventListener('click', () => { window.rsClick = performance.now(); },
                                                   {capture: true});
}"""


def _fill(page, pair_id: str) -> None:
    pair = next(e.pair for e in example_pairs() if e.pair.id == pair_id)
    page.locator("#reference textarea").fill(pair.reference)
    page.locator("#candidate textarea").fill(pair.candidate)


def _in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def _api_seconds(app_server, pair_id: str, rounds: int = 3) -> float:
    from gradio_client import Client

    pair = next(e.pair for e in example_pairs() if e.pair.id == pair_id)
    client = Client(app_server.url, verbose=False, analytics_enabled=False)
    try:
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            client.predict(pair.reference, pair.candidate, api_name="/compare")
            times.append(time.perf_counter() - start)
        return statistics.median(times)
    finally:
        client.close()


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_run_and_then_the_overview_are_in_view(browser, app_server, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(120_000)
    try:
        page.goto(app_server.url)
        page.wait_for_selector("#run")
        assert _in_view(page, "#run"), page.locator("#run").bounding_box()
        assert page.evaluate("scrollY") == 0
        _fill(page, WARM)  # a first run loads the reader and the metrics, as app.py's warm-up does
        page.locator("#run").click()
        page.wait_for_selector("#compare-status [data-done]")

        api_s = _api_seconds(app_server, PAIR)
        page.goto(app_server.url)
        page.wait_for_selector("#run")
        _fill(page, PAIR)
        page.evaluate(WATCH)
        page.keyboard.press("Control+Enter")  # the same as a click on Run (ui/page_script.py)
        page.wait_for_selector("#compare-status [data-done]")
        times = page.evaluate("window.rsTimes")
        assert _in_view(page, "#clinical-summary"), page.locator("#clinical-summary").bounding_box()
    finally:
        page.screenshot(path=str(artifacts_dir() / f"view-{width}x{height}.png"))
        context.close()
    overview, panel, done = times["overview"], times["panel"], times["done"]
    figures = {"viewport": f"{width}x{height}", "api_compare_s": round(api_s, 3),
               "page_overview_s": round(overview["t"] / 1000, 3),
               "page_first_panel_s": round(panel["t"] / 1000, 3),
               "page_done_s": round(done["t"] / 1000, 3)}
    (artifacts_dir() / f"view-timing-{width}x{height}.json").write_text(json.dumps(figures, indent=1))
    print("view timing:", figures)
    assert overview["top"] >= 0 and overview["bottom"] <= height, overview  # in view as it appears
    assert overview["t"] < panel["t"], times  # the overview first, the panels after it
    # The overview waits for no metric: within the engine's time for the pair plus a constant.
    assert overview["t"] / 1000 <= api_s + 3.0, figures


# Every visible text's computed size (icons drawn by CSS at size 0 aside), and the prose's.
TEXT_SIZES = """() => {
  const small = [];
  const root = document.querySelector('.gradio-container');
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode());) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || el.closest('footer')) continue;
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    const size = parseFloat(style.fontSize);
    if (!box.width || !box.height || style.visibility === 'hidden' || size === 0) continue;
    if (size < 14) small.push(`${size}px ${el.tagName} ${node.textContent.trim().slice(0, 40)}`);
  }
  return small;
}"""
PROSE = [".rs-intro", "#reference textarea", "#metrics label", "#clinical-summary", ".rs-report",
         ".rs-card", ".rs-head", "[id^=table-] [role=gridcell]"]


def test_text_is_room_sized_and_headers_whole(browser, app_server):
    """At 1280 x 720: no text under 14 px anywhere (tables, plots, badges, buttons), the body
    text at 16 px, and no table header cut."""
    from tests.ui.test_accessibility import _clipped

    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.set_default_timeout(120_000)
    try:
        page.goto(app_server.url)
        page.wait_for_selector("#run")
        _fill(page, PAIR)
        page.locator("#run").click()
        page.wait_for_selector("#compare-status [data-done]")
        page.wait_for_selector("#plot-radsem .js-plotly-plot text")
        page.wait_for_timeout(500)
        assert page.evaluate(TEXT_SIZES) == []
        for selector in PROSE:
            sizes = page.eval_on_selector_all(selector, "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
            assert sizes and min(sizes) >= 16, (selector, sizes)
        plot_text = page.eval_on_selector_all(".js-plotly-plot text", "ts => ts.filter(t => t.textContent.trim())"
                                              ".map(t => parseFloat(getComputedStyle(t).fontSize))")
        assert plot_text and min(plot_text) >= 14, plot_text
        assert _clipped(page, "[id^=table-] th, [id^=table-] [role=gridcell]") == []
    finally:
        page.screenshot(path=str(artifacts_dir() / "view-text-1280x720.png"), full_page=True)
        context.close()

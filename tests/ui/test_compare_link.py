"""A comparison reopened from its stored run, in a real browser (Debian chromium):

- the Compare tab's "link to this comparison" opened in a fresh browser draws the same texts and
  panels from the store, with no model call (the runner is made to fail while it opens);
- the HTML report holds that link, every panel and its plots as inline SVG, and opens with every
  network request blocked;
- on a public server a link opens only in the browser that made it; another browser, or a made-up
  id, gets the "not found" message and nothing of the comparison.

Screenshots of the reopened comparison at 800 and 1440 px go to the artifacts folder (and, with
RADSCOPE_UPDATE_SCREENSHOTS=1, to the README's docs/screenshots/).
"""
from __future__ import annotations

import re

import pytest

from tests.ui.conftest import artifacts_dir, serve
from tests.ui.test_accessibility import SWAP, Page
from tests.ui.test_browser import ROW

pytestmark = pytest.mark.browser

RUN_ID = re.compile(r"compare-[0-9a-f]{32}")


def _link(app: Page) -> str:
    anchor = app.page.locator("#compare-link a#compare-link-a")
    anchor.wait_for()
    return anchor.get_attribute("href") or ""


def _fresh(browser, url: str, width: int = 1440) -> Page:
    """A new browser context (no shared storage), as a colleague opening the link would be."""
    return Page(browser, url, width, "light")


def _refuse(*args, **kwargs):
    raise AssertionError("a stored comparison was scored again")


def test_a_link_reopens_the_comparison_from_the_store(browser, app_server, monkeypatch):
    import radscope.ui.tabs.compare.logic
    from radscope import ui
    from radscope.engine.runs.store import Store

    maker = Page(browser, app_server.url, 1440, "light")
    opened: list[Page] = [maker]
    try:
        maker.compare_example()
        link = _link(maker)
        run_id = link.rsplit("=", 1)[-1]
        assert link.startswith(app_server.url.rstrip("/")) and RUN_ID.fullmatch(run_id), link
        made = maker.page.locator("#compare-status [data-done]").get_attribute("data-run")
        assert made == run_id
        shown = sorted(e.get_attribute("id")[len("panel-"):]
                       for e in maker.page.locator(".rs-panel[id^=panel-]").all() if e.is_visible())
        stored = Store(app_server.store_path)
        try:
            assert sorted(stored.get_run(run_id).metrics) == shown
            assert stored.texts(run_id)["pair"]["candidate"] == SWAP.pair.candidate
        finally:
            stored.close()

        monkeypatch.setattr(ui.tabs.compare.logic, "run_batch", _refuse)  # from here on no metric may run
        for width in (1440, 800):
            app = Page(browser, link, width, "light")
            opened.append(app)
            page = app.page
            page.wait_for_function("() => document.querySelector('#compare-status').innerText"
                                   ".includes('opened from its link')")
            assert page.locator("#compare-status [data-done]").get_attribute("data-run") == run_id
            assert page.locator("#reference textarea").input_value() == SWAP.pair.reference
            assert page.locator("#candidate textarea").input_value() == SWAP.pair.candidate
            reopened = sorted(e.get_attribute("id")[len("panel-"):]
                              for e in page.locator(".rs-panel[id^=panel-]").all() if e.is_visible())
            assert reopened == shown
            page.wait_for_selector(f"#table-clear {ROW}")
            assert page.locator(f"#table-clear {ROW}").count() == 13
            page.wait_for_selector("#plot-radsem .js-plotly-plot .scatterlayer")
            assert page.locator("#differences mark[data-status=conflict]").count() >= 2
            assert _link(app) == link
            assert page.locator("#dl-report-html").is_enabled()
            app.save(f"compare-link-{width}.png", until="#differences-panel",
                     readme="compare-link-1440.png" if width == 1440 else None)
            assert "Traceback" not in page.content() and app.problems() == []
    finally:
        for app in opened:
            app.close()


def test_report_has_the_link_every_panel_and_its_plots_offline(browser, app_server, tmp_path):
    app = Page(browser, app_server.url, 1440, "light")
    try:
        app.compare_example()
        link = _link(app)
        page = app.page
        shown = [e.get_attribute("id")[len("panel-"):] for e in page.locator(".rs-panel[id^=panel-]").all()
                 if e.is_visible()]
        plotted = [n for n in shown if page.locator(f"#plot-{n}").count() and page.locator(f"#plot-{n}").is_visible()]
        assert {"radsem", "crepe"} <= set(plotted), plotted  # both plots of the default metrics
        with page.expect_download() as download:
            page.click("#dl-report-html")
        path = tmp_path / "report.html"
        download.value.save_as(path)
    finally:
        app.close()
    size = path.stat().st_size
    print(f"report: {size:,} bytes, panels {shown}, plots {plotted}")
    assert size < 500_000
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        fetched: list[str] = []

        def block(route):
            fetched.append(route.request.url)
            if route.request.url == path.as_uri():
                route.continue_()
            else:
                route.abort()

        context.route("**/*", block)
        report = context.new_page()
        report.goto(path.as_uri())
        assert fetched == [path.as_uri()]  # nothing else was even asked for
        assert report.locator("script").count() == 0
        assert report.locator("#report-link a").get_attribute("href") == link
        for name in shown:
            assert report.locator(f"#panel-{name} h3").is_visible(), name
        for name in plotted:
            svg = report.locator(f"#panel-{name} svg.rs-plot")
            assert svg.is_visible(), name
            assert svg.bounding_box()["height"] > 150, name
        if "crepe" in plotted:  # six categories and the total, each bar with its value
            bars = report.locator("#panel-crepe svg .rs-bar")
            assert bars.count() == 7
            assert bars.last.get_attribute("data-label") == "Total"
        if "radsem" in plotted:  # the sentences are the graph's labels, the pairs its edges
            graph = report.locator("#panel-radsem svg")
            assert "left pleural effusion" in graph.text_content()
            assert graph.locator("polyline.rs-line").count() >= 1
        report.screenshot(path=str(artifacts_dir() / "report-plots-1440.png"), full_page=True)
    finally:
        context.close()


def test_public_links_open_only_in_the_browser_that_made_them(browser, tmp_path):
    with serve(tmp_path, public=True) as served:
        maker = Page(browser, served.url, 1280, "light")
        others: list[Page] = []
        try:
            maker.compare_example()
            link = _link(maker)
            assert "opens only in this browser" in maker.page.locator("#compare-link").inner_text()
            # The same browser (its local storage holds the visitor key): the link opens.
            again = maker.context.new_page()
            again.goto(link)
            again.wait_for_selector("#compare-status")
            again.wait_for_function("() => document.querySelector('#compare-status').innerText"
                                    ".includes('opened from its link')")
            assert again.locator("#candidate textarea").input_value() == SWAP.pair.candidate
            # Another browser, and an id that was never stored: the same "not found", nothing shown.
            made_up = link.rsplit("=", 1)[0] + "=compare-" + "0" * 32
            for url in (link, made_up):
                other = _fresh(browser, url, 1280)
                others.append(other)
                page = other.page
                page.wait_for_selector("#compare-status .rs-error")
                message = page.locator("#compare-status").inner_text()
                assert "opens only in the browser that made it" in message
                assert page.locator("#reference textarea").input_value() == ""
                assert page.locator("#candidate textarea").input_value() == ""
                assert not page.locator("#panel-radsem").is_visible()
            other_page = others[0].page
            other_page.screenshot(path=str(artifacts_dir() / "compare-link-not-yours.png"))
        finally:
            maker.close()
            for other in others:
                other.close()

"""The app in a real browser (Debian chromium through Playwright): compare an example pair and
see every view drawn, score an uploaded batch to 100 %, and get readable messages for bad
input. Screenshots go to $RADSCOPE_ARTIFACTS (default: artifacts/ at the repo root); with
RADSCOPE_UPDATE_SCREENSHOTS=1 the compare and batch screenshots also replace the README's
copies in docs/screenshots/.

Metrics: the lexical ones, plus for each of CLEAR, CREPE, VERT, SRR-BERT and RadSEM the real
metric when it is registered, runs without the LLM judge (rules extractor or encoder) and works
on this machine; otherwise its stand-in (tests/ui/standins.py), so every view is still checked.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from radscope.engine.io.examples import example_pairs
from radscope.engine.metrics.framework.registry import production
from tests.ui.conftest import ROOT, artifacts_dir
from tests.ui.standins import standin_registry
from tests.ui.test_client import write_pairs

pytestmark = pytest.mark.browser

FAMILIES = ("clear", "crepe", "vert", "srr", "radsem")
EXAMPLE = "effusion-laterality"
BAD_BG = "rgb(251, 220, 220)"   # ui.views.common.BAD
GOOD_BG = "rgb(217, 242, 227)"  # ui.views.common.GOOD


def _open(browser, url: str, request):
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(url)
    page.wait_for_selector("#run")
    yield page
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:  # keep what the browser showed
        page.screenshot(path=str(artifacts_dir() / f"failed-{request.node.name}.png"), full_page=True)
    context.close()


@pytest.fixture()
def page(browser, standin_server, request):
    """A page of the app with the stand-ins registered (every view can be exercised)."""
    yield from _open(browser, standin_server.url, request)


@pytest.fixture()
def real_page(browser, app_server, request):
    """A page of the app exactly as users get it (the README screenshots come from here)."""
    yield from _open(browser, app_server.url, request)


def _fast(name: str) -> bool:
    spec = production().get(name)
    if spec.kind != "llm":
        return True
    return any(opt.choices and "rules" in opt.choices for opt in spec.options)


@pytest.fixture(scope="module")
def chosen(standin_server) -> dict[str, str]:
    """family -> metric to run (real when usable, else ``<family>-standin``), plus lexical."""
    from gradio_client import Client

    pair = next(e.pair for e in example_pairs() if e.pair.id == EXAMPLE)
    picks: dict[str, str] = {n: n for n in production().names() if production().get(n).kind == "lexical"}
    client = Client(standin_server.url, verbose=False, analytics_enabled=False)
    try:
        for family in FAMILIES:
            pick = f"{family}-standin"
            if family in production() and _fast(family):
                result = client.predict(pair.reference, pair.candidate, metrics=family,
                                        api_name="/compare")[family]
                if result["error"] is None:
                    pick = family
            picks[family] = pick
    finally:
        client.close()
    print("browser test metrics:", picks)
    return picks


def _select_metrics(page, group: str, names: list[str]) -> None:
    from radscope.ui.page import metric_label

    registry = standin_registry()  # the stand-in app's metrics: the project's and the stand-ins
    wanted = {metric_label(registry.get(n)) for n in names}
    for box in page.locator(f"#{group} label").all():
        label = box.inner_text().strip()
        checkbox = box.locator("input[type=checkbox]")
        if checkbox.is_checked() != (label in wanted):
            box.click()
    for name in names:
        assert page.locator(f"#{group} label", has_text=metric_label(registry.get(name))).locator("input").is_checked()


ROW = ".virtual-row"  # Gradio 6's Dataframe draws body rows as divs in a virtual list


def _cells(page, table_id: str) -> list[dict]:
    """Row, column, text and background colour of every body cell of a Gradio Dataframe."""
    return page.eval_on_selector_all(
        f"#{table_id} [role=gridcell]",
        "cells => cells.map(c => ({row: +c.dataset.row, col: +c.dataset.col, "
        "text: c.innerText.trim(), bg: getComputedStyle(c).backgroundColor}))")


def _save(page, name: str, until: str | None = None, readme: str | None = None) -> Path:
    """Full-page screenshot into the artifacts folder. With RADSCOPE_UPDATE_SCREENSHOTS=1 it also
    replaces the README's copy ``docs/screenshots/<readme>``, cut at the bottom of ``until``."""
    path = artifacts_dir() / name
    page.screenshot(path=str(path), full_page=True)
    if readme and os.environ.get("RADSCOPE_UPDATE_SCREENSHOTS"):
        target = ROOT / "docs" / "screenshots" / readme
        target.parent.mkdir(parents=True, exist_ok=True)
        if until:
            bottom = page.evaluate(
                "s => document.querySelector(s).getBoundingClientRect().bottom + window.scrollY", until)
            width = page.viewport_size["width"]
            page.screenshot(path=str(target), full_page=True,
                            clip={"x": 0, "y": 0, "width": width, "height": bottom + 16})
        else:
            shutil.copyfile(path, target)
    return path


def test_compare_example_draws_every_view(page, chosen):
    title = next(e.title for e in example_pairs() if e.pair.id == EXAMPLE)
    page.locator("#examples").get_by_text(title, exact=True).click()
    expect_text = next(e.pair.reference for e in example_pairs() if e.pair.id == EXAMPLE)[:40]
    page.wait_for_function("t => document.querySelector('#reference textarea').value.startsWith(t)",
                           arg=expect_text)
    names = list(chosen.values())
    _select_metrics(page, "metrics", names)
    page.click("#run")
    page.wait_for_selector("#compare-status [data-done]", timeout=120_000)
    for name in names:
        head = page.locator(f"#head-{name}")
        assert head.is_visible(), name
        text = head.inner_text()
        assert re.search(r"\d+ ms|\d+\.\d s", text), f"{name}: no time in {text!r}"

    # CLEAR: 13 rows, every presence cell coloured, mismatches red and shown as R: | C:.
    clear = chosen["clear"]
    page.wait_for_selector(f"#table-{clear} {ROW}")
    assert page.locator(f"#table-{clear} {ROW}").count() == 13
    cells = _cells(page, f"table-{clear}")
    presence = [c for c in cells if c["col"] == 1]
    assert len(presence) == 13 and all(c["bg"] in (GOOD_BG, BAD_BG) for c in presence)
    assert {c["text"] for c in cells if c["col"] == 0} >= {"Pleural Effusion", "Pneumothorax"}
    for cell in cells:
        if cell["text"].startswith("R: "):
            assert cell["bg"] == BAD_BG, cell
    assert page.locator(f"#summary-{clear}").get_by_text("Positive F1").is_visible()

    # CREPE: six category bars and the total.
    crepe = chosen["crepe"]
    page.wait_for_selector(f"#plot-{crepe} .js-plotly-plot .barlayer")
    assert page.locator(f"#plot-{crepe} .barlayer .point").count() == 7

    # RadSEM: the alignment graph with the example's sentences as node labels.
    radsem = chosen["radsem"]
    page.wait_for_selector(f"#plot-{radsem} .js-plotly-plot .scatterlayer")
    labels = " ".join(page.locator(f"#plot-{radsem} .scatterlayer text").all_text_contents()).lower()
    assert "pleural effusion" in labels
    assert page.locator(f"#plot-{radsem} .scatterlayer .trace").count() >= 3  # edges + nodes

    # VERT and SRR-BERT.
    assert page.locator(f"#body-{chosen['vert']}").get_by_text("Matched findings").is_visible()
    srr_summary = page.locator(f"#summary-{chosen['srr']}")
    assert srr_summary.get_by_text("Upper level").is_visible()
    if "Neither report has any" not in srr_summary.inner_text():
        page.wait_for_selector(f"#table-{chosen['srr']} {ROW}")

    # A demo-grade model is flagged in its panel.
    demo_panels = [n for n in names if page.locator(f"#head-{n} .rs-demo").count()]
    assert all(n.endswith("-standin") or n in production() for n in demo_panels)
    assert "Traceback" not in page.content()
    _save(page, "compare-all-views.png")


def test_compare_with_the_default_metrics(real_page):
    """What a first visitor sees: an example, the metrics ticked by default, Run."""
    from radscope.ui.config import AppConfig

    page = real_page
    title = next(e.title for e in example_pairs() if e.pair.id == EXAMPLE)
    page.locator("#examples").get_by_text(title, exact=True).click()
    page.wait_for_function("() => document.querySelector('#reference textarea').value.length > 0")
    from radscope.ui.page import metric_label

    defaults = AppConfig(production()).default_metrics()

    ticked = [box.inner_text().strip() for box in page.locator("#metrics label").all()
              if box.locator("input").is_checked()]
    assert ticked == [metric_label(production().get(n)) for n in defaults]
    page.click("#run")
    page.wait_for_selector("#compare-status [data-done]", timeout=120_000)
    for name in defaults:
        assert page.locator(f"#head-{name} .rs-score, #head-{name} .rs-error").count() == 1, name
    if "clear" in defaults and not page.locator("#head-clear .rs-error").count():
        assert page.locator(f"#table-clear {ROW}").count() == 13
    until = "#panel-radsem" if "radsem" in defaults else None
    _save(page, "compare.png", until=until, readme="compare.png")


def test_batch_upload_reaches_100_percent(real_page, tmp_path):
    page = real_page
    path = write_pairs(tmp_path / "batch-20.csv", 20, ("id", "reference", "candidate", "candidate_b"))
    page.get_by_role("tab", name="Batch").click()
    page.locator("#batch-file input[type=file]").set_input_files(str(path))
    page.wait_for_selector("#batch-preview", state="visible")
    assert "20 rows" in page.locator("#batch-file-status").inner_text()
    from radscope.ui.config import AppConfig

    fast = AppConfig(production()).default_metrics()
    names = [n for n in ("bleu", "rouge", "clear", "crepe", "radsem") if n in fast]
    assert "stand-in" not in page.locator("#batch-metrics").inner_text()  # the app as users get it
    _select_metrics(page, "batch-metrics", names)
    page.click("#batch-run")
    page.wait_for_selector("#batch-progress [data-state=done]", timeout=180_000)
    done = page.locator("#batch-progress .rs-progress")
    assert done.get_attribute("data-percent") == "100"
    assert "40/40 pairs of both systems (100 %)" in done.inner_text()  # one bar for A and B
    assert page.locator("#batch-progress progress").count() == 1
    assert page.locator("#batch-progress progress").get_attribute("value") == "100"
    page.wait_for_selector(f"#batch-results {ROW}")
    ids = {c["text"] for c in _cells(page, "batch-results") if c["col"] == 0}
    assert "pair-00" in ids
    # Sortable: the second column's menu sorts it, largest first.
    header = page.locator("#batch-results th").nth(1)
    header.hover()
    header.locator("button.cell-menu-button").click(force=True)
    page.get_by_text("Sort descending").first.click()
    page.wait_for_timeout(300)
    column = [float(c["text"]) for c in _cells(page, "batch-results") if c["col"] == 1 and c["text"]]
    assert column and column == sorted(column, reverse=True)
    page.wait_for_selector("#batch-comparison", state="visible")  # candidate_b was guessed as system B
    page.wait_for_selector("#batch-distribution .js-plotly-plot")
    for name in ("crepe", "clear"):
        if name in names:
            page.wait_for_selector(f"#batch-corpus-{name} .barlayer")
    _save(page, "batch.png", readme="batch.png")


def test_batch_progress_moves_with_an_eta(page, tmp_path):
    """A slow stand-in (0.1 s a pair) shows the progress bar part-way, then at 100 %."""
    path = write_pairs(tmp_path / "slow-20.csv", 20, fresh=True)
    page.get_by_role("tab", name="Batch").click()
    page.locator("#batch-file input[type=file]").set_input_files(str(path))
    page.wait_for_selector("#batch-preview", state="visible")
    _select_metrics(page, "batch-metrics", ["slow-standin"])
    page.click("#batch-run")
    page.wait_for_selector("#batch-progress [data-state=running][data-percent]", timeout=60_000)
    running = page.locator("#batch-progress .rs-progress").inner_text()
    assert "pairs" in running and "ETA" in running
    page.wait_for_selector("#batch-progress [data-state=done]", timeout=60_000)
    assert "20/20 pairs (100 %)" in page.locator("#batch-progress").inner_text()


def test_bad_input_gives_readable_messages(page, tmp_path):
    status = page.locator("#compare-status")
    _select_metrics(page, "metrics", ["bleu"])
    page.click("#run")
    page.wait_for_selector("#compare-status .rs-error")
    assert "The reference report is empty" in status.inner_text()

    page.locator("#reference textarea").fill("Lungs are clear.")
    big = "No acute cardiopulmonary process. " * 62_000  # about 2.1 MB
    page.locator("#candidate textarea").fill(big)
    page.click("#run")
    page.wait_for_function("() => document.querySelector('#compare-status').innerText.includes('limit')")
    assert f"{len(big):,} characters; the limit is 20,000" in status.inner_text()

    binary = tmp_path / "scan.txt"
    binary.write_bytes(b"\x00\x01\x02PK\x03\x04" * 100)
    with page.expect_file_chooser() as chooser:
        page.click("#reference-upload")
    chooser.value.set_files(str(binary))
    page.wait_for_function("() => document.querySelector('#compare-status').innerText.includes('binary')")
    assert "scan.txt: this is a binary file" in status.inner_text()

    page.get_by_role("tab", name="Batch").click()
    page.locator("#batch-file input[type=file]").set_input_files(_binary_csv(tmp_path))
    page.wait_for_function("() => document.querySelector('#batch-file-status').innerText.includes('binary')")
    assert "binary file" in page.locator("#batch-file-status").inner_text()

    no_candidate = write_pairs(tmp_path / "no-candidate.csv", 3, ("id", "reference", "text"))
    page.locator("#batch-file").get_by_label("Clear").click()  # the box holds one file
    page.locator("#batch-file input[type=file]").set_input_files(str(no_candidate))
    page.wait_for_function("() => document.querySelector('#batch-file-status').innerText.includes('3 rows')")
    assert "Could not guess the candidate column" in page.locator("#batch-file-status").inner_text()
    # Map a column the file does not have (typed into the dropdown) and run.
    box = page.locator("#col-candidate input")
    box.fill("candidate")
    box.press("Enter")
    _select_metrics(page, "batch-metrics", ["bleu"])
    page.click("#batch-run")
    page.wait_for_selector("#batch-progress .rs-error")
    message = page.locator("#batch-progress").inner_text()
    assert "column 'candidate' (the candidate column) not found" in message
    assert "the file has columns: id, reference, text" in message
    assert "Traceback" not in page.content()


def _binary_csv(tmp_path: Path) -> str:
    path = tmp_path / "binary.csv"
    path.write_bytes(b"id,reference\x00\xff\xfe" + bytes(range(256)))
    return str(path)


def test_a_failing_metric_shows_its_error_and_the_others_still_show(page):
    page.locator("#reference textarea").fill("Lungs are clear. No effusion.")
    page.locator("#candidate textarea").fill("FAIL marker. Lungs are clear.")
    _select_metrics(page, "metrics", ["bleu", "clear-standin", "rouge"])
    page.click("#run")
    page.wait_for_selector("#compare-status [data-done]")
    error = page.locator("#head-clear-standin .rs-error")
    assert "stand-in failure requested by the input" in error.inner_text()
    page.wait_for_selector("#table-clear-standin", state="hidden")  # nothing to draw
    assert page.locator("#head-bleu .rs-score").is_visible()
    assert page.locator("#head-rouge .rs-score").is_visible()
    assert "1 failed" in page.locator("#compare-status").inner_text()

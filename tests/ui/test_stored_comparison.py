"""A Compare run kept in a real SQLite store and read back (what the link opens), its owner
check in public mode, and the report's plots drawn as SVG from the real views' figures (rules
readers, no browser)."""
from __future__ import annotations

import pytest

from radscope.engine.context import RuntimeContext
from radscope.engine.io.examples import example_pairs
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.runner import run_batch
from radscope.engine.runs.store import Store
from radscope.ui.tabs.compare import link as compare_link
from radscope.ui.tabs.compare.link import NotOpenable, load_comparison, save_comparison
from radscope.ui.plot_svg import figure_svg
from radscope.ui.public import owner_of
from radscope.ui.views import render

SWAP = next(e.pair for e in example_pairs() if e.pair.id == "effusion-laterality")


@pytest.fixture(scope="module")
def results() -> dict:
    names = ["clear", "crepe", "radsem", "bleu"]
    run = run_batch([SWAP], names, RuntimeContext(options={"extractor": "rules"}), registry=production())
    return dict(run.rows[0]["metrics"])


def test_a_comparison_comes_back_as_it_was_stored(tmp_path, results):
    store = Store(tmp_path / "s.sqlite")
    run_id = save_comparison(store, SWAP, results, {"extractor": "rules", "api_key": "sk-secret-1"}, None)
    assert compare_link.RUN_ID.fullmatch(run_id)
    stored = load_comparison(Store(store.path), run_id, None, public=False)  # a fresh connection
    assert stored.pair.reference == SWAP.reference and stored.pair.candidate == SWAP.candidate
    assert list(stored.results) == list(results)
    assert stored.results == results  # every metric's whole result, signature included
    info = store.get_run(run_id)
    assert info.status == "finished" and info.options["api_key"] == "•••"  # secrets never stored
    assert compare_link.link_for("http://h:1/", run_id) == f"http://h:1/?compare={run_id}"


def test_public_links_are_owner_only_and_say_the_same_for_unknown_ids(tmp_path, results):
    store = Store(tmp_path / "s.sqlite")
    mine, theirs = owner_of("visitor-a"), owner_of("visitor-b")
    run_id = save_comparison(store, SWAP, results, {}, mine)
    assert load_comparison(store, run_id, mine, public=True).results == results
    answers = []
    for attempt, owner in ((run_id, theirs), (run_id, None), ("compare-" + "0" * 32, mine),
                           ("../etc/passwd", mine)):
        with pytest.raises(NotOpenable) as caught:
            load_comparison(store, attempt, owner, public=True)
        answers.append(str(caught.value).replace(attempt, "<id>"))
    assert len(set(answers[:3])) == 1 and "made in this browser" in answers[0]
    local_run = save_comparison(store, SWAP, results, {}, None)  # made locally: no visitor's
    with pytest.raises(NotOpenable):
        load_comparison(store, local_run, mine, public=True)


def test_report_plots_are_svg_of_the_panels_figures(results):
    crepe = figure_svg(render("crepe", results["crepe"]).figure)
    assert crepe.startswith("<svg") and crepe.count("class='rs-bar'") == 7
    assert "data-label='Total'" in crepe and "<script" not in crepe
    radsem = figure_svg(render("radsem", results["radsem"]).figure)
    assert "left pleural effusion" in radsem and "rs-line" in radsem and "<title>" in radsem


def test_a_plot_the_report_cannot_draw_is_named():
    import plotly.graph_objects as go

    with pytest.raises(ValueError, match="heatmap"):
        figure_svg(go.Figure(go.Heatmap(z=[[1, 2], [3, 4]])))

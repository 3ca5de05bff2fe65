"""The metric registry is an instance: built once from the metric modules, never changed, and a
test that needs more metrics builds its own beside the project's instead of adding to it."""
from __future__ import annotations

import pickle
from dataclasses import replace

import pytest

from radscope.engine.context import Option, RuntimeContext
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.registry import MetricRegistry, production
from radscope.engine.runs.runner import run_batch
from tests.ui.standins import HEADLINE, standin_registry
from tests.ui.standins import METRICS as STANDINS

PROJECT = {"clear", "crepe", "vert", "srr", "radsem", "bleu", "bleu1", "rouge"}


def test_the_project_registry_is_built_once_and_holds_the_project_metrics():
    assert production() is production()
    assert set(production().names()) == PROJECT
    assert "standin_note" not in production().all_options()


def test_a_test_registry_adds_stand_ins_without_touching_the_project_one():
    before = production().names()
    own = production().with_specs(STANDINS)
    assert set(own.names()) == PROJECT | {s.name for s in STANDINS}
    assert "clear-standin" in own and "clear-standin" not in production()
    assert production().names() == before and production().get("clear") is own.get("clear")
    assert set(standin_registry().names()) == set(own.names())  # the same, from module names


def test_a_registry_cannot_be_changed_through_what_it_returns():
    options = production().all_options()
    options["judge"] = Option("judge", "x", "changed")
    names = production().names()
    names.append("nope")
    assert production().all_options()["judge"].default != "x" and "nope" not in production()


def test_a_name_or_an_option_declared_twice_is_refused():
    spec = production().get("bleu")
    with pytest.raises(ValueError, match="metric 'bleu' is registered twice"):
        production().with_specs([replace(spec, card=production().get("rouge").card)])
    clash = replace(STANDINS[0], name="other-standin",
                    options=(Option("standin_note", 0, "declared with another default"),))
    with pytest.raises(ValueError, match="option 'standin_note' is declared differently"):
        MetricRegistry([*STANDINS, clash])


def test_unknown_names_are_named_with_what_the_registry_knows():
    own = MetricRegistry(STANDINS)
    assert own.parse_metric_list("CLEAR-standin, slow-standin,clear-standin") == [
        "clear-standin", "slow-standin"]
    with pytest.raises(ValueError, match="unknown metric\\(s\\): bleu; choose from: clear-standin"):
        own.parse_metric_list("bleu")
    with pytest.raises(KeyError, match="unknown metric 'bleu'"):
        own.get("bleu")


def test_a_registry_of_modules_reaches_worker_processes_by_name_and_loose_specs_refuse():
    copy = pickle.loads(pickle.dumps(standin_registry()))
    assert copy.names() == standin_registry().names()
    with pytest.raises(pickle.PicklingError, match="cannot go to a worker process"):
        pickle.dumps(production().with_specs(STANDINS))


def test_the_runner_scores_with_the_registry_it_is_given():
    pairs = [ReportPair("1", "Small left effusion.", "Small left effusion.")]
    run = run_batch(pairs, ["bleu", "clear-standin"], RuntimeContext(), registry=standin_registry())
    assert run.rows[0]["metrics"]["clear-standin"]["error"] is None
    with pytest.raises(KeyError, match="unknown metric 'clear-standin'"):
        run_batch(pairs, ["clear-standin"], RuntimeContext(), registry=production())


def test_the_cli_and_the_api_take_the_registry_they_are_given(capsys):
    from radscope.engine.api import Scorer
    from radscope.engine.commands import main

    assert main(["metrics"], registry=standin_registry()) == 0
    assert "slow-standin" in capsys.readouterr().out
    assert main(["metrics"]) == 0
    assert "standin" not in capsys.readouterr().out  # the default: the project's metrics
    with Scorer(["bleu", "radsem-standin"], registry=standin_registry()) as scorer:
        scores = scorer.score(["Small left effusion."], ["Small left effusion."])
    assert scores.errors("bleu") == scores.errors("radsem-standin") == [None]
    assert scores.array("radsem-standin")[0] == HEADLINE["radsem"]()  # the stand-in's fixed score

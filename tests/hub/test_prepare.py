"""RADSCOPE_PREPARE: the app fetches and prepares models before it serves, and the prepared
model is what its metric uses; a wrong id stops the start with a message."""
from __future__ import annotations

import subprocess
import sys

import pytest

from radscope.engine.metrics.framework.registry import production
from radscope.ui.config import ConfigError, config_from_dict
from tests.hub.conftest import CREPE_ID, ROOT, needs_export_env, served_app


@needs_export_env
def test_app_prepares_crepe_before_serving_and_uses_it(env, tmp_path):
    from gradio_client import Client

    prepare_env = {**env, "RADSCOPE_PREPARE": CREPE_ID}
    with served_app(prepare_env, tmp_path) as (url, seconds):
        log = (tmp_path / "app.log").read_text()
        assert f"Preparing {CREPE_ID}" in log and "Prepared 1 of 1 model(s)" in log
        client = Client(url, verbose=False, analytics_enabled=False)
        results = client.predict("Small right pleural effusion.", "No pleural effusion.",
                                 metrics="crepe", api_name="/compare")
        client.close()
    assert results["crepe"]["model"] == CREPE_ID and results["crepe"]["demo_grade"] is False
    print(f"\nstart-up with RADSCOPE_PREPARE={CREPE_ID} (fake, nothing cached): {seconds:.1f} s")
    # a second start finds the receipt and does not fetch again
    with served_app({**prepare_env, "HF_HUB_OFFLINE": "1"}, tmp_path) as (_, again):
        assert "Prepared 1 of 1 model(s)" in (tmp_path / "app.log").read_text()
    print(f"second start-up (prepared, offline): {again:.1f} s")


def test_unknown_prepare_id_stops_the_start(env):
    proc = subprocess.run([sys.executable, "app.py", "--port", "1"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={**env, "RADSCOPE_PREPARE": "crepe-biomedbert,nope"})
    assert proc.returncode == 2 and "unknown model id(s) to prepare: nope" in proc.stderr


def test_config_prepare_list_is_checked():
    assert config_from_dict({"prepare": "crepe-biomedbert, srr-bert-leaves"}, production()).prepare == \
        ["crepe-biomedbert", "srr-bert-leaves"]
    with pytest.raises(ConfigError, match="unknown model id"):
        config_from_dict({"prepare": ["no-such-model"]}, production())

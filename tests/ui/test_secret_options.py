"""Which options hold secrets (masked, blank in the page, never shown back): whole words only.

``judge_max_tokens`` once counted as a secret because its name contains "token": the app then
started its number box blank, and Gradio refused to build the page."""
from radscope.engine.metrics.framework.registry import production
from radscope.ui.public import is_secret


def test_secret_options_are_named_by_whole_words():
    assert is_secret("judge_api_key") and is_secret("hub_token") and is_secret("db_password")
    assert not is_secret("judge_max_tokens") and not is_secret("keyword_list")


def test_the_only_secret_the_registry_declares_is_the_api_key():
    assert [name for name in production().all_options() if is_secret(name)] == ["judge_api_key"]

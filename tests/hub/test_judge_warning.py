"""'Use this judge' on a registry judge that is not on the machine warns and points at Get,
instead of accepting it silently; once fetched (a receipt), it does not."""
import json

import huggingface_hub.constants

from radscope.ui.tabs.models.tab import _not_here


def test_registry_judge_not_on_this_machine_is_flagged(tmp_path, monkeypatch):
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hf"))
    monkeypatch.setenv("RADSCOPE_MODELS", str(tmp_path / "models"))
    warning = _not_here("qwen2.5-7b-instruct")
    assert warning and "not on this machine" in warning and "Get" in warning and "4680 MB" in warning
    assert _not_here("gemma3-270m-demo") is None  # installed with the app
    assert _not_here("/some/path.gguf") is None   # not a registry id

    gguf = tmp_path / "judge.gguf"
    gguf.write_bytes(b"GGUF")
    receipt = {"model_id": "qwen2.5-7b-instruct", "task": "judge", "path": str(gguf),
               "files": [{"path": str(gguf), "sha256": "0" * 64, "size": 4}], "source": {}}
    (tmp_path / "models" / "fetched").mkdir(parents=True)
    (tmp_path / "models" / "fetched" / "qwen2.5-7b-instruct.json").write_text(json.dumps(receipt))
    assert _not_here("qwen2.5-7b-instruct") is None

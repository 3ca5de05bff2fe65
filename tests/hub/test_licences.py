"""Every registry model states a licence (or "not stated") and NOTICE lists it; the project
has a LICENSE of its own."""
from pathlib import Path

from radscope.models.model_registry import load_registry

ROOT = Path(__file__).resolve().parents[2]


def test_every_model_has_a_licence_line_and_a_notice_entry():
    notice = (ROOT / "NOTICE").read_text(encoding="utf-8")
    for entry in load_registry().values():
        assert entry.licence.strip(), entry.id
        named = f"models/{entry.path}" if entry.source == "bundled" else entry.id
        assert named in notice, f"NOTICE does not list {named}"
        if entry.tokenizer:
            assert entry.tokenizer_licence and entry.tokenizer in notice, entry.id
            assert entry.tokenizer_licence in entry.licence_text()


def test_the_project_licence_is_apache_2():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text

"""A checkpoint without tokenizer.json (vocab.txt only, like CXR-BERT-general) still exports a
fast tokenizer file that tokenises exactly like the original."""
import shutil
from pathlib import Path

import pytest
from tokenizers import Tokenizer

from radscope.models.export import write_tokenizer
from training.common import backbone_dir


def test_vocab_only_checkpoint_gets_an_equivalent_tokenizer_json(tmp_path):
    source = backbone_dir()
    vocab_only = tmp_path / "vocab-only"
    vocab_only.mkdir()
    for name in ("vocab.txt", "tokenizer_config.json", "special_tokens_map.json", "config.json"):
        if (source / name).exists():
            shutil.copyfile(source / name, vocab_only / name)
    assert not (vocab_only / "tokenizer.json").exists()
    out = tmp_path / "out"
    out.mkdir()
    built = Tokenizer.from_file(str(write_tokenizer(vocab_only, out)))
    shipped = Tokenizer.from_file(str(Path(source) / "tokenizer.json"))
    shipped.no_padding()  # the package's file pads to 128; the exported one must not pad
    assert built.padding is None and built.truncation is None
    for first, second in [("Small left pleural effusion.", "No pneumothorax."),
                          ("Port-A-Cath in the SVC; 7 mm nodule (RUL).", "Normal heart size.")]:
        a, b = built.encode(first, second), shipped.encode(first, second)
        assert a.ids == b.ids and a.type_ids == b.type_ids
        assert a.tokens[0] == "[CLS]" and a.tokens.count("[SEP]") == 2


def test_checkpoint_without_any_tokenizer_is_an_error(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "config.json").write_text('{"model_type": "bert"}')
    with pytest.raises(FileNotFoundError, match="cannot build a tokenizer"):
        write_tokenizer(empty, tmp_path)

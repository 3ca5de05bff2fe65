"""Fixtures for the encoder tests: the bundled ONNX models, loaded once per test session.

These tests run in the runtime environment (.venv), where torch is not installed.
"""
import pytest

from radscope.engine.runtimes.encoder_session import load_encoder


@pytest.fixture(scope="session")
def crepe_encoder():
    return load_encoder("crepe-minilm-demo", "crepe", threads=2)


@pytest.fixture(scope="session")
def srr_encoder():
    return load_encoder("srr-minilm-demo", "srr", threads=2)


@pytest.fixture(scope="session")
def embedder():
    from radscope.engine.runtimes.encoder_session import SentenceEmbedder

    return SentenceEmbedder(threads=2)

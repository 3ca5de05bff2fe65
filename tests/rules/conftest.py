"""Fixtures for the rules extractors' tests: the extractors, built once per session."""
import pytest

from radscope.engine.metrics.clear.rules import build_extractor as build_clear
from radscope.engine.metrics.radsem.rules import build_extractor as build_radsem


@pytest.fixture(scope="session")
def clear_rules():
    return build_clear(None)


@pytest.fixture(scope="session")
def radsem_rules():
    # Token overlap keeps these tests independent of the bundled encoder.
    return build_radsem(None, similarity="lexical")

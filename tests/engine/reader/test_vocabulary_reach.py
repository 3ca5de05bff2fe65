"""reader-v16: the reader against words of our own choosing. Each common finding, written alone as a
one-line report, is a statement of an abnormal finding (not refused as "no statement about a
patient"); each anatomical place is read as a site; since reader-v17, each pair of sentences that
say one finding two ways is one statement. The lists (tests/fixtures/reader) were written
from radiology knowledge across modalities, not from SSREE or IU X-ray; docs/reading.md
("reader-v16") says what they found."""
from __future__ import annotations

from pathlib import Path

import pytest

from radscope.engine.api import Scorer
from radscope.engine.eligibility.statements import sentence_kind
from radscope.engine.reader.attributes.place import ABNORMAL, sentence_features

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "reader"


def _lines(name: str) -> list[str]:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


FINDINGS = _lines("common_findings.txt")
PLACES = _lines("common_places.txt")


def test_the_lists_are_there():
    assert len(FINDINGS) >= 500 and len(PLACES) >= 180


@pytest.mark.parametrize("finding", FINDINGS)
def test_a_common_finding_alone_is_a_statement_of_an_abnormal_finding(finding):
    sentence = f"{finding[:1].upper()}{finding[1:]}."
    assert sentence_kind(sentence) is None
    assert sentence_features(sentence).normality == ABNORMAL


@pytest.mark.parametrize("place", PLACES)
def test_an_anatomical_place_is_read_as_a_site(place):
    # "intact", not "normal": since reader-v23 "the lymph nodes are normal" is a denial of
    # lymphadenopathy, read as "no enlarged lymph nodes" is (a finding, not a place)
    assert sentence_features(f"The {place} is intact.").sites


PAIRS = [tuple(line.split(" | ")) for line in _lines("sentence_pairs.txt")]


def test_one_finding_said_two_ways_is_one_statement():
    """Each pair (our own wording, every modality) scores perfect on RadSEM and VERT."""
    assert len(PAIRS) >= 200 and all(len(p) == 2 for p in PAIRS)
    records = Scorer(["radsem", "vert"], extractor="rules").score(
        [r for r, _ in PAIRS], [c for _, c in PAIRS]).records
    missed = [(pair, rec["metrics"]["radsem"]["score"], rec["metrics"]["vert"]["score"])
              for pair, rec in zip(PAIRS, records, strict=True)
              if (rec["metrics"]["radsem"]["score"], rec["metrics"]["vert"]["score"]) != (1.0, 1.0)]
    assert missed == []

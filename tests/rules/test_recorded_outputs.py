"""The example pairs give exactly the outputs recorded before the speed work (issue 27):
every production metric under the rules extractor, scores, details and signatures byte for byte
(``elapsed_ms`` left out: a timing). A change that means to alter an output rewrites the
recording with ``python -m engine.bench outputs --write-fixture`` and says why in its commit."""
import json

from engine.bench.outputs import FIXTURE, example_lines


def test_examples_give_the_recorded_outputs():
    recorded = FIXTURE.read_text(encoding="utf-8").splitlines()
    now = example_lines()
    assert [json.loads(line)["id"] for line in now] == [json.loads(line)["id"] for line in recorded]
    for line, before in zip(now, recorded, strict=True):
        assert line == before, f"outputs changed for pair {json.loads(line)['id']}"

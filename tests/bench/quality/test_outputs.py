"""The example pairs give exactly the outputs recorded before the speed work (issue 27):
every production metric under the rules extractor, scores, details and signatures byte for byte
(``elapsed_ms`` left out: a timing). A change that means to alter an output rewrites the
recording with ``python -m bench outputs --write-fixture`` and says why in its commit.

Scored in a fresh process (``python -m bench outputs --compare``), as a user's run is:
the readers cache by text, so the recording is compared with what a new process computes."""
from bench.quality.outputs import FIXTURE
from tests.conftest import run_bench


def test_examples_give_the_recorded_outputs():
    proc = run_bench("outputs", "--compare", str(FIXTURE))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"byte-identical to {FIXTURE} (6 lines)" in proc.stdout

"""The command line's progress without a terminal: a line per 10 % or per 30 s and one at the
end, never a redraw per result; on a terminal, tqdm's bar."""
import io
import json

from radscope.engine.io.progress import BarProgress, LineProgress, progress
from tests.conftest import run_cli


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_line_per_tenth_and_one_at_the_end():
    out, clock = io.StringIO(), Clock()
    bar = LineProgress(1000, "scoring", stream=out, clock=clock)
    for done in range(1, 1001):
        clock.now += 0.001
        bar.update(done)
    bar.close()
    lines = out.getvalue().splitlines()
    assert len(lines) == 10, lines
    assert lines[0].startswith("scoring: 100/1000 result (10%)")
    assert lines[-1].startswith("scoring: 1000/1000 result (100%)")


def test_a_slow_run_says_something_every_30_seconds():
    out, clock = io.StringIO(), Clock()
    bar = LineProgress(10_000, stream=out, clock=clock)
    for done in range(1, 101):  # 1 % in 100 s: no tenth reached, three 30-second lines
        clock.now += 1.0
        bar.update(done)
    assert [line.split(" ")[0] for line in out.getvalue().splitlines()] == ["30/10000", "60/10000",
                                                                             "90/10000"]
    bar.close()  # the last count is said once more at the end
    assert out.getvalue().splitlines()[-1].startswith("100/10000 result (1%)")


def test_the_total_may_change_and_nothing_is_repeated():
    out, clock = io.StringIO(), Clock()
    bar = LineProgress(0, stream=out, clock=clock)
    bar.update(5, 10)
    bar.update(10, 10)
    bar.close()
    assert out.getvalue().splitlines() == ["5/10 result (50%), 0 s", "10/10 result (100%), 0 s"]


def test_a_terminal_gets_the_bar_a_file_the_lines():
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert isinstance(progress(5, stream=Terminal()), BarProgress)
    assert isinstance(progress(5, stream=io.StringIO()), LineProgress)


def test_the_cli_writes_a_few_lines_to_a_captured_stderr(tmp_path):
    rows = [{"id": str(i), "reference": f"No effusion {i}.", "candidate": f"Small effusion {i}."}
            for i in range(200)]
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps(r) + "\n" for r in rows))
    proc = run_cli("score", "--input", str(pairs), "--metrics", "bleu", "--out",
                   str(tmp_path / "r.jsonl"), "--db", str(tmp_path / "db.sqlite"))
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if " result (" in line]
    assert "\r" not in proc.stderr
    assert 1 <= len(lines) <= 11, proc.stderr
    assert lines[-1].startswith("200/200 result (100%)")

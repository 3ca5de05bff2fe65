"""The progress line users see: bytes, percentage, rate and ETA for downloads; counts for
package installs."""
import time

from radscope.models.progress import Progress


def test_download_line_has_bytes_rate_and_eta():
    p = Progress("qwen2.5-7b-instruct", "download", total=4_000_000_000, done=1_000_000_000,
                 resumed_from=1_000_000_000, started=time.monotonic() - 10)
    p.done += 500_000_000  # 500 MB in 10 s this run: 50 MB/s, 2.5 GB left: 50 s
    line = p.line()
    assert line.startswith("qwen2.5-7b-instruct: download 1500.0/4000.0 MB (38%) 50.0 MB/s ETA 0:")
    assert 49 <= p.eta_s <= 51


def test_count_lines_with_and_without_a_total():
    p = Progress("crepe-biomedbert", "export environment", done=15, unit="packages collected",
                 message="Collecting onnx")
    assert p.line() == "crepe-biomedbert: export environment 15 packages collected - Collecting onnx"
    p.total, p.unit = 60, "files"
    assert "15/60 files (25%)" in p.line()

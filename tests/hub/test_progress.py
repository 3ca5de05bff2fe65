"""The progress line users see: bytes, percentage, rate and ETA for downloads; counts for
package installs."""
import time

from models.progress import Progress


def test_download_line_has_bytes_rate_and_eta():
    p = Progress("qwen2.5-7b-instruct", "download", total=4_000_000_000, done=1_000_000_000,
                 resumed_from=1_000_000_000, started=time.monotonic() - 10)
    p.done += 500_000_000  # 500 MB in 10 s this run: 50 MB/s, 2.5 GB left: 50 s
    line = p.line()
    assert line.startswith("qwen2.5-7b-instruct: download 1500.0/4000.0 MB (38%) 50.0 MB/s ETA 0:")
    assert 49 <= p.eta_s <= 51


def test_package_count_line():
    p = Progress("crepe-biomedbert", "export environment", total=60, done=15, unit="packages",
                 message="Collecting onnx")
    assert "15/60 packages (25%)" in p.line() and p.line().endswith("- Collecting onnx")

"""The local judge's runtime as the page shows it while `make run` compiles llama.cpp in the
background: progress from the build log, then ready (or failed, or stopped) by itself."""
from radscope.ui.judge_build import DONE, FAILED, START, build_progress, judge_runtime, runtime_html

NINJA = f"{START} 1000\nCollecting llama-cpp-python\n  [1/200] Building C object a.o\n  [57/200] Building CXX object b.o\n"


def _log(tmp_path, text):
    path = tmp_path / "llama-build.log"
    path.write_text(text)
    return path


def test_progress_from_ninja_and_make_lines():
    assert build_progress("[3/4] cc x.o\n[50/200] c++ y.o\n") == 0.25
    assert build_progress("[ 12%] Building CXX object x.o\n[ 40%] Linking y\n") == 0.4
    assert build_progress("Collecting llama-cpp-python\n") is None


def test_a_build_under_way_is_shown_with_its_share_and_time(tmp_path):
    path = _log(tmp_path, NINJA)
    mtime = path.stat().st_mtime
    state = judge_runtime(path, now=mtime + 5, installed=True)  # pip may copy files before the end
    assert state.state == "building" and not state.settled
    assert state.fraction == 57 / 200
    assert state.seconds == mtime + 5 - 1000
    html = runtime_html(state)
    assert "28% compiled" in html and "The default metrics work meanwhile" in html


def test_the_end_of_the_build_decides(tmp_path):
    done = _log(tmp_path, NINJA + DONE + "\n")
    assert judge_runtime(done, installed=True).state == "ready"
    failed = _log(tmp_path, NINJA + FAILED + "\n")
    state = judge_runtime(failed, installed=False)
    assert state.state == "failed" and state.settled
    assert str(failed) in runtime_html(state) and str(failed) not in runtime_html(state, public=True)


def test_a_log_left_without_an_end_is_a_stopped_build(tmp_path):
    path = _log(tmp_path, NINJA)
    assert judge_runtime(path, now=path.stat().st_mtime + 3600, installed=False).state == "stopped"


def test_without_a_build_log_the_installed_package_decides(tmp_path, monkeypatch):
    monkeypatch.delenv("RADSCOPE_JUDGE_BUILD_LOG", raising=False)
    assert judge_runtime(installed=True).state == "ready"
    assert judge_runtime(installed=False).state == "missing"
    assert judge_runtime(tmp_path / "absent.log", installed=False).state == "missing"


def test_a_judge_that_cannot_start_without_llama_says_what_to_do(tmp_path, monkeypatch):
    from radscope.ui.tabs.compare.logic import _no_llama

    monkeypatch.setenv("RADSCOPE_JUDGE_BUILD_LOG", str(_log(tmp_path, NINJA)))
    said = _no_llama(RuntimeError("judge failed to start: ModuleNotFoundError: No module named 'llama_cpp'"))
    assert "still compiling in the background" in said and "rules reader or a judge server" in said
    assert _no_llama(RuntimeError("out of memory")) == ""

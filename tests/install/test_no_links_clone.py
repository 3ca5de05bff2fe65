"""A clone made with ``git -c core.symlinks=false`` (Git for Windows' default) works as any other:
``radscope.*`` imports from it, a fast subset of the suite passes there, and it builds the same
wheel (file list) as a normal clone, holding exactly the package's tracked files.

The clones are of the checkout's HEAD (committed work only). Wheels are built by pip with its
configured index for setuptools (the build backend), as test_pip_install does."""
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Quick tests that need the whole tree: the package map, the docs' card tables, the CLI on a file.
SUBSET = ["tests/radscope/test_layout.py", "tests/engine/metrics/framework/test_card_tables.py", "tests/engine/test_cli_score.py"]

pytestmark = pytest.mark.slow


def run(*args: str | Path, cwd: Path) -> str:
    env = {**os.environ, "PYTHONPATH": "", "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, f"{args}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


def clone(tmp: Path, name: str, *config: str) -> Path:
    target = tmp / name
    run("git", *config, "clone", "--quiet", "--no-hardlinks", ROOT, target, cwd=tmp)
    return target


def wheel_names(tree: Path, out: Path) -> set[str]:
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--disable-pip-version-check",
        "-w", out, tree, cwd=out.parent)
    with zipfile.ZipFile(next(out.glob("radscope-*.whl"))) as wheel:
        return {n for n in wheel.namelist() if ".dist-info/" not in n}


@pytest.fixture(scope="module")
def no_links(tmp_path_factory) -> Path:
    return clone(tmp_path_factory.mktemp("clones"), "no-links", "-c", "core.symlinks=false")


def test_imports_and_a_fast_subset_pass_in_a_clone_without_links(no_links):
    printed = run(sys.executable, "-c", "import radscope.engine, radscope.launch, radscope.ui.page, radscope.models; "
                  "print(radscope.engine.__file__); print(radscope.launch.__file__)", cwd=no_links)
    assert printed.split() == [str(no_links / "engine" / "__init__.py"), str(no_links / "radscope" / "launch.py")]
    out = run(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *SUBSET, cwd=no_links)
    assert " passed" in out and "failed" not in out


def test_the_wheel_of_a_clone_without_links_equals_a_normal_ones(no_links, tmp_path):
    normal = clone(tmp_path, "normal")
    (tmp_path / "w1").mkdir()
    (tmp_path / "w2").mkdir()
    names = wheel_names(no_links, tmp_path / "w1")
    assert names == wheel_names(normal, tmp_path / "w2")
    tracked = run("git", "ls-files", "radscope", "engine", "models", "ui", "prompts", "assets", cwd=normal).split()
    # Every tracked file of the package's folders, under radscope/, but benchmarks and training.
    expected = {p if p.startswith("radscope/") else f"radscope/{p}" for p in tracked
                if not p.startswith(("bench/", "training/"))}
    assert names == expected

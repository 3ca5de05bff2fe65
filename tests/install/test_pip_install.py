"""`pip install <checkout>` and `pip install git+file://<checkout>` into a fresh virtual
environment outside the checkout, then the `radscope` command and `import radscope` from /tmp-like
folders, one of them holding a training repository's own `models/` and `engine/` packages.

A bare install (no extras) must run the rules readers and the lexical metrics. pip gets the
dependencies from its index as configured on the machine (its wheel cache makes a second run
fast); nothing comes from the checkout's own environment (no --system-site-packages)."""
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REFS = ["No acute cardiopulmonary process. Heart size is normal.", "Small left pleural effusion."]
CANDS = ["Heart size is normal. No pleural effusion.", "Moderate left pleural effusion."]
# The texts of a training repository whose own packages are called models and engine.
THEIR_MODELS = "NAME = 'their models'\n"
THEIR_ENGINE = "raise ImportError('their engine must not be imported by radscope')\n"

pytestmark = pytest.mark.slow


def run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=900)
    assert proc.returncode == 0, f"{args}\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    """A fresh venv with `pip install <checkout>` (no extras)."""
    where = tmp_path_factory.mktemp("venv")
    env = where / "env"
    run(sys.executable, "-m", "venv", env, cwd=where)
    # PYTHONPATH would let the checkout leak into the venv: cleared for every command here.
    run(env / "bin" / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", ROOT,
        cwd=where, env={"PYTHONPATH": ""})
    return env


def site_packages(venv: Path) -> Path:
    return next((venv / "lib").glob("python3.*/site-packages"))


def test_installs_one_top_level_package_of_real_files(venv):
    site = site_packages(venv)
    record = next(site.glob("radscope-*.dist-info")) / "RECORD"
    top = {line.split("/")[0] for line in record.read_text().splitlines() if not line.startswith("..")}
    assert {t for t in top if not t.startswith("radscope-")} == {"radscope"}
    package = site / "radscope"
    assert not any(p.is_symlink() for p in package.rglob("*"))
    tracked = run("git", "ls-files", "engine", "models", "ui", "prompts", "assets", cwd=ROOT).split()
    wanted = [p for p in tracked if p.endswith((".py", ".json", ".toml", ".txt", ".css", ".onnx"))
              and "/tests/" not in p]
    missing = [p for p in wanted if not (package / p).is_file()]
    assert not missing, f"not in the installed package: {missing[:10]}"
    # the benchmarks and training sit beside the package folders in a checkout: never installed
    assert not any((package / p).exists() for p in ("bench", "training", "engine/bench", "models/training"))
    assert (package / "launch.py").is_file() and (package / "layout.py").is_file()


def test_bare_install_scores_from_a_folder_with_its_own_models_and_engine(venv, tmp_path):
    work = tmp_path / "trainer"
    for name, text in (("models", THEIR_MODELS), ("engine", THEIR_ENGINE)):
        (work / name).mkdir(parents=True)
        (work / name / "__init__.py").write_text(text)
    pairs = work / "pairs.jsonl"
    pairs.write_text("".join(json.dumps({"id": str(i), "reference": r, "candidate": c}) + "\n"
                             for i, (r, c) in enumerate(zip(REFS, CANDS, strict=True))))
    env = {"PYTHONPATH": "", "RADSCOPE_HOME": str(tmp_path / "home")}
    out = run(venv / "bin" / "radscope", "score", "--input", pairs, "--out", work / "out.jsonl",
              "--metrics", "radsem,clear,crepe,bleu,rouge", "--no-progress", cwd=work, env=env)
    assert "radsem" in out and "run id" in out
    rows = [json.loads(line) for line in (work / "out.jsonl").read_text().splitlines()]
    assert all(r["metrics"]["bleu"]["score"] is not None for r in rows)
    script = ("import models, radscope; "
              f"s = radscope.score({REFS!r}, {CANDS!r}, metrics='radsem,bleu'); "
              "print(models.NAME, list(s.array('radsem')), list(s.array('bleu')))")
    printed = run(venv / "bin" / "python", "-c", script, cwd=work, env=env)
    assert printed.startswith("their models [")  # theirs still theirs, ours under radscope
    in_checkout = run(sys.executable, "-c", f"import radscope; s = radscope.score({REFS!r}, {CANDS!r}, "
                      "metrics='radsem,bleu'); print(list(s.array('radsem')), list(s.array('bleu')))",
                      cwd=ROOT)
    assert printed.split(" ", 2)[2] == in_checkout  # the installed package scores as the checkout


def test_bare_install_says_which_extra_a_command_needs(venv, tmp_path):
    proc = subprocess.run([venv / "bin" / "radscope", "app"], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": ""})
    assert proc.returncode == 2 and "pip install 'radscope[app]'" in proc.stderr
    listed = run(venv / "bin" / "radscope", "metrics", cwd=tmp_path, env={"PYTHONPATH": ""})
    assert "radsem" in listed and "crepe" in listed


def test_install_from_a_git_url(venv, tmp_path):
    """pip install git+file://<clone>: what `pip install git+https://...` does with the repository."""
    # A one-commit repository of the checkout's HEAD: pip clones with --filter=blob:none, which
    # never finishes against a shallow repository (as a CI checkout may be).
    clone = tmp_path / "clone"
    clone.mkdir()
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x"], input=archive, cwd=clone, check=True)
    run("git", "init", "--quiet", cwd=clone)
    run("git", "add", "-A", cwd=clone)
    run("git", "-c", "user.name=test", "-c", "user.email=test@localhost", "commit", "--quiet", "-m", "HEAD",
        cwd=clone)
    run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
        "--force-reinstall", "--no-deps", f"git+file://{clone}", cwd=tmp_path, env={"PYTHONPATH": ""})
    listed = run(venv / "bin" / "radscope", "metrics", cwd=tmp_path, env={"PYTHONPATH": ""})
    assert "radsem" in listed
    direct = next(site_packages(venv).glob("radscope-*.dist-info")) / "direct_url.json"
    assert json.loads(direct.read_text())["vcs_info"]["vcs"] == "git"


def test_wheel_holds_no_links(tmp_path):
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--disable-pip-version-check",
        "-w", tmp_path, ROOT, cwd=tmp_path, env={"PYTHONPATH": ""})
    wheel = zipfile.ZipFile(next(tmp_path.glob("radscope-*.whl")))
    links = [i.filename for i in wheel.infolist() if (i.external_attr >> 16) & 0o170000 == 0o120000]
    assert not links
    names = wheel.namelist()
    assert "radscope/engine/api.py" in names and "radscope/prompts/vert.vert.txt" in names

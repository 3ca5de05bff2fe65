"""Deploy RadScope as a Hugging Face Space would, on this machine, and run one Compare.

``python mk/space_check.py [--out build/space-check] [--no-pip-cache] [--python PY]``
(``make space-check``):

1. **Assemble** what the Space receives: the files of HEAD (``git archive``: tracked files only,
   so ``.gitignore`` holds, and uncommitted work is not deployed, as with ``git push``). The
   folder is what ``huggingface_hub.upload_folder`` must be given; its own filter (it ignores
   ``.git`` and ``.cache/huggingface`` and knows no ``.gitignore``) is applied to the folder and
   must keep every file. A symbolic link, or a file the Space cannot run from, fails the check.
2. **Install** the Space's requirements into a fresh virtual environment as the Space builder
   does (``pip install -r requirements.txt``, no constraints file, nothing from this checkout's
   environment), after checking that the README's ``sdk_version`` is the gradio that
   requirements.txt pins. ``--no-pip-cache`` installs as the builder does, compiling
   llama-cpp-python from source (minutes); by default pip's wheel cache is used.
3. **Start** ``app.py`` from the assembled folder with ``SPACE_ID`` set (public mode), on
   127.0.0.1 and a free port, with a fresh home (no model or run of this machine's).
4. **Compare** one pair with every production metric through ``gradio_client`` and check that
   each metric returned a score.

Prints each step's time and writes them to ``<out>/timings.json``. ``--python`` skips step 2 and
uses that interpreter (a quick re-check of steps 1, 3 and 4).
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tarfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
METRICS = "radsem,clear,crepe,srr,vert,bleu,rouge"
REFERENCE = "Small left pleural effusion. Heart size is normal. No pneumothorax."
CANDIDATE = "Moderate left pleural effusion. Normal heart size."
# huggingface_hub's DEFAULT_IGNORE_PATTERNS (hf_api.py): all upload_folder leaves out by itself.
UPLOAD_IGNORES = (".git", ".git/*", "*/.git", "**/.git/**", ".cache/huggingface", ".cache/huggingface/*",
                  "*/.cache/huggingface", "**/.cache/huggingface/**")
CLIENT = """
import json, sys
from gradio_client import Client
client = Client(sys.argv[1], verbose=False, analytics_enabled=False)
out = client.predict(sys.argv[2], sys.argv[3], sys.argv[4], "", "", {"extractor": "rules"}, api_name="/compare")
print(json.dumps({name: {"score": r.get("score"), "error": r.get("error")} for name, r in out.items()}))
"""


class CheckFailed(RuntimeError):
    """A step of the deployment failed; the message says which and why."""


def assemble(space: Path) -> dict:
    """The files of HEAD in ``space`` (emptied first); what git push and upload_folder give."""
    shutil.rmtree(space, ignore_errors=True)
    space.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", "--format=tar", "HEAD"], cwd=ROOT, capture_output=True, check=True)
    with tarfile.open(fileobj=__import__("io").BytesIO(archive.stdout)) as tar:
        links = [m.name for m in tar.getmembers() if m.issym() or m.islnk()]
        if links:
            raise CheckFailed(f"assemble: symbolic links would reach the Space broken: {links[:5]}")
        tar.extractall(space, filter="data")
    files = sorted(p.relative_to(space).as_posix() for p in space.rglob("*") if p.is_file())
    dropped = [f for f in files if any(fnmatch.fnmatch(f, pattern) for pattern in UPLOAD_IGNORES)]
    if dropped:
        raise CheckFailed(f"assemble: upload_folder would leave out {dropped[:5]}")
    for needed in ("app.py", "requirements.txt", "README.md", "radscope/__init__.py", "engine/__init__.py"):
        if needed not in files:
            raise CheckFailed(f"assemble: the Space would lack {needed}")
    large = [f for f in files if (space / f).stat().st_size > 10 * 2**20]
    return {"files": len(files), "bytes": sum((space / f).stat().st_size for f in files),
            "over_10_MiB": large}


def sdk_version(space: Path) -> str:
    """The README front matter's sdk_version, which must be the gradio requirements.txt pins."""
    front = (space / "README.md").read_text(encoding="utf-8").split("---")[1]
    found = re.search(r"^sdk_version:\s*(\S+)", front, re.M)
    pinned = re.search(r"^gradio==(\S+)", (space / "requirements.txt").read_text(encoding="utf-8"), re.M)
    if not found or not pinned or found.group(1) != pinned.group(1):
        raise CheckFailed(f"install: README sdk_version {found and found.group(1)} is not the gradio "
                          f"requirements.txt pins ({pinned and pinned.group(1)})")
    return found.group(1)


def install(space: Path, venv: Path, cache: bool) -> Path:
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    flags = ["--disable-pip-version-check", "--progress-bar", "off"] + ([] if cache else ["--no-cache-dir"])
    proc = subprocess.run([str(python), "-m", "pip", "install", *flags, "-r", "requirements.txt"], cwd=space,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ""})
    (venv.parent / "pip.log").write_text(proc.stdout + proc.stderr, encoding="utf-8")
    if proc.returncode != 0:
        raise CheckFailed(f"install: pip failed (see {venv.parent / 'pip.log'}):\n{proc.stderr[-2000:]}")
    return python


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(space: Path, python: Path, home: Path, port: int, log: Path) -> subprocess.Popen:
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "SPACE_ID": "radscope/space-check",
           "GRADIO_SERVER_NAME": "127.0.0.1", "GRADIO_SERVER_PORT": str(port), "HF_HUB_OFFLINE": "1",
           "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([str(python), "app.py"], cwd=space, env=env, stdout=log.open("w"),
                            stderr=subprocess.STDOUT, start_new_session=True)


def wait_ready(proc: subprocess.Popen, url: str, log: Path, limit_s: float = 600) -> None:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise CheckFailed(f"start: app.py exited with {proc.returncode}:\n{log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url, timeout=5) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise CheckFailed(f"start: no page at {url} after {limit_s:.0f} s")


def compare(python: Path, url: str) -> dict:
    proc = subprocess.run([str(python), "-c", CLIENT, url, REFERENCE, CANDIDATE, METRICS], capture_output=True,
                          text=True, timeout=600, env={**os.environ, "PYTHONPATH": ""})
    if proc.returncode != 0:
        raise CheckFailed(f"compare: gradio_client failed:\n{proc.stderr[-2000:]}")
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    missing = [m for m in METRICS.split(",") if results.get(m, {}).get("score") is None]
    if missing:
        raise CheckFailed(f"compare: no score for {missing}: {results}")
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "space-check")
    parser.add_argument("--no-pip-cache", action="store_true", help="install as the builder does, with no cache")
    parser.add_argument("--python", type=Path, help="use this interpreter instead of a fresh venv")
    args = parser.parse_args(argv)
    out, timings = args.out.resolve(), {}
    space, started = out / "space", time.monotonic()

    def lap(step: str) -> None:
        nonlocal started
        timings[step] = round(time.monotonic() - started, 1)
        print(f"{step}: {timings[step]} s", file=sys.stderr)
        started = time.monotonic()

    proc = None
    try:
        timings["assembled"] = assemble(space)
        lap("assemble_s")
        timings["sdk_version"] = sdk_version(space)
        python = args.python or install(space, out / "venv", cache=not args.no_pip_cache)
        timings["pip_cache"] = "not used (--python)" if args.python else not args.no_pip_cache
        lap("install_s")
        port = free_port()
        url = f"http://127.0.0.1:{port}/"
        proc = start(space, python, out / "home", port, out / "app.log")
        wait_ready(proc, url, out / "app.log")
        lap("start_to_page_s")
        timings["compare"] = compare(python, url)
        lap("compare_s")
        mode = next((line for line in (out / "app.log").read_text().splitlines() if "public mode" in line), "")
        if not mode:
            raise CheckFailed("start: the app did not say it runs in public mode with SPACE_ID set")
        timings["mode"] = mode
    except CheckFailed as exc:
        print(f"space check FAILED: {exc}", file=sys.stderr)
        return 1
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=30)
        out.mkdir(parents=True, exist_ok=True)
        (out / "timings.json").write_text(json.dumps(timings, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(timings, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Fixtures for the app tests: the app served in-process on a free port, a gradio_client for it,
and a folder for screenshots.

Gradio's upload/download cache goes to a temporary folder (GRADIO_TEMP_DIR) and the app's run
store to its own database, so the tests never touch the user's caches. The served apps are
session-scoped: building and launching one takes seconds, and every test here only adds runs.
"""
from __future__ import annotations

import contextlib
import os
import socket
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_GRADIO_TMP = tempfile.mkdtemp(prefix="radscope-gradio-tests-")
os.environ["GRADIO_TEMP_DIR"] = _GRADIO_TMP
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from radscope.engine.metrics.framework.registry import MetricRegistry, production  # noqa: E402
from tests.ui.standins import standin_registry  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def artifacts_dir() -> Path:
    """Where browser screenshots go: $RADSCOPE_ARTIFACTS, else artifacts/ at the repo root."""
    path = Path(os.environ.get("RADSCOPE_ARTIFACTS") or ROOT / "artifacts")
    path.mkdir(parents=True, exist_ok=True)
    return path


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def browser():
    """Debian chromium driven by Playwright (which cannot download its own browser here)."""
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian chromium is needed for the browser tests: run `make system-deps`")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test item (the page fixture screenshots failures)."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@dataclass
class Served:
    url: str
    demo: object
    store_path: Path


@contextlib.contextmanager
def serve(tmp: Path, options: dict | None = None, registry: MetricRegistry | None = None,
          **settings) -> Iterator[Served]:
    """Build the app offering ``registry``'s metrics (default: the project's) and serve it on a
    free port until the block ends (``settings``: other AppConfig fields, e.g. ``public=True``)."""
    from radscope.engine.runs.store import Store
    from radscope.ui.page import build_demo, launch_kwargs, queue
    from radscope.ui.config import AppConfig

    store_path = tmp / "radscope.sqlite"
    config = AppConfig(registry or production(), options=dict(options or {}), **settings)
    demo = queue(build_demo(config, store=Store(store_path)))
    kwargs = launch_kwargs("127.0.0.1", free_port())
    _, url, _ = demo.launch(prevent_thread_lock=True, quiet=True, **kwargs)
    try:
        yield Served(url=url, demo=demo, store_path=store_path)
    finally:
        demo.close()


@pytest.fixture(scope="session")
def app_server(tmp_path_factory) -> Iterator[Served]:
    """The app with exactly the metrics the project registers."""
    with serve(tmp_path_factory.mktemp("app")) as served:
        yield served


@pytest.fixture(scope="session")
def standin_server(tmp_path_factory) -> Iterator[Served]:
    """The app with the project's metrics plus the stand-ins (its own registry, see
    standins.py), so every view is exercised whether or not its real metric exists yet. Options
    whose choices include "rules" are set to it, so real CLEAR / RadSEM run their fast rules
    extractors."""
    registry = standin_registry()
    options = {name: "rules" for name, opt in registry.all_options().items()
               if opt.choices and "rules" in opt.choices}
    with serve(tmp_path_factory.mktemp("standin-app"), options, registry) as served:
        yield served


@pytest.fixture()
def client(app_server):
    from gradio_client import Client

    c = Client(app_server.url, verbose=False, analytics_enabled=False,
               download_files=tempfile.mkdtemp(dir=_GRADIO_TMP))
    yield c
    c.close()


@pytest.fixture()
def standin_client(standin_server):
    from gradio_client import Client

    c = Client(standin_server.url, verbose=False, analytics_enabled=False,
               download_files=tempfile.mkdtemp(dir=_GRADIO_TMP))
    yield c
    c.close()

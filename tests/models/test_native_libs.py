"""The C++ runtime is made global before libllama loads (models.native_libs).

On the GPU hosts, whose compiler links libstdc++ statically into each llama.cpp library, every
CPU-only model load segfaulted until the shared libstdc++ was global (docs/judges.md, GPU check).
"""
from __future__ import annotations

import ctypes
import subprocess
import sys

import pytest

from radscope.models.native_libs import share_cxx_runtime

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux loader fix")


def test_the_cxx_runtime_is_in_the_global_scope():
    assert share_cxx_runtime() is True
    global_scope = ctypes.CDLL(None)  # dlopen(NULL): what every later library resolves against
    assert hasattr(global_scope, "_ZNSt6locale7classicEv")  # std::locale::classic()


def test_a_fresh_process_has_it_global_once_the_llama_loader_is_imported():
    code = ("import ctypes; g = ctypes.CDLL(None); before = hasattr(g, '_ZNSt6locale7classicEv'); "
            "import radscope.models.llama_load; "
            "print(before, hasattr(ctypes.CDLL(None), '_ZNSt6locale7classicEv'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]


def test_the_server_wrapper_passes_the_servers_own_arguments():
    check = subprocess.run([sys.executable, "-c", "import llama_cpp.server.app"], capture_output=True)
    if check.returncode != 0:
        pytest.skip("llama_cpp.server's packages are not installed here")
    out = subprocess.run([sys.executable, "-m", "radscope.models.llama_server", "--help"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "--model_alias" in out.stdout and "--n_ctx" in out.stdout

"""One C++ runtime for the whole process, before llama.cpp's shared libraries load.

Some toolchains (the CUDA image of our GPU machines: ``CC=/opt/gcc/bin/gcc``) link libstdc++
statically into each of libggml-base, libggml-cpu, libggml and libllama. Every copy then keeps
its own locale tables, and the first ``std::ostream << long`` in ``llama_model::print_info``
dereferences a facet that another copy registered: every CPU-only model load segfaults
("segfault at 20 ... in libggml.so.0"). A CUDA build escapes only because cudart brings the
shared libstdc++ along. Making the system's ``libstdc++.so.6`` global first lets the dynamic
linker bind all of those symbols to that one runtime, which is what ``LD_PRELOAD`` did when the
crash was diagnosed (docs/judges.md, GPU check). Where libllama links libstdc++ dynamically
(the usual build) this changes nothing.
"""
from __future__ import annotations

import ctypes
import sys

CXX_RUNTIME = "libstdc++.so.6"


def share_cxx_runtime() -> bool:
    """Load the system's C++ runtime into the global symbol scope; False where there is none."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        ctypes.CDLL(CXX_RUNTIME, mode=ctypes.RTLD_GLOBAL)
    except OSError:
        return False
    return True

"""Loading a GGUF with llama-cpp-python so that it runs on every x86-64 CPU.

On CPUs with AMX (Intel Sapphire Rapids and later) llama.cpp repacks quantised weights into
buffer types for its AMX kernels, and with Q4_K weights the first decode faults (llama.cpp issue
20824). Where ``llama_print_system_info()`` reports ``AMX_INT8 = 1`` the model is loaded with
``use_extra_bufts = False``, which skips every repacked buffer type; other CPUs keep their
repacking. ``RADSCOPE_LLAMA_REPACK=0/1`` forces either way.

Kept here, free of the engine, because both the judge runtime (``radscope.engine.runtimes.llamacpp``) and
the download self-check (``radscope.models.selfcheck``) load judges.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from radscope.models.native_libs import share_cxx_runtime

# Before anything here imports llama_cpp (which loads libllama): see models.native_libs.
share_cxx_runtime()


def system_info() -> str:
    """llama.cpp's own line of CPU features and backends (``AMX_INT8 = 1``, ``AVX512 = 1``...)."""
    import llama_cpp

    return llama_cpp.llama_print_system_info().decode("utf-8", "replace").strip()


def weight_repacking_allowed(info: str | None = None) -> bool:
    """Whether to let llama.cpp repack weights into its extra buffer types (see module docstring).

    Off where the build runs AMX kernels (their Q4_K path faults); ``RADSCOPE_LLAMA_REPACK``
    (0 or 1) overrides the choice for users who know their build.
    """
    forced = os.environ.get("RADSCOPE_LLAMA_REPACK", "").strip()
    if forced in ("0", "1"):
        return forced == "1"
    info = system_info() if info is None else info
    return re.search(r"\bAMX_INT8 = 1\b", info) is None


def _without_extra_bufts(original: Any) -> Any:
    def params() -> Any:
        loaded = original()
        loaded.use_extra_bufts = False
        return loaded
    return params


def no_repacking_in_this_process() -> bool:
    """Where repacking is not allowed (``weight_repacking_allowed``), every model this process
    loads from now on skips the extra buffer types: for ``llama_cpp.server``, which builds its
    ``Llama`` itself. Returns whether repacking was turned off."""
    if weight_repacking_allowed():
        return False
    import llama_cpp.llama_cpp as low

    low.llama_model_default_params = _without_extra_bufts(low.llama_model_default_params)
    return True


def load_llama(path: Path, *, n_ctx: int, layers: int, threads: int, repack: bool) -> Any:
    """A ``Llama`` on ``path``; with ``repack=False`` loaded with ``use_extra_bufts = False``.

    llama-cpp-python has no argument for that field, so the default model parameters it starts
    from are swapped for the duration of the load (the worker loads one model at a time).
    """
    import llama_cpp
    import llama_cpp.llama_cpp as low

    original = low.llama_model_default_params
    if not repack:
        low.llama_model_default_params = _without_extra_bufts(original)
    try:
        return llama_cpp.Llama(model_path=str(path), n_ctx=n_ctx, n_gpu_layers=layers,
                               n_threads=threads, n_threads_batch=threads, seed=0, verbose=False)
    finally:
        low.llama_model_default_params = original

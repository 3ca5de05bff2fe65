"""``python -m llama_cpp.server`` with one C++ runtime for the process (``models.native_libs``).

Takes exactly the server's arguments. On a host whose toolchain linked libstdc++ statically into
llama.cpp's libraries, the plain server would segfault while loading its model; on a CPU with AMX
it would segfault on its first decode, so the model is loaded without weight repacking there, as
the in-process judge loads it (``models.llama_load``).
"""
from __future__ import annotations

import runpy

from radscope.models.native_libs import share_cxx_runtime

if __name__ == "__main__":
    share_cxx_runtime()
    from radscope.models.llama_load import no_repacking_in_this_process

    no_repacking_in_this_process()
    runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)

#!/usr/bin/env bash
# `make gpu-check`: on a bare CUDA machine (nvcc, CMake, a Python with PyTorch; no network),
# build llama.cpp with CUDA from the carried llama-cpp-python sdist, load a GGUF with every
# layer offloaded, time greedy and grammar-constrained generation on the GPU against the CPU
# build of the same source, and report everything needed to explain a crash (CPU flags,
# llama_print_system_info, build flags, NEEDED libstdc++, AVX2-only CPU variants, repacking on
# and off, a run without the libstdc++ fix: the "segfault at 20 in libggml.so.0" of the GPU
# hosts was static libstdc++ copies, docs/judges.md).
#
# Everything it needs comes from the work tree and GPU_CARRY (made by `make gpu-carry` on a
# machine with PyPI: the sdist and one small wheel, < 64 MiB). Nothing is installed system-wide:
# the builds go to GPU_WORK, the Python packages are put on PYTHONPATH.
# GPU_CHECK_CPU_ONLY=1 runs the CPU half only (a dry run on a machine without a GPU).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CARRY=${GPU_CARRY:-$ROOT/.gpu-carry}
WORK=${GPU_WORK:-/tmp/radscope-gpu-check}
PY=${GPU_PYTHON:-python3}
JOBS=$(nproc)
CPU_ONLY=${GPU_CHECK_CPU_ONLY:-0}
# Which builds to make and run. The default two fit the 8 minutes of a device run; when a load
# crashes, a second call with GPU_CHECK_BUILDS="cpu-avx2 cuda-avx2" adds the AVX2-only CPU
# variants (finished builds are kept in GPU_WORK and not rebuilt).
BUILDS=${GPU_CHECK_BUILDS:-cpu-native cuda}
wanted() { [[ " $BUILDS " == *" $1 "* ]]; }
REPORT=${GPU_REPORT:-$WORK/report}
mkdir -p "$WORK" "$REPORT"
exec > >(tee "$REPORT/gpu_check.log") 2>&1
t0=$(date +%s)
say() { echo "[gpu-check $(( $(date +%s) - t0 ))s] $*"; }

say "machine"
uname -a
grep -m1 "model name" /proc/cpuinfo
echo "cpu flags (amx/avx512/avx2):" $(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(amx|avx512|avx2|avx_vnni)' | sort | tr '\n' ' ')
nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv 2>&1 || say "no nvidia-smi"
nvcc --version 2>&1 | tail -2 || say "no nvcc"
cmake --version | head -1
$PY -c "import sys, numpy; print('python', sys.version.split()[0], 'numpy', numpy.__version__)"
$PY -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'available', torch.cuda.is_available())" 2>&1

SDIST=$(ls "$CARRY"/llama_cpp_python-*.tar.gz 2>/dev/null | head -1)
if [ -z "$SDIST" ]; then
  echo "error: no llama-cpp-python sdist in $CARRY; run 'make gpu-carry' on a machine with PyPI" >&2
  exit 2
fi
SRC=$WORK/src
if [ ! -d "$SRC" ]; then
  say "unpacking $(basename "$SDIST")"
  mkdir -p "$SRC" && tar -xzf "$SDIST" -C "$SRC" --strip-components=1
fi
# Pure-Python dependencies of llama_cpp that a PyTorch environment may lack (diskcache).
DEPS=$WORK/pydeps
mkdir -p "$DEPS"
for wheel in "$CARRY"/*.whl; do [ -e "$wheel" ] && $PY -m zipfile -e "$wheel" "$DEPS"; done
export PYTHONPATH="$SRC:$SRC/vendor/llama.cpp/gguf-py:$DEPS:$ROOT${PYTHONPATH:+:$PYTHONPATH}"

# build NAME CMAKE_ARGS...: one shared-library build of the vendored llama.cpp (the llama
# target: libllama and the ggml libraries it links; the apps and tools are not needed).
build() {
  local name=$1; shift
  local dir=$WORK/build-$name
  if [ -f "$dir/.done" ]; then say "build $name: already built"; return 0; fi
  say "build $name: cmake $*"
  local gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
  cmake "${gen[@]}" -S "$SRC/vendor/llama.cpp" -B "$dir" -DBUILD_SHARED_LIBS=ON -DLLAMA_BUILD_TESTS=OFF \
    -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_CURL=OFF \
    -DCMAKE_BUILD_TYPE=Release "$@" > "$REPORT/cmake-$name.log" 2>&1 \
    && cmake --build "$dir" --target llama -j "$JOBS" > "$REPORT/build-$name.log" 2>&1 \
    && touch "$dir/.done" && say "build $name: done" \
    || { say "build $name FAILED (see $REPORT/build-$name.log)"; tail -20 "$REPORT/build-$name.log"; return 1; }
  grep -E "GGML_(NATIVE|AVX|AVX2|AVX512|AMX|CUDA)[A-Z_]*:BOOL" "$dir/CMakeCache.txt" > "$REPORT/flags-$name.txt"
}
libdir() { dirname "$(find "$WORK/build-$1" -name 'libllama.so' | head -1)"; }

AVX2_ONLY=(-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF
           -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF)
wanted cpu-native && build cpu-native -DGGML_NATIVE=ON
wanted cpu-avx2 && build cpu-avx2 "${AVX2_ONLY[@]}"
GPU_BUILDS=()
if [ "$CPU_ONLY" != 1 ]; then
  # CUDA with the CPU part native, then with it AVX2-only (the H100 crash was in libggml's
  # CPU part on an AMX Xeon, so the two tell a CPU-backend fault from a CUDA one).
  # FlashAttention's CUDA kernels are most of ggml-cuda's build time; the check needs none of
  # them (the judge runs without flash attention), and they would not fit the 8 minutes.
  CUDA=(-DGGML_CUDA=ON -DGGML_CUDA_FA=OFF -DGGML_CUDA_NCCL=OFF -DCMAKE_CUDA_ARCHITECTURES=native)
  wanted cuda && build cuda "${CUDA[@]}" -DGGML_NATIVE=ON \
    && GPU_BUILDS+=(cuda)
  wanted cuda-avx2 && build cuda-avx2 "${CUDA[@]}" "${AVX2_ONLY[@]}" \
    && GPU_BUILDS+=(cuda-avx2)
fi

GGUF=${GPU_GGUF:-}
if [ -z "$GGUF" ]; then
  GGUF=$WORK/judge-shaped.gguf
  if [ ! -f "$GGUF" ]; then
    say "writing a random-weight GGUF with the demo judge's shapes (the demo GGUF, 245 MB, is too big to carry)"
    $PY -c "from tests.llm.tiny_gguf import write_tiny_gguf as w; from pathlib import Path; w(Path('$GGUF'), n_layer=18, n_embd=640, n_ff=2048, n_head=4, n_ctx=8192)" \
      || { say "could not write the GGUF"; exit 3; }
  fi
fi
say "model: $GGUF ($(du -h "$GGUF" | cut -f1))"

# Each run in its own process: a segfault is a result, not the end of the check.
run() {  # run NAME LAYERS REPACK [SHARE_CXX]
  local name=$1 layers=$2 repack=$3 share=${4:-1}
  say "run $name layers=$layers repack=$repack share_cxx=$share"
  LLAMA_CPP_LIB_PATH=$(libdir "$name") timeout 300 \
    $PY "$ROOT/mk/gpu_check.py" --gguf "$GGUF" --layers "$layers" --repack "$repack" \
    --share-cxx "$share" --label "$name" --out "$REPORT/run-$name-$layers-$repack-$share.json"
  local rc=$?
  [ $rc -ne 0 ] && say "run $name layers=$layers repack=$repack share_cxx=$share: exit $rc$([ $rc -eq 139 ] && echo ' (segfault)')"
  return 0
}
# The crash on the GPU hosts (2026-11-26, H200 host): CC/CXX there name a GCC that links
# libstdc++ statically into each llama.cpp library; every CPU-only load then segfaults in
# llama_model::print_info unless the shared libstdc++ is made global first. Show how this
# host's builds link it, and run each CPU build once without the fix.
for b in cpu-native cpu-avx2 cuda cuda-avx2; do
  [ -f "$WORK/build-$b/.done" ] && say "$b: libllama.so NEEDED libstdc++: $(readelf -d "$(libdir "$b")/libllama.so" | grep -c 'libstdc++')"
done
say "compilers: CC=${CC:-unset} CXX=${CXX:-unset}"
for b in cpu-native cpu-avx2; do
  wanted "$b" && [ -f "$WORK/build-$b/.done" ] && { run "$b" 0 1 0; run "$b" 0 1; run "$b" 0 0; }
done
for b in "${GPU_BUILDS[@]}"; do run "$b" -1 1; run "$b" -1 0; done

say "summary"
$PY "$ROOT/mk/gpu_check.py" --summarise "$REPORT"
if [ "$CPU_ONLY" != 1 ]; then
  # onnxruntime's CUDA provider: only if an onnxruntime-gpu wheel was carried (the 1.31 wheel
  # is far above the 64 MiB the machine takes, so normally it is reported as not brought).
  if ls "$CARRY"/onnxruntime_gpu-*.whl >/dev/null 2>&1; then
    $PY -c "import onnxruntime as o; print('onnxruntime', o.__version__, o.get_available_providers())"
  else
    say "encoders on onnxruntime CUDA: not run (no onnxruntime-gpu wheel carried: too big for 64 MiB)"
  fi
fi
say "finished; logs and JSON in $REPORT"

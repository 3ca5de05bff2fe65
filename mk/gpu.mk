# GPU set-up (the llama.cpp CUDA build was checked on an H200 by gpu-check below; the
# onnxruntime-gpu swap is untested): swap onnxruntime for
# onnxruntime-gpu and rebuild llama.cpp with CUDA (needs nvcc). Then run the app as usual.
.PHONY: gpu
gpu: $(BIN)/.runtime
	$(BIN)/python -m pip uninstall -y onnxruntime
	$(PIP) -r requirements/gpu.txt
	CMAKE_ARGS="-DGGML_CUDA=on" $(PIP) --force-reinstall --no-deps --no-binary llama-cpp-python \
	  llama-cpp-python==0.3.36

# `make gpu-carry` (on a machine with PyPI) gathers what `make gpu-check` needs on a bare CUDA
# machine without network, under 64 MiB: the llama-cpp-python sdist (llama.cpp's source),
# diskcache (the pure-Python dependency of llama_cpp that a PyTorch environment lacks) and
# PyYAML (llama.cpp's gguf-py imports it; its pure-Python part works on any Python 3).
# `make gpu-check` then builds llama.cpp (CPU native, CPU AVX2-only, CUDA, CUDA with an
# AVX2-only CPU part), loads a GGUF with every layer offloaded and times it against the CPU
# builds, and shows whether the host needs the libstdc++ fix (models/native_libs.py).
# GPU_CHECK_CPU_ONLY=1 runs the CPU half (a dry run without a GPU).
GPU_CARRY ?= .gpu-carry
LLAMA_CPP_VERSION := $(shell grep -m1 '^llama-cpp-python==' requirements.txt | cut -d= -f3)
.PHONY: gpu-carry gpu-check
# The sdist (73 MiB) is repacked without what a library build never reads (llama.cpp's vocab
# models, docs, tests, tools, examples): about 44 MiB with the two wheels.
gpu-carry: $(BIN)/.runtime
	@rm -rf $(GPU_CARRY) && mkdir -p $(GPU_CARRY)/sdist
	$(BIN)/python -m pip download --quiet --no-deps --no-binary :all: -d $(GPU_CARRY)/sdist \
	  llama-cpp-python==$(LLAMA_CPP_VERSION)
	tar -xzf $(GPU_CARRY)/sdist/llama_cpp_python-$(LLAMA_CPP_VERSION).tar.gz -C $(GPU_CARRY)/sdist
	tar -czf $(GPU_CARRY)/llama_cpp_python-$(LLAMA_CPP_VERSION).tar.gz -C $(GPU_CARRY)/sdist \
	  $(foreach d,models docs benches tests examples tools media .devops,\
	    --exclude=llama_cpp_python-$(LLAMA_CPP_VERSION)/vendor/llama.cpp/$(d)) \
	  llama_cpp_python-$(LLAMA_CPP_VERSION)
	rm -rf $(GPU_CARRY)/sdist
	for pkg in diskcache PyYAML; do $(BIN)/python -m pip download --quiet --no-deps \
	  --only-binary :all: -d $(GPU_CARRY) "$$pkg==$$(grep -m1 "^$$pkg==" requirements/constraints.txt | cut -d= -f3)"; done
	@du -sh $(GPU_CARRY)

gpu-check:
	GPU_CARRY=$(abspath $(GPU_CARRY)) bash mk/gpu_check.sh

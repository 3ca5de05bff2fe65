# Ray (`python -m radscope.engine score --engine ray`, docs/ray.md): an optional stack in an environment of
# its own, .venv-ray: the engine's runtime for the rules, lexical and ONNX metrics and for judges
# behind servers, plus ray[data]. llama-cpp-python (compiled from source, minutes on 2 cores) is
# left out: only an embedded GGUF judge needs it; `make ray-env RAY_LLAMA=1` adds it (pip reuses
# the wheel it built for .venv when its cache still holds it).
RAY_VENV ?= .venv-ray
RAY_BIN := $(RAY_VENV)/bin
RAY_PIP := $(RAY_BIN)/python -m pip install --quiet --disable-pip-version-check

.PHONY: ray-env test-ray bench-ray

$(RAY_BIN)/.ray: requirements/ray.txt requirements/constraints-ray.txt
	$(PYTHON) -m venv $(RAY_VENV)
	$(RAY_PIP) -r requirements/ray.txt -c requirements/constraints-ray.txt
	touch $@

ray-env: $(RAY_BIN)/.ray
ifeq ($(RAY_LLAMA),1)
	$(RAY_PIP) "$$(grep -E '^llama-cpp-python==' requirements.txt)" -c requirements/constraints.txt
endif

# A local Ray of two CPUs: 2,000 pairs scored as by `--workers 1`, and a killed job resumed
# (about 2.5 minutes on 2 cores).
test: test-ray

test-ray: $(RAY_BIN)/.ray
	$(RAY_BIN)/python -m pytest tests/ray -q

# Process pool vs local Ray at 10k pairs (wall, CPU, peak RSS) and two judge servers on 127.0.0.1
# through both (stand-ins with a fixed delay; JUDGE_SERVER=llama for llama.cpp with the demo GGUF,
# served from .venv). Not part of `make bench`: about 5 minutes on 2 cores.
JUDGE_SERVER ?= standin
bench-ray: $(RAY_BIN)/.ray $(BIN)/.runtime
	@mkdir -p $(OUT)
	$(RAY_BIN)/python -m bench ray --n 10000 --metrics bleu,rouge,clear,radsem \
	  $(if $(wildcard $(DATA)/iu_xray/ReXRank_IUXray_test.json),--data $(DATA)/iu_xray/ReXRank_IUXray_test.json,) \
	  --judge-server $(JUDGE_SERVER) --server-python $(BIN)/python --out $(OUT)/ray.json

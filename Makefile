# RadScope: `make run` sets up and starts the app; `make test` sets up and runs every test.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
DATA ?= ../shared/data
OUT ?= bench-results
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export CMAKE_BUILD_PARALLEL_LEVEL ?= $(shell nproc)
# llama.cpp is compiled from source on install; `make run LLAMA_CUDA=1` builds it with CUDA.
ifeq ($(LLAMA_CUDA),1)
export CMAKE_ARGS := -DGGML_CUDA=on
endif

.PHONY: run test test-fast lint bench bench-store setup dev system-deps constraints clean help

help:
	@echo "make run    - set up the environment and start the app on http://127.0.0.1:7860 (the local"
	@echo "              LLM judge's llama.cpp compiles in the background meanwhile)"
	@echo "make test   - set up the environment (and Debian chromium) and run the whole test suite"
	@echo "make bench  - run the benchmarks (real data from DATA=$(DATA) when present)"
	@echo "make bench-store - 100,000 pairs into a fresh store: bytes per pair, peak memory, an identical rerun"

# The environment comes in two steps. `.base` is requirements.txt without llama-cpp-python: wheels
# only, a minute or two, and all the app needs to serve the default metrics (rules readers,
# encoders, lexical baselines, judge servers). `.runtime` adds llama-cpp-python, which ships as
# source and compiles llama.cpp (about 7 minutes on 2 cores): `make run` builds it in the
# background while the app already serves, `make setup` / `make test` wait for it.
# requirements.txt stays the one complete list (pip and Hugging Face Spaces install from it).
LLAMA_PIN = $(shell grep -m1 '^llama-cpp-python==' requirements.txt)
LLAMA_LOG := $(VENV)/llama-build.log

$(BIN)/.base: requirements.txt requirements/constraints.txt
	$(PYTHON) -m venv $(VENV)
	grep -v '^llama-cpp-python==' requirements.txt > $(VENV)/requirements-base.txt
	$(PIP) -r $(VENV)/requirements-base.txt -c requirements/constraints.txt
	touch $@

# LLAMA_PIP_VERBOSE=-vv (the background build) logs the compiler's [step/steps] lines.
$(BIN)/.runtime: $(BIN)/.base
	$(PIP) $(LLAMA_PIP_VERBOSE) "$(LLAMA_PIN)" -c requirements/constraints.txt
	touch $@

$(BIN)/.dev: $(BIN)/.runtime requirements/dev.txt
	$(PIP) -r requirements/dev.txt -c requirements/constraints.txt
	touch $@

setup: $(BIN)/.runtime

dev: $(BIN)/.dev system-deps

# Debian's chromium drives the browser tests (Playwright cannot download its own browser here).
system-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian chromium for the browser tests"; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium >/dev/null; }

# Serve at once; llama.cpp (the embedded LLM judge) compiles meanwhile, logged to $(LLAMA_LOG),
# which the app's Models tab reads to show the build's progress. One build at a time (flock);
# it goes on if the app is stopped, and the next `make run` finds it running or done.
run: $(BIN)/.base
	@if ! $(MAKE) --no-print-directory -q $(LLAMA_STAMP) 2>/dev/null; then \
	  if flock -n $(VENV)/.llama-build.lock true; then \
	    echo "compiling llama.cpp for the local LLM judge in the background (about 7 minutes on 2 cores;"; \
	    echo "log: $(LLAMA_LOG)); the app serves the default metrics meanwhile"; \
	    setsid nohup flock -n $(VENV)/.llama-build.lock bash -c '{ echo RADSCOPE-BUILD-START $$(date +%s); $(MAKE) --no-print-directory \
	      LLAMA_PIP_VERBOSE=-vv $(LLAMA_STAMP) && echo RADSCOPE-BUILD-DONE || echo RADSCOPE-BUILD-FAILED; } \
	      > $(LLAMA_LOG) 2>&1' < /dev/null > /dev/null 2>&1 & \
	  else echo "llama.cpp is still compiling in the background (log: $(LLAMA_LOG))"; fi; fi
	RADSCOPE_JUDGE_BUILD_LOG=$(abspath $(LLAMA_LOG)) $(BIN)/python app.py

test: dev lint
	$(BIN)/python -m pytest

# Gates that keep the tree honest, each at zero findings: ruff (bugbear, pyupgrade, simplify and
# ruff's rules) and mypy, both set up in pyproject.toml; no dead code (vulture); the contracts of
# .importlinter (layers, runtimes below the metrics, no import cycles inside a package). The tools
# run as `python -m` where they can, so a moved or copied venv (stale script shebangs) still lints;
# mypy and import-linter through mk/package_lint.py, which gives them the package map (engine/ is
# radscope.engine: radscope/layout.py).
lint: $(BIN)/.dev
	$(BIN)/python -m ruff check engine ui models bench training app.py radscope mk/package_lint.py
	$(BIN)/python mk/package_lint.py types
	$(BIN)/python -m vulture engine ui models bench training app.py radscope --min-confidence 80
	$(BIN)/python mk/package_lint.py imports

# The inner loop: everything that loads no model and starts no browser, app or judge.
test-fast: $(BIN)/.dev
	$(BIN)/python -m pytest -q -m "not slow and not browser" tests/engine tests/bench tests/models tests/radscope tests/docs

# SSREE monotonicity and speed of every metric that needs no LLM judge (the judge benchmark,
# triplets, MeSH agreement and ONNX-vs-torch timings come from the mk/ fragments).
bench: $(BIN)/.runtime
	@mkdir -p $(OUT)
	$(BIN)/python -m bench ssree --data $(DATA)/ssree_dev/ssree_dev.jsonl \
	  --metrics radsem,clear,crepe,srr,bleu,bleu1,rouge --extractor rules --out $(OUT)/ssree.json --quiet
	$(BIN)/python -m bench iu-pairs --data $(DATA)/iu_xray/ReXRank_IUXray_test.json \
	  --limit 150 --out $(OUT)/iu_pairs.jsonl
	$(BIN)/python -m bench speed --metrics radsem,clear,crepe,srr,bleu,rouge --extractor rules \
	  --n 300 $$([ -f $(OUT)/iu_pairs.jsonl ] && echo --data $(OUT)/iu_pairs.jsonl) --out $(OUT)/speed.json

# The store at scale: 100,000 pairs with the default metrics (size per pair, peak memory), then
# the same run again, which answers from the store (nothing stored; its time beside the first's).
bench-store: $(BIN)/.runtime
	@mkdir -p $(OUT)
	nice $(BIN)/python -m bench store --n 100000 --out $(OUT)/store.json

# Re-pin every installed package after changing requirements*.txt.
constraints: $(BIN)/.dev
	{ echo "# Full pins of every package in the runtime + dev environment (pip freeze), used with -c so that"; \
	  echo "# a fresh machine installs exactly what was tested. Regenerate with: make constraints"; \
	  $(BIN)/python -m pip freeze --exclude-editable; } > requirements/constraints.txt

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache $(OUT) build

# Topic fragments (models, LLM benchmarks, ...) add targets and prerequisites of their own.
-include mk/*.mk

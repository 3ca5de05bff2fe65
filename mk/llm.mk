# llama.cpp is compiled for the CPU it is built on (-march=native). A venv built on one CPU and
# used on another (a machine handed on, a copied checkout) may hold instructions this CPU lacks,
# so the build is stamped with the CPU's feature flags and rebuilt, without pip's wheel cache
# (which would hand back the other CPU's build), when they change.
CPU_FLAGS_ID := $(shell grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | md5sum | cut -c1-12)
LLAMA_STAMP := $(BIN)/.llama-cpu-$(CPU_FLAGS_ID)

$(LLAMA_STAMP): $(BIN)/.runtime
	@if ls $(BIN)/.llama-cpu-* 2>/dev/null | grep -qv -- '-$(CPU_FLAGS_ID)$$'; then \
	  echo "llama.cpp was built for another CPU: rebuilding it for this one"; \
	  $(PIP) --force-reinstall --no-deps --no-cache-dir --no-binary llama-cpp-python \
	    "llama-cpp-python==$$(grep -m1 '^llama-cpp-python==' requirements.txt | cut -d= -f3)"; \
	  rm -f $(BIN)/.llama-cpu-*; fi
	touch $@

# (`make run` builds it in the background: see the Makefile's run target.)
test bench-llm: $(LLAMA_STAMP)

# LLM-judge benchmark (CLEAR, VERT, RadSEM with the offline Gemma demo judge unless JUDGE is set):
# model calls, tokens and ms/pair, cold and cached, and CLEAR fast vs faithful.
BENCH_LLM_PAIRS ?= 3
BENCH_LLM_FAITHFUL_PAIRS ?= 1
BENCH_LLM_ARGS ?=

.PHONY: bench-llm
bench: bench-llm

bench-llm: $(BIN)/.runtime
	@mkdir -p $(OUT)
	$(BIN)/python -m bench llm --pairs $(BENCH_LLM_PAIRS) \
	  --faithful-pairs $(BENCH_LLM_FAITHFUL_PAIRS) --out $(OUT)/llm.json $(BENCH_LLM_ARGS)

# Judge pipelines on real report lengths (issue 25): CLEAR fast/faithful, every VERT variant and
# RadSEM with --extractor llm on the longest SSREE dev reports, PARROT English reports and IU
# pairs, through the judge worker and through llama_cpp.server on 127.0.0.1; failures per
# cause, calls, tokens, s/pair. Real data from DATA when present (skipped with a message when
# absent). The full run is long on 2 cores: MECHANICS_ARGS="--ssree 3 --parrot 2 --iu 2" etc.
MECHANICS_ARGS ?=

.PHONY: bench-llm-mechanics
bench-llm-mechanics: $(LLAMA_STAMP)
	@mkdir -p $(OUT)
	$(BIN)/python -m bench llm-mechanics --data-dir $(DATA) \
	  --out $(OUT)/llm_mechanics.json $(MECHANICS_ARGS)

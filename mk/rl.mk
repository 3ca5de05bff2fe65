# RL trainers: the environment TRL's GRPOTrainer runs in (.venv-trl, CPU torch from the local
# wheel as for .venv-export), the trainer test, the reward benchmark of the HTTP server.
# The app's environment (.venv) never gets torch or TRL.
TRL_VENV ?= .venv-trl
TRL_BIN := $(TRL_VENV)/bin
TRL_PIP := $(TRL_BIN)/python -m pip install --quiet --disable-pip-version-check

.PHONY: trl-env test-rl bench-reward-server bench-reward-soak

$(TRL_BIN)/.trl: requirements/trl.txt requirements/constraints-trl.txt
	$(PYTHON) -m venv $(TRL_VENV)
	$(TRL_PIP) $(TORCH_FIND_LINKS) -r requirements/trl.txt -c requirements/constraints-trl.txt
	touch $@

trl-env: $(TRL_BIN)/.trl

# GRPOTrainer: two steps on CPU with a tiny random-weight model and RadScope's rewards.
test: test-rl

test-rl: $(TRL_BIN)/.trl
	$(TRL_BIN)/python -m pytest tests/rl -q

# The reward server (radscope serve-reward) against the in-process Scorer in one run:
# throughput at batch 256, 32 one-sample clients against in-process batches of 256, and
# one-pair latency p50 / p99 (IU X-ray pairs when present).
bench: bench-reward-server

bench-reward-server: $(BIN)/.runtime
	@mkdir -p $(OUT)
	$(BIN)/python -m bench reward-server --metrics radsem,crepe \
	  $(if $(wildcard $(DATA)/iu_xray/ReXRank_IUXray_test.json),--data $(DATA)/iu_xray/ReXRank_IUXray_test.json,) \
	  --out $(OUT)/reward_server.json

# The reward server's soak (not part of `bench`: 10 minutes): good, hostile, slow and abandoned
# requests at once on 127.0.0.1; every good request answered, memory and descriptors flat.
bench-reward-soak: $(BIN)/.runtime
	@mkdir -p $(OUT)
	$(BIN)/python -m bench reward-soak --minutes 10 --out $(OUT)/reward_soak.json

# Scaling: wall time, CPU time, pairs/s and peak RSS of the CLI from 1k pairs up (IU X-ray
# reports crossed into pairs; the example pairs when the data is absent), side by side with the
# CLI of BASE_REV (the last commit before the flat-memory work) where its O(n^2) summary still
# fits; the start-up of a 3-pair BLEU run; the in-process API as a reward function
# (`make bench-reward`: pairs/s of one core on fresh and warm texts, beside sacreBLEU, nltk and
# rouge-score, and the GRPO-step estimate; REWARD_BASE_REV=<commit> times that commit's code
# in the same run, interleaved, for a before / after ratio; see docs/speed.md).
# `make bench` runs the small sizes; `make bench-scale` the long ones (100k of the four metrics:
# about 6 min of CPU on 2 cores); `make bench-scale-million` a million pairs of the four metrics
# (streamed: 816 MB peak, about 54 min of CPU and of wall time on 2 cores).
.PHONY: bench-scale bench-scale-small bench-scale-million bench-reward
SCALE_METRICS ?= bleu,rouge,clear,radsem
SCALE_SIZES ?= 1000,10000,100000
REWARD_BASE_REV ?=
BASE_REV ?= 67fca3e
bench: bench-scale-small bench-reward

bench-scale-small: $(BIN)/.runtime
	@mkdir -p $(OUT)
	$(BIN)/python -m bench scale --data $(DATA)/iu_xray/ReXRank_IUXray_test.json \
	  --sizes 1000,10000 --metrics $(SCALE_METRICS) --baseline-rev $(BASE_REV) \
	  --out $(OUT)/scale_small.json

bench-scale: $(BIN)/.runtime
	@mkdir -p $(OUT)
	$(BIN)/python -m bench scale --data $(DATA)/iu_xray/ReXRank_IUXray_test.json \
	  --sizes $(SCALE_SIZES) --metrics $(SCALE_METRICS) --baseline-rev $(BASE_REV) \
	  --out $(OUT)/scale.json

bench-scale-million: $(BIN)/.runtime
	@mkdir -p $(OUT)
	$(BIN)/python -m bench scale --data $(DATA)/iu_xray/ReXRank_IUXray_test.json \
	  --sizes 1000000 --metrics $(SCALE_METRICS) --no-startup --out $(OUT)/scale_million.json

bench-reward: $(BIN)/.dev
	@mkdir -p $(OUT)
	$(BIN)/python -m bench reward --data $(DATA)/iu_xray/ReXRank_IUXray_test.json \
	  $(if $(REWARD_BASE_REV),--baseline-rev $(REWARD_BASE_REV)) --out $(OUT)/reward.json

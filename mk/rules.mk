# Rules readers (offline, no model): triplet, IU MeSH and SSREE benchmarks of the CLEAR / RadSEM
# rules extractors and of the clinical reader's views (CREPE rules estimate, VERT rules judge,
# SRR labels from rules), and the cost of all five metrics on one pair read once vs five runs.
# CLEAR, RadSEM, CREPE and SRR SSREE figures come from the main bench target (--extractor rules
# gives the rules readers); VERT's from here. Each command skips cleanly (exit 0) when its data
# is not under $(DATA). The exam detector behind metric applicability is measured here too, and
# the layout corpus (the project's own reports in six layouts with planted errors; PARROT as a
# check when present).
.PHONY: bench-rules
bench: bench-rules

bench-rules: $(BIN)/.runtime
	@mkdir -p $(OUT)
	$(BIN)/python -m bench rules-triplets --iu $(DATA)/iu_xray/ReXRank_IUXray_test.json \
	  --ssree $(DATA)/ssree_dev/ssree_dev.jsonl --metrics radsem,crepe,vert,bleu,bleu1,rouge \
	  --extractor rules --out $(OUT)/triplets_rules.json
	$(BIN)/python -m bench ssree --data $(DATA)/ssree_dev/ssree_dev.jsonl \
	  --metrics vert --extractor rules --out $(OUT)/ssree_vert_rules.json --quiet
	$(BIN)/python -m bench rules-mesh --data $(DATA)/iu_xray/NLMCXR_reports.tgz \
	  --out $(OUT)/mesh_clear_rules.json
	$(BIN)/python -m bench rules-mesh --labeller srr --data $(DATA)/iu_xray/NLMCXR_reports.tgz \
	  --out $(OUT)/mesh_srr_rules.json
	$(BIN)/python -m bench rules-mesh --labeller srr --srr-model srr-minilm-demo \
	  --data $(DATA)/iu_xray/NLMCXR_reports.tgz --out $(OUT)/mesh_srr_demo.json
	$(BIN)/python -m bench iu-pairs --data $(DATA)/iu_xray/ReXRank_IUXray_test.json \
	  --limit 150 --out $(OUT)/iu_pairs.jsonl
	$(BIN)/python -m bench rules-reader --n 100 \
	  $$([ -f $(OUT)/iu_pairs.jsonl ] && echo --data $(OUT)/iu_pairs.jsonl) --out $(OUT)/rules_reader.json
	$(BIN)/python -m bench layouts --parrot $(DATA)/parrot_v0/Fr_sample.csv \
	  --out $(OUT)/layouts.json
	$(BIN)/python -m bench applicability --ssree $(DATA)/ssree_dev/ssree_dev.jsonl \
	  --iu $(DATA)/iu_xray/NLMCXR_reports.tgz --parrot $(DATA)/parrot_v0/Fr_sample.csv \
	  --out $(OUT)/applicability.json

# Rules extractors: triplet and IU MeSH benchmarks for the offline CLEAR and RadSEM readers
# (their SSREE figures come from the main bench target), and SRR-BERT label extraction
# against the same MeSH codes, and the exam detector behind metric applicability.
# Each command skips cleanly (exit 0) when its data is not under $(DATA).
.PHONY: bench-rules
bench: bench-rules

bench-rules: $(BIN)/.runtime
	@mkdir -p $(OUT)
	$(BIN)/python -m engine.bench rules-triplets --iu $(DATA)/iu_xray/ReXRank_IUXray_test.json \
	  --ssree $(DATA)/ssree_dev/ssree_dev.jsonl --metrics radsem,bleu,bleu1,rouge \
	  --extractor rules --out $(OUT)/triplets_rules.json
	$(BIN)/python -m engine.bench rules-mesh --data $(DATA)/iu_xray/NLMCXR_reports.tgz \
	  --out $(OUT)/mesh_clear_rules.json
	$(BIN)/python -m engine.bench rules-mesh --labeller srr --data $(DATA)/iu_xray/NLMCXR_reports.tgz \
	  --out $(OUT)/mesh_srr.json
	$(BIN)/python -m engine.bench applicability --ssree $(DATA)/ssree_dev/ssree_dev.jsonl \
	  --iu $(DATA)/iu_xray/NLMCXR_reports.tgz --parrot $(DATA)/parrot_v0/Fr_sample.csv \
	  --out $(OUT)/applicability.json

# What a Hugging Face Space receives (HEAD's files), installed fresh as its builder does, started
# with SPACE_ID and asked for one Compare through gradio_client (mk/space_check.py; docs/app.md).
# SPACE_CHECK_ARGS=--no-pip-cache installs with no cache, compiling llama-cpp-python as the builder does.
.PHONY: space-check
space-check:
	$(PYTHON) mk/space_check.py $(SPACE_CHECK_ARGS)

# verl (tests/verl): RadScope's reward file run by verl's own reward code (the reward loop's naive
# and remote managers on a local Ray, the batch manager where verl still has it), configured with
# the overrides docs/researchers.md gives. An environment of its own, .venv-verl: verl from PyPI
# without its trainer dependencies (--no-deps), plus what its reward path imports.
VERL_VENV ?= .venv-verl
VERL_BIN := $(VERL_VENV)/bin
VERL_PIP := $(VERL_BIN)/python -m pip install --quiet --disable-pip-version-check
VERL_VERSION ?= 0.9.1

.PHONY: verl-env test-verl

$(VERL_BIN)/.verl: requirements/verl.txt requirements/constraints-verl.txt
	$(PYTHON) -m venv $(VERL_VENV)
	$(VERL_PIP) $(TORCH_FIND_LINKS) -r requirements/verl.txt -c requirements/constraints-verl.txt
	$(VERL_PIP) --no-deps verl==$(VERL_VERSION)
	touch $@

verl-env: $(VERL_BIN)/.verl

# About 2.5 minutes on 2 cores (a local Ray, three reward-loop actors).
test: test-verl

test-verl: $(VERL_BIN)/.verl
	$(VERL_BIN)/python -m pytest tests/verl -q

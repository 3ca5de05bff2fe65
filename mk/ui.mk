# Browser-test tools: axe-core (the WCAG checks tests/ui/test_accessibility.py injects into the
# page), from the npm registry, pinned, into an ignored folder. npm comes from Debian if missing.
AXE_VERSION ?= 4.14.1
AXE_DIR ?= .cache/axe
AXE_JS := $(AXE_DIR)/node_modules/axe-core/axe.min.js

.PHONY: axe
dev: $(AXE_JS)
axe: $(AXE_JS)

$(AXE_JS): mk/ui.mk
	@command -v npm >/dev/null 2>&1 || { \
	  echo "installing Debian npm for axe-core"; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq npm >/dev/null; }
	npm install --silent --no-audit --no-fund --prefix $(AXE_DIR) axe-core@$(AXE_VERSION)
	touch $@

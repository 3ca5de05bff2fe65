# Browser-test tools: axe-core (WCAG checks injected into the page by tests/ui/test_accessibility.py),
# installed from the npm registry into an ignored folder, pinned.
AXE_VERSION ?= 4.14.1
AXE_DIR ?= .cache/axe
AXE_JS := $(AXE_DIR)/node_modules/axe-core/axe.min.js

.PHONY: axe
dev: $(AXE_JS)
axe: $(AXE_JS)

$(AXE_JS):
	@command -v npm >/dev/null 2>&1 || { echo "npm is needed for axe-core: apt-get install npm"; exit 1; }
	npm install --silent --no-audit --no-fund --prefix $(AXE_DIR) axe-core@$(AXE_VERSION)

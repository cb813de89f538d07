# Two commands on a fresh machine: `make build` and `make test`. Each makes .venv on first use
# and reinstalls only when pyproject.toml changes.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: build test browser bench mindeps clean

build: $(STAMP)
	$(BIN)/cardgen build

# The tests run on every CPU this process may use (one xdist worker each, tests/conftest.py), a
# module at a time: its tests share what its fixtures build once (a game's rendered cards, its
# rulebook), which two workers would each build (--dist loadscope: 6% less time and CPU than
# sending single tests, tests/conftest.py). The dependency floors' check (bench/mindeps.py,
# --mindeps) is one of the tests: it runs on one worker while the others take the rest, and
# pytest's summary stays the last line.
test: $(STAMP) browser
	$(BIN)/ruff check --output-format concise cardgen tests bench content templates/new-game/engine.py
	$(BIN)/python -m pytest -n auto --dist loadscope --mindeps

# The card database is tested in a real browser: Debian's chromium, driven by Playwright.
# Installing it needs root (as on CI); elsewhere install it yourself or set CARDGEN_SKIP_BROWSER=1.
browser:
	@command -v chromium >/dev/null 2>&1 || [ "$$CARDGEN_SKIP_BROWSER" = 1 ] || \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || \
	  echo "could not install chromium: the browser test will say so"

# cardgen at the lowest versions pyproject.toml allows, in a venv of its own (.venv/floors, kept
# while the floors stay the same): a quick build of the starter game, a test game and a bundled
# rulebook (bench/mindeps.py). About 20 s the first time, 10 s after (part of `make test`:
# tests/test_mindeps.py).
mindeps: $(STAMP)
	$(BIN)/python bench/mindeps.py --venv $(VENV)/floors

# whole_process.py: build and render as whole commands, medians of alternating runs (some 5 min);
# with --tree DIR it runs another checkout beside this one, e.g. the code before a change.
bench: $(STAMP)
	$(BIN)/python bench/validate_cold.py
	$(BIN)/python bench/whole_process.py
	$(BIN)/python bench/render_and_sheets.py
	$(BIN)/python bench/simulate.py
	$(BIN)/python bench/publish.py

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,fast,cluster]'
	@touch $(STAMP)

clean:
	rm -rf out $(VENV)

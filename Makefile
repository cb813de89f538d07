# Two commands on a fresh machine: `make build` and `make test`. Each makes .venv on first use
# and reinstalls only when pyproject.toml changes.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: build test lint bench clean

build: $(STAMP)
	$(BIN)/cardgen build

test: $(STAMP)
	$(BIN)/ruff check --output-format concise cardgen tests bench
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python bench/validate_cold.py

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

clean:
	rm -rf out $(VENV)

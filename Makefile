# The two commands the README promises: `make demo` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench install system-deps clean

# every extra (the demo and the tests run the reference server) plus the test tools
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[all,test]'
	@touch $(STAMP)

install: $(STAMP)

## demo: start the reference server, fetch the estate over HTTP, write demo-output/
demo: install
	$(BIN)/iptoolkit demo --output demo-output

## system-deps: Debian packages the tests drive (graphviz's dot, chromium)
system-deps:
	@bash .ci/system-deps.sh

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check iptoolkit tests benchmarks

## test: install everything, lint, run every test (unit, server, notebooks, browser)
test: install system-deps lint
	$(BIN)/pytest

bench: install
	@for script in benchmarks/bench_*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) demo-output .pytest_cache .ruff_cache

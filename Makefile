# The two commands the README promises: `make demo` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
COMMA := ,
# each target installs what it needs: the demo runs the reference server (the `server`
# extra); lint, tests and benchmarks take every extra plus the test tools
DEMO_EXTRAS := server
TEST_EXTRAS := all$(COMMA)test

define pip_install
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[$(1)]'
	@touch $@
endef

$(VENV)/.installed-demo: pyproject.toml
	$(call pip_install,$(DEMO_EXTRAS))

$(VENV)/.installed-test: pyproject.toml
	$(call pip_install,$(TEST_EXTRAS))

install: $(VENV)/.installed-test

## demo: start the reference server, fetch the estate over HTTP, write demo-output/
demo: $(VENV)/.installed-demo
	$(BIN)/iptoolkit demo --output demo-output

## system-deps: Debian packages the tests drive (graphviz's dot, chromium, Java for vnu.jar)
system-deps:
	@bash .ci/system-deps.sh

lint: install ruff
	$(BIN)/mypy

ruff: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check iptoolkit tests benchmarks

## test: install everything, lint, run every test (unit, server, notebooks, browser), a test
## file per worker on every core (a file's tests share its costly fixtures: a server, a lab;
## a worker more than the cores saved a minute on a fast machine and none on a slow one,
## where browser tests then missed their deadlines), measuring branch coverage: it prints
## the total and fails below pyproject's fail_under
## (`.venv/bin/coverage report` lists the files afterwards) and the 25 slowest tests (what
## to look at first when the run grows past its 10 minutes). mypy runs beside the tests
## (a minute of a core, cold, that the tests' waits leave free) and its report follows
## theirs; the package is compiled first, so that the hundreds of processes tests start
## read its bytecode rather than compile it each (PYTHONDONTWRITEBYTECODE may be set).
test: install system-deps ruff
	$(BIN)/python -m compileall -q iptoolkit
	@$(BIN)/mypy > .mypy-report 2>&1 & typing=$$!; \
	$(BIN)/pytest -n auto --dist loadfile --no-loadscope-reorder --cov --cov-report= \
	  --durations=25; tests=$$?; \
	wait $$typing; typed=$$?; echo "== mypy"; cat .mypy-report; rm -f .mypy-report; \
	exit $$(( tests || typed ))

# CI=1: no progress bar on a terminal (support/progress.py), in the output or in the time
bench: install
	@for script in benchmarks/bench_*.py; do echo "== $$script"; CI=1 $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) demo-output .pytest_cache .ruff_cache .coverage .coverage.*

## docs-reference: regenerate docs/data-model.md, docs/rules.md, docs/modules.md and the package map of
## docs/architecture.md from the code (a test fails when one is stale)
.PHONY: docs-reference install demo system-deps lint ruff test bench clean
docs-reference: install
	$(BIN)/python -m iptoolkit.models.reference docs/data-model.md
	$(BIN)/python -m iptoolkit.auditing.reference docs/rules.md
	$(BIN)/python tests/architecture_map.py

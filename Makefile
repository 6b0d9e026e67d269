# All-in Atlas. `make build` and `make test` set everything up from a fresh clone.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
SUDO   := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
PYTEST_WORKERS ?= 2
# An NVIDIA GPU (nvidia-smi -L lists one) gets the gpu extra (numba-cuda): `make build` then runs on it.
GPU    := $(shell nvidia-smi -L >/dev/null 2>&1 && echo gpu)
STAMP  := $(if $(GPU),-gpu)
comma  := ,
EXTRAS      := $(if $(GPU),[gpu])
TEST_EXTRAS := $(if $(GPU),[test$(comma)gpu],[test])

.PHONY: setup setup-test node-deps browser build test test-fast lint test-python test-js test-e2e serve bench clean

# The stamps name the extra, so a machine that gains (or loses) a GPU installs again.
$(VENV)/.installed$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.$(EXTRAS)'
	touch $@

$(VENV)/.installed-test$(STAMP): $(VENV)/.installed$(STAMP)
	$(PY) -m pip install -q -e '.$(TEST_EXTRAS)'
	touch $@

setup: $(VENV)/.installed$(STAMP)

setup-test: $(VENV)/.installed-test$(STAMP)

# Test- and benchmark-only node packages (axe-core, the peer evaluator phe), pinned in package-lock.json.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

node-deps: node_modules/.installed

# Headless Chromium for the browser tests: Debian's package, installed once.
browser:
	@command -v chromium >/dev/null 2>&1 || { $(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q --no-install-recommends chromium; }

## build: compute every stage (cached; multiway adds samples each run) and render site/
build: setup
	$(PY) -m generator.cli build

## test: every test: lint (ruff), Python (pytest), JavaScript (node --test), browser (headless Chromium)
test: lint test-js test-python

## lint: ruff over every Python file (rules in pyproject.toml)
lint: setup-test
	$(PY) -m ruff check .

## test-fast: the edit-test loop (under 2 minutes): lint, pytest without the slow and browser tests, node --test
test-fast: lint test-js
	$(PY) -m pytest -n $(PYTEST_WORKERS) -q -m "not slow and not e2e" --ignore=tests/e2e

## test-e2e: only the headless-Chromium tests
test-e2e: setup-test node-deps browser
	$(PY) -m pytest -n $(PYTEST_WORKERS) -q tests/e2e

test-python: setup-test node-deps browser
	$(PY) -m pytest -n $(PYTEST_WORKERS) -q

# The node tests read only the committed goldens and tables of spec/ (spec/README.md): no Python, no build.
test-js: node-deps
	node --test tests/js/

## serve: preview site/ at http://127.0.0.1:8000
serve: setup
	$(PY) -m generator.cli serve

## bench: run every benchmark script and print its table (record results in BENCHMARKS.md)
bench: setup-test node-deps browser
	@for script in benchmarks/bench_*.py; do echo "== $$script"; $(PY) $$script || exit 1; done

## clean: remove build outputs and caches (keeps .venv)
clean:
	rm -rf site .cache build *.egg-info .pytest_cache tests/e2e/output tests/js/fixtures

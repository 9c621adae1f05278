# Daedalus: the two commands are `make run` and `make test`; each installs what it needs.
# The virtualenv .venv is built from uv.lock (never by hand) and rebuilt when the lock changes.

SHELL := /usr/bin/env bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
# The interpreter .venv is built on (the service's, the tests' and the benchmarks'): the
# machine's CPython built with profile-guided and link-time optimisation when it has one,
# as the official python images (deploy/Dockerfile) are. Debian's python3.11 is; a
# default pyenv build (shared libpython, no PGO) runs the same flip in 13% more
# instructions (bench/flip_instructions.py: 1.53 M against 1.35 M). It is taken when it
# has the standard library the service needs (python3.11-minimal alone has not); else
# $(PYTHON), and always a PYTHON given on the command line or in the environment.
OPTIMISED_PYTHON := /usr/bin/python3.11
ifeq ($(origin SERVICE_PYTHON),undefined)
ifeq ($(origin PYTHON),file)
STDLIB_CHECK := import asyncio, bz2, ctypes, decimal, lzma, sqlite3, ssl, zlib
HAS_STDLIB := $(shell $(OPTIMISED_PYTHON) -I -S -c '$(STDLIB_CHECK)' 2>/dev/null && echo y)
SERVICE_PYTHON := $(if $(HAS_STDLIB),$(OPTIMISED_PYTHON),$(PYTHON))
else
SERVICE_PYTHON := $(PYTHON)
endif
endif
UV_VERSION := 0.13.9
TOOLS := .tools
UV := $(TOOLS)/bin/uv
UV_STAMP := $(TOOLS)/.uv-$(UV_VERSION)
VENV := .venv
PY := $(VENV)/bin/python
DEV_STAMP := $(VENV)/.synced-dev
BENCH_STAMP := $(VENV)/.synced-bench

# The browser tests drive Debian's Chromium (playwright's own browser download is not used).
CHROMIUM ?= /usr/bin/chromium
export DAEDALUS_CHROMIUM := $(CHROMIUM)

HOST ?= 127.0.0.1
PORT ?= 8000
DAEDALUS_DATA_DIR ?= ./data
BENCH ?=

# uv must never fetch an interpreter from outside: use the machine's Python.
export UV_PROJECT_ENVIRONMENT := $(VENV)
export UV_PYTHON_DOWNLOADS := never
export UV_PYTHON := $(SERVICE_PYTHON)

# The table pages (web/): npm dependencies from the lock file, rebuilt when a source changed.
WEB := web
WEB_DEPS := $(WEB)/node_modules/.package-lock.json
WEB_BUILT := $(WEB)/dist/index.html
WEB_SOURCES := $(shell find $(WEB)/src -type f 2>/dev/null) $(WEB)/index.html \
	$(WEB)/vite.config.ts $(WEB)/tsconfig.json $(WEB)/package.json

# The TypeScript client (clients/typescript/): types generated from the committed
# contracts, type-checked with tsc --strict, built for its end-to-end test.
CLIENT := clients/typescript
CLIENT_DEPS := $(CLIENT)/node_modules/.package-lock.json
CLIENT_BUILT := $(CLIENT)/dist/test/e2e.js
CLIENT_SOURCES := $(shell find $(CLIENT)/src $(CLIENT)/test -type f -not -path '*/generated/*' 2>/dev/null) \
	$(CLIENT)/codegen.ts $(CLIENT)/tsconfig.json $(CLIENT)/package.json \
	openapi/openapi.yaml openapi/schema.graphql

# Foundry VTT's published type definitions, to type-check the Foundry roll data
# (clients/foundry/, tests/unit/dice/test_foundry_types.py). No install scripts run.
FOUNDRY := clients/foundry
FOUNDRY_DEPS := $(FOUNDRY)/node_modules/.package-lock.json

.PHONY: help run test lint bench clean venv contracts web client foundry-types FORCE

help:  ## list the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/'

$(UV_STAMP):
	rm -rf $(TOOLS)
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet uv==$(UV_VERSION)
	touch $@

# Which interpreter .venv is on: rewritten (and .venv synced again) when that changes.
PYTHON_STAMP := $(TOOLS)/.service-python

$(PYTHON_STAMP): $(UV_STAMP) FORCE
	@mkdir -p $(TOOLS)
	@[[ "$$(cat $@ 2>/dev/null)" == "$(SERVICE_PYTHON)" ]] || echo "$(SERVICE_PYTHON)" > $@

FORCE:

# A dev sync is exact: it drops the bench group, so the bench stamp goes with it.
$(DEV_STAMP): uv.lock pyproject.toml $(UV_STAMP) $(PYTHON_STAMP)
	$(UV) sync --frozen --group dev
	rm -f $(BENCH_STAMP)
	touch $@

$(BENCH_STAMP): uv.lock pyproject.toml $(UV_STAMP) $(PYTHON_STAMP)
	$(UV) sync --frozen --group dev --group bench
	touch $(DEV_STAMP) $@

venv: $(DEV_STAMP)  ## build .venv from uv.lock (dev group)

$(WEB_DEPS): $(WEB)/package-lock.json
	cd $(WEB) && npm ci --no-audit --no-fund --loglevel=error

$(WEB_BUILT): $(WEB_DEPS) $(WEB_SOURCES)
	cd $(WEB) && npm run --silent build

web: $(WEB_BUILT)  ## type-check (tsc --strict) and build the table pages into web/dist

$(CLIENT_DEPS): $(CLIENT)/package-lock.json
	cd $(CLIENT) && npm ci --no-audit --no-fund --loglevel=error

$(CLIENT_BUILT): $(CLIENT_DEPS) $(CLIENT_SOURCES)
	cd $(CLIENT) && npm run --silent build

$(FOUNDRY_DEPS): $(FOUNDRY)/package-lock.json
	cd $(FOUNDRY) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

foundry-types: $(FOUNDRY_DEPS)  ## install Foundry's type definitions for the roll-data type-check

client: $(CLIENT_BUILT)  ## generate the TypeScript client's types, type-check (strict) and build it

run: $(DEV_STAMP) $(WEB_BUILT)  ## start the service on $HOST:$PORT, data under $DAEDALUS_DATA_DIR
	mkdir -p "$(DAEDALUS_DATA_DIR)"
	HOST="$(HOST)" PORT="$(PORT)" DAEDALUS_DATA_DIR="$(DAEDALUS_DATA_DIR)" $(PY) -m api

lint: $(DEV_STAMP)  ## ruff check, ruff format --check, mypy (strict)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# $(call apt-install,PACKAGE,WHAT FOR): Debian's package, as root or through sudo.
apt-install = echo "installing Debian's $(1) $(2)" >&2; \
	if [[ "$$(id -u)" == 0 ]]; then SUDO=; else SUDO=sudo; fi; \
	$$SUDO apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $(1)

$(CHROMIUM):
	@$(call apt-install,chromium,for the browser tests (tests/browser))

# wrk drives the HTTP benchmarks (a C load generator: not the bottleneck).
WRK ?= /usr/bin/wrk

$(WRK):
	@$(call apt-install,wrk,for the HTTP benchmarks (bench/processes.py))

# valgrind's callgrind counts the API's instructions per flip (bench/flip_instructions.py):
# a cost that does not move with the machine's load, as its CPU time does.
VALGRIND ?= /usr/bin/valgrind

$(VALGRIND):
	@$(call apt-install,valgrind,for bench/flip_instructions.py)

test: lint $(CHROMIUM) $(WEB_BUILT) $(CLIENT_BUILT) $(FOUNDRY_DEPS)  ## lint, then the whole test suite (unit, e2e and browser)
	$(VENV)/bin/pytest -q -n 2

contracts: $(DEV_STAMP)  ## regenerate openapi/openapi.yaml and openapi/schema.graphql from the code
	$(PY) -m api.contracts

bench: $(BENCH_STAMP) $(WRK) $(VALGRIND)  ## run bench/*.py (or only bench/$(BENCH).py); each prints JSON lines
	@if [[ -n "$(BENCH)" ]]; then files=(bench/$(BENCH).py); else files=(bench/*.py); fi; \
	for f in "$${files[@]}"; do \
		[[ -e "$$f" ]] || { echo "no benchmark $$f" >&2; exit 1; }; \
		echo "# $$f" >&2; \
		PYTHONPATH="$(CURDIR)" $(PY) -P "$$f"; \
	done

clean:  ## remove .venv, .tools and caches (keeps ./data)
	rm -rf $(VENV) $(TOOLS) .mypy_cache .ruff_cache .pytest_cache .hypothesis build dist \
		$(WEB)/node_modules $(WEB)/dist $(CLIENT)/node_modules $(CLIENT)/dist $(CLIENT)/src/generated \
		$(FOUNDRY)/node_modules $(FOUNDRY)/generated
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

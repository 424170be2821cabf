# Gate Lab — set-up, run and test in one place. Works on a fresh machine with Python 3.11.
#
#   make run          create .venv if missing, install requirements + editable package, start the app
#   make lint         ruff check + ruff format --check (config in pyproject.toml); make test runs it first
#   make test         create .venv if missing, install dev requirements + Debian chromium, run lint and the
#                     whole pytest suite (unit, AppTest page tests, real-browser tests); PyTorch
#                     parity runs against committed fixtures, so no torch is installed
#   make test-torch   install torch, Keras and Flax (test-only): the parity fixtures against live PyTorch,
#                     the bias atlas's snippets run in all three
#   make torch-fixtures  rewrite tests/fixtures/torch_parity.npz with live PyTorch
#   make screenshots  run the browser tests writing docs/screenshots + docs/measurements.json
#   make constraints  rewrite constraints.txt from the installed (tested) versions
#   make bench        run the benchmarks in benchmarks/*.py
#   make bias-baseline  rewrite docs/bias_baseline.json, the sweep the Bias lab shows before one is trained
#
# Every pip install is constrained by constraints.txt (every transitive version pinned).
#
# Install steps are idempotent: each writes a stamp file in .venv whose name carries a hash of
# the files it depends on, so a second `make test` skips pip entirely.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV   ?= .venv
VPY    := $(VENV)/bin/python
PIP    := $(VPY) -m pip

# PyTorch only makes the parity fixtures (tests/torch_fixtures.py) and checks them live
# (make test-torch). It is never a runtime or `make test` dependency, so it is not in
# requirements*.txt: `pip install torch==2.13.0` takes the CPU wheel that lies on this kind of
# machine's disk, whereas an unpinned `torch` would pull a multi-GB CUDA build.
TORCH_VERSION := 2.13.0

PYTEST_ARGS ?=
STREAMLIT_ARGS ?=
# `make test` runs the suite on this many pytest-xdist workers (each browser test's worker starts
# its own Streamlit server and Chromium). 2 matches the 2-core CI machine; TEST_WORKERS=0 runs it in
# one process. --dist worksteal splits the list in two and, when a worker runs out, it takes half of
# what the other has left. Not --dist load: it hands each worker a long run of consecutive tests
# first, and one worker got every browser test (tests/e2e, first in the list): measured (a timeline
# of each worker's tests), the other was done at 599 s and idle while the browser tests ran to 792 s;
# with worksteal both ended within 17 s of each other, 748 s in all (docs/benchmarks.md).
TEST_WORKERS ?= 2

export DEBIAN_FRONTEND := noninteractive
export PIP_DISABLE_PIP_VERSION_CHECK := 1
export PIP_NO_INPUT := 1
export PIP_PROGRESS_BAR := off

hash = $(shell cat $(1) 2>/dev/null | sha256sum | cut -c1-12)
# The editable install records the top-level packages as they are when it runs: a folder
# installed before its __init__.py existed stays a namespace package (its __init__ never runs)
# until reinstalled. So redo it when pyproject.toml changes or a package's __init__.py appears.
PKG_DIRS := $(wildcard lstm_core/__init__.py app/__init__.py pages/__init__.py gatelab/__init__.py)

RUNTIME_STAMP  := $(VENV)/.stamp-runtime-$(call hash,requirements.txt constraints.txt)
DEV_STAMP      := $(VENV)/.stamp-dev-$(call hash,requirements.txt requirements-dev.txt constraints.txt)
TORCH_STAMP    := $(VENV)/.stamp-torch$(TORCH_VERSION)-$(shell cat constraints-frameworks.txt | sha256sum | cut -c1-8)
EDITABLE_STAMP := $(VENV)/.stamp-editable-$(shell (cat pyproject.toml; echo $(PKG_DIRS)) | sha256sum | cut -c1-12)

.PHONY: lint cjk-fonts postgresql translations dist bias-baseline nginx help run test test-torch torch-fixtures screenshots constraints bench install install-dev install-torch chromium clean

help:
	@echo "make run    - install (first time) and start the app at http://localhost:8501"
	@echo "make test   - install everything incl. Chromium (first time) and run every test"
	@echo "make lint   - ruff check and ruff format --check"
	@echo "make test-torch - check the PyTorch parity fixtures against live torch (installs torch)"
	@echo "make screenshots - refresh docs/screenshots and docs/measurements.json (browser tests)"
	@echo "make bench  - run benchmarks/*.py"
	@echo "make clean  - remove .venv and caches"

# --- virtual environment -------------------------------------------------------------------

$(VPY):
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Gate Lab needs Python >= 3.11, found " + sys.version.split()[0]'
	$(PYTHON) -m venv $(VENV)

$(RUNTIME_STAMP): requirements.txt constraints.txt | $(VPY)
	$(PIP) install -r requirements.txt -c constraints.txt
	@rm -f $(VENV)/.stamp-runtime-* && touch $@

$(DEV_STAMP): requirements.txt requirements-dev.txt constraints.txt | $(VPY)
	$(PIP) install -r requirements-dev.txt -c constraints.txt
	@rm -f $(VENV)/.stamp-dev-* && touch $@

$(TORCH_STAMP): constraints.txt constraints-frameworks.txt | $(VPY)
	$(PIP) install torch==$(TORCH_VERSION) -c constraints.txt
	$(PIP) install keras flax jax jaxlib -c constraints.txt -c constraints-frameworks.txt
	@rm -f $(VENV)/.stamp-torch* && touch $@

# --no-deps: the dependencies are already installed, pinned, from requirements.txt.
$(EDITABLE_STAMP): pyproject.toml | $(VPY)
	$(PIP) install --no-deps -e .
	@rm -f $(VENV)/.stamp-editable-* && touch $@

install: $(RUNTIME_STAMP) $(EDITABLE_STAMP) translations

install-dev: $(RUNTIME_STAMP) $(DEV_STAMP) $(EDITABLE_STAMP) translations

# The Chinese interface's gettext catalogues: app/i18n/locale/*/LC_MESSAGES/*.po -> .mo (pybabel
# compile). Quick, and the app compiles a .po in memory itself where nothing compiled it.
translations: | $(VPY)
	$(VPY) -m app.i18n.catalog compile

install-torch: install-dev $(TORCH_STAMP)

# --- Chromium for the real-browser tests (Playwright cannot download its own here) ---------

# apt_install(command, package, why): install a Debian package unless `command` already exists.
define apt_install
	@if command -v $(1) >/dev/null 2>&1 || [ -x /usr/sbin/$(1) ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then SUDO=""; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
	else \
	  echo "ERROR: Debian's $(2) is needed ($(3)) and is not installed." >&2; \
	  echo "       Run as root (or with password-less sudo), or install it yourself:" >&2; \
	  echo "       sudo apt-get update && sudo apt-get install -y $(2)" >&2; \
	  exit 1; \
	fi; \
	echo "Installing Debian $(2) (apt-get) ..."; \
	$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q; \
	$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(2); \
	{ command -v $(1) >/dev/null 2>&1 || [ -x /usr/sbin/$(1) ]; } || { echo "ERROR: $(1) still missing after apt-get install" >&2; exit 1; }
endef

chromium:
	$(call apt_install,chromium,chromium,the browser tests)

# Chinese glyphs for headless Chromium (the 繁體中文 pages): without a CJK font it draws boxes.
# Checked by the font's file, not a command.
cjk-fonts:
	@if [ -e /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then SUDO=""; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
	else echo "ERROR: Debian's fonts-noto-cjk is needed (Chinese in the browser tests): sudo apt-get install -y fonts-noto-cjk" >&2; exit 1; fi; \
	echo "Installing Debian fonts-noto-cjk (apt-get) ..."; \
	$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q; \
	$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q fonts-noto-cjk

# nginx runs the scale-out test (two replicas behind the proxy of deploy/serve.py)
nginx:
	$(call apt_install,nginx,nginx-light,the proxy test)

# PostgreSQL for the class store's tests (tests/pg_server.py starts a throwaway server with initdb +
# pg_ctl, which Debian keeps in /usr/lib/postgresql/<version>/bin, off PATH: checked by that path).
postgresql:
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then SUDO=""; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
	else echo "ERROR: Debian's postgresql is needed (the class store's tests): sudo apt-get install -y postgresql" >&2; exit 1; fi; \
	echo "Installing Debian postgresql (apt-get) ..."; \
	$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q; \
	$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql

# --- the two commands ----------------------------------------------------------------------

run: install
	$(VPY) -m streamlit run app/serve.py $(STREAMLIT_ARGS)

# The linter and formatter (ruff, pinned in requirements-dev.txt): `ruff format .` then
# `ruff check --fix .` makes a change pass.
lint: install-dev
	$(VPY) -m ruff check .
	$(VPY) -m ruff format --check .

test: install-dev chromium nginx cjk-fonts postgresql lint
	$(VPY) -m pytest -q -p no:cacheprovider -n $(TEST_WORKERS) --dist worksteal $(PYTEST_ARGS)

test-torch: install-torch
	KERAS_BACKEND=torch $(VPY) -m pytest -q -p no:cacheprovider -m torch_live tests/test_torch_live.py tests/test_model_files.py tests/test_scheme_code.py $(PYTEST_ARGS)

torch-fixtures: install-torch
	$(VPY) tests/torch_fixtures.py

screenshots: install-dev chromium nginx cjk-fonts
	GATELAB_REFRESH_DOCS=1 $(VPY) -m pytest -q -p no:cacheprovider -m e2e $(PYTEST_ARGS)

constraints: install-dev
	@{ sed -n '/^#/p' constraints.txt; $(PIP) freeze --exclude-editable | grep -v -i -E '^(torch|gate-lab)=='; } > constraints.txt.new
	mv constraints.txt.new constraints.txt

bench: install
	@shopt -s nullglob; files=(benchmarks/*.py); \
	if [ $${#files[@]} -eq 0 ]; then echo "no benchmarks yet (benchmarks/*.py)"; exit 0; fi; \
	for f in "$${files[@]}"; do echo "== $$f"; $(VPY) "$$f"; done

# The Bias lab's picture on arrival: its default grid (lstm1997, two_sequence T = 50, input x output
# gate biases) with 16 seeds per cell and a 3,000-sequence budget, trained by the sweep command.
bias-baseline: install-dev
	mkdir -p .scratch
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 $(VPY) -m lstm_core.sweep --variant lstm1997 --task two_sequence \
	    --set T=50 --model n_blocks=3 block_size=1 init_range=0.1 --x input --x-values 0,-1,-2,-3 --x-step -2 \
	    --y output --y-values 0,-2,-4 --y-step -2 --seeds 16 --algorithm rtrl --lr 1 --budget 3000 --streak 100 \
	    --goal 0.05 --out docs/bias_baseline.json --state .scratch/bias_baseline.units.jsonl --workers 1

clean:
	rm -rf $(VENV) .pytest_cache *.egg-info
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

# The wheel `pip install` makes (what a teacher without a checkout installs; it provides `gatelab`).
dist: | $(VPY)
	rm -rf dist build
	$(PIP) wheel --no-deps -w dist .
	rm -rf build

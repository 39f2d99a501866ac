# The commands of the collection. `make lab` to read, `make test` to check (what CI runs).
# Linux and macOS on Apple silicon; Windows and Intel Macs: see the README's "Open it".
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
NOTEBOOKS ?=
# The Pythons that every pinned package has wheels for (tests/test_platforms.py checks them).
SUPPORTED_PYTHONS := 3.10 3.11 3.12 3.13 3.14
# The lab listens on this machine only. Another address is a choice made on make's command line,
# `make lab LAB_HOST=0.0.0.0`: a variable set here with := is not overridden by the environment,
# so an exported HOST or LAB_HOST in a shell profile cannot open the lab to the network.
LAB_HOST := 127.0.0.1
LAB_PORT := 8888

# --- which torch ------------------------------------------------------------------------------
# TORCH=cpu (the default) or TORCH=cuda (Linux with an NVIDIA GPU: lessons 05-07 then run on it),
# said on make's command line. Without it, make keeps the build the environment already has; a
# TORCH exported in a shell profile (another program's setting) is not read.
SYSTEM := $(shell uname -s)
MACHINE := $(shell uname -m)
INSTALLED_TORCH := $(patsubst $(VENV)/.installed-lab-%,%,$(firstword $(wildcard $(VENV)/.installed-lab-*)))
ifneq ($(origin TORCH),command line)
TORCH := $(or $(INSTALLED_TORCH),cpu)
endif
TORCH_VERSION := $(shell sed -n 's/^torch==\([0-9][0-9.]*\).*/\1/p' requirements.txt)
TORCH_CPU_INDEX := https://download.pytorch.org/whl/cpu
ifeq ($(TORCH)-$(SYSTEM),cpu-Linux)
# PyPI's torch for Linux is the CUDA build: 527 MB, plus 2.2 GB of CUDA packages. PyTorch's CPU
# index has the same release built for the CPU only (about 190 MB), versioned 2.13.0+cpu, which
# the local label `+cpu` pins. --no-deps: pip asks that index for torch alone, and torch's own
# dependencies come from the usual index in the next step. If the CPU index cannot be reached,
# pip says so and takes a 2.13.0+cpu wheel from wherever else it is configured to look, or stops.
TORCH_INSTALL := --no-deps --extra-index-url $(TORCH_CPU_INDEX) torch==$(TORCH_VERSION)+cpu
else ifeq ($(TORCH)-$(SYSTEM),cuda-Linux)
# `===` asks for the version string exactly: PyPI's CUDA build "2.13.0", which an installed
# "2.13.0+cpu" does not satisfy (it does satisfy `==2.13.0`), so switching builds reinstalls torch.
TORCH_INSTALL := torch===$(TORCH_VERSION)
else ifeq ($(TORCH),cpu)
# macOS and Windows: PyPI's build is the CPU one (with Apple's GPU, MPS, on Apple silicon).
TORCH_INSTALL := torch==$(TORCH_VERSION)
else ifeq ($(TORCH),cuda)
TORCH_PROBLEM := TORCH=cuda installs PyTorch's CUDA build, which exists for Linux (and Windows, without make); on $(SYSTEM) use the default TORCH=cpu
else
TORCH_PROBLEM := TORCH=$(TORCH) is not a torch build this Makefile knows: use TORCH=cpu (the default) or TORCH=cuda
endif

# --- the environment --------------------------------------------------------------------------
# Rebuilt only when what it was installed from changes. The learner's part (`make lab`) and the
# maintainer's tools (`make test` and the rest) have a stamp each; the torch build is in the name.
LAB_STAMP := $(VENV)/.installed-lab-$(TORCH)
DEV_STAMP := $(VENV)/.installed-dev-$(TORCH)
PIP := $(BIN)/python -m pip install --quiet

.PHONY: lab test unit browser nbval lint outputs html images repository bench clean compat \
	python-version same-python supported-machine

PRINT_VERSION := -c 'import sys; print("%d.%d" % sys.version_info[:2])'
PYTHON_ADVICE := Install one of those and say which, e.g. make lab PYTHON=python3.12

python-version:
	@version=$$($(PYTHON) $(PRINT_VERSION)) || { \
		echo "make needs Python $(firstword $(SUPPORTED_PYTHONS)) to $(lastword $(SUPPORTED_PYTHONS)), and '$(PYTHON)' did not run: install one and say which, e.g. make lab PYTHON=python3.12" >&2; exit 1; }; \
	case " $(SUPPORTED_PYTHONS) " in *" $$version "*) ;; *) \
		echo "This collection needs Python $(firstword $(SUPPORTED_PYTHONS)) to $(lastword $(SUPPORTED_PYTHONS)) (torch $(TORCH_VERSION) and the other pinned packages have builds for those), and $(PYTHON) is Python $$version. $(PYTHON_ADVICE)" >&2; \
		exit 1;; esac

# An environment made earlier: its Python must still be a supported one, and the one asked for
# with PYTHON= on the command line, if any (else make would go on with the old one in silence).
same-python:
	@$(MAKE) --no-print-directory python-version PYTHON=$(BIN)/python \
		PYTHON_ADVICE="Delete $(VENV) (rm -rf $(VENV)) and run make again, with PYTHON=python3.12 if python3 is another version."
ifeq ($(origin PYTHON),command line)
	@asked=$$($(PYTHON) $(PRINT_VERSION)) && made=$$($(BIN)/python $(PRINT_VERSION)) && \
	if [ "$$asked" != "$$made" ]; then \
		echo "$(VENV) was made with Python $$made, and PYTHON=$(PYTHON) is Python $$asked: delete $(VENV) (rm -rf $(VENV)) and run make again to make it with Python $$asked." >&2; \
		exit 1; fi
endif

supported-machine:
	@if [ "$(SYSTEM)-$(MACHINE)" = "Darwin-x86_64" ]; then \
		echo "PyPI has no torch $(TORCH_VERSION) for Intel Macs: use conda instead (README, \"Open it\")." >&2; \
		exit 1; fi

$(LAB_STAMP): requirements.txt pyproject.toml
	$(if $(TORCH_PROBLEM),$(error $(TORCH_PROBLEM)))
	@$(MAKE) --no-print-directory supported-machine
	@if test -x $(BIN)/python; then $(MAKE) --no-print-directory same-python; \
		else $(MAKE) --no-print-directory python-version; fi
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) --upgrade pip
	rm -f $(VENV)/.installed-*
	$(PIP) $(TORCH_INSTALL)
	$(PIP) -r requirements.txt
	$(PIP) --no-deps --editable .
	touch $@

$(DEV_STAMP): $(LAB_STAMP) requirements-dev.txt
	$(PIP) -r requirements-dev.txt
	touch $@

lab: $(LAB_STAMP)
	@$(MAKE) --no-print-directory same-python
	$(BIN)/python tools/lab.py --host $(LAB_HOST) --port $(LAB_PORT)

test: lint unit nbval

# Includes the browser test (every notebook in JupyterLab, in Chromium) and the Colab stand-in;
# -rs prints why a test was skipped (no Chromium found outside CI, for one).
unit: $(DEV_STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadscope -rs tests

browser: $(DEV_STAMP)
	$(BIN)/python -m pytest -m browser -rs tests/test_browser.py tests/test_explore_browser.py

nbval: $(DEV_STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadscope --nbval --nbval-current-env \
		--nbval-sanitize-with tests/nbval_sanitize.cfg notebooks

# --- another torch: make compat TORCH_VERSION=2.14.1 ------------------------------------------
# The unit tests (all but the browser test and the install checks, which read this repository's
# files, not torch) and strict nbval of both editions, with another torch than the pin: PyPI's
# build of that version (on Linux the CUDA build, which also runs on a CPU: for 2.14.1 a 0.55 GB
# wheel and about 3 GB of CUDA packages) in an environment of its own, .venv-torch-VERSION, so
# that .venv keeps the pinned torch. The other packages are requirements-dev.txt's pins (but
# torchvision's: the release built for that torch), read from a copy of requirements.txt
# without its torch pin; torch is named in every install there, so pip keeps the version asked
# for.
COMPAT_VENV := .venv-torch-$(TORCH_VERSION)
COMPAT_STAMP := $(COMPAT_VENV)/.installed
COMPAT_PIP := $(COMPAT_VENV)/bin/python -m pip install --quiet
# torchvision 0.N is built for torch 2.(N-15) alone: 0.28 for 2.13, 0.29 for 2.14.
COMPAT_TORCHVISION = 0.$(shell echo $$(( $(word 2,$(subst ., ,$(TORCH_VERSION))) + 15 ))).*
COMPAT_TESTS := -m "not browser" --ignore=tests/test_install.py --ignore=tests/test_platforms.py

$(COMPAT_STAMP): requirements.txt requirements-dev.txt pyproject.toml
	@$(MAKE) --no-print-directory python-version
	test -x $(COMPAT_VENV)/bin/python || $(PYTHON) -m venv $(COMPAT_VENV)
	$(COMPAT_PIP) --upgrade pip
	rm -f $@
	sed '/^torch==/d' requirements.txt > $(COMPAT_VENV)/requirements.txt
	sed 's/^torchvision==.*/torchvision==$(COMPAT_TORCHVISION)/' requirements-dev.txt \
		> $(COMPAT_VENV)/requirements-dev.txt
	$(COMPAT_PIP) torch==$(TORCH_VERSION)
	$(COMPAT_PIP) -r $(COMPAT_VENV)/requirements-dev.txt torch==$(TORCH_VERSION)
	$(COMPAT_PIP) --no-deps --editable .
	touch $@

compat:
	$(if $(filter command line,$(origin TORCH_VERSION)),,$(error Say which torch to test: make compat TORCH_VERSION=2.14.1 (make test tests the pinned $(TORCH_VERSION))))
	@$(MAKE) --no-print-directory $(COMPAT_STAMP)
	$(COMPAT_VENV)/bin/python -c 'import torch; print("torch", torch.__version__)'
	$(COMPAT_VENV)/bin/python -m pytest -n 2 --dist loadscope -rs $(COMPAT_TESTS) tests
	$(COMPAT_VENV)/bin/python -m pytest -n 2 --dist loadscope --nbval --nbval-current-env \
		--nbval-sanitize-with tests/nbval_sanitize.cfg notebooks

lint: $(DEV_STAMP)
	$(BIN)/ruff check helpers tests tools benchmarks conftest.py
	$(BIN)/ruff format --check helpers tests tools benchmarks conftest.py
	$(BIN)/ruff check notebooks
	# nbqa sees cells as one script, so a cell's last expression (which a notebook displays) looks
	# useless to it; ruff's own notebook check above still flags useless expressions mid-cell.
	$(BIN)/nbqa ruff notebooks --extend-ignore=B015,B018

outputs: $(DEV_STAMP)
	$(BIN)/python tools/notebooks.py outputs $(NOTEBOOKS)

html: $(DEV_STAMP)
	$(BIN)/python tools/notebooks.py html $(NOTEBOOKS)

# The pictures, then the copies of them that markdown cells carry inline (so Colab shows them).
images: $(DEV_STAMP)
	$(BIN)/python tools/make_images.py
	$(BIN)/python tools/embed_pictures.py

# After forking: make repository URL=https://github.com/YOU/YOUR-FORK
repository: $(DEV_STAMP)
	$(BIN)/python tools/set_repository.py $(URL)

bench: $(DEV_STAMP)
	$(BIN)/python -m pip install --quiet torchviz==0.0.3 torchview==0.2.7
	for script in benchmarks/bench_*.py; do $(BIN)/python $$script || exit 1; done

clean:
	rm -rf build .pytest_cache

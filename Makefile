# The commands of the collection. `make lab` to read, `make test` to check (what CI runs).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8888
NOTEBOOKS ?=

.PHONY: lab test unit browser nbval lint outputs html images repository bench clean

# The environment is rebuilt only when the lock or the package description changes.
$(STAMP): requirements.lock pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps --editable .
	touch $(STAMP)

lab: $(STAMP)
	$(BIN)/python tools/lab.py --host $(HOST) --port $(PORT)

test: lint unit nbval

# Includes the browser test (every notebook in JupyterLab, in Chromium) and the Colab stand-in;
# -rs prints why a test was skipped (no Chromium found outside CI, for one).
unit: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadscope -rs tests

browser: $(STAMP)
	$(BIN)/python -m pytest -m browser -rs tests/test_browser.py

nbval: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadscope --nbval --nbval-current-env \
		--nbval-sanitize-with tests/nbval_sanitize.cfg notebooks

lint: $(STAMP)
	$(BIN)/ruff check helpers tests tools benchmarks conftest.py
	$(BIN)/ruff format --check helpers tests tools benchmarks conftest.py
	$(BIN)/ruff check notebooks
	# nbqa sees cells as one script, so a cell's last expression (which a notebook displays) looks
	# useless to it; ruff's own notebook check above still flags useless expressions mid-cell.
	$(BIN)/nbqa ruff notebooks --extend-ignore=B015,B018

outputs: $(STAMP)
	$(BIN)/python tools/notebooks.py outputs $(NOTEBOOKS)

html: $(STAMP)
	$(BIN)/python tools/notebooks.py html $(NOTEBOOKS)

# The pictures, then the copies of them that notebooks carry as cell attachments (for Colab).
images: $(STAMP)
	$(BIN)/python tools/make_images.py
	$(BIN)/python tools/attachments.py

# After forking: make repository URL=https://github.com/YOU/YOUR-FORK
repository: $(STAMP)
	$(BIN)/python tools/set_repository.py $(URL)

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet torchviz==0.0.3
	for script in benchmarks/bench_*.py; do $(BIN)/python $$script || exit 1; done

clean:
	rm -rf build .pytest_cache

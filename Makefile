# Set-up is part of both commands: a missing or stale .venv is (re)built first.
#   make run   - the main job on the embedded default (reverie demo)
#   make test  - ruff and mypy (make lint), then the test suite
VENV ?= .venv
PYTHON ?= python3
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check -q
STAMP := $(VENV)/.reverie-installed
WARMED := $(VENV)/.numba-warmed

.PHONY: run test lint warm install browser bench clean

run: $(WARMED)
	$(VENV)/bin/reverie demo

# lint comes first, so a finding stops the run before pytest; numba's warm-up (set-up, one core)
# runs beside it (mypy takes the other), then the browser check. pytest runs in two pytest-xdist
# workers, a test module never split between them (its module fixtures start once): each worker is
# a pytest session of its own with one test Ray, and the suite waits on processes, servers and
# polls more than it computes (one worker kept 2 cores 30 % busy), so two overlap those waits.
# Modules go out in collection order, the slowest first (tests/conftest.py's SLOW_FIRST), not
# xdist's default by test count, which left one-test modules of 25-30 s for the end.
# `make test PYTEST_WORKERS=` runs it in one process. The 25 slowest steps are printed last, so every
# CI log says where the suite's ten minutes go.
PYTEST_WORKERS ?= -n 2 --dist loadfile --no-loadscope-reorder
test: $(STAMP)
	$(MAKE) --no-print-directory -j2 --output-sync=target lint warm
	$(MAKE) --no-print-directory browser
	$(PY) -m pytest $(PYTEST_WORKERS) --durations=25

# Both read their rule sets from pyproject.toml (ruff: all of the tree; mypy: its `files`).
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

install: $(WARMED) browser

# umap's and hdbscan's numba code compiled once (numba caches it on disk), so no test or first
# mining run compiles it.
warm: $(WARMED)

$(WARMED): $(STAMP)
	$(PY) -m mining.warm
	touch $(WARMED)

# The explorer's browser tests and bench/ui.py drive Debian's Chromium (never a downloaded build).
browser:
	@test -x /usr/bin/chromium || (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver)

bench: $(WARMED)
	$(PY) -m bench --quick

# torch comes from pip (its CPU build lies on this machine's disk, where only pip looks); the rest
# from uv, installed into the venv by pip: the same resolution as pip's in half the time. The
# constraints keep the installed torch (2.13.0+cpu satisfies ==2.13.0), so uv fetches no other.
# --compile-bytecode as pip does: where PYTHONDONTWRITEBYTECODE is set (this machine, CI), nothing
# else writes .pyc files, and every Ray worker would compile ray, lancedb and the rest from source.
# torch's 2,300 files are compiled by compileall on every core while uv installs the rest, not by pip
# on one (16 s); compileall's status is ignored as pip's is (torch ships a file only Python 3.12 parses).
$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip
	$(PIP) install --no-compile -c constraints.txt torch==2.13.0 uv
	$(PY) -m compileall -q -j 0 "$$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/torch" \
		>/dev/null & compiling=$$!; \
	$(VENV)/bin/uv pip install --quiet --compile-bytecode --python $(PY) -c constraints.txt -e '.[dev]'; \
		installed=$$?; wait $$compiling; exit $$installed
	touch $(STAMP)

clean:
	rm -rf $(VENV) reverie-data .pytest_cache .mypy_cache .ruff_cache

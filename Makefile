# Set-up is part of both commands: a missing or stale .venv is (re)built first.
#   make run   - the main job on the embedded default (reverie demo)
#   make test  - the test suite
VENV ?= .venv
PYTHON ?= python3
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check -q
STAMP := $(VENV)/.reverie-installed

.PHONY: run test install browser bench clean

run: $(STAMP)
	$(VENV)/bin/reverie demo

test: $(STAMP) browser
	$(PY) -m pytest

install: $(STAMP) browser

# The explorer's browser tests and bench/ui.py drive Debian's Chromium (never a downloaded build).
browser:
	@test -x /usr/bin/chromium || (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver)

bench: $(STAMP)
	$(PY) -m bench --quick

$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip
	$(PIP) install -c constraints.txt torch==2.13.0
	$(PIP) install -c constraints.txt -e '.[dev]'
	$(PY) -m mining.warm
	touch $(STAMP)

clean:
	rm -rf $(VENV) reverie-data .pytest_cache

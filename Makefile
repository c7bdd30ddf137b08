# Set-up and everyday commands. Needs only Python 3.11+ and make.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench golden install clean

$(STAMP): requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py runserver 127.0.0.1:8000

test: $(STAMP)
	$(PY) -m pytest

golden: $(STAMP)
	$(PY) ../shared/tools/check_golden.py --python $(PY)
	$(PY) ../shared/tools/check_golden.py --python $(PY) --dir tests/golden

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy settlement/rules

bench: $(STAMP)
	$(PY) bench/run.py

clean:
	rm -rf $(VENV)

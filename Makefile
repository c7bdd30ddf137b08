# Set-up and everyday commands. Needs only Python 3.11+ and make.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PO := locale/zh_Hans/LC_MESSAGES/django.po
MO := locale/zh_Hans/LC_MESSAGES/django.mo

.PHONY: run serve test lint bench bench-load golden install clean mutants

$(STAMP): requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	$(PY) manage.py compile_translations
	touch $(STAMP)

# The .mo files are built, not committed (polib: no GNU gettext needed).
$(MO): $(PO) | $(STAMP)
	$(PY) manage.py compile_translations

install: $(STAMP) $(MO)

# `make run`: the demo club on http://127.0.0.1:8000/ (Django's runserver; WhiteNoise serves the collected static files).
run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput -v0
	$(PY) manage.py compile_translations
	$(PY) manage.py demo_load
	$(PY) manage.py runserver --nostatic 127.0.0.1:8000

# `make serve`: the production server (gunicorn, settings in gunicorn.conf.py and the environment; README
# "Running it for a club"). Migrations and static files first, so an upgrade is `git pull && make serve`.
serve: $(STAMP) $(MO)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput -v0
	exec $(VENV)/bin/gunicorn --config gunicorn.conf.py

# Two workers (pytest-xdist): the browser tests wait on Chromium, so a second process keeps both cores busy.
# worksteal: a worker that runs out takes tests queued for the other, so a few long browser tests at the end
# do not leave one core idle.
# PYTHONDONTWRITEBYTECODE emptied: the compiled and assert-rewritten modules are kept in __pycache__ (a machine
# that sets it otherwise makes each worker compile and rewrite everything again on every run: 6 s a worker).
# Four workers on two cores: a browser test spends much of its time waiting for Chromium, whose processes are
# not the worker's, and two workers left the cores idle (9 min 34 s quiet; four: 7 min 53 s, the cores full).
TEST_WORKERS ?= 4

test: $(STAMP) $(MO)
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n $(TEST_WORKERS) --dist worksteal

golden: $(STAMP)
	$(PY) ../shared/tools/check_golden.py --python $(PY)
	$(PY) ../shared/tools/check_golden.py --python $(PY) --dir tests/golden
	$(PY) ../shared/tools/check_golden.py --python $(PY) --dir ../shared/golden-shengji
	$(PY) ../shared/tools/check_golden.py --python $(PY) --dir ../shared/golden-next

# `make docs`: docs/rules/'s options tables and worked examples, written again from the engine (tests/test_docs.py
# fails while they are out of date).
.PHONY: docs
docs: $(STAMP)
	$(PY) docs/rules/tables.py

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy settlement/rules

bench: $(STAMP)
	$(PY) bench/run.py
	$(PY) bench/share_poll.py
	$(PY) bench/ledger.py
	$(PY) bench/stats.py
	$(PY) bench/draws.py
	$(PY) bench/events.py

# `make bench-load`: 10 clients for 60 s against gunicorn on PostgreSQL (a throwaway database on the server of
# BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres; BENCH_LOAD_DB names it), then an event's round
# (bench/event_load.py: 100 tables recording while 1,000 spectators poll; BENCH_EVENT_LOAD_DB). Not in `make bench`,
# which needs no PostgreSQL.
bench-load: $(STAMP) $(MO)
	$(PY) bench/load.py
	$(PY) bench/event_load.py

# `make screenshots`: the table page (zh-Hans and English, 360×740 phone and desktop), the new-session page and a
# corrected hand's page (phone) into docs/screenshots/,
# drawn by the system Chromium (Debian's `chromium` and `fonts-noto-cjk`); CI=true makes a missing one an error.
.PHONY: screenshots
screenshots: $(STAMP) $(MO)
	BAIFEN_SCREENSHOTS=1 CI=true $(PY) -m pytest -q tests/web/browser/screenshots.py \
		tests/web/browser/test_polish_b_browser.py

# `make mutants`: mutation testing of the engine and the services (mutmut, [tool.mutmut] in pyproject.toml).
# Slow (hours for all of it): not in CI. Survivors are explained in docs/mutants.md. The tests run from a copy
# in mutants/, so BAIFEN_SHARED_DIR points them at ../shared. One module at a time on a shared machine:
#   make mutants MUTANTS='settlement.rules.erguai*' MUTANT_CHILDREN=1
MUTANTS ?=
MUTANT_CHILDREN ?= 2
mutants: $(STAMP)
	BAIFEN_SHARED_DIR=$(abspath ../shared) $(VENV)/bin/mutmut run --max-children $(MUTANT_CHILDREN) $(MUTANTS)
	$(VENV)/bin/mutmut results

clean:
	rm -rf $(VENV)

# Two commands for a newcomer: `make kit` and `make test` (`make check`: the fast tier).
# Both create .venv and install the project on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: kit test check lint test-latest lock bench docs clean serve browser dist

# Installs come from requirements.txt: every package, direct and transitive, at one version
# with its hashes (and the build backend, for the editable install), so an upstream release
# never changes what a newcomer's `make kit` / `make test` get. `make lock` refreshes it.
$(STAMP): pyproject.toml requirements.txt
	@# Best effort (Debian, as root); everything works without them:
	@# libharfbuzz-subset0: HarfBuzz's subsetter makes WeasyPrint ~40% faster than fontTools;
	@# fonts-noto-cjk: names in Chinese, Japanese or Korean print in letters, not in boxes
	@# (DejaVu, which Debian has, covers Latin, Greek, Cyrillic, Arabic and Hebrew);
	@# poppler-utils: pdftoppm, the poppler renderer tests/pipeline/test_forms.py shows filled forms in
	@# (and pdfinfo/pdffonts, which read the print-shop PDF's boxes and fonts back);
	@# ghostscript: an independent RIP that renders the print-shop PDF/X-1a file into its CMYK plates
	@# (tests/kinds/test_shop_pdfx_independent.py: ink per pixel, no RGB, black text K only).
	@if command -v dpkg >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  for pkg in libharfbuzz-subset0 fonts-noto-cjk poppler-utils ghostscript; do \
	    dpkg -s $$pkg >/dev/null 2>&1 && continue; \
	    echo "installing $$pkg"; \
	    { DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$pkg >/dev/null 2>&1 \
	      || { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$pkg >/dev/null 2>&1; }; } \
	      || echo "note: $$pkg not installed (optional)"; \
	  done; \
	fi
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	@# byte-compile the package once (an editable install does not; PYTHONDONTWRITEBYTECODE
	@# machines would compile it again on every command)
	$(BIN)/python -m compileall -q sheets >/dev/null
	touch $(STAMP)

kit: $(STAMP)
	$(BIN)/sheets kit

# The whole suite in one run on every core (pytest-xdist, -n auto): the tests a plain `pytest`
# runs and the `slow` ones it leaves out (the interrupt sweep, the README run as written, the
# installed wheel), a module per worker at a time (a module's fixtures are built once; the whole
# kit and the dist once for the run: tests/conftest.py's `shared`), so the slow modules run
# beside the rest instead of after it, started first (tests/conftest.py orders the run: the slow
# tests, then the largest modules). The run ends with its ten slowest tests.
test: $(STAMP) browser lint
	$(BIN)/python -m pytest -q -n auto --dist loadscope --no-loadscope-reorder -m "slow or not slow" --durations=10

# The guardrails (pyproject.toml configures each): ruff (the rules the code's noqa comments name,
# private members of other objects, complexity), mypy over sheets/, and import-linter's contracts
# for the layers of ARCHITECTURE.md (no upward import, no cycle). `make test` runs them first.
lint: $(STAMP)
	$(BIN)/ruff check --quiet sheets tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports

# The fast tier, under a minute: the guardrails and the unit tests (models, rules, fields,
# planning, config: the `unit` marker; no kit is built, no PDF laid out), collected only from the
# modules that hold one (collecting the whole suite is half the time).
check: lint
	$(BIN)/python -m pytest -q -m unit -p no:cacheprovider $$(grep -rl --include='test_*.py' 'pytest.mark.unit' tests)

# The desk's browser tests drive Debian's Chromium. Best effort (Debian, as root): without it
# they are skipped, except with CI=true, where a missing browser fails them.
browser:
	@if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  echo "installing chromium (the desk's browser tests)"; \
	  { DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 \
	    || { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1; }; } \
	    || echo "note: chromium not installed; the browser tests cannot run"; \
	fi

# The sdist and the wheel a GM installs (pipx install dist/warsheets-*.whl, or uv tool install),
# built by the lock's hatchling; LICENSE and the fonts' license go inside both.
dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -m hatchling build -d dist
	@ls dist

# The desk in your browser, on the current folder's files (Ctrl-C stops it).
serve: $(STAMP)
	$(BIN)/sheets serve

# Two tables: WeasyPrint subsetting fonts with HarfBuzz (when libharfbuzz-subset0 is there),
# then with fontTools, as on a plain `pip install` without it.
bench: $(STAMP)
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/run.py --no-harfbuzz

# The generated parts of the repository: schemas/ (sheets schema) and docs/fields.md; tests check both.
docs: $(STAMP)
	$(BIN)/sheets schema --out schemas
	$(BIN)/python -c "from sheets.app.schemas import fields_markdown; open('docs/fields.md', 'w', encoding='utf-8').write(fields_markdown())"

# Refresh the lock from pyproject.toml's ranges (every extra, the build backend, hashes).
# pip-tools runs from its own pinned venv so that the lock does not lock the locker.
LOCK_VENV := .venv-lock
PIP_TOOLS := pip-tools==7.6.2
lock:
	@test -x $(LOCK_VENV)/bin/pip-compile || { $(PYTHON) -m venv $(LOCK_VENV) \
	  && $(LOCK_VENV)/bin/python -m pip install --quiet '$(PIP_TOOLS)'; }
	$(LOCK_VENV)/bin/pip-compile --quiet --upgrade --generate-hashes --allow-unsafe --strip-extras \
	  --all-extras --all-build-deps --no-emit-index-url --no-emit-find-links \
	  -o requirements.txt pyproject.toml
	@echo "requirements.txt refreshed: run make test, then commit it"

# Not part of CI's verdict: the suite on the newest releases pyproject.toml's ranges allow,
# to see what an upstream release would break before `make lock` takes it in.
LATEST := .venv-latest
test-latest:
	rm -rf $(LATEST)
	$(PYTHON) -m venv $(LATEST)
	$(LATEST)/bin/python -m pip install --quiet --upgrade -e '.[test]'
	@$(LATEST)/bin/python benchmarks/lock_drift.py requirements.txt
	@$(LATEST)/bin/python -m pytest -q -p no:cacheprovider -rf \
	  && echo "test-latest: the newest releases pass" \
	  || echo "test-latest: the newest releases break the tests above (the lock still holds; CI is not affected)"

clean:
	rm -rf output dist $(VENV) $(LATEST) $(LOCK_VENV)

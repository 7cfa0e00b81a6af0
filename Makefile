# Two commands for a newcomer: `make kit` and `make test`.
# Both create .venv and install the project on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: kit test bench clean

$(STAMP): pyproject.toml
	@# Optional speed-up: HarfBuzz's subsetter makes WeasyPrint ~40% faster than fontTools.
	@# Best effort (Debian, as root); everything works without it.
	@if command -v dpkg >/dev/null 2>&1 && ! dpkg -s libharfbuzz-subset0 >/dev/null 2>&1 \
	    && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing libharfbuzz-subset0 (faster PDF fonts)"; \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -q libharfbuzz-subset0 >/dev/null 2>&1 \
	    || echo "note: libharfbuzz-subset0 not installed; PDFs are made a little slower"; \
	fi
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@# byte-compile the package once (an editable install does not; PYTHONDONTWRITEBYTECODE
	@# machines would compile it again on every command)
	$(BIN)/python -m compileall -q sheets >/dev/null
	touch $(STAMP)

kit: $(STAMP)
	$(BIN)/sheets kit

test: $(STAMP)
	$(BIN)/python -m pytest -q

# Two tables: WeasyPrint subsetting fonts with HarfBuzz (when libharfbuzz-subset0 is there),
# then with fontTools, as on a plain `pip install` without it.
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/run.py --no-harfbuzz

clean:
	rm -rf output $(VENV)

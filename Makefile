# Two commands on a fresh machine:  `make run` (the main job: build the tape, play and check games)  and  `make test`.
# Both create the virtual environment and install what they need first.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench system-deps clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e '.[test]'
	touch $(STAMP)

system-deps:
	@bash tools/install-system-deps.sh

run: $(STAMP)
	$(VENV)/bin/cribbage-zx build
	$(VENV)/bin/cribbage-zx regress --replace   # a fresh out/regress each time (a used --out is refused otherwise)

test: $(STAMP) system-deps
	$(VENV)/bin/pytest

bench: $(STAMP)
	$(VENV)/bin/cribbage-zx bench

clean:
	rm -rf build $(VENV) .pytest_cache

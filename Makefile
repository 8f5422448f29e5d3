# Two commands on a fresh machine:  `make run` (the main job: build both tapes, play and check games)  and  `make test`.
# Both create the virtual environment and install what they need first.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test test-all bench system-deps clean mutation

# pip -qq: its errors only. With -q pip still passed on setuptools' warning that every editable install
# gets ("Editable install ... Please be careful with folders in your working directory"), which says
# nothing about this project, and its own notices (a newer pip, an index location it skipped).
$(STAMP): pyproject.toml
	@echo "installing cribbage-zx and what it needs into $(VENV) (a few minutes the first time)"
	@python3 -m venv $(VENV)
	@$(VENV)/bin/pip install -qq --upgrade pip
	@$(VENV)/bin/pip install -qq -e '.[test]'
	@# Bytecode for every module, once: where PYTHONDONTWRITEBYTECODE is set (as on our machines) pip
	@# writes none, and every process (each test's cribbage-zx, each worker) compiled ~450 modules again.
	@$(PY) -m compileall -q -j 0 $(VENV)/lib harness tests >/dev/null
	@touch $(STAMP)

system-deps:
	@bash tools/install-system-deps.sh

# Both tapes (the README's first command loads the English one in Fuse), then the games; the commands
# are not echoed: what make run prints is the project's own lines.
run: $(STAMP)
	@$(VENV)/bin/cribbage-zx build
	@$(VENV)/bin/cribbage-zx build --lang en
	@$(VENV)/bin/cribbage-zx regress --replace   # a fresh out/regress each time (a used --out is refused otherwise)

# Two tiers; the tier is the folder (tests/tiers.py). `make test`: every folder of tests/ but tests/oracles/,
# the quick loop, on a machine with nothing beyond python3-venv and make (its tests see no Debian tool).
# `make test-all`: the Debian tools the oracles use (tools/install-system-deps.sh, as root), then both tiers.
# Both cores (pytest-xdist; TEST_WORKERS=0 for one process); --dist loadfile keeps each test file on one worker,
# so a module's fixtures are made once; what several files share (tapes, games) is made once for all workers by
# tests/game_store.py. Each run ends with its CPU-s and core-seconds (tests/cpu_durations.py); `pytest
# --cpu-table` says where the CPU went. One folder: `.venv/bin/pytest tests/program/judge`.
TEST_WORKERS ?= auto
test: $(STAMP)
	$(VENV)/bin/pytest -n $(TEST_WORKERS) --dist loadfile --tier quick

test-all: $(STAMP) system-deps
	$(VENV)/bin/pytest -n $(TEST_WORKERS) --dist loadfile --tier all

bench: $(STAMP)
	$(VENV)/bin/cribbage-zx bench

# The mutation score of every module that decides or counts (tools/mutation.py: each module in its own copy
# under build/mutation/, against the fast tests of pyproject's [tool.mutmut]); fails below 95 % for any module.
# MUTATION_ARGS="--module study --children 1" runs one module on one core; docs/MUTATION.md has the figures.
MUTATION_ARGS ?=
mutation: $(STAMP)
	$(VENV)/bin/pip install -q -e '.[test,mutation]'
	$(PY) -m tools.mutation $(MUTATION_ARGS)

clean:
	rm -rf build $(VENV) .pytest_cache

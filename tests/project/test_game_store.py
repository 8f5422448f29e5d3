"""tests/game_store.py: each entry made once per run, shared safely between processes (xdist's workers)."""
from __future__ import annotations

import checkout
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from game_store import Store, key_name

TESTS = checkout.TESTS


def test_an_entry_is_made_once_and_read_by_every_later_asker(tmp_path):
    made = []
    first, second = Store(tmp_path, "gw0"), Store(tmp_path, "gw1")     # two workers, one folder
    key = {"tape": "ab12", "seed": 40503, "player": "random", "options": {"rzx": False}}
    assert first.value("game", key, lambda: made.append(1) or {"score": 121}) == {"score": 121}
    assert second.value("game", key, lambda: made.append(2) or {"score": 0}) == {"score": 121}
    assert made == [1] and first.made == ["game"] and second.made == []


def test_a_key_that_differs_in_one_field_is_another_entry(tmp_path):
    store = Store(tmp_path)
    key = {"tape": "ab12", "seed": 40503, "player": "random"}
    store.value("game", key, lambda: "seed 40503")
    assert store.value("game", {**key, "seed": 40504}, lambda: "seed 40504") == "seed 40504"
    assert store.value("game", {**key, "player": "greedy"}, lambda: "greedy") == "greedy"
    assert store.value("game", dict(reversed(list(key.items()))), lambda: "again") == "seed 40503"  # order is nothing
    assert key_name("a game", key) != key_name("a game", {**key, "seed": 1})


def test_a_half_made_entry_is_never_read_and_is_made_again(tmp_path):
    store = Store(tmp_path)

    def fails(folder: Path) -> None:
        (folder / "game-000.jsonl").write_text("half")
        raise KeyboardInterrupt                 # the maker stopped half-way
    with pytest.raises(KeyboardInterrupt):
        store.folder("run", {"n": 1}, fails)
    name = key_name("run", {"n": 1})
    assert not (tmp_path / name).exists()       # only the partial folder is left
    stale = tmp_path / name
    stale.mkdir()                               # and a final folder without its .done mark is not trusted either
    (stale / "game-000.jsonl").write_text("stale")
    folder = store.folder("run", {"n": 1}, lambda f: (f / "game-000.jsonl").write_text("whole"))
    assert (folder / "game-000.jsonl").read_text() == "whole"


def test_a_copy_is_the_tests_own_and_leaves_the_store_as_it_was(tmp_path):
    store = Store(tmp_path / "store")

    def make(f):
        (f / "report.json").write_text("{}")

    copy = store.copy("run", {"n": 2}, make, tmp_path / "mine")
    assert sorted(p.name for p in copy.iterdir()) == ["report.json"]
    (copy / "report.json").write_text("planted")
    assert (store.folder("run", {"n": 2}, make) / "report.json").read_text() == "{}"


WORKER = textwrap.dedent('''
    import sys, time
    from pathlib import Path
    sys.path.insert(0, sys.argv[1])
    from game_store import Store
    root, who = Path(sys.argv[2]), sys.argv[3]
    def make():
        with open(root.parent / "makes.log", "a") as log:
            log.write(who + "\\n")
        other = root.parent / ("gw1.ready" if who == "gw0" else "gw0.ready")
        deadline = time.monotonic() + 60
        while not other.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(2.0)                          # a game being played, the other worker asking meanwhile
        return "played by " + who
    (root.parent / (who + ".ready")).touch()
    print(Store(root, who).value("game", {"seed": 1}, make))
''')


def test_two_processes_asking_at_once_play_it_once_and_the_waiter_says_so(tmp_path):
    root = tmp_path / "store"
    root.mkdir()
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(TESTS), str(root), who], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for who in ("gw0", "gw1")]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    makers = (tmp_path / "makes.log").read_text().split()
    assert len(makers) == 1                                              # played once
    assert {out.strip() for out, _ in outs} == {f"played by {makers[0]}"}   # and both read that game
    waiter = "gw1" if makers[0] == "gw0" else "gw0"
    stderr = dict(zip(("gw0", "gw1"), (err for _, err in outs)))
    assert f"game store: {waiter} waits for game" in stderr[waiter] and "waits" not in stderr[makers[0]]
    assert len(Store(root).waits()) == 1

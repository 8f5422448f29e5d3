"""The program side: «КРИБЕДЖ» as the Spectrum runs it — its model, the records of a run, the
driver and observer, the comparison, and the runs that play many games.

The public face (docs/LIBRARY.md; examples/play_one_game.py): play a game and read its judgements.

    from harness.program import tape_bytes, load_program, GameDriver, make_player, judge_game

    loaded = load_program(tape_bytes())                 # the built tape, at the program's first question
    record = GameDriver(loaded.machine(), make_player("greedy", 7), seed=7).play()
    for rules, comparison in judge_game(record.events, loaded.setup).items(): ...

`__all__` names what a user may rely on; the stages' other modules may change between versions.
The names are imported when first used (PEP 562): importing one stage does not import the others.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

#: each public name -> (the module of this package that defines it, its name there)
_WHERE = {
    # the tape, built from basic/cribbage.bas (rebuilt when stale), and loaded to the first question
    "tape_bytes": ("model.build", "tape_bytes"), "ensure_tape": ("model.build", "ensure_tape"),
    "load_program": ("runs.loaded", "load"), "LoadedTape": ("runs.loaded", "LoadedTape"),
    # play a game: the driver answers each wait with its player's choice; the events are its transcript
    "GameDriver": ("observe.driver", "GameDriver"), "GameRecord": ("observe.driver", "GameRecord"),
    "make_player": ("observe.players", "make"), "PLAYERS": ("observe.players", "PLAYERS"),
    "Event": ("records.events", "Event"), "EventKind": ("records.events", "EventKind"),
    # read its judgements: the engine's verdict on every action, under each rule set
    "judge_game": ("judge.compare", "judge"), "Comparison": ("judge.judgements", "Comparison"),
    "Judgement": ("judge.judgements", "Judgement"), "Judged": ("judge.judgements", "Judged"),
    "Difference": ("judge.judgements", "Difference"), "describe": ("judge.judgements", "describe"),
    "DEVIATIONS": ("judge.deviations", "DEVIATIONS"),
}

__all__ = list(_WHERE)


def __getattr__(name: str) -> object:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{where[0]}", __name__), where[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:
    from .judge.judgements import Comparison
    from .judge.compare import judge as judge_game
    from .judge.deviations import DEVIATIONS
    from .judge.judgements import Difference, Judged, Judgement, describe
    from .model.build import ensure_tape, tape_bytes
    from .observe.driver import GameDriver, GameRecord
    from .observe.players import PLAYERS
    from .observe.players import make as make_player
    from .records.events import Event, EventKind
    from .runs.loaded import LoadedTape
    from .runs.loaded import load as load_program

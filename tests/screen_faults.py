"""The screen checks by place (issue 36, item 3): every slot, peg track, message row and table row the program
model (harness/program/model/program.py) names, each with a picture fault planted where the judge looks at it.

For every place, `plant_all` finds the first picture of the golden game (tests/data/golden/transcript.jsonl)
at which the judge (screen_judgements.ScreenJudge) judges that place, plants a fault there and judges the
picture with the judge as the game left it: a `Planted` says what was planted, what the judge found there that
it does not find in the golden picture, and what a near miss (a change at the same place that the program
could show) found. tests/test_screen_places.py
holds every place to a caught fault and a passing near miss; tools/screen_places.py writes the table
docs/SCREEN_PLACES.md from the same rows. No emulator: the pictures are as the observer recorded them.
"""
from __future__ import annotations

import copy
from collections import Counter
import dataclasses
from dataclasses import dataclass
from pathlib import Path

from harness.program.model import program as P
from harness.program.records.events import Picture, Who, read_jsonl
from harness.program.judge.screen_judgements import ScreenJudge

# tests/data, found from here rather than through checkout.py: tools/screen_places.py imports this module as
# tests.screen_faults, where the tests' own modules are not importable by their bare names
DATA = Path(__file__).resolve().parent / "data"

# The golden game's events (tests/data/golden/transcript.jsonl), and a picture of it changed: what the screen
# detectors' tests (program/judge/test_detectors_screen.py) and the places here plant their faults in.
with open(DATA / "golden" / "transcript.jsonl", encoding="utf-8") as _f:
    _, EVENTS = read_jsonl(_f)


def pictures(moment, having=()):
    """Indexes of the pictures at *moment* whose slots include every one of *having*."""
    return [i for i, e in enumerate(EVENTS)
            if isinstance(e, Picture) and e.moment == moment and all(k in e.slots for k in having)]


def planted(index, **changes):
    """The transcript with the picture at *index* changed: slots/pegs/rows/variables entries replaced."""
    pic = EVENTS[index]
    fields = {}
    for name, value in changes.items():
        if name in ("slots", "pegs", "rows", "variables"):
            merged = dict(getattr(pic, name))
            for k, v in value.items():
                if v is None:
                    merged.pop(k, None)
                else:
                    merged[k] = v
            fields[name] = merged
        else:
            fields[name] = value
    return EVENTS[:index] + [dataclasses.replace(pic, **fields)] + EVENTS[index + 1:]


SOME_CARD = "up 5C 7/0"          # a black five, drawn face up as the program draws one


@dataclass(frozen=True)
class Planted:
    kind: str          # slot, peg track, message row, table row
    place: str         # its name as the program model and the judgements name it
    source: str        # where program.py names it
    at: int            # the picture's index in the transcript
    moment: str
    fault: str         # what was planted
    caught: tuple      # (cause, place) of each new difference at that picture
    near_miss: str     # what was changed in the near miss
    near_caught: tuple  # the same, for the near miss (must be empty)


def _where(f) -> str:
    """The slot, line, place or peg track a finding's facts name."""
    f = f.facts
    return getattr(f, "slot", None) or getattr(f, "line", None) or getattr(f, "place", None) or \
        (getattr(f, "whose", None) and f"pegs {f.whose.value}") or ""


_BEFORE: dict[int, ScreenJudge] = {}


def judge_before(at: int) -> ScreenJudge:
    """The screen judge as it stands just before the picture at *at*, the golden game replayed up to it."""
    if not _BEFORE:
        judge = ScreenJudge()
        for i, ev in enumerate(EVENTS):
            if isinstance(ev, Picture):
                _BEFORE[i] = copy.deepcopy(judge)
                judge.judge(ev)
            else:
                judge.see(ev)
    return copy.deepcopy(_BEFORE[at])


def _found(pic: Picture, at: int) -> Counter:
    return Counter((f.cause.value, _where(f)) for f in judge_before(at).judge(pic)[1])


def _new_at(events: list, at: int) -> tuple:
    """What the judge finds at the picture *at* of *events* that it does not find at the golden game's."""
    return tuple(sorted((_found(events[at], at) - _found(EVENTS[at], at)).elements()))


def expectations() -> list[tuple[int, Picture, dict]]:
    """(index, picture, {slot: Expect}) of every picture the judge judges, replaying the golden game."""
    judge, out = ScreenJudge(), []
    for i, ev in enumerate(EVENTS):
        if isinstance(ev, Picture):
            if not ev.drawing:
                out.append((i, ev, judge.expected_slots(ev)))
            judge.judge(ev)
        else:
            judge.see(ev)
    return out


def _slot_source(name: str) -> str:
    for label, group in (("HAND_SLOTS_DEALT", P.HAND_SLOTS_DEALT), ("COMPUTER_SLOTS_DEALT", P.COMPUTER_SLOTS_DEALT),
                         ("PLAYED_SLOTS[player]", P.PLAYED_SLOTS[Who.PLAYER]), ("SHOWN_SLOTS", P.SHOWN_SLOTS),
                         ("CUT_DECKS", P.CUT_DECKS)):
        if any(s.name == name for s in group):
            return label
    return {"deck": "DECK", "starter": "STARTER", "cut player": "CUT_PLAYER", "cut computer": "CUT_COMPUTER"}[name]


def plant_slot(name: str, judged: list) -> Planted:
    """At the first picture judging *name*: a face-up card where it should not be one, or a face-up card
    turned down where one should show; the near miss keeps what the slot should show, drawn afresh."""
    i, pic, want = next((i, pic, w) for i, pic, w in judged if name in w)
    e = want[name]
    if e.state == "up":
        fault, change = "face down", "down"
        near = f"up {e.card} 7/{P.INK_RED if e.card[1] in 'HD' else P.INK_BLACK}"
    elif e.state == "rank":
        fault, change = "another rank", "up " + ("K" if e.card[0] != "K" else "Q") + "C 7/0"
        near = f"up {e.card[0]}S 7/0"                          # the cut shows a rank: any suit of it
    elif e.state == "hidden":
        fault, change, near = "face up", SOME_CARD, "other    |   |ОЧК|КОМ|15 "
    elif e.state == "down":
        fault, change, near = "face up", SOME_CARD, "down"
    else:                                                      # empty
        fault, change, near = "a card left", SOME_CARD, None
    caught = _new_at(planted(i, slots={name: change}), i)
    near_caught = _new_at(planted(i, slots={name: near}), i)
    return Planted("slot", name, _slot_source(name), i, pic.moment, f"{fault} ({change})", caught,
                   "empty" if near is None else near, near_caught)


def plant_pegs(who: Who, judged: list) -> Planted:
    """A peg one hole further than the score gives; the near miss reads the same holes in the other order."""
    i, pic, _ = next((i, pic, w) for i, pic, w in judged if pic.board and len(pic.pegs.get(who.value, [])) == 2)
    holes = list(pic.pegs[who.value])
    caught = _new_at(planted(i, pegs={who.value: [holes[0], holes[1] + 1]}), i)
    near_caught = _new_at(planted(i, pegs={who.value: holes[::-1]}), i)
    cols = sorted(c for c, w in P.PEG_COLUMNS.items() if w == who)
    return Planted("peg track", f"pegs {who.value}", f"PEG_COLUMNS {cols}", i, pic.moment,
                   f"holes {holes[0]}, {holes[1] + 1} for {holes[0]}, {holes[1]}", caught,
                   f"holes {holes[1]}, {holes[0]}", near_caught)


def _first(judged: list, test) -> tuple[int, Picture]:
    return next((i, pic) for i, pic, _ in judged if test(pic))


def plant_message_rows(judged: list) -> list[Planted]:
    out = []
    i, pic = _first(judged, lambda p: p.moment.startswith("select") and p.variables.get("message"))
    msg = pic.rows.get("message", "")
    out.append(Planted("message row", "message", f"MESSAGE_ROW {P.MESSAGE_ROW}", i, pic.moment,
                       "another message", _new_at(planted(i, rows={"message": msg + "!"}), i),
                       "the same message", _new_at(planted(i, rows={"message": msg}), i)))
    i, pic = _first(judged, lambda p: p.moment == f"select {P.SELECT_FIRST_DISCARD}")
    dealer = pic.rows["line 22"]
    other = next(t for t in P.DEALER_TEXT.values() if t != dealer)
    out.append(Planted("message row", "line 22", f"DEALER_ROW {P.DEALER_ROW}", i, pic.moment,
                       f"the other dealer ({other})", _new_at(planted(i, rows={"line 22": other}), i),
                       "the dealer named", _new_at(planted(i, rows={"line 22": dealer}), i)))
    i, pic = _first(judged, lambda p: p.board and any(p.variables.get("scores") or []))
    fig = pic.rows["figures"]
    one_off = fig[:-1] + str((int(fig[-1]) + 1) % 10)
    out.append(Planted("message row", "figures", f"BOARD_ROW {P.BOARD_ROW}, BOARD_COL {P.BOARD_COL}", i,
                       pic.moment, f"the computer's figure one off ({one_off!r})",
                       _new_at(planted(i, rows={"figures": one_off}), i),
                       "the figures with trailing blanks", _new_at(planted(i, rows={"figures": fig.ljust(7)}), i)))
    i, pic = _first(judged, lambda p: p.moment == f"pause {P.FINAL_BOARD_PAUSE}" and p.board)
    out.append(Planted("message row", "flag", f"FLAG_ROW {P.FLAG_ROW}, FLAG_COL {P.FLAG_COL}", i, pic.moment,
                       "no winner's flag", _new_at(planted(i, flag=False), i),
                       "the flag", _new_at(planted(i, flag=True), i)))
    return out


def plant_table_rows(judged: list) -> list[Planted]:
    """Stale text on every row of the table at the cut for deal, where the program prints none; and each text
    place the model names, printed at a moment it does not belong to, with its own moment as the near miss."""
    out = []
    cut_i, cut = _first(judged, lambda p: p.moment == f"inkey {P.CUT_WAIT}" and "line 22" in p.rows
                        and p.rows["line 22"] == P.CUT_TEXT)
    for r in P.TABLE_ROWS:
        key = f"table {r}:{P.TABLE_COLUMNS[-1] - 3}"
        out.append(Planted("table row", f"table row {r}", "TABLE_ROWS", cut_i, cut.moment, f"{key}: «СЧЕТ»",
                           _new_at(planted(cut_i, rows={key: "СЧЕТ"}), cut_i),
                           f"{key}: nothing", _new_at(planted(cut_i, rows={key: None}), cut_i)))
    play_i, play = _first(judged, lambda p: p.moment == f"select {P.SELECT_PLAY}")
    disc_i, disc = _first(judged, lambda p: p.moment == f"select {P.SELECT_FIRST_DISCARD}"
                          and not p.variables.get("instructions"))
    for name, (row, first, _end), text, wrong, right in (
            ("TEXT_COUNT", P.TEXT_COUNT, "ВСЕГО", (disc_i, disc), (play_i, play)),
            ("TEXT_THINKING", P.TEXT_THINKING, "ГОТОВ", (play_i, play), (disc_i, disc)),
            ("TEXT_POINTER", P.TEXT_POINTER, "ВАШ ХОД?", (cut_i, cut), (play_i, play))):
        key = f"table {row}:{first}"
        out.append(Planted("table row", f"{name} (row {row})", name, wrong[0], wrong[1].moment,
                           f"{key}: «{text}» at {wrong[1].moment}",
                           _new_at(planted(wrong[0], rows={key: text}), wrong[0]),
                           f"{key}: «{text}» at {right[1].moment}",
                           _new_at(planted(right[0], rows={key: text}), right[0])))
    return out


def plant_all() -> list[Planted]:
    _BEFORE.clear()              # replayed afresh each time (a mutant of the judge must replay under itself)
    judged = expectations()
    rows = [plant_slot(s.name, judged) for s in P.ALL_SLOTS]
    rows += [plant_pegs(who, judged) for who in (Who.COMPUTER, Who.PLAYER)]
    rows += plant_message_rows(judged)
    rows += plant_table_rows(judged)
    return rows


def table(rows: list[Planted]) -> str:
    lines = ["# The screen checks by place", "",
             "Written by tools/screen_places.py (`python -m tools.screen_places`) from tests/screen_faults.py; tests/test_screen_places.py",
             "holds every row to a caught fault and a near miss that passes. Each place the program model",
             "(harness/program/model/program.py) names, the first picture of the golden game (tests/data/golden) at",
             "which the screen judge looks at it, the fault planted there, what the judge found there that it",
             "does not find in the golden picture, and the near miss (found nothing: the last column is empty).", "",
             "| kind | place | in program.py | picture | fault planted | caught as | near miss | near miss caught |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        caught = "; ".join(f"{c} ({w})" for c, w in r.caught) or "**nothing**"
        near = "; ".join(f"{c} ({w})" for c, w in r.near_caught)
        lines.append(f"| {r.kind} | {r.place} | {r.source} | {r.at} ({r.moment}) | {r.fault} | {caught} | "
                     f"{r.near_miss} | {near} |")
    return "\n".join(lines) + "\n"


def plant_every_expectation() -> list[tuple[str, str, str, str, tuple, tuple]]:
    """For each (moment, slot, what it should show, why) the golden game has, at its first picture: the
    slot's fault and near miss as `plant_slot` plants them: (moment, slot, state, reason, caught, near_caught)."""
    _BEFORE.clear()
    judged = expectations()
    seen, out = set(), []
    for i, pic, want in judged:
        for name, e in want.items():
            key = (pic.moment, name, e.state, e.reason)
            if (*key, pic.variables.get("dealer")) in seen:        # the show's rows depend on the dealer
                continue
            seen.add((*key, pic.variables.get("dealer")))
            r = plant_slot(name, [(i, pic, want)])
            out.append((*key, r.caught, r.near_caught))
    return out

"""The watch page's records: each game the run recorded, its RZX and each judgement at the frame of its action.

A game page can replay the game (`regress --rzx`: game-NNN.rzx and game-NNN.frames.json) with each stored
judgement shown when the replay reaches its action; `game_watch` checks the recording is this game's and
gathers what the player needs (a `Watch`), or says why the page has no replay. The player's markup itself is
harness/web/watch.py's, given to write_report_html as a `Player`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..errors import InputError
from ..program.judge.deviations import DEVIATIONS
from ..program.judge.judgements import judgements_name
from ..program.records import events as E
from ..program.records.frames import GameId, check_recording, frames_name, read_frames_record
from ..program.records.words import shown
from ..program.runs.regress import RegressReport
from ..spectrum.rzx import read_rzx
from .game_page import action_words, difference_view, peg_words, reason_words
from .run_records import GameRecords
from .site import Edition

__all__ = ["Watch", "Player", "watch_entries", "game_watch", "run_tape_sha256"]


@dataclass(frozen=True)
class Watch:
    """What a game page's player needs: the game's RZX, and each stored judgement at the RZX frame of its
    action (game-NNN.frames.json), as watch_entries makes them."""
    game: str                            # game-NNN
    rzx: Path
    entries: list[dict[str, object]]        # written into the page as JSON
    rule_sets: list[str]                 # the verdict's first
    event_frames: list[int] = field(default_factory=list)   # each event's RZX frame (game-NNN.frames.json)
    notes: list[str] = field(default_factory=list)          # what an older RZX or frames file does not name
    belongs: dict[str, object] | None = None                   # the game the page is of: game, seed, tape_sha256


#: the player's markup for a game page (harness/web/watch.py's watch_block), given to write_report_html
Player = Callable[[Watch], str]


def watch_entries(g: GameRecords, frames: list[int], ed: Edition) -> list[dict[str, object]]:
    """Each judgement of the game's records (every rule set, in the file's order, numbered from 1 as
    check_actions numbers them) at the frame of its action: the RZX frames to play before it is shown
    (its event's frame + 1, at least 1; a judgement made up at the end: the last event's), and what the
    record says: what it judged, the engine's expectations, the program's pegs, each difference with the
    deviation that explains it or UNEXPLAINED. Read from the records, nothing judged again."""
    out: list[dict[str, object]] = []
    for n, j in enumerate(g.judgements or [], 1):
        at = j.action_at if j.action_at is not None else len(g.events) - 1
        diffs = []
        for d in j.differences:
            v = difference_view(d, ed)
            diffs.append({"deviation": d.deviation, "text": f"{v.kind} ({v.who}, {v.cause}): "
                                                            f"engine {v.expected}, program {v.observed}",
                          "sentence": DEVIATIONS[d.deviation].brief if d.deviation in DEVIATIONS else None})
        action = "; ".join(f"{k.replace('_', ' ')} {shown(v)}" for k, v in E.event_to_json(j.action).items()
                           if k not in ("kind", "rows", "variables", "slots", "pegs"))
        out.append({"n": n, "rules": j.rules, "judged": j.judged.value, "at": at,
                    "frame": max(frames[at], 0) + 1, "what": action_words(g.events, at), "action": action,
                    "expected": [reason_words(e) for e in j.expected], "pegged": [peg_words(s) for s in j.observed],
                    "checks": j.checks, "differences": diffs})
    return out


def game_watch(g: GameRecords, run_dir: Path, ed: Edition, rule_sets: list[str],
               tape_sha256: str | None = None) -> Watch | str:
    """The game's Watch when the run recorded it (game-NNN.rzx and its frames file) and its records exist, else
    why it has none, a sentence for its page. The RZX and the frames file must be this game's (its transcript's
    game and seed, the run's tape *tape_sha256*, the frames of this RZX): one of another is an InputError
    naming it (records/frames.py's check_recording); what an older one cannot say goes in the Watch's notes."""
    rzx, frames = run_dir / f"{g.name}.rzx", run_dir / frames_name(g.index)
    if not rzx.is_file():
        failure = g.record.failure if g.record is not None else None
        return (f"No replay: there is no {rzx.name} in this folder"
                + (f" (the game's failure: {failure})" if failure else "") + ".")
    if not frames.is_file():
        return (f"No replay: {rzx.name} is here but not {frames.name}, which places each judgement on the "
                f"recording's frames.")
    try:
        data = rzx.read_bytes()
    except OSError as exc:
        raise InputError(f"{rzx}: {exc.strerror}") from None
    recording = read_rzx(data, str(rzx))              # an InputError naming the file
    record = read_frames_record(frames, len(g.events))
    game = GameId(g.index if g.head.game is None else g.head.game, g.head.seed, tape_sha256)
    notes = check_recording(rzx, data, recording.custom, frames, record, run_dir / f"{g.name}.jsonl", game)
    if g.judgements is None:
        return f"No replay: there is no {judgements_name(g.index)} here, whose judgements the replay shows."
    return Watch(g.name, rzx, watch_entries(g, record.frames, ed), rule_sets, record.frames, notes,
                 {"game": game.game, "seed": game.seed, "tape_sha256": game.tape_sha256})


def run_tape_sha256(report: RegressReport | None) -> str | None:
    """The SHA-256 of the tape a run played, as its report.json names it (None: it names none)."""
    sha = report.tape.get("sha256") if report is not None else None
    return sha if isinstance(sha, str) else None

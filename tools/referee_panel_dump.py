"""The live referee's panel for recorded transcripts, as text: to check that a change to the referee or to
the events' words (harness/program/records/words.py) leaves what it says byte-identical.

    .venv/bin/python -m tools.referee_panel_dump OUT.txt TRANSCRIPT.jsonl...

Each transcript is fed to a `Referee` without a machine, open and then honest; the lines a person sees are
written every 7 events and at the end, then every line with its secrets. Run before and after, and `cmp`.
"""
from __future__ import annotations

import sys

from harness.play.referee import Referee
from harness.program.records.events import read_jsonl


def panel_text(paths: list[str]) -> list[str]:
    out: list[str] = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            _, events = read_jsonl(f)
        for honest in (False, True):
            r = Referee(honest=honest)
            for i, ev in enumerate(events):
                r.on_event(ev)
                if i % 7 == 0:
                    out += [f"@{i} {l.text}|{l.tone}|{l.secret}|{l.veil}" for l in r.lines()]
            r.finish()
            out += [f"{l.text}|{l.tone}|{l.secret}|{l.veil}" for l in r.lines()]
            out += [f"ALL {l.text}|{l.tone}|{l.secret}|{l.veil}" for l in r.all_lines()]
    return out


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: python -m tools.referee_panel_dump OUT.txt TRANSCRIPT.jsonl...")
    from harness.runtime.atomic import write_text
    lines = panel_text(sys.argv[2:])
    write_text(sys.argv[1], "\n".join(lines) + "\n")
    print(f"{sys.argv[1]}: {len(lines)} lines")

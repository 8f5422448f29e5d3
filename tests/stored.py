"""Things the tests build from the sources, kept in the run's store (tests/game_store.py) so that every module
and every xdist worker of a run reads one copy: `build(lang)` is harness.program.model.build.build(lang=lang), keyed by
the sources' fingerprint (listing, font, translation table, tape-making code)."""
from __future__ import annotations

from game_store import store


def build(lang: str = "ru"):
    from harness.program.model.build import build as build_tape, fingerprint
    return store().value("build", {"lang": lang, "sources": fingerprint(lang)}, lambda: build_tape(lang=lang))

"""docs/TRANSCRIPT.md is generated from the event classes and current; every kind and enum value is in it."""
import checkout

from harness.program.records import events
from tools import write_transcript_doc as tool

ROOT = checkout.ROOT


def test_the_transcript_document_is_current_and_complete():
    text = (ROOT / "docs" / "TRANSCRIPT.md").read_text(encoding="utf-8")
    assert text == tool.markdown()
    for kind in events.EventKind:
        assert f"| `{kind.value}` |" in text
    for value in events.ChoiceKind:
        assert f"`{value.value}`" in text
    assert f'"schema": {events.SCHEMA_VERSION}' in text

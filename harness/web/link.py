"""A link to a moment of a game: the page's address after `#`, and the key record it carries.

`#lang=en&seed=N` opens a new game on that tape with that seed; `&keys=K` adds a key record (play --record's
changes of the Spectrum keys held, frame by frame) that the page plays to its end before it hands the keyboard
to the person. K is the record as text (``1;FRAMES;D:KEY+KEY;D:;...``, each D the frames since the last
change, the keys held from then; an empty set lets go), deflated (raw DEFLATE, RFC 1951, which the browser's
DecompressionStream("deflate-raw") inflates) and written in base64url without padding. app.js writes and reads
the same; the tape is the one `lang` names, so a record's tape_sha256 is that tape's.
"""
from __future__ import annotations

import base64
import binascii
import zlib
from urllib.parse import parse_qsl, urlencode

from ..errors import InputError
from ..play.record import KeyRecord
from ..spectrum.keyboard import KEY_POSITIONS

LINK_VERSION = "1"
LANGS = ("ru", "en")


def keys_text(record: KeyRecord) -> str:
    """The record's frames and key changes as the link's text (before deflating)."""
    parts, last = [LINK_VERSION, str(record.frames)], 0
    for frame, keys in record.changes:
        parts.append(f"{frame - last}:{'+'.join(keys)}")
        last = frame
    return ";".join(parts)


def encode_keys(record: KeyRecord) -> str:
    """The `keys=` value of a link: keys_text deflated (raw) in base64url, no padding."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = packer.compress(keys_text(record).encode("ascii")) + packer.flush()
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_keys(value: str, tape_sha256: str, seed: int) -> KeyRecord:
    """A link's `keys=` value back as a key record of the tape *tape_sha256*; an InputError in one line when
    it is not one (not base64url, not deflated, another version, a key the 48K has not, frames out of order)."""
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
        text = zlib.decompress(raw, -15).decode("ascii")
    except (binascii.Error, ValueError, zlib.error, UnicodeDecodeError) as exc:
        raise InputError(f"link keys=: not a deflated key record ({type(exc).__name__})") from None
    parts = text.split(";")
    if len(parts) < 2 or parts[0] != LINK_VERSION:
        raise InputError(f"link keys=: version {parts[0]!r}, this program reads {LINK_VERSION}")
    changes: list[tuple[int, tuple[str, ...]]] = []
    frame = 0
    frames = _number(parts[1])
    for n, part in enumerate(parts[2:]):
        delta_text, _, keys = part.partition(":")
        delta = _number(delta_text)
        frame += delta
        held = tuple(k for k in keys.split("+") if k)
        unknown = [k for k in held if k not in KEY_POSITIONS]
        if unknown:
            raise InputError(f"link keys=: change {n} (frame {frame}): {unknown[0]!r} is not a 48K key")
        if delta < (1 if n else 0):
            raise InputError(f"link keys=: change {n} (frame {frame}) is not after the one before")
        changes.append((frame, held))
    if frames < frame:
        raise InputError(f"link keys=: {frames} frames, but a change at frame {frame}")
    return KeyRecord(tape_sha256, seed, changes, frames)


def _number(text: str) -> int:
    if not text.isdigit():
        raise InputError(f"link keys=: a malformed number ({text[:12]!r})")
    return int(text)


def link_fragment(lang: str, seed: int, record: KeyRecord | None = None) -> str:
    """The address's part after `#` for a new game (*record* None) or a record played to its end."""
    if lang not in LANGS:
        raise InputError(f"link lang={lang!r}: one of {', '.join(LANGS)}")
    fields = {"lang": lang, "seed": str(seed)}
    if record is not None:
        fields["keys"] = encode_keys(record)
    return urlencode(fields)


def read_fragment(fragment: str) -> dict[str, str]:
    """The fields of an address's part after `#` (a leading '#' allowed)."""
    return dict(parse_qsl(fragment.lstrip("#"), keep_blank_values=True))

"""A link to a moment (harness/web/link.py) and the moment's hash (record.py's moment_hash): the text of the
`keys=` field, deflated, read back; a damaged one refused in one line; the hash is SHA-256 of the 48K and
the border, cut to 12 hex digits."""
from __future__ import annotations

import base64
import hashlib
import zlib

import pytest

from harness.errors import InputError
from harness.play.record import KeyRecord, moment_hash
from harness.web import page as web_page
from harness.web.link import decode_keys, encode_keys, keys_text, link_fragment, read_fragment

RECORD = KeyRecord("ab" * 32, 4242, [(0, ("N",)), (3, ()), (40, ("ENTER",)), (43, ()), (900, ("CAPS SHIFT", "0"))], 950)


def _packed(text: str) -> str:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return base64.urlsafe_b64encode(packer.compress(text.encode()) + packer.flush()).decode().rstrip("=")


def test_the_keys_text_is_the_changes_frame_by_frame():
    assert keys_text(RECORD) == "1;950;0:N;3:;37:ENTER;3:;857:CAPS SHIFT+0"


def test_a_hand_deflated_link_reads_back_as_the_record_and_the_record_round_trips():
    value = _packed("1;950;0:N;3:;37:ENTER;3:;857:CAPS SHIFT+0")
    assert decode_keys(value, "ab" * 32, 4242) == RECORD
    assert decode_keys(encode_keys(RECORD), "ab" * 32, 4242) == RECORD
    assert "=" not in encode_keys(RECORD) and "+" not in encode_keys(RECORD)      # base64url, no padding
    fields = read_fragment("#" + link_fragment("en", 7, RECORD))
    assert fields["lang"] == "en" and fields["seed"] == "7" and decode_keys(fields["keys"], "x", 7).frames == 950
    assert read_fragment(link_fragment("ru", 9)) == {"lang": "ru", "seed": "9"}


@pytest.mark.parametrize("value, said", [
    ("@@@", "not a deflated key record"),
    (base64.urlsafe_b64encode(b"not deflate").decode(), "not a deflated key record"),
    (_packed("2;10"), "version '2'"),
    (_packed("1;10;0:Q+SHIFT"), "'SHIFT' is not a 48K key"),
    (_packed("1;10;5:N;0:"), r"change 1 \(frame 5\) is not after the one before"),
    (_packed("1;3;5:N"), "3 frames, but a change at frame 5"),
    (_packed("1;x"), "a malformed number"),
])
def test_a_damaged_link_is_refused_in_one_line(value, said):
    with pytest.raises(InputError, match=said) as caught:
        decode_keys(value, "x", 1)
    assert "\n" not in str(caught.value) and str(caught.value).startswith("link keys=")
    with pytest.raises(InputError, match="lang='xx'"):
        link_fragment("xx", 1)


def test_the_moments_hash_is_sha256_of_the_ram_and_border_cut_short():
    ram = bytes(range(256)) * 192
    want = hashlib.sha256(ram + b"\x05").hexdigest()[:12]
    assert moment_hash(ram, 5) == want and len(want) == 12
    changed = bytearray(ram)
    changed[0x1234] ^= 1
    assert moment_hash(bytes(changed), 5) != want                     # planted: one bit of RAM
    assert moment_hash(ram, 4) != want                                # and the border
    assert moment_hash(ram, 5 + 8) == want                            # near miss: only the border's 3 bits count
    with pytest.raises(ValueError, match="not the 48K"):
        moment_hash(ram[:-1], 5)


def test_the_english_listing_has_the_english_editions_words_and_a_missing_literal_is_named(monkeypatch):
    lines = web_page.listing_lines()
    en = web_page.english_listing(lines)
    assert '"I THINK"' in en["510"] and "ДУМАЮ" not in en["510"]
    assert "7060" in en and "NEED INSTRUCTIONS" in en["7060"]
    assert all(n.isdigit() for n in en)
    damaged = [(n, t.replace("ДУМАЮ", "ДУМАЛ")) if n == 510 else (n, t) for n, t in lines]
    with pytest.raises(InputError, match="line 510's \"Я ДУМАЮ\" is not in the listing's line"):
        web_page.english_listing(damaged)


def test_the_page_carries_each_tapes_texts(build_of):
    texts = web_page.texts_of(build_of("ru").program)
    assert ["Я ДУМАЮ", "I THINK"] in texts and web_page.texts_of(build_of("en").program) == []
    assert ["- НЕВЕРНО. Я ПОЛУЧАЮ ОЧКИ!", "- WRONG! I TAKE THE POINTS"] in texts


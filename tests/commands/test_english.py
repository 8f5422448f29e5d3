"""The English edition (`cribbage-zx build --lang en`): the same program, only its Russian texts translated.

The checks here do not trust harness/program/model/english.py's own walk over the program:
they find the strings and REMs of the two tokenised programs with a scan of
their own (and, separately, through the ROM-style lister `detokenise`), and
they play whole games of both editions with the same seed on the embedded
machine, comparing what the program computes and what it prints.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import literal_mask

from harness.commands import build as build_mod_cmd
from harness.errors import InputError, UsageError
from harness.program.model import build as build_mod
from harness.program.model import english
from harness.spectrum.basic import detokenise, split_program
from harness.spectrum.font import rom_font
from harness.spectrum.tape import read_tap


def test_the_listings_agree_outside_the_texts(editions):
    """The lister's view: with every "..." and REM text blanked, the two listings are the same text."""
    def blank(listing: str) -> str:
        listing = re.sub(r'"[^"\n]*"', '""', listing)
        return re.sub(r"REM .*", "REM", listing)
    ru, en = detokenise(editions["ru"].program), detokenise(editions["en"].program)
    assert blank(ru) == blank(en)
    assert "TOTAL = " in en and "ВСЕГО = " in ru


def test_no_cyrillic_is_left_in_the_english_texts(editions):
    """Codes 0x60-0x7E are the Cyrillic letters of the Russian font; in the English only "chr" (a file name) has them."""
    left = []
    for number, body in split_program(editions["en"].program):
        mask = literal_mask(body)
        low = bytes(b for b, inside in zip(body, mask) if inside and 0x60 <= b <= 0x7E)
        if low:
            left.append((number, low))
    assert left == [(2, b"chr")]


def test_ranks_are_latin_letters(editions):
    """R$ (line 7320): A for the ace, the one-cell 10 kept, J Q K from the font instead of the Cyrillic UDGs."""
    en = detokenise(editions["en"].program)
    assert '7320 LET R$="A23456789\\rJQK"' in en
    assert '7320 LET R$="Т23456789\\r\\l\\m\\n"' in detokenise(editions["ru"].program)


def test_the_english_font_is_the_chr_font_with_latin_lowercase(editions):
    ru, en, rom = editions["ru"].font, editions["en"].font, rom_font()
    assert en == rom                          # chr 0x20-0x5F and 0x7F are the ROM's glyphs already
    lower = slice((0x60 - 0x20) * 8, (0x7F - 0x20) * 8)
    assert ru[:lower.start] == en[:lower.start] and ru[lower.stop:] == en[lower.stop:]
    assert all(ru[i * 8:i * 8 + 8] != en[i * 8:i * 8 + 8] for i in range(0x40, 0x5F))


def test_the_tape_blocks_keep_names_and_sizes(editions):
    ru, en = read_tap(editions["ru"].tap), read_tap(editions["en"].tap)
    assert [b.data[:12] for b in (ru[0], ru[2])] == [b.data[:12] for b in (en[0], en[2])]   # CRIBBAGE LINE 2, chr CODE
    assert [len(b.data) for b in ru] == [len(b.data) for b in en]


def test_build_command_writes_the_english_tape(tmp_path, editions, capsys):
    out = tmp_path / "en.tap"
    assert build_mod_cmd.main(["--lang", "en", "-o", str(out)]) == 0
    assert out.read_bytes() == editions["en"].tap
    assert build_mod.EN_TAP.name == "cribbage-en.tap"
    with pytest.raises(UsageError, match="invalid choice"):
        build_mod_cmd.main(["--lang", "de", "-o", str(out)])


# ---------------------------------------------------------------- the table's refusals
def table_with(tmp_path: Path, edit) -> Path:
    text = english.TABLE.read_text(encoding="utf-8")
    path = tmp_path / "translation.tsv"
    path.write_text(edit(text), encoding="utf-8")
    return path


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('"TOTAL = "', '"THE TOTAL = "'), r"translation.tsv:\d+: the English text takes 12 bytes, the Russian 8"),
    (lambda t: t.replace('4880\t"ВСЕГО = "\t"TOTAL = "\n', ""), r'no translation for line 4880 string "ВСЕГО = "'),
    (lambda t: t + '4880\t"ВСЕГО"\t"TOTAL"\n', r'translation.tsv:\d+: line 4880 has no literal "ВСЕГО"'),
    (lambda t: t.replace('"TOTAL = "', '"ИТОГ = "'), r"Cyrillic or lowercase letters \(ИТОГ\)"),
    (lambda t: t.replace('"TOTAL = "', '"total = "'), r"Cyrillic or lowercase letters"),
    (lambda t: t.replace('4880\t"ВСЕГО = "', '4880\tВСЕГО = '), r'translation.tsv:\d+: a text must be in double quotes'),
    (lambda t: t + '4880\t"ВСЕГО = "\t"SUM = "\n', r"line 4880 'ВСЕГО = ' is translated already at row"),
])
def test_the_table_refuses_what_does_not_fit(tmp_path, editions, edit, message):
    path = table_with(tmp_path, edit)
    with pytest.raises(InputError, match=message):
        english.english_edition(editions["ru"].program, editions["ru"].font, table_path=path)


def test_a_shorter_translation_is_padded_to_the_same_width(tmp_path, editions):
    path = table_with(tmp_path, lambda t: t.replace('"TOTAL = "', '"SUM="'))
    program, _ = english.english_edition(editions["ru"].program, editions["ru"].font, table_path=path)
    assert b'"SUM=    "' in program and len(program) == len(editions["ru"].program)


def test_english_gives_the_screen_words():
    assert english.english("ВСЕГО = ") == "TOTAL = "
    assert english.english("ВСЕГО") == "COUNT"                 # 2920 "ВСЕГО ", its word as a reader splits it
    assert english.english("15-ТЬ -") == "15S   -"
    assert english.english("ЕГО БЛАГОРОДИЕ -1") == "HIS NOBS -1      "   # padded to the Russian's 17 cells
    assert english.english("ВЫ : ") == "YOU: " and english.english("Я : ") == "ME: "
    with pytest.raises(KeyError):
        english.english("НЕТ ТАКОГО")

"""The variables page as a memory map: every variable of the listing has a meaning, none is invented, and the
values at the named moments are what the machine held there."""
from __future__ import annotations

import checkout
import re
import sys

import pytest

from harness.errors import InputError
from harness import resources
from harness.edition.analysis import analyse
from harness.edition.notes import ForLoop, read_meanings, read_moments
from harness.edition.site import load_edition, meaning_problems, shown_value, write_site
from harness.edition.source import read_listing

ROOT = checkout.ROOT
sys.path.insert(0, str(ROOT))
from tools import write_variable_values as values_tool


@pytest.fixture(scope="module")
def analysis():
    return analyse(read_listing(resources.LISTING))


def test_every_variable_of_the_listing_is_described_and_none_invented(analysis):
    meanings = read_meanings(resources.data_path("basic/variables.toml"))
    assert meaning_problems(meanings, analysis.variables) == []
    assert len(meanings) == len(analysis.variables) == 70


def test_a_missing_and_an_invented_meaning_are_named(analysis):
    meanings = dict(read_meanings(resources.data_path("basic/variables.toml")))
    del meanings["HGO"]
    meanings["HG0"] = "a typo of HGO"
    problems = meaning_problems(meanings, analysis.variables)
    assert problems == ["no meaning for HGO", "HG0: not a variable of the listing"]
    # a near miss: the same names, one meaning reworded, is fine
    meanings = dict(read_meanings(resources.data_path("basic/variables.toml")))
    meanings["HGO"] = "reworded"
    assert meaning_problems(meanings, analysis.variables) == []


def test_the_edition_refuses_a_variables_file_that_misses_one(tmp_path, monkeypatch):
    from harness.edition import site as site_module
    text = resources.data_path("basic/variables.toml").read_text(encoding="utf-8")
    short = tmp_path / "variables.toml"
    short.write_text("\n".join(line for line in text.splitlines() if not line.startswith('"SAFE"')))
    real = site_module.data.data_path
    monkeypatch.setattr(site_module.data, "data_path",
                        lambda rel: short if rel == "basic/variables.toml" else real(rel))
    with pytest.raises(InputError, match="basic/variables.toml: no meaning for SAFE"):
        load_edition()


def test_an_empty_meaning_is_refused(tmp_path):
    path = tmp_path / "v.toml"
    path.write_text('"X" = ""\n')
    with pytest.raises(InputError, match="'X' must be a non-empty string"):
        read_meanings(path)


def test_dimensions_are_the_dims_the_listing_writes(analysis):
    v = analysis.variables
    assert v["P()"].dims == ("52",) and v["T()"].dims == ("12",) and v["H()"].dims == ("8",)
    assert v["V$()"].dims == ("5",) and v["X"].dims == ()


def test_the_values_file_is_current():
    """The file is what the tool writes now from the listing (about 4 s of emulation)."""
    assert values_tool.render() == values_tool.OUT.read_text(encoding="utf-8"), \
        "run tools/write_variable_values.py"


def test_the_values_are_what_the_listing_sets():
    moments = {m.id: m for m in read_moments(resources.data_path("basic/variable_values.json"))}
    setup = moments["setup"].values
    assert setup["ZX"] == 1 and setup["MAN"] == 2 and setup["G()"] == [0, 0]
    # 7360-7380: P(Z)=X+Y for X=1..13, Y=.1...4: the deck in order, before any shuffle
    assert setup["P()"] == [round(x + y / 10, 6) for x in range(1, 14) for y in range(1, 5)]
    assert bytes(setup["S$"]) == bytes([0x97, 0x92, 0x93, 0xA2])     # \h \c \d \s: the suit UDGs of 7315
    dealt = moments["dealt"].values
    assert sorted(dealt["A()"]) == dealt["A()"] and len(dealt["A()"]) == 6   # 7650-7690 sort each hand
    assert all(1 <= r <= 13 for r in dealt["A()"] + dealt["C()"])
    play = moments["play"].values
    assert play["A()"][4] == play["C()"][4] == play["E()"][4]           # the starter is the 5th card of all three
    assert play["RLEN"] == 1 and moments["discarded"].values["RLEN"] == 1    # 4040 not yet run


def test_values_are_shown_as_text_and_lists():
    assert shown_value([0x97, 0x92], "string") == '"♥♣"'
    assert shown_value([1, 2.5], "numeric array") == "[1, 2.5]"
    assert shown_value(ForLoop(5, 4, 1, 5020), "number") == \
        "5 (FOR to 4, step 1, loop at 5020)"


def test_the_page_shows_meaning_dims_and_values(tmp_path):
    out = tmp_path / "html"
    write_site(load_edition(), out)
    html = (out / "variables.html").read_text(encoding="utf-8")
    assert "The lowest count at which the player has said go" in html       # SAFE's meaning
    assert "DIM P(52)" in html
    # P(52): letter, length (2), one dimension (1 + 2), 52 numbers of 5 bytes = 266
    assert re.search(r"<b>setup</b> <span[^>]*>@\d+, 266 bytes</span> \[1.1, 1.2, 1.3, 1.4, 2.1", html)
    assert re.search(r"<b>setup</b> <span[^>]*>@\d+, 7 bytes</span> 1</div>", html)        # ZX: two name bytes, 5
    # the memory map: the chr font at 64600 (768 bytes) and the program from PROG at each moment
    assert "64600–65367<br><span class=\"size\">768 bytes</span>" in html
    moments = read_moments(ROOT / "basic" / "variable_values.json")
    prog, vars_ = moments[0].system.prog, moments[0].system.vars
    assert f"{prog}–{vars_ - 1}<br><span class=\"size\">{vars_ - prog:,} bytes</span>" in html


def test_the_variables_places_tile_the_variables_area_at_every_moment():
    """Each moment's variables, by address, follow one another from VARS to the 0x80 end marker at E_LINE - 1:
    the places the tool read are the whole area, none overlapping, none missing."""
    for m in read_moments(ROOT / "basic" / "variable_values.json"):
        assert set(m.places) == set(m.values), m.id
        at = m.system.vars
        for name, (addr, size) in sorted(m.places.items(), key=lambda kv: kv[1][0]):
            assert addr == at, (m.id, name)
            at += size
        assert at == m.system.e_line - 1, m.id
        assert m.system.ramtop == 64599 and m.system.udg == 65368     # line 2's CLEAR 64599; USR "A"

"""The HTML edition of the listing: the model it is built from, and the pages it writes."""
from __future__ import annotations

import html as htmlmod
import re
import shutil
from pathlib import Path

import pytest

from harness.errors import InputError
from harness import resources
from harness.edition import callgraph, glyphs
from harness.edition.analysis import analyse
from harness.edition.linkcheck import broken_links
from harness.edition.notes import read_coverage, read_judgements, read_routines
from harness.edition.site import load_edition, write_site
from harness.edition.source import parse_listing, read_listing
from harness.spectrum import charset
from harness.spectrum.basic import tokenise_line


@pytest.fixture(scope="module")
def listing():
    return read_listing(resources.LISTING)


@pytest.fixture(scope="module")
def analysis(listing):
    return analyse(listing)


def _statement_text(listing, key: str) -> str:
    line, index = map(int, key.split(":"))
    st = listing.by_number[line].statements[index - 1]
    return "".join(t.text for t in st.tokens).strip(": ")


# ----------------------------------------------------------------------------- the listing as lexed
def test_statements_are_numbered_as_the_rom_numbers_them(listing):
    # the driver's statement hooks, found on the real ROM: THEN starts a new statement
    assert _statement_text(listing, "2710:2") == "LET HGO=1"
    assert _statement_text(listing, "3220:2") == "LET CGO=1"
    assert _statement_text(listing, "2775:2") == "BEEP .2,20"
    assert len(listing.lines) == 611


def test_statement_keys_are_the_profilers_keys(listing):
    """The heat strip is keyed LINE:STMT; the profiler reads its statements from the tokenised program."""
    from harness.spectrum.basic import tokenise_program
    from harness.spectrum.profile import statement_table
    table = statement_table(tokenise_program(resources.LISTING.read_text(encoding="utf-8")))
    assert {(s.line, s.index) for s in listing.statements} == set(table)


def _stored_keywords(record: bytes) -> list[int]:
    """Token bytes of a stored line outside strings, REM text and hidden numbers."""
    body, out, i, in_string = record[4:-1], [], 0, False
    while i < len(body):
        b = body[i]
        if b == 0x22:
            in_string = not in_string
        elif not in_string and b == 0x0E:
            i += 6
            continue
        elif not in_string and b in charset.TOKENS:
            out.append(b)
            if b == 0xEA:          # REM: the rest is text
                break
        i += 1
    return out


def test_every_keyword_the_edition_colours_is_a_token_the_tokeniser_stores(listing):
    by_text = {v: k for k, v in charset.TOKENS.items()}
    for ln in listing.lines:
        _, record = tokenise_line(ln.text)
        mine = [by_text[t.text] for t in ln.tokens if t.kind in ("keyword", "operator") and t.text in by_text]
        assert mine == _stored_keywords(record), ln.number


def test_string_and_rem_codes_are_the_bytes_the_tape_holds(listing):
    r = next(t for t in listing.by_number[7320].tokens if t.kind == "string")
    assert r.codes == tuple(charset.encode("Т23456789\\r\\l\\m\\n"))
    rem = next(t for t in listing.by_number[500].tokens if t.kind == "rem")
    assert bytes(rem.codes).endswith(charset.encode("ВЫБОР 2-Х КАРТ"))


def test_jumps_land_on_the_next_line_when_the_target_is_missing(listing, analysis):
    # 7340 GO SUB 9050: there is no 9050, the ROM goes on at 9060
    assert any(j.source == 7340 and j.kind == "go sub" for j in analysis.incoming[9060])
    assert analysis.unresolved == []
    assert {j.source for j in analysis.incoming[4400] if j.kind == "go sub"} == {4080}


def test_dead_code_is_what_no_path_reaches(listing, analysis):
    assert 4985 not in analysis.reachable_lines          # after 4980 RETURN, never jumped to
    assert 9 not in analysis.reachable_lines             # the ROM font switch nobody calls
    assert "4985:1" in analysis.dead_statements
    assert not any(k.startswith("9610:") for k in analysis.dead_statements)   # DATA is read, not dead
    assert 4990 not in listing.by_number and 5000 in analysis.reachable_lines


def test_dead_code_agrees_with_the_coverage_notes(analysis):
    """The notes explain from a run what never ran; what reading finds dead must be among it."""
    from harness.program.model.coverage_notes import NOTES
    noted = {n.id: n for n in NOTES}
    for key in analysis.dead_statements:
        line, stmt = map(int, key.split(":"))
        assert any(n.covers_statement((line, stmt)) for n in NOTES), key
    # a REM after THEN GO TO / THEN RETURN can never run (note C4's statements)
    assert {"3260:3", "3280:4", "6015:3"} <= analysis.dead_statements
    assert noted["C4"].covers_statement((3260, 3))


def test_a_planted_jump_over_a_line_makes_it_dead_and_a_conditional_one_does_not():
    dead = analyse(parse_listing("10 GO TO 30\n20 PRINT 1\n30 STOP\n"))
    assert 20 not in dead.reachable_lines and "20:1" in dead.dead_statements
    alive = analyse(parse_listing("10 IF A THEN GO TO 30\n20 PRINT 1\n30 STOP\n"))
    assert 20 in alive.reachable_lines and not alive.dead_statements
    after_then = analyse(parse_listing("10 IF A THEN RETURN: PRINT 1\n20 STOP\n"))
    assert after_then.dead_statements == {"10:3"} and 20 in after_then.reachable_lines
    after_return = analyse(parse_listing("10 GO SUB 30: STOP\n30 RETURN: PRINT 1\n"))
    assert after_return.dead_statements == {"30:2"}


def test_variables_are_set_and_read_where_the_listing_says(analysis):
    hgo = analysis.variables["HGO"]
    assert "2710:2" in {r.key for r in hgo.sets}
    assert "4150:1" in {r.key for r in hgo.reads}
    assert "FN T" in analysis.variables and "60:1" in {r.key for r in analysis.variables["FN T"].sets}
    # DEF FN T(X)=...: the parameter X is the function's own, not a read of the program's X
    assert "60:1" not in {r.key for r in analysis.variables["X"].reads}
    assert analysis.variables["H()"].kind == "numeric array"
    assert "7025:1" in {r.key for r in analysis.variables["H()"].sets}


# ----------------------------------------------------------------------------- notes and glyphs
def test_udgs_are_read_from_the_listings_data(listing):
    udgs = glyphs.udgs_from_data(listing, 9600)
    assert [u.letter for u in udgs] == list("ABCDEFGHIJKLMNSR")
    club = next(u for u in udgs if u.letter == "C")
    assert club.code == 146 and club.rows == bytes([0, 56, 56, 16, 214, 254, 214, 16]) and club.line == 9650


def test_udg_data_with_a_byte_missing_is_refused():
    short = parse_listing('9600 DATA "A"\n9610 DATA 1,2,3,4,5,6,7\n')
    with pytest.raises(InputError, match="line 9600.*8 numbers"):
        glyphs.udgs_from_data(short, 9600)


def test_judgements_are_read_and_a_broken_entry_names_its_line(tmp_path):
    judged = read_judgements(resources.data_path("basic/RECONSTRUCTION.md"))
    assert len(judged) >= 70
    assert judged[575].ocr_rows == ["575 LET Y-l: LET SUM=0: LET F5"] and "lost-text" in judged[575].kinds
    assert len(judged[1000].ocr_rows) == 2
    bad = tmp_path / "log.md"
    bad.write_text("## Judgements\n\n### 10\n- OCR: `10 X`\n- Reconstruction: `10 X`\n- Kind: note\n")
    with pytest.raises(InputError, match=r"log.md:3: .*line 10"):
        read_judgements(bad)


ENTRY = "### {n}\n- OCR: `{n} X`\n- Reconstruction: `{n} X`\n- Kind: note\n- Evidence: read so.\n"


@pytest.mark.parametrize("text, problem", [
    (ENTRY.format(n=10) + "\n" + ENTRY.format(n=10), "log.md:7: a second entry for line 10"),
    (ENTRY.format(n=10).replace("`10 X`\n- Kind", "10 X\n- Kind"), "log.md:3: Reconstruction of line 10 must be one code span"),
    (ENTRY.format(n=10).replace("- Kind: note\n", ""), "log.md:1: the entry for line 10 lacks Kind"),
    (ENTRY.format(n=10).replace("- Evidence: read so.\n", "- Evidence:\n"), "log.md:1: the entry for line 10 lacks Evidence"),
])
def test_each_malformed_judgement_is_refused_by_file_and_line(tmp_path, text, problem):
    bad = tmp_path / "log.md"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=f"^{re.escape(str(tmp_path))}/{re.escape(problem)}$"):
        read_judgements(bad)


def test_a_well_formed_log_with_loose_spacing_and_prose_between_sections_is_read(tmp_path):
    good = tmp_path / "log.md"
    good.write_text("## Format\n- OCR: not an entry's field\n\n## Judgements\n\n"
                    + ENTRY.format(n=10).replace("`10 X`\n- Kind", "`10 X`  \n- Kind")
                    + "\n" + ENTRY.format(n=20) + "\n## Later\n- Kind: prose, not line 20's\n", encoding="utf-8")
    judged = read_judgements(good)
    assert sorted(judged) == [10, 20]
    assert judged[10].reconstruction == "10 X" and judged[10].file_line == 6
    assert judged[20].kinds == ["note"] and judged[20].evidence == "read so."


def test_routines_file_is_complete_and_a_missing_field_is_named(tmp_path, listing):
    notes = read_routines(resources.data_path("basic/subroutines.toml"))
    assert all(r.line in listing.by_number for r in notes.routines)
    assert {500, 1000, 2000, 4400, 4700} <= {r.line for r in notes.routines}
    assert all(n in listing.by_number for lines in notes.differences.values() for n in lines)
    bad = tmp_path / "s.toml"
    bad.write_text('[[routine]]\nline = 10\ntitle = "x"\nsummary = "y"\ninputs = ""\n')
    with pytest.raises(InputError, match="routine #1 \\(10\\) lacks outputs"):
        read_routines(bad)


# ----------------------------------------------------------------------------- the site (tests/conftest.py)
def test_the_link_checker_catches_a_planted_broken_link_and_anchor(site, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(site, copy)
    page = copy / "index.html"
    page.write_text(page.read_text().replace('href="listing.html"', 'href="listin.html"', 1)
                    .replace("</main>", '<a href="listing.html#L4401">x</a><a href="https://example.org/">y</a></main>'))
    problems = broken_links(copy)
    assert any("listin.html (no such file)" in p for p in problems)
    assert any("#L4401 (no such anchor)" in p for p in problems)
    assert any("external link" in p for p in problems)
    assert len(problems) == 3


def test_listing_page_links_jumps_marks_judgements_deviations_and_heat(site):
    html = (site / "listing.html").read_text()
    assert 'href="listing.html#L2900"' in html                 # 4450 GO SUB 2900
    assert 'id="L4985"' in html and "line dead" in html
    assert 'href="reconstruction.html#J575"' in html
    assert 'href="deviations.html#D1"' in html
    assert "h h5 never" not in html and "h h5" in html           # the busiest statement, darkest
    assert 'class="h h0 never" title="4405:1' not in html       # 4405:1 ran 40000 times: counts win over never_run
    assert 'title="9:1: 0 runs' in html
    assert 'title="reached from 4405 (falls through)">4420<' in html         # the lines that reach every line
    assert 'title="no line reaches it">4985<' in html


def test_glyphs_drawn_with_the_programs_font_keep_readable_text(site):
    html = (site / "listing.html").read_text()
    # «СЛЕДУЮЩИЙ РАУНД» of 4400: each letter a glyph cell whose code is its KOI-7 byte
    assert '<i class="g" style="--c:%d">С</i>' % charset.encode("С")[0] in html
    assert '<i class="g" style="--c:146">♣</i>' in html          # \c, the club UDG, in S$ at 7315


def test_call_graph_is_drawn_or_the_page_says_why(site, monkeypatch, tmp_path):
    html = (site / "routines.html").read_text()
    if shutil.which("dot"):
        assert "<svg" in html and 'routine-0500.html' in html
    monkeypatch.setattr(callgraph.shutil, "which", lambda name: None)
    out = tmp_path / "nodot"
    write_site(load_edition(), out)
    html = (out / "routines.html").read_text()
    assert "<svg" not in html and "Graphviz `dot` is not installed" in html


def test_coverage_reader_refuses_a_malformed_file(tmp_path):
    bad = tmp_path / "r.json"
    bad.write_text('{"coverage": {"statements_run": 1, "counts": {"10:1": 1}}}')
    with pytest.raises(InputError, match="r.json: coverage.statements_total: missing"):
        read_coverage(bad)
    assert read_coverage(_write(tmp_path / "none.json", '{"games": 1}')) is None
    # a sweep's report has a "coverage" of cases, not of statements: no heat strip, no error
    assert read_coverage(_write(tmp_path / "sweep.json", '{"coverage": {"series": 5, "situations": 2}}')) is None


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_a_routine_that_names_no_line_of_the_listing_is_refused(tmp_path, monkeypatch):
    from harness.edition import site as site_module
    notes = tmp_path / "subroutines.toml"
    notes.write_text('[[routine]]\nline = 4990\ntitle = "x"\nsummary = "y"\ninputs = ""\noutputs = ""\n')
    real = site_module.data.data_path
    monkeypatch.setattr(site_module.data, "data_path",
                        lambda rel: notes if rel == "basic/subroutines.toml" else real(rel))
    with pytest.raises(InputError, match="routine 4990 is not a line of the listing"):
        load_edition()


def test_deviations_page_links_every_deviation_to_its_lines(site):
    from harness.program.judge.deviations import DEVIATIONS
    html = (site / "deviations.html").read_text()
    for dev_id in DEVIATIONS:
        assert f'id="{dev_id}"' in html
    assert 'href="listing.html#L4450"' in html and 'href="listing.html#L2742"' in html   # D1 4400-4450, D2 2740-2763


def test_routine_pages_link_previous_next_and_up(site):
    from harness.edition.notes import read_routines
    lines = [r.line for r in read_routines(resources.data_path("basic/subroutines.toml")).routines]
    for k, line in enumerate(lines):
        html = (site / f"routine-{line:04d}.html").read_text()
        assert f'rel="up" href="routines.html#R{line}"' in html
        if k:
            assert f'rel="prev" href="routine-{lines[k - 1]:04d}.html"' in html
        else:
            assert 'rel="prev"' not in html
        if k + 1 < len(lines):
            assert f'rel="next" href="routine-{lines[k + 1]:04d}.html"' in html
        else:
            assert 'rel="next"' not in html


def test_every_russian_text_has_its_english_under_its_line(site):
    from harness.program.model.english import read_table
    html = (site / "listing.html").read_text()
    blocks = dict(re.findall(r'<div class="line[^"]*" id="L(\d+)">(.*?)\n</div>', html, re.S))
    blocks = {k: htmlmod.unescape(v) for k, v in blocks.items()}
    for t in read_table():
        english = " ".join(t.english.replace("\\r", "⑩").replace("\\l", "В").replace("\\m", "Д")
                           .replace("\\n", "К").split())
        block = blocks[str(t.line)]
        assert '<span class="en" lang="en"' in block, t.line
        words = english.split()
        assert words[0] in block and (len(t.english) > 32 or words[-1] in block), (t.line, english)
    assert "CHECK FOR RUNS" in blocks["2130"] and "FO R" not in blocks["2130"]


def test_the_coverage_page_has_one_row_per_reason(site):
    html = (site / "coverage.html").read_text()
    table = html[html.index('class="vars reasons"'):]
    table = table[:table.index("</table>")]
    rows = re.findall(r"<tr[^>]*><td><b>([^<]+)</b>", table)
    assert rows == ["C2", "4400 Reset the count"]
    assert 'href="listing.html#S9-1">9:1</a>' in table and 'href="listing.html#S4405-1">4405:1</a>' in table
    assert "no note: 1 item on 1 line not reached by this run" in table


def test_a_section_naming_no_routine_is_refused(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('[[routine]]\nline = 1\ntitle = "x"\nsummary = "y"\ninputs = ""\noutputs = ""\n'
                    '[[section]]\ntitle = "A"\nroutines = [1, 7]\n')
    with pytest.raises(InputError, match="section 'A' names 7, which starts no routine"):
        read_routines(path)
    path.write_text('[[routine]]\nline = 1\ntitle = "x"\nsummary = "y"\ninputs = ""\noutputs = ""\n'
                    '[[routine]]\nline = 2\ntitle = "x"\nsummary = "y"\ninputs = ""\noutputs = ""\n'
                    '[[section]]\ntitle = "A"\nroutines = [1]\n')
    with pytest.raises(InputError, match="routines in no section: 2"):
        read_routines(path)


def test_template_bytecode_cache_goes_to_the_users_cache_folder_or_nowhere(tmp_path, monkeypatch):
    from harness.edition import site as site_module
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    cache = site_module.template_cache()
    assert cache is not None and (tmp_path / "cache" / "cribbage-zx" / "templates").is_dir()
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert site_module.template_cache() is None           # no cache, no error: pages are still written

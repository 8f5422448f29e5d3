"""`cribbage-zx strength` on the emulator: the same figures and transcripts on the local pool and on a Dask
LocalCluster, the page and its plots written, the figures again from the transcripts (--from), a used folder refused.
Small on purpose: two games a run (each about 5 CPU-s), ten engine games a pairing."""
import json
import re

import pytest

from harness.errors import InputError, OutputError, UsageError
from harness.program.runs import strength
from harness.runtime import outdir
from harness.commands import strength as strength_command
from harness.program.runs.study import KINDS

from helpers import STRENGTH_ENGINE_GAMES as ENGINE_GAMES
from helpers import STRENGTH_OPPONENTS as OPPONENTS
from helpers import strength_transcripts, without_run


def test_a_local_run_writes_its_report_page_plots_and_transcripts(strength_local_run):
    out, report = strength_local_run
    assert json.loads((out / "report.json").read_text()) == report
    assert sorted(strength_transcripts(out)) == ["game-000.jsonl", "game-001.jsonl"]
    assert not report["harness_failures"]
    for o in OPPONENTS:
        f = report["figures"][o]
        assert f["completed"] == 1 and f["deals"] > 3
        pp = f["points_per_deal"]
        assert pp["computer"]["total"]["mean"] == pytest.approx(sum(pp["computer"][k]["mean"] for k in KINDS),
                                                              abs=1e-3)
    html = (out / "strength.html").read_text().replace("&#39;", "'")
    assert report["verdict"] in html
    first = re.search(r"<p[^>]*>(.*?)</p>", html, re.S).group(1)      # the page's first paragraph: the plain words
    assert first == report["plain_words"] and first.startswith("The computer ")
    assert [r["player"] for r in report["ladder"]][-1] == "ev" and "program" in [r["player"] for r in report["ladder"]]
    check = report["validation"]["first_dealer"]["check"]
    assert check["status"] == "too few games" and "Too few games" in html   # a few dozen engine games: no test
    for name in ("ladder.png", "win-rates.png", "points-per-deal.png", "crib-table.png", "discard-loss.png"):
        assert (out / name).read_bytes()[:4] == b"\x89PNG" and f'src="{name}"' in html
    assert report["engine"]["ev vs ev"]["games"] == ENGINE_GAMES


def test_the_figures_again_from_the_transcripts(strength_local_run, tmp_path):
    out, report = strength_local_run
    copy = tmp_path / "copy"
    copy.mkdir()
    for name, data in strength_transcripts(out).items():
        (copy / name).write_bytes(data)
    with pytest.raises(OutputError, match="no cribbage-zx run wrote"):     # not rewritten in place
        strength.reanalyse(copy, 1, strength.StrengthOptions(engine_games=ENGINE_GAMES), page=False)
    again = strength.reanalyse(copy, 1, strength.StrengthOptions(engine_games=ENGINE_GAMES), page=False,
                               out=tmp_path / "again").as_json()
    assert again["tape"] is None              # bare transcripts (no report.json beside them) name no tape
    assert without_run(again) == dict(without_run(report), tape=None)
    assert json.loads((tmp_path / "again" / "report.json").read_text()) == again


def test_a_used_folder_is_refused_and_an_empty_one_has_nothing_to_study(strength_local_run, strength_tape, tmp_path):
    out, _ = strength_local_run
    with pytest.raises(OutputError, match="--replace"):
        strength.run(1, 7, 1, out, strength.StrengthOptions(
            opponents=("ev",), engine_games=0, tap=strength_tape, progress=False))
    with pytest.raises(InputError, match="no game"):
        strength.reanalyse(tmp_path, 1, strength.StrengthOptions(engine_games=0))


def test_bad_arguments_are_one_line_errors():
    with pytest.raises(UsageError, match="--opponent"):
        strength_command.main(["--opponent", "adversarial"])
    with pytest.raises(UsageError, match="--games"):
        strength_command.main(["--games", "0"])


def test_several_runs_studied_together_add_up_and_a_game_in_two_is_refused(strength_local_run, strength_tape, tmp_path):
    """--from A --from B: the games of two runs of other seeds counted together (wins and games add up, each
    run's figures as it reported them); the same game in two folders is refused, not counted twice."""
    a, report_a = strength_local_run
    b = tmp_path / "b"
    report_b = strength.run(1, 9, 1, b, strength.StrengthOptions(
        opponents=OPPONENTS, engine_games=ENGINE_GAMES, tap=strength_tape, progress=False),
        page=False).as_json()
    both = strength.reanalyse([a, b], 1, strength.StrengthOptions(engine_games=ENGINE_GAMES), page=False,
                              out=tmp_path / "both").as_json()
    assert json.loads((tmp_path / "both" / "report.json").read_text()) == both
    for o in OPPONENTS:
        wins = [r["figures"][o]["computer_wins"] for r in (report_a, report_b, both)]
        assert both["figures"][o]["completed"] == 2
        assert (wins[2]["k"], wins[2]["n"]) == (wins[0]["k"] + wins[1]["k"], wins[0]["n"] + wins[1]["n"])
    assert both["run"]["from"] == [str(a), str(b)]
    copy = tmp_path / "copy"
    copy.mkdir()
    for name, data in strength_transcripts(a).items():
        (copy / name).write_bytes(data)
    with pytest.raises(InputError, match="seed .* is in .* too"):
        strength.reanalyse([a, copy], 1, strength.StrengthOptions(engine_games=0), page=False, out=tmp_path / "dup")
    with pytest.raises(UsageError, match="several folders studied together: the report needs a folder of its own"):
        strength.reanalyse([a, b], 1, strength.StrengthOptions(engine_games=0), page=False)
    assert both["tape"] == report_a["tape"] == report_b["tape"]          # the one tape of both runs, recorded
    other = tmp_path / "other-tape"                                      # b's games, said to be of another tape
    with outdir.claimed(other, "strength") as written:
        for name, data in strength_transcripts(b).items():
            (written / name).write_bytes(data)
        (written / "report.json").write_text(json.dumps(dict(report_b, tape=dict(report_b["tape"], sha256="f" * 64))))
    with pytest.raises(InputError) as refused:
        strength.reanalyse([a, other], 1, strength.StrengthOptions(engine_games=0), page=False, out=tmp_path / "mix")
    assert str(refused.value) == (f"the runs in {a} and {other} played different tapes (SHA-256 "
                                  f"{report_a['tape']['sha256'][:12]}… and ffffffffffff…): not one study; study "
                                  f"each alone")
    assert not (tmp_path / "mix").exists()


def test_the_report_names_the_tape_its_games_played(strength_local_run, strength_tape):
    import hashlib
    _, report = strength_local_run
    assert report["tape"]["sha256"] == hashlib.sha256(strength_tape.read_bytes()).hexdigest()
    assert report["tape"]["path"] == str(strength_tape)

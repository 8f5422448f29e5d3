"""The default run reaches exactly what docs/COVERAGE.md says (the coverage's reading: tests/program/runs/test_coverage.py)."""
import checkout



ROOT = checkout.ROOT
DATA = __import__("json").loads((ROOT / "docs" / "data" / "coverage.json").read_text(encoding="utf-8"))


def test_the_default_run_reaches_exactly_what_the_document_says(tmp_path):
    from harness.program.runs import regress
    report = regress.run(6, 1, 2, tmp_path / "run", regress.RegressOptions(progress=False))
    coverage = report.coverage
    for key in ("statements_run", "ifs_both", "never_run", "one_way"):
        assert getattr(coverage, key) == DATA["default"][key], key
    assert report.unexplained_differences == 0

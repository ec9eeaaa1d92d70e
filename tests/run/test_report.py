"""Per-capability aggregation and the JSON / Markdown reports, and writing a report by its suffix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _report_outcomes import binary_outcomes, sample_outcomes

from s2lct.errors import S2LCTError
from s2lct.run.report import (
    build_report,
    render_markdown,
    reports_json,
    tables_text,
    write_report,
)


def test_build_report_counts():
    r = build_report("m", "id", sample_outcomes(), {"LC2": "Two", "LC10": "Ten"})
    assert [c.id for c in r.capabilities] == ["LC2", "LC10"]  # natural order
    lc2 = r.capabilities[0]
    assert (lc2.name, lc2.cases, lc2.failures) == ("Two", 5, 3)
    assert lc2.failure_rate == pytest.approx(0.6)
    assert (lc2.expansion_cases, lc2.expansion_failures, lc2.seed_passed_expansion_failed, lc2.truncated) == (3, 2, 1, 1)
    assert (r.total.cases, r.total.failures) == (6, 4)
    assert [o.case_id for o in r.failing] == ["LC2-b", "LC2-c", "LC2-d", "LC10-a"]


def test_json_report_shape():
    r = build_report("vader", "lexicon:vader", sample_outcomes(), {"LC2": "Two"})
    d = json.loads(json.dumps(reports_json([r])))
    assert d["model"] == "vader"
    cap = d["capabilities"][0]
    assert {"id", "name", "cases", "failures", "failure_rate"} <= set(cap)
    assert (cap["id"], cap["name"], cap["cases"], cap["failures"], cap["failure_rate"]) == ("LC2", "Two", 5, 3, 0.6)
    assert d["capabilities"][1]["name"] == "LC10"  # no manifest name: the id
    assert d["total"] == {"cases": 6, "failures": 4, "failure_rate": pytest.approx(4 / 6, abs=1e-6),
                          "expansion_cases": 3, "expansion_failures": 2, "seed_passed_expansion_failed": 1,
                          "truncated": 1}
    assert len(d["failing_cases"]) == 4
    two = reports_json([r, build_report("other", "x", sample_outcomes()[:2])])
    assert [m["model"] for m in two["models"]] == ["vader", "other"]


def test_table_and_markdown_show_the_numbers():
    r = build_report("vader", "id", sample_outcomes(), {"LC2": "Two"})
    text = tables_text([r], width=120)
    assert "s2lct: vader" in text and "LC2" in text and "60.0%" in text and "TOTAL" in text
    md = render_markdown([r, build_report("b", "id2", sample_outcomes()[:3])])
    assert "| LC2 | Two | 5 | 3 | 60.0% | 3 | 1 | 1 |" in md
    assert "## Failure rates side by side" in md


def test_write_report_by_suffix(tmp_path):
    r = build_report("vader", "id", sample_outcomes())
    for name in ("r.json", "r.md", "r.html"):
        write_report(tmp_path / name, [r])
    assert json.loads((tmp_path / "r.json").read_text())["model"] == "vader"
    assert (tmp_path / "r.md").read_text().startswith("# s2lct results")
    assert "<svg" not in (tmp_path / "r.html").read_text()  # the chart is drawn by the page's script
    with pytest.raises(S2LCTError, match="use .json, .md or .html"):
        write_report(tmp_path / "r.txt", [r])


def test_report_dir_created(tmp_path):
    write_report(tmp_path / "deep" / "er" / "r.md", [build_report("m", "id", sample_outcomes())])
    assert Path(tmp_path / "deep" / "er" / "r.md").is_file()


def test_markdown_and_json_show_a_binary_models_band_not_a_p_neutral_of_zero():
    r = build_report("sst2", "id", binary_outcomes(), neutral_band=(0.2, 0.8))
    md = render_markdown([r])
    assert "sst2 is a binary model" in md and "0.2–0.8" in md
    assert "p(neg / neu / pos)" not in md and "0.000" not in md  # no p(neutral) column of zeros
    rows = {line.split(" | ")[0].strip("| "): line for line in md.splitlines() if line.startswith("| LC1-")}
    assert "| 0.500 | in the neutral band 0.2–0.8 → neutral |" in rows["LC1-b"]
    assert "| 0.900 | above the neutral band (> 0.8) → positive |" in rows["LC1-c"]
    assert reports_json([r])["neutral_band"] == [0.2, 0.8]
    three_class = build_report("vader", "id", sample_outcomes())
    assert "neutral_band" not in reports_json([three_class]) and "p(neg / neu / pos)" in render_markdown([three_class])

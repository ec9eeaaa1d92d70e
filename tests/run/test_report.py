"""Per-capability aggregation and the JSON / Markdown / HTML reports (HTML checked in headless chromium)."""

from __future__ import annotations

import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from s2lct.errors import S2LCTError
from s2lct.run.report import (
    CaseOutcome,
    build_report,
    render_html,
    render_markdown,
    reports_json,
    tables_text,
    write_report,
)


def outcome(cid, cap, passed, predicted="positive", seed_case=None, seed_passed=None, truncated=False, text=None):
    return CaseOutcome(cid, cap, text or f"text of {cid}", ("negative",), predicted,
                       {"negative": 0.1, "neutral": 0.0, "positive": 0.9}, passed, truncated, seed_case, seed_passed)


def sample_outcomes():
    return [
        outcome("LC10-a", "LC10", False),
        outcome("LC2-a", "LC2", True, "negative"),
        outcome("LC2-b", "LC2", False),
        outcome("LC2-c", "LC2", False, seed_case="LC2-a", seed_passed=True),   # seed passed, expansion failed
        outcome("LC2-d", "LC2", False, seed_case="LC2-b", seed_passed=False),  # both failed
        outcome("LC2-e", "LC2", True, "negative", seed_case="LC2-a", seed_passed=True, truncated=True),
    ]


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


def test_html_escapes_case_text():
    r = build_report("m<1>", "id", [outcome("LC1-x", "LC1", False, text="<script>alert(1)</script> & </script>")])
    page = render_html([r])
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp;" in page


class _DomReader(HTMLParser):
    """Collects the chart's bars, bar labels and failing-case rows from a dumped DOM."""

    def __init__(self) -> None:
        super().__init__()
        self.bars: list[dict[str, str]] = []
        self.labels: dict[tuple[str, str], str] = {}
        self.failing: list[str] = []
        self._label_key: tuple[str, str] | None = None
        self.svg = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg" and a.get("id") == "failure-chart":
            self.svg = True
        if tag == "rect" and a.get("class") == "bar":
            self.bars.append(a)
        if tag == "text" and a.get("class") == "bar-label":
            self._label_key = (a["data-model"], a["data-capability"])
        if tag == "tr" and a.get("class") == "failing-case":
            self.failing.append(a["data-case"])

    def handle_data(self, data):
        if self._label_key is not None:
            self.labels[self._label_key] = data
            self._label_key = None


def _chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:  # a missing browser is an error, never a skip (CI installs Debian's chromium)
        pytest.fail("chromium not found: apt-get install -y chromium")
    return exe


def test_html_report_renders_in_headless_chromium(tmp_path):
    a = build_report("vader", "id-a", sample_outcomes(), {"LC2": "Two", "LC10": "Ten"})
    b = build_report("minilm-sst2", "id-b", [outcome("LC2-a", "LC2", True, "negative"), outcome("LC2-b", "LC2", False),
                                             outcome("LC2-x", "LC2", True, "negative")])
    page = tmp_path / "report.html"
    write_report(page, [a, b])
    profile = tmp_path / "profile"
    cmd = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--dump-dom", page.as_uri()]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    dom = _DomReader()
    dom.feed(proc.stdout)
    assert dom.svg, "the chart script did not run"
    got = {(bar["data-model"], bar["data-capability"]): float(bar["data-rate"]) for bar in dom.bars}
    expected = {(r.model, c.id): c.failure_rate for r in (a, b) for c in r.capabilities}
    assert got == pytest.approx(expected)
    assert len(dom.bars) == 3  # vader LC2, vader LC10, minilm LC2 side by side
    # the visible labels read back the same numbers
    assert dom.labels[("vader", "LC2")] == "60.0%"
    assert dom.labels[("vader", "LC10")] == "100.0%"
    assert dom.labels[("minilm-sst2", "LC2")] == "33.3%"
    heights = {(bar["data-model"], bar["data-capability"]): float(bar["height"]) for bar in dom.bars}
    assert heights[("vader", "LC10")] > heights[("vader", "LC2")] > heights[("minilm-sst2", "LC2")] > 0
    assert dom.failing == ["LC2-b", "LC2-c", "LC2-d", "LC10-a", "LC2-b"]
    assert 'data-chart-ready="1"' in proc.stdout


def test_html_report_is_self_contained():
    page = render_html([build_report("m", "id", sample_outcomes())])
    for needle in ("http://", "https://", "src=", "<link"):
        if needle == "http://":
            assert page.count("http://") == page.count("http://www.w3.org/2000/svg")
        else:
            assert needle not in page


def test_report_dir_created(tmp_path):
    write_report(tmp_path / "deep" / "er" / "r.md", [build_report("m", "id", sample_outcomes())])
    assert Path(tmp_path / "deep" / "er" / "r.md").is_file()

"""The HTML report, checked in headless chromium."""

from __future__ import annotations

import shutil
import subprocess
from html.parser import HTMLParser

import pytest
from _report_outcomes import outcome, sample_outcomes

from s2lct.run.html_report import render_html
from s2lct.run.report import build_report, write_report


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

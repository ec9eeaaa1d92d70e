"""The HTML report: its content as HTML, and its chart, sections and filter checked in headless chromium."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from _report_outcomes import BINARY, binary_outcomes, outcome, sample_outcomes
from _run_fixtures import build_tiny_hf_model, write_tiny_suite

from s2lct.run.html_report import render_html
from s2lct.run.report import build_report, write_report
from s2lct.run.runner import run_command


class _Page(HTMLParser):
    """The parts of a report page the tests look at: notes, sections, rows and their cells."""

    def __init__(self) -> None:
        super().__init__()
        self.notes: list[str] = []
        self.details: list[dict[str, str | None]] = []
        self.filter_hidden: bool | None = None
        self.headers: list[str] = []
        self.rows: list[list[str]] = []
        self.checks: str = ""
        self._cell: list[str] | None = None
        self._note: list[str] | None = None
        self._pre = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if "binary-note" in cls:
            self._note = []
        if tag == "details":
            self.details.append(a)
        if "filter" in cls:
            self.filter_hidden = "hidden" in a
        if tag == "tr" and "failing-case" in cls:
            self.rows.append([])
        if tag in ("td", "th"):
            self._cell = []
        if tag == "pre" and a.get("id") == "s2lct-checks":
            self._pre = True

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            text = "".join(self._cell).strip()
            (self.headers if tag == "th" else self.rows[-1] if self.rows else []).append(text)
            self._cell = None
        if tag == "p" and self._note is not None:
            self.notes.append("".join(self._note))
            self._note = None
        if tag == "pre":
            self._pre = False

    def handle_data(self, data):
        for buf in (self._cell, self._note):
            if buf is not None:
                buf.append(data)
        if self._pre:
            self.checks += data


def _parse(page: str) -> _Page:
    p = _Page()
    p.feed(page)
    return p


def test_html_escapes_case_text():
    r = build_report("m<1>", "id", [outcome("LC1-x", "LC1", False, text="<script>alert(1)</script> & </script>")])
    page = render_html([r])
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp;" in page


def test_html_report_is_self_contained():
    page = render_html([build_report("m", "id", sample_outcomes())])
    for needle in ("http://", "https://", "src=", "<link"):
        assert needle not in page


def test_binary_model_shows_the_band_as_the_decision_rule():
    page = _parse(render_html([build_report("sst2", "id", binary_outcomes(), neutral_band=(0.2, 0.8))]))
    assert len(page.notes) == 1  # the band explained near the top, in words
    assert "sst2 is a binary model" in page.notes[0] and "0.2" in page.notes[0] and "0.8" in page.notes[0]
    assert "--neutral-band" in page.notes[0]
    assert "p(neutral)" not in page.headers and "p(positive)" in page.headers
    by_case = {row[0]: row for row in page.rows}
    p_pos = {cid: row[4] for cid, row in by_case.items()}
    assert p_pos == {"LC1-a": "0.100", "LC1-b": "0.500", "LC1-c": "0.900"}
    rules = {cid: row[5] for cid, row in by_case.items()}
    assert rules["LC1-b"].startswith("in the neutral band 0.2–0.8") and rules["LC1-b"].endswith("→ neutral")
    assert "> 0.8" in rules["LC1-c"] and rules["LC1-c"].endswith("→ positive")
    assert "< 0.2" in rules["LC1-a"] and rules["LC1-a"].endswith("→ negative")


def test_three_class_model_shows_its_three_probabilities():
    page = _parse(render_html([build_report("vader", "id", sample_outcomes(), neutral_band=(-0.05, 0.05))]))
    assert page.notes == []
    assert ["p(negative)", "p(neutral)", "p(positive)"] == [h for h in page.headers if h.startswith("p(")][:3]
    assert page.rows[0][4:] == ["0.100", "0.200", "0.700"]


def test_without_javascript_every_section_is_open_and_the_filter_hidden():
    page = _parse(render_html([build_report("vader", "id", sample_outcomes(), {"LC2": "Two"})]))
    assert [(d["data-capability"], d["data-failing"], d["data-cases"]) for d in page.details] == [("LC2", "3", "5"), ("LC10", "1", "1")]
    assert all("open" in d for d in page.details)
    assert page.filter_hidden is True


def test_run_writes_the_band_of_a_binary_model(tmp_path, monkeypatch):
    monkeypatch.setenv("S2LCT_CACHE_DIR", str(tmp_path / "cache"))
    model = build_tiny_hf_model(tmp_path / "tiny", bias=[0.0, 1.0])  # p(positive) 0.731 for every text
    out = tmp_path / "r.html"
    with open(os.devnull, "w") as devnull:
        from rich.console import Console

        code = run_command([str(model)], write_tiny_suite(tmp_path / "suite"), report_path=out, neutral_band="0.2,0.8",
                           console=Console(file=devnull))
    assert code == 0
    page = _parse(out.read_text(encoding="utf-8"))
    assert len(page.notes) == 1 and "0.2" in page.notes[0] and "0.8" in page.notes[0]
    assert {row[4] for row in page.rows} == {"0.731"}
    assert all(row[3] == "neutral" and "0.2–0.8" in row[5] for row in page.rows)


# --------------------------------------------------------------------------------------- in the browser
#: Runs in the page after the report's own script: measures the chart's labels, opens and closes a
#: section, types into the filter box, and writes what it saw as JSON into <pre id="s2lct-checks">.
CHECKS = """
<script>
(function () {
  function shown(e) { return Boolean(e) && e.checkVisibility(); }  // false inside a closed <details>
  function all(sel) { return Array.prototype.slice.call(document.querySelectorAll(sel)); }
  function rows() {
    return all("tr.failing-case").filter(shown).map(function (tr) {
      return [tr.getAttribute("data-model"), tr.getAttribute("data-case")]; });
  }
  function sections() {
    return all("details.cap-failing").map(function (d) {
      var m = d.querySelector(".match-count");
      return {model: d.getAttribute("data-model"), capability: d.getAttribute("data-capability"), open: d.open,
              match: shown(m) ? m.textContent : null};
    });
  }
  var out = {width: window.innerWidth, pageWidth: document.documentElement.clientWidth};
  out.labels = all("#failure-chart .cap-label, #failure-chart .bar-label").map(function (e) {
    var r = e.getBoundingClientRect();
    return {text: e.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  });
  out.bars = all("#failure-chart .bar").map(function (e) {
    return {model: e.getAttribute("data-model"), capability: e.getAttribute("data-capability"),
            rate: parseFloat(e.getAttribute("data-rate")), width: e.getBoundingClientRect().width};
  });
  var d = document.querySelector("details.cap-failing");
  var row = d && d.querySelector("tr.failing-case");
  out.collapse = [shown(row)];
  if (d) {
    d.querySelector("summary").click(); out.collapse.push(shown(row));
    d.querySelector("summary").click(); out.collapse.push(shown(row));
  }
  var input = document.getElementById("case-filter");
  out.filterShown = shown(input);
  if (input) {
    input.value = "OF lc2-B";
    input.dispatchEvent(new Event("input"));
    out.filtered = {rows: rows(), sections: sections(), count: document.getElementById("filter-count").textContent};
    input.value = "";
    input.dispatchEvent(new Event("input"));
    out.cleared = {hidden: all("tr.failing-case").filter(function (tr) { return tr.hidden; }).length,
                   sections: sections()};
  }
  var pre = document.createElement("pre");
  pre.id = "s2lct-checks";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
"""


def _chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:  # a missing browser is an error, never a skip (CI installs Debian's chromium)
        pytest.fail("chromium not found: apt-get install -y chromium")
    return exe


def _checks_in_chromium(page: Path, width: int, tmp_path: Path) -> dict:
    """Open ``page`` with the checks appended at a window ``width`` px wide; what the checks saw."""
    probe = tmp_path / f"probe-{width}.html"
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", CHECKS + "</body>"), encoding="utf-8")
    cmd = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
           "--disable-dev-shm-usage", f"--user-data-dir={tmp_path / 'profile'}", f"--window-size={width},1600",
           "--dump-dom", probe.as_uri()]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    checks = _parse(proc.stdout).checks
    assert checks, "the check script did not run"
    return json.loads(checks)


def _overlaps(labels: list[dict]) -> list[tuple[str, str]]:
    """Pairs of labels whose boxes share more than half a pixel each way."""
    out = []
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            w = min(a["right"], b["right"]) - max(a["left"], b["left"])
            h = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
            if w > 0.5 and h > 0.5:
                out.append((a["text"], b["text"]))
    return out


@pytest.fixture(scope="module")
def two_model_page(tmp_path_factory) -> Path:
    """A 3-class and a binary model with the same failure rate on LC2: labels side by side, same height."""
    names = {"LC2": "Short sentences with sentiment-laden adjectives and a long name to wrap",
             "LC10": "Parsing positive sentiment in (question, no) form"}
    a = build_report("vader", "id-a", sample_outcomes(), names)
    b = build_report("minilm-sst2", "id-b", [
        outcome("LC2-a", "LC2", True, "negative", probs=BINARY), outcome("LC2-b", "LC2", False, probs=BINARY),
        outcome("LC2-x", "LC2", False, probs=BINARY), outcome("LC2-y", "LC2", False, probs=BINARY),
        outcome("LC2-z", "LC2", True, "negative", probs=BINARY)], names)
    page = tmp_path_factory.mktemp("html") / "report.html"
    write_report(page, [a, b])
    return page


@pytest.mark.parametrize("width", [1280, 500])  # 500: the narrowest window headless chromium makes
def test_chart_labels_never_overlap(two_model_page, width, tmp_path):
    got = _checks_in_chromium(two_model_page, width, tmp_path)
    assert got["width"] == width
    texts = [lab["text"] for lab in got["labels"]]
    assert len(texts) == 2 + 3 and texts.count("60.0%") == 2 and "100.0%" in texts  # 2 capabilities, 3 bars
    assert _overlaps(got["labels"]) == []
    cut = [lab["text"] for lab in got["labels"] if lab["left"] < 0 or lab["right"] > got["pageWidth"] + 0.5]
    assert cut == []
    # bar length is proportional to the failure rate: the same px per unit of rate for every bar
    bars = {(b["model"], b["capability"]): b for b in got["bars"]}
    assert set(bars) == {("vader", "LC2"), ("vader", "LC10"), ("minilm-sst2", "LC2")}
    assert bars[("vader", "LC2")]["rate"] == pytest.approx(0.6) and bars[("vader", "LC10")]["rate"] == pytest.approx(1.0)
    per_unit = [b["width"] / b["rate"] for b in got["bars"]]
    assert max(per_unit) == pytest.approx(min(per_unit), rel=0.02) and min(per_unit) > 50


def test_sections_collapse_and_the_filter_hides_rows_and_updates_counts(two_model_page, tmp_path):
    got = _checks_in_chromium(two_model_page, 1280, tmp_path)
    assert got["collapse"] == [False, True, False]  # closed at first, opened by a click, closed again
    assert got["filterShown"]
    f = got["filtered"]
    assert f["rows"] == [["vader", "LC2-b"], ["minilm-sst2", "LC2-b"]]  # case text "text of LC2-b", any case
    sections = {(s["model"], s["capability"]): s for s in f["sections"]}
    assert sections[("vader", "LC2")]["open"] and re.search(r"\b1 of 3\b", sections[("vader", "LC2")]["match"])
    assert not sections[("vader", "LC10")]["open"] and re.search(r"\b0 of 1\b", sections[("vader", "LC10")]["match"])
    assert sections[("minilm-sst2", "LC2")]["open"] and re.search(r"\b1 of 3\b", sections[("minilm-sst2", "LC2")]["match"])
    assert re.search(r"\b2 of 7\b", f["count"])
    # an empty box shows every row again and restores the sections as they were (closed)
    assert got["cleared"]["hidden"] == 0
    assert [s["open"] for s in got["cleared"]["sections"]] == [False, False, False]
    assert all(s["match"] is None for s in got["cleared"]["sections"])

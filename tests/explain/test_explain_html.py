"""The explanation page opened in headless chromium: the shading and the chart read back from the DOM."""

from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser

import pytest

from s2lct.explain.base import Explanation
from s2lct.explain.command import ExplainResult, Failure, explanation_record
from s2lct.explain.html import render_explanations_html
from s2lct.explain.localise import aggregate
from s2lct.explain.words import split_words

from test_localise import hybrid_case


class Dom(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.words: list[dict[str, str]] = []
        self.frags: list[dict[str, str]] = []
        self.bars: list[dict[str, str]] = []
        self.ready = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "span" and "w" in cls:
            self.words.append(a)
        if tag == "span" and "frag" in cls:
            self.frags.append(a)
        if tag == "rect" and "bar" in cls:
            self.bars.append(a)
        if tag == "body" and a.get("data-ready") == "1":
            self.ready = True


def _chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:  # a missing browser is an error, never a skip (tests/run.sh installs it)
        pytest.fail("chromium not found: apt-get install -y chromium")
    return exe


def test_words_are_shaded_by_relevance_in_chromium(tmp_path):
    case = hybrid_case(expansion=True)
    w = split_words(case.text)
    rel = [0.0] * len(w)
    rel[w.words.index("great")] = 2.0
    rel[w.words.index("truly")] = 0.5
    rel[w.words.index("bad")] = -1.0
    exp = Explanation("ig", "positive", w.words, w.spans, tuple(rel))
    rec = explanation_record(Failure(case, "positive", {"negative": 0.1, "neutral": 0.0, "positive": 0.9}), exp, None)
    summary = {"model": "m", "cases": 1, "failures_explained": 1, "message": None,
               "capabilities": {"LC9": {"name": "nine", "failures_explained": 1, "explainers": aggregate([rec])["LC9"]}}}
    page = tmp_path / "explained.html"
    page.write_text(render_explanations_html(ExplainResult("m", "id", [rec], summary)), encoding="utf-8")
    cmd = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
           f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri()]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    dom = Dom()
    dom.feed(proc.stdout)
    assert dom.ready, "the page script did not run"
    assert [x["data-origin"] for x in dom.words] == [o["origin"] for o in rec["words"]]
    shade = {}
    for x in dom.words:
        m = re.search(r"background-color:\s*rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?\)", x.get("style", ""))
        assert m, x
        r, g, b = (int(v) for v in m.groups()[:3])
        alpha = float(m.group(4)) if m.group(4) is not None else 1.0
        shade[rec["words"][int(x["data-i"])]["word"]] = (r > b, alpha)
    assert shade["great"] == (True, 1.0)  # evidence for the predicted class: red, full strength
    assert shade["truly"] == (True, 0.25)
    assert shade["bad"] == (False, 0.5)  # against: blue, half of the maximum
    assert shade["think"][1] == 0.0
    assert [f["data-label"] for f in dom.frags] == ["template", "positive", "template", "negative"]
    rmax = [x for x in dom.words if "rmax" in x["class"].split()]
    assert len(rmax) == 1 and rec["words"][int(rmax[0]["data-i"])]["word"] == "great"
    assert [(b["data-category"], float(b["data-share"])) for b in dom.bars] == [("seed:positive", 1.0)]

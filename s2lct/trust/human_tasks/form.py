"""The printable form: every question of a kit in one self-contained HTML page (no external files).

Printed, participants tick boxes and someone copies the ticks into ``answers.csv``; on screen, they
click and the page's button downloads ``answers.csv`` in the format ``s2lct score-human-tasks``
reads (the button is not printed). Every text from the data is HTML-escaped; task 1's evidence
words are highlighted in the text (``<mark>``, with their rank) at the spans the explainer gave.
Nothing hidden is on the page: no answers, model names or explainer names.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from .kit import CONFIDENCE, NO_PREFERENCE, Evidence, Kit, Question

_CSS = """
body{font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;line-height:1.45;color:#111}
h1{font-size:1.5rem}h2{font-size:1.25rem;border-bottom:2px solid #333;padding-bottom:.2rem}
.q{border:1px solid #aaa;border-radius:6px;padding:.6rem .9rem;margin:1rem 0}
.qid{font:600 .85rem monospace;color:#444}
.model{margin:.4rem 0 .4rem 1rem}
.text{background:#f6f6f6;padding:.3rem .5rem;border-radius:4px}
mark{background:#ffe066;padding:0 .1rem}mark sup{font-size:.65rem;color:#555;margin-left:.1rem}
.chip{display:inline-block;border:1px solid #666;border-radius:4px;padding:0 .4rem;margin:0 .25rem .2rem 0;font-weight:600}
.none{color:#777;font-style:italic}
fieldset{border:none;padding:0;margin:.3rem 0}fieldset label{margin-right:1.2rem;white-space:nowrap}
legend{font-weight:600;float:left;margin-right:.8rem}
.note{color:#444;font-size:.92rem}
@media print{.noprint{display:none}section{break-before:page}.q{break-inside:avoid}body{margin:0}}
"""

_JS = """
function answersCsv(){
  var rows=["question_id,answer,confidence"], missing=0;
  document.querySelectorAll(".q").forEach(function(q){
    var id=q.getAttribute("data-qid");
    var a=q.querySelector('input[data-role="answer"]:checked'), c=q.querySelector('input[data-role="confidence"]:checked');
    if(!a) missing++;
    rows.push([id, a?a.value:"", c?c.value:""].join(","));
  });
  return {csv: rows.join("\\n")+"\\n", missing: missing};
}
document.getElementById("download").addEventListener("click", function(){
  var r=answersCsv();
  document.getElementById("status").textContent = r.missing
    ? r.missing+" question(s) not answered yet; the file lists them with an empty answer." : "all questions answered.";
  var link=document.createElement("a");
  link.href=URL.createObjectURL(new Blob([r.csv],{type:"text/csv"}));
  link.download="answers.csv"; document.body.appendChild(link); link.click(); link.remove();
});
"""

INSTRUCTIONS = {
    1: ("Task 1: which model is more reasonable?",
        ("Two models read the same text and predict the same class. The highlighted words are what each model "
         "based its prediction on, most important first (the small number is the rank). Which model decides more "
         "reasonably? Choose A or B, or 'no preference' if you cannot tell, and say whether you are confident.")),
    2: ("Task 2: guess the prediction",
        ("A model read a text you do not see and predicted its sentiment. These are the words it based its "
         "prediction on, most important first. Which class do you think the model predicted? Choose negative or "
         "positive, or 'no preference' if the words do not tell you, and say whether you are confident.")),
    3: ("Task 3: decide an uncertain case",
        ("A model was unsure about a text you do not see. You get its prediction, how probable it thought that "
         "prediction was, the words that speak for the predicted class and the words that speak for the other class. "
         "What is the text's real sentiment? Choose negative or positive (there is no 'no preference' here: the "
         "model's own prediction is there to fall back on) and say whether you are confident.")),
}


def highlight(text: str, ev: Evidence) -> str:
    """``text`` escaped, with the evidence words marked at their spans (rank as superscript)."""
    marks = sorted((s, e, rank) for rank, (s, e) in enumerate(ev.spans, 1))
    out, pos = [], 0
    for s, e, rank in marks:
        if s < pos:  # overlapping spans cannot happen with word spans; skip rather than garble
            continue
        out.append(escape(text[pos:s]))
        out.append(f"<mark>{escape(text[s:e])}<sup>{rank}</sup></mark>")
        pos = e
    out.append(escape(text[pos:]))
    return "".join(out)


def chips(ev: Evidence) -> str:
    if not ev.words:
        return "<span class='none'>(no evidence)</span>"
    return "".join(f"<span class='chip'>{escape(w)}</span>" for w in ev.words)


def _radios(q: Question, role: str, values: Sequence[str], labels: Sequence[str]) -> str:
    name = escape(f"{q.id}:{role}", quote=True)
    return "".join(f"<label><input type='radio' name='{name}' data-role='{role}' value='{escape(v, quote=True)}'> {escape(lab)}</label>"
                   for v, lab in zip(values, labels, strict=True))


def _answer_boxes(q: Question) -> str:
    labels = [("model " + c if q.task == 1 and c != NO_PREFERENCE else ("no preference" if c == NO_PREFERENCE else c)) for c in q.choices]
    return (f"<fieldset><legend>Answer</legend>{_radios(q, 'answer', q.choices, labels)}</fieldset>"
            f"<fieldset><legend>Confidence</legend>{_radios(q, 'confidence', CONFIDENCE, ('confident', 'not confident'))}</fieldset>")


def _body(q: Question) -> str:
    if q.task == 1:
        return (f"<p>Both models predict <b>{escape(q.predicted)}</b>.</p>"
                + "".join(f"<div class='model'><b>Model {side}</b><p class='text'>{highlight(q.text, ev)}</p></div>"
                          for side, ev in zip("AB", q.evidence, strict=True)))
    if q.task == 2:
        return f"<p>Evidence words: {chips(q.evidence[0])}</p>"
    return (f"<p>The model predicts <b>{escape(q.predicted)}</b> with probability <b>{q.probabilities[0]:.3f}</b>.</p>"
            f"<p>Evidence for {escape(q.predicted)}: {chips(q.evidence[0])}</p>"
            f"<p>Evidence for {escape(q.other_class)}: {chips(q.evidence[1])}</p>")


def render_form(kit: Kit) -> str:
    n = len(kit.questions)
    out = ["<!doctype html><html lang='en'><head><meta charset='utf-8'><meta name='viewport' content='width=device-width,initial-scale=1'>",
           f"<title>Explanation study ({n} questions)</title><style>{_CSS}</style></head><body>",
           "<h1>Explanation study</h1>",
           (f"<p class='note'>{n} questions in {len({q.task for q in kit.questions})} task(s). Answer every question on its own; there is no "
           "time limit. Printed: tick one answer and one confidence per question. On screen: click, then press the button "
           "below to save <code>answers.csv</code> and hand that file back.</p>"),
           "<p class='noprint'><button id='download' type='button'>Download answers.csv</button> <span id='status' class='note'></span></p>"]
    for task in sorted({q.task for q in kit.questions}):
        title, text = INSTRUCTIONS[task]
        out.append(f"<section id='task{task}'><h2>{escape(title)}</h2><p class='note'>{escape(text)}</p>")
        for i, q in enumerate(kit.task(task), 1):
            out.append(f"<div class='q' data-qid='{escape(q.id, quote=True)}' data-task='{task}'>"
                       f"<div class='qid'>{i}. {escape(q.id)}</div>{_body(q)}{_answer_boxes(q)}</div>")
        out.append("</section>")
    out.append(f"<script>{_JS}</script></body></html>\n")
    return "".join(out)

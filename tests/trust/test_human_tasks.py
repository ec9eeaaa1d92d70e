"""The human-grounded task kit (Lertvittayakumjorn & Toni 2019, §3): questions follow the paper's task
definitions, export and scoring round-trip on answers built from the key, bad answers files are one
line naming the rows, a seed gives identical files, and the form escapes every text."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from s2lct.cli import app
from s2lct.explain.adapters import prepare_model
from s2lct.explain.registry import get_explainer
from s2lct.models import load_model
from s2lct.trust.human_tasks import AnswersError, Evidence, Kit, Question, build_questions, load_key, score_answers, write_kit
from s2lct.trust.human_tasks.export import kit_files
from s2lct.trust.human_tasks.form import render_form
from s2lct.trust.human_tasks.kit import HumanTaskError
from s2lct.trust.human_tasks.selection import Candidate, Quotas
from s2lct.trust.hybrid import load_pool

N = 6  # inputs per task: 3 classified correctly, 3 misclassified


@pytest.fixture(scope="module")
def vader():
    return prepare_model(load_model("vader"))


@pytest.fixture(scope="module")
def textblob():
    return prepare_model(load_model("textblob"))


@pytest.fixture(scope="module")
def pool():
    return load_pool()


@pytest.fixture(scope="module")
def kit(vader, textblob, pool) -> Kit:
    return build_questions(vader, get_explainer("occlusion1"), pool, other_model=textblob, n=N, seed=0)


@pytest.fixture(scope="module")
def kit_dir(kit, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("kit")
    write_kit(kit, out)
    return out


def predicted(handle, text: str) -> tuple[str, float]:
    p = handle.model.predict([text])[0]
    cls = handle.explained_class(p.label, p.probs)
    return cls, p.probs[cls]


def write_answers(path: Path, rows: list[tuple[str, str, str]], header=("question_id", "answer", "confidence")) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)
    return path


def wrong(q: Question) -> str:
    """An answer other than the key's that is valid for the question (never 'none')."""
    return next(c for c in q.choices if c not in (q.answer, "none"))


# --- the questions follow the paper's task definitions ---------------------------------------------


def test_tasks_follow_the_papers_definitions(kit, vader, textblob):
    for task in (1, 2, 3):
        qs = kit.task(task)
        assert len(qs) == N
        assert sum(q.prediction_correct for q in qs) == N - N // 2  # §4.4: half correct, half misclassified
        assert all(q.id.startswith(f"T{task}-") for q in qs)
    for q in kit.task(2):  # high confidence; the answer is the model's prediction, right or wrong
        cls, p = predicted(vader, q.text)
        assert (cls, q.predicted, q.answer) == (q.predicted, cls, cls) and p >= 0.9
        assert q.prediction_correct == (cls == q.gold)
        assert 1 <= len(q.evidence[0].words) <= 3 and all(r > 0 for r in q.evidence[0].relevances)
    for q in kit.task(3):  # low confidence; the answer is the gold label; counter-evidence speaks against
        cls, p = predicted(vader, q.text)
        assert cls == q.predicted and p < 0.7 and q.answer == q.gold
        ev, counter = q.evidence
        assert all(r > 0 for r in ev.relevances) and all(r < 0 for r in counter.relevances)
        assert list(counter.relevances) == sorted(counter.relevances)  # strongest counter-evidence first
    for q in kit.task(1):  # both models predict the same class; the answer is the side of the model under test
        assert predicted(vader, q.text)[0] == predicted(textblob, q.text)[0] == q.predicted
        assert q.answer == "AB"[q.models.index("vader")] and set(q.models) == {"vader", "textblob"}
    assert sorted(q.answer for q in kit.task(1)) == ["A"] * (N // 2) + ["B"] * (N - N // 2)  # sides balanced
    texts = [q.text for q in kit.questions]
    assert len(texts) == len(set(texts))  # each input serves one task only


def test_participants_files_hide_the_answers(kit, kit_dir):
    shown = {p.name: p.read_text(encoding="utf-8") for p in kit_dir.iterdir() if p.is_file()}
    assert set(shown) == {"task1_reasonable_model.csv", "task2_guess_prediction.csv", "task3_uncertain_case.csv", "answers.csv", "form.html"}
    for name, text in shown.items():
        assert "vader" not in text and "textblob" not in text and "occlusion1" not in text, name
    for q in kit.task(2) + kit.task(3):  # tasks 2-3 never show the text
        assert all(q.text not in text for text in shown.values())
    with open(kit_dir / "answers.csv", newline="", encoding="utf-8") as fh:
        sheet = list(csv.DictReader(fh))
    assert [r["question_id"] for r in sheet] == [q.id for q in kit.questions]
    assert all(r["answer"] == r["confidence"] == "" for r in sheet)
    assert load_key(kit_dir).by_id() == kit.by_id()  # the key in key/ holds every question, answers included


def test_inputs_go_to_the_scarcest_task_they_fit_and_short_halves_are_filled():
    q = Quotas((1, 2, 3), n=2)  # per task: one correct, one misclassified
    low_agreeing = Candidate("a", "positive", "positive", 0.6, "positive", 0.7)
    assert q.eligible(low_agreeing) == [3, 1] and q.offer(low_agreeing) == (3, True)  # task 3 before task 1
    assert q.eligible(Candidate("b", "positive", "positive", 0.8, "negative", 0.9)) == []  # mid confidence, models disagree
    assert q.eligible(Candidate("c", "positive", "neutral", 0.95, "neutral", 0.9)) == []  # not a polar prediction
    q2 = Quotas((2,), n=4)
    confident = [Candidate(f"t{i}", "positive", "positive", 0.95) for i in range(5)]
    assert [q2.offer(c) for c in confident] == [(2, True), (2, True), None, None, None]  # the correct half is full
    assert q2.offer(Candidate("w", "negative", "positive", 0.99)) == (2, False)
    assert q2.missing(2) == 1  # one misclassified input short: a leftover correct one fills it
    got = q2.next_leftover(2, used={"t2"})
    assert got is not None and got[0].text == "t3" and got[1] == (2, False) and q2.substituted[2] == 1
    q2.release(got[1], got[0])  # it could not be explained: the slot is open again and not counted
    assert q2.missing(2) == 1 and q2.substituted[2] == 0


def test_a_pool_without_mistakes_fills_the_misclassified_half_and_says_so(vader, pool):
    labelled_by_vader = []
    for s in pool[:300]:
        cls, _ = predicted(vader, s.text)
        if cls != "neutral":
            labelled_by_vader.append((s.text, cls))  # gold = vader's own prediction: it never errs here
    kit = build_questions(vader, get_explainer("occlusion1"), labelled_by_vader, n=2, tasks=(2, 3))
    for task in ("2", "3"):
        info = kit.meta["tasks"][task]
        assert (info["inputs"], info["inputs_misclassified"], info["correct_in_place_of_misclassified"]) == (2, 0, 1)
    assert all(q.prediction_correct for q in kit.questions)


# --- export + scoring round trip ---------------------------------------------------------------------


def test_all_correct_answers_score_one_through_the_cli(kit, kit_dir, tmp_path):
    key = json.loads((kit_dir / "key" / "answer_key.json").read_text())
    with open(kit_dir / "answers.csv", newline="", encoding="utf-8") as fh:
        sheet = list(csv.DictReader(fh))
    answers = {q["id"]: q["answer"] for q in key["questions"]}
    filled = kit_dir / "filled" / "answers.csv"  # a filled-in copy of the sheet, beside the kit: the key is found
    filled.parent.mkdir(exist_ok=True)
    write_answers(filled, [(r["question_id"], r["task"], r["valid_answers"], answers[r["question_id"]].lower(), "Confident") for r in sheet],
                  header=("question_id", "task", "valid_answers", "answer", "confidence"))
    res = CliRunner().invoke(app, ["score-human-tasks", str(filled), "--json", str(tmp_path / "s.json")], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert "occlusion1" in res.output and "+1.00" in res.output
    rows = json.loads((tmp_path / "s.json").read_text())["rows"]
    assert [(r["task"], r["explainer"]) for r in rows] == [(1, "occlusion1"), (2, "occlusion1"), (3, "occlusion1")]
    for r in rows:
        assert (r["answers"], r["score"], r["correct_share"]) == (N, 1.0, 1.0)
    assert rows[2]["model_accuracy"] == pytest.approx((N - N // 2) / N)  # trusting the model gets the correct half


def test_a_known_mix_scores_the_papers_points(kit, kit_dir, tmp_path):
    rows, expected = [], {}
    for task in (1, 2, 3):
        qs = kit.task(task)
        if task == 3:  # no "no preference": 4 right unconfident (+0.5), 2 wrong confident (-1)
            plan = [("right", "unconfident")] * 4 + [("wrong", "confident")] * 2
            expected[task] = {"score": (4 * 0.5 - 2) / 6, "correct_share": 4 / 6}
        else:  # 3 right confident (+1), 1 wrong unconfident (-0.5), 2 no preference (0)
            plan = [("right", "confident")] * 3 + [("wrong", "unconfident")] + [("none", "")] * 2
            expected[task] = {"score": (3 - 0.5) / 6, "correct_share": 3 / 6, "no_preference_share": 2 / 6}
        for q, (what, conf) in zip(qs, plan, strict=True):
            rows.append((q.id, {"right": q.answer, "wrong": wrong(q), "none": "no preference"}[what], conf))
    result = score_answers(write_answers(tmp_path / "mix.csv", rows), kit_dir)
    for r in result["rows"]:
        for metric, value in expected[r["task"]].items():
            assert r[metric] == pytest.approx(value, abs=1e-4), (r["task"], metric)


def test_scores_split_by_whether_the_model_was_right(kit, kit_dir, tmp_path):
    # right on every input the model classified correctly, confidently wrong on every misclassified one
    rows = [(q.id, q.answer if q.prediction_correct else wrong(q), "confident") for q in kit.questions]
    for r in score_answers(write_answers(tmp_path / "split.csv", rows), kit_dir / "key" / "answer_key.json")["rows"]:
        assert (r["score_prediction_correct"], r["score_prediction_wrong"], r["score"]) == (1.0, -1.0, 0.0)


def test_participants_are_pooled(kit, kit_dir, tmp_path):
    right = write_answers(tmp_path / "p1.csv", [(q.id, q.answer, "confident") for q in kit.questions])
    wrong_ = write_answers(tmp_path / "p2.csv", [(q.id, wrong(q), "unconfident") for q in kit.questions])
    result = score_answers([right, wrong_], kit)
    assert result["participants"] == 2
    for r in result["rows"]:
        assert (r["answers"], r["score"], r["correct_share"]) == (2 * N, 0.25, 0.5)


def test_several_explainers_share_the_inputs_and_are_scored_apart(vader, textblob, pool, tmp_path):
    names = ["occlusion1", "omission1"]
    kit = build_questions(vader, [get_explainer(n) for n in names], pool, other_model=textblob, n=2, seed=0)
    for task in (1, 2, 3):
        by_explainer = {n: sorted(q.text for q in kit.task(task) if q.explainer == n) for n in names}
        assert len(by_explainer["occlusion1"]) == 2 and by_explainer["occlusion1"] == by_explainer["omission1"]
    rows = [(q.id, q.answer if q.explainer == "occlusion1" else wrong(q), "confident") for q in kit.questions]
    result = score_answers(write_answers(tmp_path / "two.csv", rows), kit)
    assert [(r["task"], r["explainer"], r["score"]) for r in result["rows"]] == [
        (t, n, 1.0 if n == "occlusion1" else -1.0) for t in (1, 2, 3) for n in names]


# --- bad answers files ---------------------------------------------------------------------------------


def test_missing_and_extra_rows_are_one_line_naming_them(kit, kit_dir, tmp_path):
    qs = kit.questions
    rows = [(q.id, q.answer, "confident") for q in qs[2:]]
    rows += [("T9-001-abcdef", "A", "confident"), (qs[5].id, qs[5].answer, "confident")]
    path = write_answers(tmp_path / "bad.csv", rows)
    res = CliRunner().invoke(app, ["score-human-tasks", str(path), "--key", str(kit_dir)])
    assert res.exit_code == 2
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in res.output
    line = lines[0]
    assert f"2 of {len(qs)} questions missing: {qs[0].id}, {qs[1].id}" in line
    extra_line = len(rows) + 1  # header is line 1
    assert f"line {extra_line - 1} (T9-001-abcdef)" in line
    assert f"line {extra_line} ({qs[5].id}, first on line {5 - 2 + 2})" in line


def test_invalid_values_name_the_line_and_what_is_valid(kit, tmp_path):
    t1, t3 = kit.task(1)[0], kit.task(3)[0]
    rows = [(q.id, q.answer, "confident") for q in kit.questions]
    i1, i3 = kit.questions.index(t1), kit.questions.index(t3)
    rows[i1] = (t1.id, "C", "confident")
    rows[i3] = (t3.id, "none", "")  # task 3 has no "no preference"
    with pytest.raises(AnswersError) as info:
        score_answers(write_answers(tmp_path / "bad.csv", rows), kit)
    msg = str(info.value)
    assert "\n" not in msg
    assert f"line {i1 + 2} ({t1.id}): 'C', valid A/B/none" in msg
    assert f"line {i3 + 2} ({t3.id}): 'none', valid negative/positive" in msg
    rows[i1] = (t1.id, "A", "sure")
    rows[i3] = (t3.id, t3.answer, "confident")
    with pytest.raises(AnswersError, match=rf"invalid confidence on line {i1 + 2} \({t1.id}\): 'sure' \(valid: confident/unconfident"):
        score_answers(write_answers(tmp_path / "bad2.csv", rows), kit)
    with pytest.raises(AnswersError, match="no column 'confidence'"):
        score_answers(write_answers(tmp_path / "bad3.csv", [(q.id, q.answer) for q in kit.questions], header=("question_id", "answer")), kit)


# --- determinism ---------------------------------------------------------------------------------------


def test_same_inputs_and_seed_give_identical_files(kit, vader, textblob, pool, tmp_path):
    again = build_questions(vader, get_explainer("occlusion1"), pool, other_model=textblob, n=N, seed=0)
    a, b = tmp_path / "a", tmp_path / "b"
    write_kit(kit, a)
    write_kit(again, b)
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file()) and len(files) == 6
    for f in files:
        assert (a / f).read_bytes() == (b / f).read_bytes(), f
    other = build_questions(vader, get_explainer("occlusion1"), pool, other_model=textblob, n=N, seed=1)
    assert {q.text for q in other.questions} != {q.text for q in kit.questions}
    assert kit_files(other) != kit_files(kit)


# --- the form ------------------------------------------------------------------------------------------


def test_form_escapes_every_text_and_highlights_evidence():
    text = "A <script>alert('x')</script> & \"great\" film </mark><b>bold</b> indeed."
    great = text.index("great")
    ev_a = Evidence(("great",), ((great, great + 5),), (0.9,))
    ev_b = Evidence(("<script>",), ((2, 10),), (0.4,))  # a word that is markup itself
    q1 = Question("T1-001-aaaaaa", 1, "occlusion1", text, "positive", "positive", ("m", "o"), (0.9, 0.8), (ev_a, ev_b), "A", True)
    q2 = Question("T2-001-bbbbbb", 2, "occlusion1", text, "positive", "positive", ("m",), (0.95,), (Evidence(("<b>", "&"), ((0, 1), (2, 3)), (1.0, 0.5)),),
                  "positive", True)
    q3 = Question("T3-001-cccccc", 3, "occlusion1", text, "negative", "positive", ("m",), (0.61,), (ev_a, Evidence()), "negative", False)
    html = render_form(Kit([q1, q2, q3]))
    assert "<script>alert" not in html and "</mark><b>" not in html and "<b>bold" not in html
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &quot;" in html
    assert "<mark>great<sup>1</sup></mark>" in html and "<mark>&lt;script&gt;<sup>1</sup></mark>" in html
    assert "<span class='chip'>&lt;b&gt;</span><span class='chip'>&amp;</span>" in html
    assert "with probability <b>0.610</b>" in html and "(no evidence)" in html
    assert html.count("<script>") == 1  # the page's own download script only
    assert "occlusion1" not in html  # the explainer is in the key only


# --- the commands ----------------------------------------------------------------------------------------


def test_export_command_writes_a_kit_that_scores(tmp_path):
    out = tmp_path / "kit"
    res = CliRunner().invoke(app, ["export-human-tasks", "--model", "vader", "--explainer", "occlusion1", "--out", str(out),
                                   "--questions", "2", "--seed", "3", "-q"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    kit = load_key(out)
    assert kit.meta["other_model"] == "textblob" and kit.meta["seed"] == 3  # vader's default worse model
    assert {t: len(kit.task(t)) for t in (1, 2, 3)} == {1: 2, 2: 2, 3: 2}
    path = write_answers(out / "answers.csv", [(q.id, q.answer, "unconfident") for q in kit.questions])
    res = CliRunner().invoke(app, ["score-human-tasks", str(path), "--json", str(tmp_path / "s.json")], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert {r["score"] for r in json.loads((tmp_path / "s.json").read_text())["rows"]} == {0.5}


def test_an_explainer_that_does_not_apply_is_one_line_and_writes_nothing(tmp_path):
    out = tmp_path / "kit"
    res = CliRunner().invoke(app, ["export-human-tasks", "--model", "vader", "--explainer", "ig", "--out", str(out)])
    assert res.exit_code == 2 and not out.exists()
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "explainer 'ig' does not apply to model 'vader'" in lines[0] and "needs gradients" in lines[0]
    # a gradient explainer on a torch model: the default worse model (vader) is what it cannot explain
    res = CliRunner().invoke(app, ["export-human-tasks", "--model", "minilm-sst2", "--explainer", "ig", "--out", str(out)])
    assert res.exit_code == 2 and not out.exists()
    assert "to the other model 'vader'" in res.output and "--other-model" in res.output
    res = CliRunner().invoke(app, ["export-human-tasks", "--model", "vader", "--explainer", "occlusion2", "--out", str(out)])
    assert res.exit_code == 2 and "unknown explainer 'occlusion2'" in res.output and not out.exists()


def test_a_transformer_on_a_handful_of_texts(vader, pool):
    minilm = prepare_model(load_model("minilm-sst2"))
    kit = build_questions(minilm, get_explainer("occlusion1"), pool[:60], other_model=vader, n=2, seed=0, tasks=(1, 2))
    assert {q.task for q in kit.questions} == {1, 2} and len(kit.questions) == 4
    for q in kit.task(2):
        cls, p = predicted(minilm, q.text)
        assert q.answer == cls and p >= 0.9 and len(q.evidence[0].words) == 3
    for q in kit.task(1):
        assert predicted(minilm, q.text)[0] == predicted(vader, q.text)[0] == q.predicted
    with pytest.raises(HumanTaskError, match="task 3 gets no input"):
        build_questions(minilm, get_explainer("occlusion1"), pool[:40], n=1, tasks=(3,), tau_low=0.0)

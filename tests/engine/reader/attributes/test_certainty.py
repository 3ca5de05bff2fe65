"""The reader's cue rules as records (``reader.scope.CueRule``): what each field means for a
reading. Every sentence is written for the test; the expected status is what the rule's record
says (its direction and max_scope), stated beside each case."""
import pytest

from radscope.engine.reader.attributes import certainty as scope
from radscope.engine.reader.attributes.certainty import ClauseScope, CueRule, ScopeRules, cue_rules


def status(clause: str, mention: str, rules: ScopeRules | None = None) -> str:
    start = clause.lower().index(mention)
    return ClauseScope(clause, rules).status(start, start + len(mention))


def test_every_cue_is_a_record_of_a_category_and_direction():
    rules = cue_rules()
    by_literal = {(r.literal, r.direction): r for r in rules}
    assert by_literal[("not", "forward")] == CueRule("not", "negation", "forward", 4)
    assert by_literal[("no", "forward")].max_scope is None  # to the clause's end
    versus = [r for r in rules if r.literal.startswith("versus")]  # not before a prior study
    assert {(r.category, r.direction) for r in versus} == {("uncertainty", "forward"), ("uncertainty", "backward")}
    assert {r.direction for r in rules if r.category == "termination"} == {"terminate"}
    # a cue that says its subject is not there reaches the whole subject ("thickening of the wall
    # of the right main bronchus is not observed"); a hedge after a finding, or a bare participle,
    # reaches only its nearest words ("opacities in the right lower lung, atelectasis versus scarring")
    backward = [r for r in rules if r.direction == "backward"]
    gone = [r for r in backward if r.literal.startswith("(?:has|have) (?:resolved|cleared|disappeared)")]
    assert {r.max_scope for r in backward if r.category == "negation" and r.literal != "resolved"
            and r not in gone} == {12}
    # a finding that has gone is often named with where it was seen ("the filling defect previously
    # seen in the apicoposterior segmental artery of the left upper lobe has disappeared")
    assert [r.max_scope for r in gone] == [20]
    assert {r.max_scope for r in backward if r.category == "uncertainty"} == {7}
    assert by_literal[("resolved", "backward")].max_scope == 7


def test_a_backward_cue_reaches_the_mention_among_its_max_scope_words():
    # "is not seen" (backward, max_scope 12): eleven words between still reach, twelve do not.
    assert status("Effusion in the far lateral part of the left lower lung base is not seen",
                  "effusion") == "negative"
    assert status("Effusion in the far lateral part of the left lower lung base region is not seen",
                  "effusion") == "positive"


def test_a_forward_cue_with_max_scope_reaches_its_next_words_only():
    # "not" (forward, max_scope 4): the mention must start among the next four words.
    assert status("Not really very much enlarged", "enlarged") == "negative"
    assert status("Not really very much more enlarged", "enlarged") == "positive"
    # "no" (forward, no max_scope) reaches the clause's end.
    assert status("No focal airspace opacity in the right lower lobe or lingula", "lingula") == "negative"


def test_pseudo_and_terminate_records():
    # "no interval change" is a pseudo cue: it masks "no"; "but" ends "no"'s reach.
    assert status("No interval change in the nodule", "nodule") == "positive"
    assert status("No effusion but small pneumothorax", "pneumothorax") == "positive"
    assert status("No effusion but small pneumothorax", "effusion") == "negative"


def test_the_records_drive_the_reading():
    rules = ScopeRules.from_rules((CueRule("is suspected", "uncertainty", "backward", 2),))
    assert status("Pneumonia is suspected", "pneumonia", rules) == "uncertain"
    assert status("Pneumonia at the base is suspected", "pneumonia", rules) == "positive"


@pytest.mark.parametrize("record", [
    ("maybe", "uncertainty", "forward", 3),  # a forward uncertainty cue reaches the clause's end
    ("but", "termination", "forward", None),
    ("no change", "negation", "pseudo", 2),
    ("not", "negation", "forward", 0),
])
def test_a_record_the_reader_cannot_read_is_refused(record):
    with pytest.raises(ValueError, match=repr(record[0])):
        CueRule(*record)


def test_a_record_with_an_unknown_key_is_refused(monkeypatch):
    monkeypatch.setattr(scope, "load", lambda name: {"rules": [
        {"literal": "no", "category": "negation", "direction": "forward", "scope": 3}]})
    with pytest.raises(ValueError, match="'no': unknown keys \\['scope'\\]"):
        cue_rules()

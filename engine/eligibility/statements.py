"""Is a text a report at all? It is when one of its sentences states something about a patient.

A policy trained on a reward learns to write whatever the reward does not refuse. Before this
rule, "I am sorry, but I cannot interpret medical images." scored CLEAR 0.75 on average against
IU references, "Write the findings and impression of this chest radiograph." CREPE's reward 0.39
and "I like turtles." 0.15 under ``radsem:0.7,crepe:0.3``: the rules reader reads every
sentence as a finding statement, so a sentence about nothing became a finding that matched
nothing, and an empty table of conditions agreed with a normal reference.

A sentence *states something about the patient* when it is none of

- a question (it ends with "?"),
- a reply about the writer itself: an apology, a refusal, a remark to the reader ("Sorry",
  "As an AI language model", "I cannot ...", "Thank you"),
- an instruction (it opens with an imperative: "Write ...", "Describe ...", "Please ...",
  "Generate ..."),

and it names what the reader's lexicons call a finding, a device, normal anatomy or an
abnormality (``anatomy_lexicon``: "effusion", "clear", "tube", "enlarged"), a change ("stable",
"unchanged", "no interval change", "improved"), a verdict on the whole study ("normal",
"unremarkable", "negative", "NAD", "no acute disease", "no active cardiopulmonary process"), or a
site with what could not be seen of it ("the left costophrenic angle is obscured") or with its
measurement ("the spleen measures 13 cm"). A site alone ("Chest radiograph, PA and lateral.") or a
word the lexicons do not know (keyboard mash, "lorem ipsum") states nothing. A terse real report
("Unremarkable.", "No acute disease.", "Heart size normal. Lungs clear.") states something; a text none of whose sentences does is
not a report, and every metric that reads findings answers "cannot read" for it
(``radscope.engine.eligibility.readable.finding_rule``).

The sentences are the ones the metrics read (``read_report(text).utterances``: the findings and
impression when the report has those headings, else the whole text).
"""
from __future__ import annotations

import re
from functools import lru_cache

QUESTION = "a question"
SELF = "a reply about the writer itself (an apology, a refusal, a remark to the reader)"
INSTRUCTION = "an instruction"
NOTHING = "no finding, device, normal or abnormal word, change or verdict the reader knows"

_QUESTION_RE = re.compile(r"\?[\W_]*$")
_SELF_RE = re.compile(
    r"\b(?:as an ai|ai (?:language )?model|language model|(?:an|the) assistant|sorry|apologi[sz]e|"
    r"thank you|thanks)\b"
    r"|\b(?:i|we)\b.{0,40}?\b(?:cannot|can't|can ?not|unable|not able|do not|don't|won't|will not)\b",
    re.IGNORECASE)
_INSTRUCTION_RE = re.compile(
    r"^[\W_]*(?:please\b|(?:write|describe|generate|provide|give|list|summari[sz]e|report|produce|"
    r"create|compose|draft|interpret|read|analy[sz]e|tell|explain|identify|output|fill|"
    r"return|answer|examine|look at|classify|respond)\b"
    # "Complete the report" is one, "Complete tear of the ACL" a finding
    r"|complete\s+(?:the|this|these|a|an|all|your)\b)", re.IGNORECASE)
# Words that state something on their own: a verdict on a whole study ("normal", "unremarkable",
# "no acute disease", "NAD"), a change ("stable", "no interval change", "improved"), a disease
# word the lexicons lack ("airspace disease", "hyperinflated"). Matched on canonical text.
_VERDICT_RE = re.compile(
    r"\b(?:normal|unremarkable|negative|nad|within (?:normal )?limits|stable|unchanged|"
    r"improv\w*|worsen\w*|resolv\w*|diseases?|abnormalit\w*|patholog\w*|hyper\w{4,}|hypo\w{4,})\b"
    r"|\bno\b(?:\W+\w+){0,3}?\W+(?:acute|active|process|findings?|changes?)\b"
    r"|\b(?:acute|active|chronic|cardiopulmonary|intrathoracic)\s+(?:\w+\s+)?(?:process|findings?|changes?)\b")
# What could not be seen of a named site: a statement about the patient's anatomy too.
_LIMITED_RE = re.compile(r"obscur|(?:not|incompletely|poorly) (?:well )?(?:seen|visuali[sz]ed|shown|displayed|depicted|"
                         r"evaluated|assessed|assessable|evaluable|included)|cannot be (?:seen|evaluated|assessed)|"
                         r"excluded from|limited|suboptimal|\bneither\b[^.;]*\b(?:seen|visuali[sz]ed|identified|shown)\b")


# Device words that are everyday English too: they count only beside a site.
# An everyday device word made medical by the word before it ("endotracheal tube 4 cm above the
# carina" names no site the reader knows, yet is a statement about the patient).
_MEDICAL_DEVICE_RE = re.compile(
    r"\b(?:endotracheal|tracheostomy|nasogastric|orogastric|gastrostomy|feeding|enteric|chest|"
    r"drainage|pleural|thoracostomy|biliary|nephrostomy|central|venous|arterial|dialysis|picc|surgical|"
    r"sternotomy|pacemaker|pacing|defibrillator)\s+(?:tubes?|lines?|catheters?|drains?|wires?|"
    r"clips?|leads?|ports?)\b")
_EVERYDAY_DEVICES = frozenset("""tube tubes line lines port ports filter metal plate plates rod rods
leads mesh device devices artificial replacement fixation cement clip clips screw screws wire wires
coil coils implant implants implanted drain drains""".split())


def sentence_kind(sentence: str) -> str | None:
    """None when the sentence states something about the patient, else which kind of
    non-statement it is (``QUESTION``, ``SELF``, ``INSTRUCTION`` or ``NOTHING``)."""
    if _QUESTION_RE.search(sentence):
        return QUESTION
    if _SELF_RE.search(sentence):
        return SELF
    if _INSTRUCTION_RE.search(sentence):
        return INSTRUCTION
    return None if _names_a_state(sentence) else NOTHING


def _names_a_state(sentence: str) -> bool:
    """An abnormality, a verdict or a medical device anywhere; a normal, neutral, change or
    "not seen" word or an everyday device word only beside a site ("the lungs are clear", "tube in the trachea"): alone, such words
    are everyday English ("good", "fine", "clear", "lines", "new", "better")."""
    # the reader loads its lexicons on first use: imported only when a text is checked
    from radscope.engine.reader.attributes.place import sentence_features
    from radscope.engine.reader.text.anatomy import anatomy_lexicon, canonical_text
    from radscope.engine.reader.vocabulary.reader_words import reader_lexicon

    lex, canon = anatomy_lexicon(), canonical_text(sentence)
    if lex.abnormal.search(canon) or _VERDICT_RE.search(canon):
        return True
    if any(m.group(0) not in _EVERYDAY_DEVICES for m in lex.devices.finditer(canon)) \
            or _MEDICAL_DEVICE_RE.search(canon):
        return True  # "sternotomy", "PICC", "pacemaker", "endotracheal tube", "chest tube"
    features = sentence_features(sentence)
    if features.sites and features.sizes:
        return True  # "The spleen measures 13 cm.", "The endometrium is 6 mm thick."
    qualities = (lex.normal, lex.neutral, lex.devices, *(p for _, p in reader_lexicon().change))
    if not (_LIMITED_RE.search(canon) or any(p.search(canon) for p in qualities)):
        return False
    return bool(features.sites)


@lru_cache(maxsize=4096)  # per text: a reference recurs across its candidates and metrics
def not_a_report(text: str) -> str | None:
    """Why the text is not a report ("makes no statement about a patient: ..."), or None when
    one of its sentences states something about the patient."""
    from radscope.engine.reader.findings import read_report

    kinds = []
    for sentence in read_report(text).utterances:
        kind = sentence_kind(sentence)
        if kind is None:
            return None
        if kind not in kinds:
            kinds.append(kind)
    return "makes no statement about a patient: " + ("; ".join(kinds) if kinds else "no sentence")

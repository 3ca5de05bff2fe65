"""The text stage's one reading of a report: its sections, and its sentences in the words the
lexicons know, split and rewritten once (``reader_utterances``).

Every later stage takes these sentences: the atomiser the findings' sentences, the findings stage
the same and the FINDINGS + IMPRESSION sentences, CLEAR's and SRR's clauses the latter. None of
them sections or splits the raw text again. Cached by report text, the stage's one cache: a
reference recurs across candidates and metrics.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from radscope.engine.io.reports import labelled_utterances_by_line, read_layout, title_side
from radscope.engine.reader.text.anatomy import (
    anatomy_lexicon,
    canonical_text,
    names_finding,
    names_site,
    site_mentions,
)
from radscope.engine.reader.text.labelled_lines import MR_SEQUENCE, MR_SEQUENCE_RE, label_each_part
from radscope.engine.reader.text.places_only import names_an_examination
from radscope.engine.reader.text.wording import normalise, spell_out_defined


@dataclass(frozen=True)
class ReportText:
    """One report's sentences, as the reader's stages take them.

    ``findings``: the findings' sentences (the impression's when the report has nothing else, as
    RadSEM reads an impression-only report). ``atom_source``: what the atomiser cuts, the findings'
    sentences, or every sentence of a report with no findings or impression at all (a report whose
    only header is, say, "Clinical history:" has its findings under it). ``utterances``: FINDINGS +
    IMPRESSION sentences, what CLEAR, SRR-BERT and the comparisons read.
    """

    findings: tuple[str, ...]
    atom_source: tuple[str, ...]
    utterances: tuple[str, ...]
    atom_lines: tuple[int, ...]  # the line of each of ``atom_source`` (``utterances_by_line``)


@lru_cache(maxsize=4096)
def read_text(report: str) -> ReportText:
    """Section ``report`` and split and rewrite its sentences, once (the abbreviations it defines
    written out first, so that every part of it reads them alike)."""
    report = spell_out_defined(report)
    layout = read_layout(report)
    findings_section = layout.findings or layout.impression
    side = _study_side(findings_section) or _study_side(report)
    lines, findings = _reader_utterances_by_line(findings_section, side)
    atom_lines, atom_source = (lines, findings) if findings_section \
        else _reader_utterances_by_line(report, side)
    return ReportText(findings=tuple(u for u in findings if u), atom_source=atom_source,
                      utterances=reader_utterances(layout.text(("findings", "impression"))),
                      atom_lines=atom_lines)


def reader_utterances(text: str) -> tuple[str, ...]:
    """The sentences of ``text`` (``split_utterances``), each labelled line's parts said of what
    they are about (``labelled_lines``), each ``normalise``d."""
    return tuple(u for u in _reader_utterances_by_line(text)[1] if u)


def _reader_utterances_by_line(text: str, side: str = "") -> tuple[tuple[int, ...], tuple[str, ...]]:
    """``reader_utterances`` and the line each one is on, with an empty sentence where a template's
    heading breaks the text (``_template_heading``), for the atomiser; each said of the study's
    ``side`` (``_study_side``) when it names none."""
    utterances = labelled_utterances_by_line(text)
    # the lines that head the one below them, written without a colon (most texts have none)
    heads = [k + 1 < len(utterances) and utterances[k + 1][3] == whole
             for k, (_, whole, _, _) in enumerate(utterances)] \
        if any(heading for *_, heading in utterances) else [False] * len(utterances)
    read = [(number, "" if heads[k] and _template_heading(whole, utterances[k + 1][1])
             else normalise(_denial_at_label(u)))
            for k, (number, whole, label, heading) in enumerate(utterances)
            # a heading line is under no heading of its own ("Right side" after another block)
            for said, label in [_under_heading(whole, label, "" if heads[k] else heading)]
            for u in label_each_part(_said_on_sequence(_said_of_label(said, label), label))]
    return tuple(n for n, _ in read), _said_of_side(tuple(u for _, u in read), side)


_SIDES_NAMED_RE = re.compile(r"\b(left|right|bilateral(?:ly)?|both)\b", re.IGNORECASE)
_FIRST_LINE_RE = re.compile(r"\s*([^\n]*)")
_SIDE_HINT_RE = re.compile(r"\b(?:left|right|lt|rt|l|r)\b", re.IGNORECASE)  # before the abbreviations are written out


def _study_side(text: str) -> str:
    """The side a report's title, its first line, names ("MRI RIGHT KNEE.", "Left knee MR."), or "":
    a study of one side (a knee, a breast, an ankle) writes its findings without it, and a
    rewrite that titles the other knee has put every finding on the wrong side."""
    line = _FIRST_LINE_RE.match(text)
    first = line.group(1) if line else ""
    if len(first) > 160 or not _SIDE_HINT_RE.search(first):
        return ""  # the usual case: no side, or no title, on the first line
    written = normalise(first)
    if not _SIDES_NAMED_RE.search(written) or not names_an_examination(first):
        return ""
    sides = {m.group(1).lower() for m in _SIDES_NAMED_RE.finditer(written)}
    return sides.pop() if len(sides) == 1 and sides <= {"left", "right"} else ""


def _said_of_side(sentences: tuple[str, ...], side: str) -> tuple[str, ...]:
    """Each sentence that names no side said of the study's ``side``, as under a "Left knee"
    heading; not when some sentence names another side or both ("PELVIS AND LEFT HIP" over
    "Right hip: osteoarthritis"), where a sentence without one may be of either."""
    if not side or any(m.group(1).lower() != side for u in sentences for m in _SIDES_NAMED_RE.finditer(u)):
        return sentences
    return tuple(u if not u or _SIDES_NAMED_RE.search(u) or _COMPARISON_LINE_RE.match(u)
                 else f"{side.capitalize()} {u}" for u in sentences)


def _template_heading(heading: str, below: str) -> bool:
    """A heading written in capitals without its colon over a line that is not ("MASS EFFECT" /
    "Slight rightward midline shift."): a template's heading, whatever it names, which the lines
    under it say; in a report written all in capitals every line is, and none is one. It is read
    as an empty sentence: nothing, but a break that no sentence below continues across."""
    return heading.isupper() and not below.isupper()


_SIDE_WORD_RE = re.compile(r"\b(?:left|right)\b", re.IGNORECASE)
# a line about the prior study, which no heading's side is given to
_COMPARISON_LINE_RE = re.compile(r"\s*(?:no |none |without )?(?:prior|previous|comparison|compared)\b", re.IGNORECASE)


def _under_heading(sentence: str, label: str, heading: str) -> tuple[str, str]:
    """The sentence and its label under a heading written without its colon: one naming a side
    goes before each sentence of its block that names none, as "Left kidney:" alone on its line
    does ("Left kidney" / "No hydronephrosis."), and any other is the sentence's label when its line
    has none ("Deep veins" / "Compressible."). A heading that names a finding is a finding written
    without its stop and heads nothing: "Mild cardiomegaly" over "No acute disease." had read as a
    denial of the cardiomegaly, and "Small right pleural effusion" had gone into each sentence under
    it ("... Heart size normal." an abnormal statement)."""
    if not heading or names_finding(heading):
        return sentence, label
    if _SIDE_WORD_RE.search(heading):
        if _SIDE_WORD_RE.search(sentence) or _COMPARISON_LINE_RE.match(sentence):
            return sentence, label  # "No prior for comparison." under "RIGHT KNEE MR" is dropped as it is
        if names_an_examination(heading):
            # "MR LEFT ANKLE (NON-CONTRAST)" titles the study: only its side goes before each
            # sentence, as a side heading's title line gives it (``_study_side``)
            side = title_side(heading)
            return (f"{side.capitalize()}: {sentence}" if side else sentence), label
        return f"{heading}: {sentence}", label
    if names_an_examination(heading):
        return sentence, label  # reader-v73: "THYROID US" titles the study and is the place of no line below
    return sentence, label or heading


# A cardiac MR acquisition, whose name holds a finding's word ("Late gadolinium enhancement:
# none") but names no finding and no place
_ACQUISITION = r"cine|lge|(?:late|delayed) (?:gadolinium )?enhancement|first[- ]pass(?: perfusion)?"
_ACQUISITION_RE = re.compile(rf"(?:{_ACQUISITION})\b", re.IGNORECASE)
# A label that names the examination, its views, an acquisition or a procedure before the findings
# ("Contrast-enhanced chest CT:", "Upright abdominal plain film:", "Late gadolinium enhancement:",
# "Postoperative changes after right hip arthroplasty:"), not what the sentence after it is about
_TITLE_LABEL_RE = re.compile(
    r"\b(?:views?|radiographs?|films?|x-rays?|dr|cr|ct|cta|mri?|mra|pet|ultrasound|sonograph\w*|scans?|imaging"
    r"|positions?|projections?|contrast|enhanced|postoperative|post-operative|follow-?up|after|following"
    rf"|status|history|compared|comparison|technique|{_ACQUISITION})\b", re.IGNORECASE)
# A word opening a sentence in capitals that is not an abbreviation ("Reduced", not "MRCP")
_CAPITALISED_RE = re.compile(r"^[A-Z][a-z]")


_BOTH_SIDES_LABEL_RE = re.compile(r"\s*(?:on )?both(?: sides)?\s*", re.IGNORECASE)


def _said_of_label(sentence: str, label: str) -> str:
    """"Reduced volume with an undulating surface." from the line "Liver: Reduced volume ...": a
    sentence naming no site of its own is said of its line's label, as "Liver: reduced volume"
    is; one that names its site ("Lungs and airways: The lungs are clear.") stands alone, unless
    that site is only the labelled organ's cortex or medulla (``_names_only_parts``) or only a
    sided label's organ named through its finding (``_only_the_labels_place_without_its_side``)."""
    if not label or _TITLE_LABEL_RE.search(label):
        return sentence
    if _BOTH_SIDES_LABEL_RE.fullmatch(label):
        # "Both sides: IACs symmetric; normal cochlear morphology": each part is said of each side,
        # as "Bilateral: ..." is (the label had been dropped, and the sides with it)
        return "; ".join(p if _SIDE_WORD_RE.search(p)
                         else f"Bilateral {p[:1].lower() + p[1:] if _CAPITALISED_RE.match(p) else p}"
                         for p in (q.strip() for q in sentence.split(";")) if p)
    named = _site_mentions_in(canonical_text(sentence.split(";", 1)[0]))  # read once for the tests below
    label_is_site = names_site(label)
    parts_only = label_is_site and _names_only_parts(named)
    if named and not parts_only and not _only_the_labels_place_without_its_side(named, sentence, label):
        return sentence  # what the first part says is the label's ("Uterus: Enlarged; heterogeneous
        # myometrium" names its site only after the semicolon)
    if parts_only:
        sentence = _part_of_the_label(sentence, label)
    said = f"{sentence[:1].lower()}{sentence[1:]}" if _CAPITALISED_RE.match(sentence) else sentence
    if not (label_is_site or names_finding(label) or _normal_only_with(label, said)):
        return sentence
    return f"{label}: {said}"


def _site_mentions_in(canon: str) -> list[tuple[str, str]]:
    """The sites a canonical text names, each with the words that name it ("kidney", "cortex")."""
    return [(site, m.group(0)) for site, pattern in site_mentions(canon) if (m := pattern.search(canon))]


def _only_the_labels_place_without_its_side(named: list[tuple[str, str]], sentence: str, label: str) -> bool:
    """"No hydronephrosis." on the line "Right kidney: ...": a sentence naming no side and only
    the place of a sided label (the kidney, through its finding; ``named``: its first part's
    sites) is said of the label's side."""
    if not _SIDE_WORD_RE.search(label) or _SIDE_WORD_RE.search(sentence):
        return False
    return {site for site, _ in named} <= {site for site, _ in _site_mentions_in(canonical_text(label))}


# Parts of an organ that alone name a region of the brain ("the cortex", "the medulla"), and the
# words that write them: bound to the organ named just before them, they are the organ's
_BRAIN_PART_NAMES = frozenset(("cortex", "medulla"))
_BRAIN_PART_WORD_RE = re.compile(r"\b(?:cort(?:ex|ices|ical)|medull(?:a|ae|ary))\b", re.IGNORECASE)


def _names_only_parts(named: list[tuple[str, str]]) -> bool:
    """"A round anechoic area in the upper pole cortex." on the line "Right kidney: ...": a sentence
    whose only place (``named``) is the cortex or the medulla is about the labelled organ's, not
    the brain's cortex or the brainstem's medulla the bare word names (other part nouns, "neck",
    "head", "joint", name regions of their own)."""
    return bool(named) and all(words in _BRAIN_PART_NAMES for _, words in named)


def _part_of_the_label(sentence: str, label: str) -> str:
    """"A cyst in the upper pole cortex." on "Right kidney: ..." -> "A cyst in the upper pole right
    kidney cortex.": the part written right after its organ, as "renal cortex" binds it (a part
    that opens the sentence follows the label the sentence is prefixed with)."""
    m = _BRAIN_PART_WORD_RE.search(sentence)
    if m is None or not m.start():
        return sentence
    return f"{sentence[:m.start()]}{label.lower()} {sentence[m.start():]}"


def _normal_only_with(label: str, said: str) -> bool:
    """"Midline: Central.": a label that is no site ("midline") which, read with its sentence, is
    one normal phrase of the lexicons ("midline central": the midline structures not displaced)."""
    together = canonical_text(f"{label} {said}")
    return together != f"{canonical_text(label)} {canonical_text(said)}" \
        and anatomy_lexicon().normal.search(together) is not None


# A line labelled with an MR sequence ("DWI:", "T2-weighted images:", "ADC map:", "Fat-suppressed T2WI:")
_SEQUENCE_LABEL_RE = re.compile(
    rf"(?:(?:fat[- ](?:suppressed|saturated)|axial|sagittal|coronal)\s+)?(?:{MR_SEQUENCE})(?:\s+(?:maps?|sequences?))?",
    re.IGNORECASE)
_KEPT_SEQUENCE_LABEL_RE = re.compile(rf"(?P<label>{_SEQUENCE_LABEL_RE.pattern}):\s+(?P<rest>\S.*)", re.IGNORECASE)


def _said_on_sequence(sentence: str, label: str) -> str:
    """"Marked hyperintensity of the lesion; the foci show no high signal." from the line "DWI:
    Marked hyperintensity ...": each part that names no sequence of its own is said on the
    label's, as "hyperintense on DWI" says it. Taken off like any label, the sequence would be
    lost, and a lesion read one line per sequence would have no readings to pair."""
    said = sentence
    if not label:  # a label the line kept: "T2WI: The lesion is hyperintense; ..."
        kept = _KEPT_SEQUENCE_LABEL_RE.match(sentence) if ":" in sentence else None
        if kept is None:
            return sentence
        label, said = kept["label"], kept["rest"]
    if not _SEQUENCE_LABEL_RE.fullmatch(label.strip()) or MR_SEQUENCE_RE.search(said):
        return sentence  # a part that names its own sequence keeps the line as written
    end = "." if said.rstrip().endswith(".") else ""
    parts = [part.strip() for part in said.rstrip().rstrip(".").split(";") if part.strip()]
    return "; ".join(f"{part} on {label.strip()}" for part in parts) + end


# "Gastric anastomosis: no mass lesion.", "Urinary bladder: No intravesical mass is identified.",
# "Hardware: There is no evidence of loosening."
_LABELLED_DENIAL_RE = re.compile(
    r"^(?P<label>[A-Za-z][A-Za-z /,&-]{1,40}?):\s*(?:there\s+(?:is|are|was|were)\s+)?(?:no|without)\s+(?P<denied>[^:;]+?)\s*\.?$",
    re.IGNORECASE)


def _denial_at_label(part: str) -> str:
    """"Gastric anastomosis: no mass lesion." -> "No mass lesion at the gastric anastomosis.": a
    label before a denial is where the denial is said, as a report written in sentences puts it;
    read as the line's subject, a label naming an operation or device ("anastomosis", "drain")
    would assert it and make the denial an abnormal statement."""
    m = _LABELLED_DENIAL_RE.match(part) if ":" in part else None  # most parts have no label
    if m and _ACQUISITION_RE.match(m["label"]):
        return f"No {m['denied']}."  # "LGE: no myocardial late enhancement": the acquisition, no place
    if not m or names_site(m["denied"]) or not (names_site(m["label"]) or names_finding(m["label"])):
        return part
    return f"No {m['denied']} at the {_label_in_sentence(m['label'])}."


def _label_in_sentence(label: str) -> str:
    """A label as a sentence's words: its first letter small, its abbreviations as written
    ("Right ICA" -> "right ICA", which the wording table then writes out)."""
    return " ".join(word if word.isupper() and len(word) > 1 else word.lower() for word in label.split())

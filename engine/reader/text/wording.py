"""The words radiologists write, read as the lexicons know them: one pass over each sentence
before anything reads it.

Three rewrites, each data in ``wording.json`` (its hash is in every rules signature):

- **abbreviations** written out ("PTX" -> "pneumothorax", "LUL" -> "left upper lobe", "b/l" ->
  "bilateral"); two-letter ones only when written in capitals ("LV", "IJ");
- **British spellings** in their American form ("oedema", "haemorrhage", "tumour", "localised");
- **denials written one way** ("non-dilated" -> "not enlarged", "not uniform" -> "heterogeneous",
  "not well visualized" -> "not clearly visible"): the cue rules then read the same denial for
  every metric (these were RadSEM's canonical rewrites, unseen by CLEAR and SRR-BERT). One such
  rewrite stays in ``radsem.json``: "shows no enhancement" -> "nonenhancement" swallows its verb,
  which the matcher's tokens need and a sentence shown to a person must not lose;
- **changes told against the prior study** written as the change they are ("increased since
  the prior study" -> "has increased since the prior study", "smaller than on the previous
  exam" -> "has decreased ..."): the prior study is context and is removed later, the change
  must stay readable;
- **telegraphic labels** read as the subject ("Lungs: clear." -> "Lungs clear.");
- **a prefix shared by two words** written on each ("intra- or extrahepatic" -> "intrahepatic
  or extrahepatic"), so that a list cut item by item does not leave "intra-" alone;
- **lobes named from their lung** in the one form the site lists read ("the upper and lower
  lobes of the right lung" -> "the right upper lobe and right lower lobe"), so that one statement
  over several lobes is one statement per lobe, as a report written lobe by lobe says it;
- **an MR sequence joined to its signal** by a hyphen ("T2-hyperintense", "T2/FLAIR-hyperintense")
  written as two words, so that the sequence readings are cut and read as "T2 hyperintense" is;
- **abbreviations a report defines** ("cerebellopontine angle (CPA)") in the words it gives them,
  wherever that report writes them, before the table's own ("CPA" is a costophrenic angle in a
  chest report): ``spell_out_defined``, once per report;
- **an abbreviation followed by its own words** in brackets ("OFD (occipitofrontal diameter)"),
  once written out, said once (a label that ends with the bracket is left as written);
- **ALL CAPS** read as text: a sentence without a lower-case letter is lower-cased (after its
  abbreviations are written out), so "NO MIDLINE SHIFT" reads as "No midline shift".

``report_text.reader_utterances`` is the one door every rules reader goes through, once per report
section (``report_text.read_text``: for the atomiser, the comparisons, CLEAR's and SRR's clauses):
the sentences of a text as ``split_utterances`` cuts them, each labelled line's parts said of what
they are about (``labelled_lines``), each rewritten here. Model-based extractors read the text as
written.
"""
from __future__ import annotations

import functools
import re

from radscope.engine.reader.vocabulary.loader import AnyMatch, load

_LOWER_RE = re.compile(r"[a-z]")
# "internal auditory canal (IAC)": an abbreviation in brackets, defined by the words before it (on
# its line: a line break is never taken away, the reading keeps its lines)
_BRACKETED_SHORT_RE = re.compile(r"[ \t]*\((?P<short>[A-Z]{2,6})\)")
_WORDS_RE = re.compile(r"[A-Za-z]{2,}")
# "OFD (occipitofrontal diameter)" once written out says its words twice: the bracket goes (not
# where a label ends with it, which the heading rules read as written, as ``spell_out_defined`` does)
_REPEATED_IN_BRACKETS_RE = re.compile(r"\b(?P<words>[A-Za-z][\w-]*(?: [A-Za-z][\w-]*){0,5}) \((?P=words)\)(?!\s*:)",
                                      re.IGNORECASE)


@functools.lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern[str], dict[str, str], re.Pattern[str], dict[str, str],
                         tuple[tuple[re.Pattern[str], str], ...]]:
    """Abbreviations (any case, capitals only) and the word rewrites: British spellings, then the
    phrases whose wording decides a denial, then changes told against the prior study, then
    telegraphic labels, then prefixes shared by two words, then lobes named from their lung, then
    sequences joined to their signal."""
    data = load("wording")
    any_case: dict[str, str] = data["abbreviations"]["any_case"]
    upper: dict[str, str] = data["abbreviations"]["upper_only"]

    def tokens(words: list[str], flags: int) -> re.Pattern[str]:
        ordered = sorted(words, key=lambda w: (-len(w), w))
        return re.compile(r"(?<![\w/])(?:" + "|".join(map(re.escape, ordered)) + r")(?![\w/])", flags)

    british = tuple((re.compile(rf"\b{fragment}", re.IGNORECASE), american)
                    for fragment, american in data["british"])
    phrases = tuple((re.compile(rf"\b(?:{phrase})\b", re.IGNORECASE), written)
                    for phrase, written in [*data["negation"], *data["change"], *data["labels"],
                                            *data["prefixes"], *data["lobes"], *data["sequences"]])
    return (tokens(list(any_case), re.IGNORECASE), any_case, tokens(list(upper), 0), upper,
            british + phrases)


@functools.lru_cache(maxsize=1)
def _any_rewrite() -> AnyMatch:
    """Whether some word rewrite matches a sentence: most sentences hold none, and then the
    rewrites (one pattern each, applied in order) need not run."""
    return AnyMatch([pattern for pattern, _ in _patterns()[4]])


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def _at_start(m: re.Match[str], expansion: str) -> str:
    return _capitalised(expansion) if m.start() == 0 else expansion


@functools.lru_cache(maxsize=50000)  # per sentence: reports repeat theirs
def normalise(sentence: str) -> str:
    """One sentence in the words the lexicons read (see the module docstring)."""
    any_case, any_map, upper, upper_map, rewrites = _patterns()
    shouting = not _LOWER_RE.search(sentence) and len(_WORDS_RE.findall(sentence)) >= 2
    # An abbreviation is written in capitals wherever it stands: only at the sentence's start
    # does its expansion take one ("PTX is seen" -> "Pneumothorax is seen").
    text = upper.sub(lambda m: _at_start(m, upper_map[m.group(0)]), sentence)
    text = any_case.sub(lambda m: _at_start(m, any_map[m.group(0).lower()]), text)
    if shouting:
        text = _capitalised(text.lower())
    if "(" in text:
        text = _REPEATED_IN_BRACKETS_RE.sub(r"\g<words>", text)
    if _any_rewrite()(text):
        for pattern, written in rewrites:
            text = pattern.sub(functools.partial(_as_written, written), text)
    return text


def _as_written(replacement: str, m: re.Match[str]) -> str:
    """The replacement (its groups filled in), with a capital where the words it replaces had one."""
    written = m.expand(replacement)
    return _capitalised(written) if m.group(0)[:1].isupper() else written


def spell_out_defined(report: str) -> str:
    """``report`` with each abbreviation it defines ("... cerebellopontine angle (CPA) ...") written
    in its defining words wherever it stands, and the brackets that define it taken away: the
    report's own meaning comes before the wording table's, which knows one meaning per
    abbreviation. Most reports define none (one search then)."""
    defined: dict[str, str] = {}
    for m in _BRACKETED_SHORT_RE.finditer(report) if "(" in report else ():
        long_form = _long_form(m["short"], report[max(0, m.start() - 160):m.start()])
        if long_form:
            defined.setdefault(m["short"], long_form)
    if not defined:
        return report
    # the brackets go, unless a label ends with them ("Circumferential resection margin (CRM): ...",
    # which the heading rules read as written)
    text = _BRACKETED_SHORT_RE.sub(lambda m: "" if m["short"] in defined and not report.startswith(":", m.end())
                                   else m.group(0), report)
    written = re.compile(r"(?P<lead>(?:^|[.:;]\s+|\n\s*)(?:[-*\u2022]\s*)?)?(?<!\()\b(?P<short>"
                         + "|".join(map(re.escape, defined)) + r")s?\b")

    def spelt_out(m: re.Match[str]) -> str:
        words = defined[m["short"]]
        return words if m["lead"] is None else m["lead"] + _capitalised(words)  # a sentence's start
    return written.sub(spelt_out, text)


def _long_form(short: str, before: str) -> str | None:
    """The words at the end of ``before`` that ``short`` abbreviates, or None: each letter of the
    abbreviation, last to first, is found in order in those words, and its first letter starts a
    word (Schwartz and Hearst's rule: "cerebellopontine angle" for CPA, "anterior cruciate
    ligament" for ACL). At most as many words as the abbreviation has letters, plus two."""
    words = re.findall(r"[A-Za-z][\w-]*", before.rsplit(".", 1)[-1].rsplit(":", 1)[-1])[-(len(short) + 2):]
    long = " ".join(words).lower()
    s, i = len(short) - 1, len(long) - 1
    while s >= 0:
        c = short[s].lower()
        while i >= 0 and (long[i] != c or (s == 0 and i > 0 and long[i - 1].isalnum())):
            i -= 1
        if i < 0:
            return None
        i -= 1
        s -= 1
    start = long.rfind(" ", 0, i + 1) + 1
    return " ".join(words)[start:]

"""Read a judge's answer, in JSON or in GREEN-style section text, into a ``JudgeAssessment``.

Both formats carry the same content. JSON (bare, in a ```json fence, or embedded in prose) is
what constrained decoding produces; the section text (``[Explanation]:``, ``[Clinically
Significant Errors]:`` with lines ``(a) <type>: <count>. <err>; <err>`` ... ``(f)``,
``[Clinically Insignificant Errors]:``, ``[Matched Findings]: <count>. <f>; <f>`` and, for VERT,
``[Overall Accuracy Score]:``) is what models served elsewhere may answer in.

Rules, chosen so that a tolerance never changes a score silently:

* Tolerated, with an entry in ``parse_warnings``: counts written as words ("two", "No",
  "none", "zero"); a missing ``(x)`` line (that category counts 0, as in GREEN); header
  variants (no colon, no brackets but a colon, other case, markdown bold); sections not
  separated by blank lines; prose around the answer; unexpected extra JSON keys (ignored);
  scores written as "85%", "85/100" or "8.5 out of 10"; scores outside [0, 1] (clamped).
* Count versus list: when the stated count and the number of listed items differ, the
  **count wins** (GREEN's rule; the listed text is kept for display) and a warning is added.
* A missing section (or one whose count cannot be read) is **unavailable**, not zero: its
  field is ``None`` and ``score.compute_scores`` reports the scores that need it as ``None``
  with the reason. This keeps, e.g., the VERT score of an answer whose insignificant-error
  section was cut off. Missing overall score: ``None`` (VERT is then unparsable, never 0).
* ``ParseError`` is raised when there is nothing to score: no judge JSON and no section, only
  an explanation, JSON that breaks the schema in a way no rule above covers (wrong types,
  negative counts), or judge JSON that cannot be decoded (usually a truncated answer).
"""
from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from typing import Any

from jsonschema import Draft202012Validator

from radscope.engine.metrics.vert.schema import (
    CATEGORY_KEYS,
    EXPLANATION,
    INSIGNIFICANT,
    JUDGE_SCHEMA,
    MATCHED,
    OVERALL_SCORE,
    SIGNIFICANT,
    CategoryErrors,
    ErrorSection,
    JudgeAssessment,
)


class ParseError(ValueError):
    """The judge's answer cannot be turned into an assessment; the message says why."""


# --------------------------------------------------------------------------- shared readers

_NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve "
                 "thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty").split()
_COUNT_WORDS: dict[str, int] = {word: n for n, word in enumerate(_NUMBER_WORDS)}
_COUNT_WORDS.update({"no": 0, "none": 0, "nil": 0, "n/a": 0, "na": 0, "single": 1})

_NOTHING_RE = re.compile(r"^\s*(?:no|none|nil|n/?a|zero|0|not\s+applicable)\b\.?", re.I)


def parse_count(value: object) -> int | None:
    """An integer from an int, an integral float, digits or a number word ("two", "No",
    "none"); ``None`` when it is none of these (callers decide what that means)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    if isinstance(value, str):
        token = value.strip().rstrip(".").lower()
        if re.fullmatch(r"-?\d+", token):
            return int(token)
        return _COUNT_WORDS.get(token)
    return None


_SCORE_RE = re.compile(
    r"(?P<num>-?\d+(?:\.\d+)?|-?\.\d+)[ \t]*"
    r"(?:(?P<pct>%|percent\b)|(?:/|out[ \t]+of)[ \t]*(?P<den>\d+(?:\.\d+)?))?",
    re.I)


def parse_score(value: object) -> tuple[float | None, list[str]]:
    """The overall score in [0, 1] from a number or text, plus warnings for every conversion.

    Text: the first number counts (a warning says so when there are more); "85%" and
    "85/100" (any "x/y" or "x out of y") are divided out. Out-of-range values are clamped, not rejected (the spec's rule). A bare "85"
    is *not* read as a percentage: it is clamped to 1.0 with a warning, since guessing the
    scale would be a silent change.
    """
    if value is None:
        return None, []
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None, [f"overall score {value!r} is not a number"]
    warnings: list[str] = []
    if isinstance(value, str):
        matches = list(_SCORE_RE.finditer(value))
        if not matches:
            return None, [f"no number in overall score {value.strip()[:80]!r}"]
        match = matches[0]
        if len(matches) > 1:
            warnings.append(f"several numbers in overall score {value.strip()[:80]!r}; "
                            "the first is used")
        score = float(match["num"])
        if match["pct"]:
            score /= 100
            warnings.append(f"overall score {match[0].strip()!r} read as a percentage")
        elif match["den"]:
            denominator = float(match["den"])
            if denominator == 0:
                return None, [f"overall score {match[0].strip()!r} divides by zero"]
            score /= denominator
            warnings.append(f"overall score {match[0].strip()!r} read as a fraction")
    else:
        score = float(value)
    if not math.isfinite(score):
        return None, [f"overall score {value!r} is not finite"]
    if not 0.0 <= score <= 1.0:
        clamped = min(1.0, max(0.0, score))
        warnings.append(f"overall score {score:g} is outside [0, 1]; clamped to {clamped:g}")
        score = clamped
    return score, warnings


def _split_items(text: str) -> list[str]:
    """Items separated by ';' or new lines, without bullets, end dots or "none" fillers."""
    items = []
    for part in re.split(r"[;\n]", text):
        item = re.sub(r"^[\s\-*•]+", "", part).strip().rstrip(".").strip()
        if item and not _NOTHING_RE.fullmatch(item + "."):
            items.append(item)
    return items


def _check_count_against_list(where: str, count: int, items: Sequence[str],
                              warnings: list[str]) -> None:
    if items and len(items) != count:
        warnings.append(f"{where}: count {count} but {len(items)} item(s) listed; "
                        "the count is used")


# --------------------------------------------------------------------------- cleaning

_THINK_RE = re.compile(r"<think>.*?</think>", re.S | re.I)
_SPECIAL_TOKEN_RE = re.compile(
    r"</s>|<s>|<unk>|<pad>|<eos>|<\|[A-Za-z_]+\|>|<(?:start|end)_of_turn>")


def clean_response(text: str) -> str:
    """Drop chat scaffolding: text before the last assistant marker, reasoning blocks and
    special tokens that some backends leave in the completion."""
    if "<|assistant|>" in text:
        text = text.rsplit("<|assistant|>", 1)[1]
    text = _THINK_RE.sub("", text)
    return _SPECIAL_TOKEN_RE.sub("", text).strip()


# --------------------------------------------------------------------------- JSON answers

_SCORING_KEYS = (SIGNIFICANT, INSIGNIFICANT, MATCHED, OVERALL_SCORE)
_FENCE_RE = re.compile(r"```[ \t]*(?:json)?[ \t]*\n?(.*?)```", re.S | re.I)
_VALIDATOR = Draft202012Validator(JUDGE_SCHEMA)
_SECTION_TITLES = {
    SIGNIFICANT: "Clinically Significant Errors",
    INSIGNIFICANT: "Clinically Insignificant Errors",
    MATCHED: "Matched Findings",
}


def _is_judge_object(obj: object) -> bool:
    return isinstance(obj, dict) and any(key in obj for key in _SCORING_KEYS)


def find_json_answer(text: str) -> dict[str, Any] | None:
    """The first JSON object with a judge field: the whole text, a fenced block, or an
    object embedded in prose (also one nested inside a wrapper object)."""
    candidates = [text.strip()] + [m.group(1).strip() for m in _FENCE_RE.finditer(text)]
    for candidate in candidates:
        if candidate.startswith("{"):
            try:
                obj = json.loads(candidate)
            except json.JSONDecodeError:
                continue
            if _is_judge_object(obj):
                return obj
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            obj, _ = decoder.raw_decode(text, match.start())
        except json.JSONDecodeError:
            continue
        if _is_judge_object(obj):
            return obj
    if any(f'"{key}"' in text for key in (SIGNIFICANT, INSIGNIFICANT, MATCHED)):
        raise ParseError("the answer names judge JSON fields but holds no decodable JSON "
                         "object (truncated or malformed output?)")
    return None


def _json_path(path: Sequence[object]) -> str:
    return ".".join(str(p) for p in path) or "<answer>"


def _schema_problems(obj: dict[str, Any], warnings: list[str]) -> list[str]:
    """Schema violations that no tolerance covers; tolerated ones become warnings here or
    during extraction (missing keys, readable non-integer counts, any score form)."""
    fatal = []
    for error in sorted(_VALIDATOR.iter_errors(obj), key=lambda e: _json_path(e.absolute_path)):
        path = list(error.absolute_path)
        where = _json_path(path)
        if error.validator == "required":
            continue  # reported per missing key during extraction
        if error.validator == "additionalProperties":
            warnings.append(f"{where}: ignored: {error.message}")
            continue
        if path and path[0] == OVERALL_SCORE:
            continue  # parse_score reads numbers, strings, percentages
        if error.validator == "type" and len(path) == 1 and error.instance is None:
            continue  # a top-level null counts as a missing part
        if error.validator == "type" and path and path[-1] == "count" \
                and parse_count(error.instance) is not None:
            continue  # e.g. "2" or "two"; warned during extraction
        fatal.append(f"{where}: {error.message}")
    return fatal


def _json_count(value: object, where: str, listed: Sequence[str], warnings: list[str],
                fatal: list[str]) -> int:
    if value is None:
        warnings.append(f"{where}: no count; the {len(listed)} listed item(s) are counted")
        return len(listed)
    count = parse_count(value)
    if count is None:  # already reported by the schema check
        return 0
    if not isinstance(value, int):
        warnings.append(f"{where}: count {value!r} read as {count}")
    if count < 0:
        fatal.append(f"{where}: count {count} is negative")
    _check_count_against_list(where, count, listed, warnings)
    return count


def _json_list(value: object) -> list[str]:
    return [str(item) for item in value] if isinstance(value, list) else []


def _json_error_section(obj: dict[str, Any], key: str, warnings: list[str],
                        fatal: list[str]) -> ErrorSection | None:
    section = obj.get(key)
    if section is None:
        warnings.append(f"missing {key!r} ({_SECTION_TITLES[key]}): the scores that need it "
                        "are unavailable")
        return None
    if not isinstance(section, dict):
        return None  # a type error, already fatal
    result: ErrorSection = {}
    for cat in CATEGORY_KEYS:
        entry = section.get(cat)
        where = f"{key}.{cat}"
        if entry is None:
            warnings.append(f"{where}: missing; counted as 0")
            result[cat] = CategoryErrors(0, [])
            continue
        if not isinstance(entry, dict):
            result[cat] = CategoryErrors(0, [])
            continue
        errors = _json_list(entry.get("errors"))
        if "errors" not in entry:
            warnings.append(f"{where}: no error list")
        count = _json_count(entry.get("count"), f"{where}.count", errors, warnings, fatal)
        result[cat] = CategoryErrors(count, errors)
    return result


def _assessment_from_json(obj: dict[str, Any], expect_score: bool) -> JudgeAssessment:
    warnings: list[str] = []
    fatal = _schema_problems(obj, warnings)

    explanation = obj.get(EXPLANATION)
    if explanation is None:
        warnings.append(f"missing {EXPLANATION!r}")
    significant = _json_error_section(obj, SIGNIFICANT, warnings, fatal)
    insignificant = _json_error_section(obj, INSIGNIFICANT, warnings, fatal)

    matched = obj.get(MATCHED)
    matched_count: int | None = None
    findings: list[str] = []
    if matched is None:
        warnings.append(f"missing {MATCHED!r} (Matched Findings): the scores that need it "
                        "are unavailable")
    elif isinstance(matched, dict):
        findings = _json_list(matched.get("findings"))
        if "findings" not in matched:
            warnings.append(f"{MATCHED}: no findings list")
        matched_count = _json_count(matched.get("count"), f"{MATCHED}.count", findings,
                                    warnings, fatal)

    if fatal:
        raise ParseError("judge JSON does not match the schema: " + "; ".join(fatal))

    score, score_warnings = parse_score(obj.get(OVERALL_SCORE))
    warnings.extend(score_warnings)
    if obj.get(OVERALL_SCORE) is None and expect_score:
        warnings.append(f"missing {OVERALL_SCORE!r}: the VERT score is unavailable")

    return JudgeAssessment(
        explanation=explanation if isinstance(explanation, str) else "",
        significant=significant,
        insignificant=insignificant,
        matched_count=matched_count,
        matched_findings=findings,
        overall_score=score,
        raw_format="json",
        parse_warnings=warnings,
    )


# --------------------------------------------------------------------------- section text

_HEADER_NAME = (r"explanation|(?:clinically[ \t]+)?insignificant[ \t]+errors"
                r"|(?:clinically[ \t]+)?significant[ \t]+errors|matched[ \t]+findings"
                r"|overall[ \t]+(?:accuracy[ \t]+)?score")
# "[Name]" with or without a colon, anywhere (brackets are distinctive enough for one-line
# answers), or "Name:" without brackets at a line start; markdown '#', '>' or bold around it is
# allowed. A bare "Name" without brackets or colon is prose, not a header.
_HEADER_RE = re.compile(
    rf"(?:(?:^[ \t>#]*)?[*_]*\[[ \t]*(?P<bracketed>{_HEADER_NAME})[ \t]*\][*_]*[ \t]*:?"
    rf"|^[ \t>#*_]*(?P<plain>{_HEADER_NAME})[*_]*[ \t]*:)[ \t*_]*",
    re.I | re.M)

_KIND_TITLES = {
    "explanation": "[Explanation]",
    "significant": "[Clinically Significant Errors]",
    "insignificant": "[Clinically Insignificant Errors]",
    "matched": "[Matched Findings]",
    "score": "[Overall Accuracy Score]",
}


def _header_kind(name: str) -> str:
    name = name.lower()
    if name.startswith("explanation"):
        return "explanation"
    if "insignificant" in name:
        return "insignificant"
    if "significant" in name:
        return "significant"
    if name.startswith("matched"):
        return "matched"
    return "score"


def split_sections(text: str, warnings: list[str]) -> dict[str, str]:
    """Section kind -> body; a body runs to the next header (blank lines are not needed).
    A repeated header keeps its last occurrence, since models that echo the template
    answer after it."""
    headers = list(_HEADER_RE.finditer(text))
    sections: dict[str, str] = {}
    for i, header in enumerate(headers):
        kind = _header_kind(header["bracketed"] or header["plain"])
        end = headers[i + 1].start() if i + 1 < len(headers) else len(text)
        if kind in sections:
            warnings.append(f"{_KIND_TITLES[kind]} appears more than once; the last is used")
        sections[kind] = text[header.end():end].strip()
    return sections


_LINE_START_MARK_RE = re.compile(r"^[ \t>*•\-]*\(?([a-f])\)[ \t]*", re.I | re.M)
_INLINE_MARK_RE = re.compile(r"(?:^|(?<=\s))\(([a-f])\)[ \t]*", re.I)
_DIGIT_MARK_RE = re.compile(r"^[ \t>*•\-]*\(([1-6])\)[ \t]*", re.M)
_ZERO_WORDS = frozenset(("no", "none", "nil", "n/a", "na", "zero"))
# A count: digits or a number word, then either a noun ("errors", "matched findings") or a
# separator / end of line. "No pneumothorax" is therefore *not* read as a count of 0.
_COUNT_RE = re.compile(
    r"^\s*(?P<count>\d+|[a-z]+(?:/[a-z]+)?)"
    r"(?:[ \t]+(?:clinically[ \t]+)?(?:(?:in)?significant[ \t]+)?"
    r"(?:matched[ \t]+findings?|errors?|findings?|matches?)\b[ \t]*[.:;,)\-–—]?"
    r"|[ \t]*(?:[.:;,)\-–—]|(?=[(\n])|$))"
    r"[ \t]*(?P<rest>.*)$",
    re.I | re.S)


def _count_and_rest(text: str) -> tuple[int | None, str, bool]:
    """(count or None, the text after it, whether the count was a "no"-like word)."""
    match = _COUNT_RE.match(text)
    if match is None:
        return None, text, False
    return parse_count(match["count"]), match["rest"], match["count"].lower() in _ZERO_WORDS


def _marks_to_lines(marks: list[tuple[str, re.Match[str]]], body: str,
                    one_line: bool) -> dict[str, str]:
    lines: dict[str, str] = {}
    for i, (key, mark) in enumerate(marks):
        end = marks[i + 1][1].start() if i + 1 < len(marks) else len(body)
        text = body[mark.end():end]
        lines.setdefault(key, (text.split("\n", 1)[0] if one_line else text).strip())
    return lines


def _is_one_line_layout(marks: list[tuple[str, re.Match[str]]], lines: dict[str, str]) -> bool:
    """Inline markers form a one-line answer only when they run a, b, c, ... in order and
    every segment starts with a readable count: an "(a)" quoted inside another line's error
    text breaks the order or the count, and must not be read as a category."""
    keys = [key for key, _ in marks]
    if keys != sorted(set(keys)):
        return False
    return all(_read_category_line(line)[0] is not None for line in lines.values())


def _category_lines(body: str) -> dict[str, str]:
    """Category key -> the text after its "(x)" marker, up to the next marker.

    GREEN's layout first: markers at line starts ("(a)" or "a)"), one line each; it is
    used whenever it finds two categories or more, so a missing line stays missing (count 0,
    as in GREEN) even when another line's error text quotes "(a)". Otherwise a one-line
    answer with "(a)" ... "(f)" anywhere in order, then whatever line-start markers there
    are, then GREEN's fallback "(1)"-"(6)" at line starts. A repeated marker keeps its first
    occurrence.
    """
    line_marks = [(m[1].lower(), m) for m in _LINE_START_MARK_RE.finditer(body)]
    if len({key for key, _ in line_marks}) >= 2:
        return _marks_to_lines(line_marks, body, True)
    inline_marks = [(m[1].lower(), m) for m in _INLINE_MARK_RE.finditer(body)]
    inline = _marks_to_lines(inline_marks, body, False)
    if len(inline) > len({key for key, _ in line_marks}) \
            and _is_one_line_layout(inline_marks, inline):
        return inline
    if line_marks:
        return _marks_to_lines(line_marks, body, True)
    digit_marks = [(CATEGORY_KEYS[int(m[1]) - 1], m) for m in _DIGIT_MARK_RE.finditer(body)]
    return _marks_to_lines(digit_marks, body, True)


def _read_category_line(line: str) -> tuple[int | None, str, bool]:
    """GREEN's "<type>: <count>. <errors>", where the count follows the first colon that
    has one (the type text may itself hold a colon, as GREEN's reader allows), else a line
    that starts with its count."""
    for colon in re.finditer(":", line):
        count, rest, zero_word = _count_and_rest(line[colon.end():])
        if count is not None:
            return count, rest, zero_word
    return _count_and_rest(line)


def _error_section(kind: str, body: str | None, warnings: list[str]) -> ErrorSection | None:
    title = _KIND_TITLES[kind]
    if body is None:
        warnings.append(f"missing {title} section: the scores that need it are unavailable")
        return None
    lines = _category_lines(body)
    if not lines:
        if body and _NOTHING_RE.match(body):
            return {key: CategoryErrors(0, []) for key in CATEGORY_KEYS}
        warnings.append(f"{title} has no (a)-(f) lines and does not say there are none: "
                        "the scores that need it are unavailable")
        return None
    section: ErrorSection = {}
    for key in CATEGORY_KEYS:
        if key not in lines:
            warnings.append(f"{title} ({key}) line missing; counted as 0")
            section[key] = CategoryErrors(0, [])
            continue
        line = lines[key]
        count, rest, zero_word = _read_category_line(line)
        if count is None:
            warnings.append(f"{title} ({key}): cannot read a count in {line[:80]!r}; "
                            "the scores that need this section are unavailable")
            return None
        errors = [] if zero_word else _split_items(rest)  # "No errors were found": commentary
        _check_count_against_list(f"{title} ({key})", count, errors, warnings)
        section[key] = CategoryErrors(count, errors)
    return section


def _matched_section(body: str | None, warnings: list[str]) -> tuple[int | None, list[str]]:
    title = _KIND_TITLES["matched"]
    if body is None:
        warnings.append(f"missing {title} section: the scores that need it are unavailable")
        return None, []
    paragraph = re.split(r"\n[ \t]*\n", body, maxsplit=1)[0]  # later paragraphs: closing prose
    count, rest, zero_word = _count_and_rest(paragraph)
    if count is None:
        warnings.append(f"{title}: cannot read a count in {paragraph.strip()[:80]!r}; "
                        "the scores that need it are unavailable")
        return None, []
    findings = [] if zero_word else _split_items(rest)
    _check_count_against_list(title, count, findings, warnings)
    return count, findings


def _assessment_from_sections(text: str, expect_score: bool) -> JudgeAssessment:
    warnings: list[str] = []
    sections = split_sections(text, warnings)
    if not sections:
        raise ParseError("no judge answer found: neither a JSON object with judge fields nor "
                         "any [Explanation] / [Clinically Significant Errors] / "
                         "[Clinically Insignificant Errors] / [Matched Findings] / "
                         "[Overall Accuracy Score] section")
    if not set(sections) - {"explanation"}:
        raise ParseError("the answer has an [Explanation] but no error, matched-findings or "
                         "score section")
    if "explanation" not in sections:
        warnings.append("missing [Explanation] section")
    significant = _error_section("significant", sections.get("significant"), warnings)
    insignificant = _error_section("insignificant", sections.get("insignificant"), warnings)
    matched_count, findings = _matched_section(sections.get("matched"), warnings)

    score: float | None = None
    if "score" in sections:
        score, score_warnings = parse_score(sections["score"])
        warnings.extend(score_warnings)
    elif expect_score:
        warnings.append("missing [Overall Accuracy Score] section: the VERT score is "
                        "unavailable")

    return JudgeAssessment(
        explanation=sections.get("explanation", ""),
        significant=significant,
        insignificant=insignificant,
        matched_count=matched_count,
        matched_findings=findings,
        overall_score=score,
        raw_format="sections",
        parse_warnings=warnings,
    )


# --------------------------------------------------------------------------- entry point

def parse_assessment(text: str, *, expect_score: bool = True) -> JudgeAssessment:
    """Parse one judge answer (JSON tried first, then section text).

    ``expect_score`` says whether the prompt asked for an overall score (every variant but
    ``green``); it only decides whether a missing score is worth a warning.
    """
    cleaned = clean_response(text)
    obj = find_json_answer(cleaned)
    if obj is not None:
        return _assessment_from_json(obj, expect_score)
    return _assessment_from_sections(cleaned, expect_score)

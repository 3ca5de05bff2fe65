"""A finding's size, read as a value and not as words.

"4.1 x 3.2 cm", "41 x 32 mm", "41 mm x 32 mm" and "41x32mm" are one measurement: each is read as its
dimensions in millimetres, largest first (volumes in ml apart). Two measurements are the same when every
dimension they share agrees within the tolerance: 1.5 mm or 10 % of the larger value, whichever
is larger (Lung-RADS calls a solid nodule grown past 1.5 mm; 10 % covers the rounding of a unit
conversion and the spread between two readers). Past it, the sizes differ: a size change is a
different statement, as a severity change is. An angle ("kyphosis of 14 degrees", "cup
inclination ~45°") is a measurement of its own kind, compared with the same rule.

A size said to be the earlier one ("9 x 7 mm, previously 6 x 5 mm", "now 1.5 cm (was 0.6 cm)",
"grown from 6 mm to 9 mm") is history, not the finding's size: two reports that agree on the
earlier size and not on today's disagree.
"""
from __future__ import annotations

import re

# ("mm" | "ml" | "deg", dimensions largest first, each (low, high): equal for a value, apart for a
# range such as "2-4 mm")
Measurement = tuple[str, tuple[tuple[float, float], ...]]
_NUMBER = r"\d+(?:\.\d+)?"
_VALUE = rf"{_NUMBER}(?:\s*(?:-|\u2013|to)\s*{_NUMBER})?"  # a value or a range
# "x" or "by" between dimensions, after an axis's label when one is written ("68 mm CC by 42 mm
# transverse", "2.4 cm (CC) x 2.0 cm (TR)")
_AXIS = r"(?:\s*\(?(?:cc|ap|tr|trv|si|ll|ml|trans(?:verse)?|craniocaudal|anteroposterior|long(?:itudinal)?|sagittal)\)?)?"
_TIMES = rf"{_AXIS}\s*(?:x|\u00d7|\*|by)\s*"
_LENGTH_UNIT = r"\s*(?:mm|cm)\b"  # "45 mm x 30 mm": a unit after each dimension, the last one's for all
_SIZE_RE = re.compile(
    rf"(?<![\d.])({_VALUE}(?:{_LENGTH_UNIT})?(?:{_TIMES}{_VALUE}(?:{_LENGTH_UNIT})?)*)\s*"
    r"((?:mm|cm|ml|cc|millimet(?:er|re)s?|centimet(?:er|re)s?|degrees?)\b|\u00b0)", re.IGNORECASE)
_DIMENSION_UNIT_RE = re.compile(r"\s*(mm|cm)\s*$", re.IGNORECASE)  # a dimension's own unit
_DIM_SPLIT_RE = re.compile(_TIMES, re.IGNORECASE)
_RANGE_SPLIT_RE = re.compile(r"\s*(?:-|\u2013|to)\s*", re.IGNORECASE)
_TO_MM = {"mm": 1.0, "cm": 10.0, "ml": 1.0, "cc": 1.0, "deg": 1.0}
_KIND = {"mm": "mm", "cm": "mm", "ml": "ml", "cc": "ml", "deg": "deg"}
# Words just before a size that make it the earlier one; "from" only in "from <size> to".
_PRIOR_BEFORE_RE = re.compile(
    r"(?:\b(?:previously|formerly|prior|before|then|baseline|versus|vs\.?)|[(,;]\s*was)"
    r"\s*(?:(?:about|approximately|approx\.?|measuring|~)\s*)?$")
_FROM_BEFORE_RE = re.compile(r"\bfrom\s*(?:(?:about|approximately|~)\s*)?$")
_TO_AFTER_RE = re.compile(r"\s*to\b")
ABSOLUTE_TOLERANCE_MM = 1.5
RELATIVE_TOLERANCE = 0.10


def size_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _SIZE_RE.finditer(text)]


def measurements(text: str) -> tuple[Measurement, ...]:
    """The measurements of ``text`` in millimetres (ml for a volume, degrees for an angle): the
    finding's size now, leaving out a size said to be the earlier one when another is given."""
    now: list[Measurement] = []
    earlier: list[Measurement] = []
    for m in _SIZE_RE.finditer(text):
        (earlier if _said_before(text, m) else now).append(_measurement(m))
    return tuple(now or earlier)


def _said_before(text: str, m: re.Match[str]) -> bool:
    """The size is the earlier one: "previously 6 mm", "(was 6 mm)", "from 6 mm to 9 mm"."""
    before = text[max(0, m.start() - 24):m.start()]
    return bool(_PRIOR_BEFORE_RE.search(before)
                or (_FROM_BEFORE_RE.search(before) and _TO_AFTER_RE.match(text, m.end())))


def _measurement(m: re.Match[str]) -> Measurement:
    unit = m.group(2).lower()
    own_unit = _DIMENSION_UNIT_RE.search(m.group(1)) if unit == "cc" else None
    if own_unit:
        unit = own_unit.group(1).lower()  # "68 mm CC": the length's unit, then craniocaudal
    unit = ("mm" if unit.startswith("millimet") else "cm" if unit.startswith("centimet")
            else "deg" if unit.startswith("degree") or unit == "\u00b0" else unit)
    factor = _TO_MM[unit]
    dims = []
    for written in _DIM_SPLIT_RE.split(m.group(1)):
        own = _DIMENSION_UNIT_RE.search(written)
        scale, value = (_TO_MM[own.group(1).lower()], written[:own.start()]) if own else (factor, written)
        ends = [float(v) * scale for v in _RANGE_SPLIT_RE.split(value.strip())]
        dims.append((min(ends), max(ends)))
    return _KIND[unit], tuple(sorted(dims, key=lambda d: d[1], reverse=True))


def same_value(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Two values (or ranges) that agree within the tolerance: the gap between them is at most
    1.5 mm or 10 % of the larger, whichever is larger."""
    gap = max(a[0] - b[1], b[0] - a[1], 0.0)
    return gap <= max(ABSOLUTE_TOLERANCE_MM, RELATIVE_TOLERANCE * max(a[1], b[1]))


def same_measurement(a: Measurement, b: Measurement) -> bool:
    """Same kind, and every dimension both give agrees within the tolerance."""
    return a[0] == b[0] and all(same_value(x, y) for x, y in zip(a[1], b[1], strict=False))


def sizes_differ(a: tuple[Measurement, ...], b: tuple[Measurement, ...]) -> bool:
    """Both give a measurement of one kind (a length, a volume, an angle), and none of that kind
    in one agrees with one of the other."""
    if not a or not b:
        return False  # the usual case, asked of every candidate pair: tested first
    if len(a) == 1 and len(b) == 1:
        return a[0][0] == b[0][0] and not same_measurement(a[0], b[0])
    kinds = {x[0] for x in a} & {y[0] for y in b}
    return any(not any(same_measurement(x, y) for x in a if x[0] == kind for y in b if y[0] == kind)
               for kind in kinds)

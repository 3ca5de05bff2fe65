"""A finding's size, read as a value and not as words.

"4.1 x 3.2 cm", "41 x 32 mm", "41 mm x 32 mm" and "41x32mm" are one measurement: each is read as its
dimensions in millimetres, largest first (volumes in ml apart). Two measurements are the same when every
dimension they share agrees within the tolerance: 1.5 mm or 10 % of the larger value, whichever
is larger (Lung-RADS calls a solid nodule grown past 1.5 mm; 10 % covers the rounding of a unit
conversion and the spread between two readers). Past it, the sizes differ: a size change is a
different statement, as a severity change is.
"""
from __future__ import annotations

import re

# ("mm" | "ml", dimensions largest first, each (low, high): equal for a value, apart for a
# range such as "2-4 mm")
Measurement = tuple[str, tuple[tuple[float, float], ...]]
_NUMBER = r"\d+(?:\.\d+)?"
_VALUE = rf"{_NUMBER}(?:\s*(?:-|\u2013|to)\s*{_NUMBER})?"  # a value or a range
_TIMES = r"\s*(?:x|\u00d7|\*|by)\s*"
_LENGTH_UNIT = r"\s*(?:mm|cm)\b"  # "45 mm x 30 mm": a unit after each dimension, the last one's for all
_SIZE_RE = re.compile(
    rf"(?<![\d.])({_VALUE}(?:{_LENGTH_UNIT})?(?:{_TIMES}{_VALUE}(?:{_LENGTH_UNIT})?)*)\s*"
    r"(mm|cm|ml|cc|millimet(?:er|re)s?|centimet(?:er|re)s?)\b", re.IGNORECASE)
_DIMENSION_UNIT_RE = re.compile(r"\s*(mm|cm)\s*$", re.IGNORECASE)  # a dimension's own unit
_DIM_SPLIT_RE = re.compile(_TIMES, re.IGNORECASE)
_RANGE_SPLIT_RE = re.compile(r"\s*(?:-|\u2013|to)\s*", re.IGNORECASE)
_TO_MM = {"mm": 1.0, "cm": 10.0, "ml": 1.0, "cc": 1.0}
ABSOLUTE_TOLERANCE_MM = 1.5
RELATIVE_TOLERANCE = 0.10


def size_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _SIZE_RE.finditer(text)]


def measurements(text: str) -> tuple[Measurement, ...]:
    """Every measurement of ``text``, in millimetres (or ml for a volume)."""
    out = []
    for m in _SIZE_RE.finditer(text):
        unit = m.group(2).lower()
        unit = "mm" if unit.startswith("millimet") else "cm" if unit.startswith("centimet") else unit
        factor = _TO_MM[unit]
        dims = []
        for written in _DIM_SPLIT_RE.split(m.group(1)):
            own = _DIMENSION_UNIT_RE.search(written)
            scale, value = (_TO_MM[own.group(1).lower()], written[:own.start()]) if own else (factor, written)
            ends = [float(v) * scale for v in _RANGE_SPLIT_RE.split(value.strip())]
            dims.append((min(ends), max(ends)))
        out.append(("ml" if unit in ("ml", "cc") else "mm",
                    tuple(sorted(dims, key=lambda d: d[1], reverse=True))))
    return tuple(out)


def same_value(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Two values (or ranges) that agree within the tolerance: the gap between them is at most
    1.5 mm or 10 % of the larger, whichever is larger."""
    gap = max(a[0] - b[1], b[0] - a[1], 0.0)
    return gap <= max(ABSOLUTE_TOLERANCE_MM, RELATIVE_TOLERANCE * max(a[1], b[1]))


def same_measurement(a: Measurement, b: Measurement) -> bool:
    """Same kind, and every dimension both give agrees within the tolerance."""
    return a[0] == b[0] and all(same_value(x, y) for x, y in zip(a[1], b[1], strict=False))


def sizes_differ(a: tuple[Measurement, ...], b: tuple[Measurement, ...]) -> bool:
    """Both give a size, and no measurement of one agrees with one of the other."""
    return bool(a and b) and not any(same_measurement(x, y) for x in a for y in b)

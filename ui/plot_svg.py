"""A panel's plotly figure as static inline SVG, for the self-contained HTML report.

The report must open offline and carry no script; plotly.js inlined would add 4.8 MB to
every report, and kaleido (plotly's image export) is not installed. The panels draw two kinds of
trace, bars (CREPE) and scatter lines, markers and labels (the RadSEM alignment graph), so this
module draws exactly those from the figure's own data and layout; each mark's hover text becomes
an SVG ``<title>`` (a tooltip in any browser). Another trace type raises ``ValueError`` naming
it, and the report says the plot could not be drawn instead of leaving it out silently.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go
from plotly.colors import sample_colorscale

from radscope.ui.views.common import esc

WIDTH = 900
FONT = 12
TEXT = "currentColor"  # the svg's colour: the theme's text colour in the report
AXIS = "#888"
DASHES = {"dot": "2,3", "dash": "6,4", "dashdot": "6,3,2,3"}


def _lines(text: Any) -> list[str]:
    """plotly's little HTML (``<br>``, ``<b>``, ``<i>``) as plain lines."""
    parts = re.split(r"<br\s*/?>", str(text or ""))
    return [re.sub(r"<[^>]+>", "", p) for p in parts]


def _text(x: float, y: float, text: Any, anchor: str = "middle", size: int = FONT,
          colour: str = TEXT, bold: bool = False, middle: bool = True) -> str:
    lines = _lines(text)
    first = -(len(lines) - 1) * 0.6 if middle else 0.0
    spans = "".join(f"<tspan x='{x:.1f}' dy='{(first if i == 0 else 1.2):.2f}em'>{esc(line)}</tspan>"
                    for i, line in enumerate(lines))
    weight = " font-weight='bold'" if bold or "<b>" in str(text) else ""
    return (f"<text x='{x:.1f}' y='{y:.1f}' text-anchor='{anchor}' dominant-baseline='middle' "
            f"font-size='{size}' fill='{colour}'{weight}>{spans}</text>")


def _title(hover: Any) -> str:
    return f"<title>{esc(chr(10).join(_lines(hover)))}</title>" if hover else ""


def _at(values: Any, i: int, default: Any = None) -> Any:
    """Element ``i`` of a per-point array, or the single value given for every point."""
    if values is None:
        return default
    if isinstance(values, (list, tuple)) or hasattr(values, "tolist"):
        seq = list(values)
        return seq[i] if i < len(seq) else default
    return values


class _Frame:
    """Data to pixel coordinates inside the plot area."""

    def __init__(self, fig: go.Figure, xs: Sequence[float], ys: Sequence[float]) -> None:
        layout = fig.layout
        margin = layout.margin
        self.height = int(layout.height or 450)
        self.left = 60 if margin.l is None else int(margin.l)
        self.right = WIDTH - (30 if margin.r is None else int(margin.r))
        self.top = (60 if margin.t is None else int(margin.t)) + (10 if layout.title.text else 0)
        self.bottom = self.height - (50 if margin.b is None else int(margin.b))
        self.x0, self.x1 = self._range(layout.xaxis.range, xs)
        self.y0, self.y1 = self._range(layout.yaxis.range, ys)

    @staticmethod
    def _range(given: Any, values: Sequence[float]) -> tuple[float, float]:
        if given is not None:
            return float(given[0]), float(given[1])
        low, high = (min(values), max(values)) if values else (0.0, 1.0)
        pad = (high - low) * 0.08 or 0.5
        return low - pad, high + pad

    def x(self, value: float) -> float:
        return self.left + (value - self.x0) / ((self.x1 - self.x0) or 1) * (self.right - self.left)

    def y(self, value: float) -> float:
        return self.bottom - (value - self.y0) / ((self.y1 - self.y0) or 1) * (self.bottom - self.top)


def _bars(fig: go.Figure, trace: Any) -> tuple[_Frame, str]:
    labels = [str(v) for v in trace.x]
    values = [float(v) for v in trace.y]
    frame = _Frame(fig, [0.0, float(len(labels))], [0.0, *values])
    if fig.layout.yaxis.range is None:
        frame.y0, frame.y1 = 0.0, (max(values) if values and max(values) > 0 else 1.0) * 1.15
    slot = (frame.right - frame.left) / max(1, len(labels))
    out = []
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        x = frame.left + slot * i + slot * 0.15
        top, base = frame.y(value), frame.y(0.0)
        colour = _at(trace.marker.color, i, "#4c78a8")
        hover = f"{label}: {_at(trace.customdata, i, '')} {value:.3f}"
        out.append(f"<g class='rs-bar' data-label='{esc(label)}' data-value='{value:.6g}'>"
                   f"<rect x='{x:.1f}' y='{top:.1f}' width='{slot * 0.7:.1f}' "
                   f"height='{max(0.0, base - top):.1f}' fill='{esc(colour)}'>{_title(hover)}</rect>"
                   + (_text(x + slot * 0.35, top - 9, _at(trace.text, i, "")) if trace.text is not None else "")
                   + _text(x + slot * 0.35, frame.bottom + 14, label) + "</g>")
    ticks = [frame.y0 + (frame.y1 - frame.y0) * k / 4 for k in range(5)]
    axis = (f"<line x1='{frame.left}' y1='{frame.bottom}' x2='{frame.right}' y2='{frame.bottom}' "
            f"stroke='{AXIS}'/><line x1='{frame.left}' y1='{frame.top}' x2='{frame.left}' "
            f"y2='{frame.bottom}' stroke='{AXIS}'/>"
            + "".join(_text(frame.left - 6, frame.y(t), f"{t:.2g}", "end", 10) for t in ticks)
            + _text((frame.left + frame.right) / 2, frame.bottom + 34, fig.layout.xaxis.title.text or "")
            + f"<g transform='rotate(-90 9 {(frame.top + frame.bottom) / 2:.1f})'>"
            + _text(9, (frame.top + frame.bottom) / 2, fig.layout.yaxis.title.text or "") + "</g>")
    return frame, axis + "".join(out)


def _marker(kind: str, x: float, y: float, size: float, colour: str, hover: Any) -> str:
    r = size / 2
    if kind == "x":
        d = f"M{x - r:.1f},{y - r:.1f}L{x + r:.1f},{y + r:.1f}M{x - r:.1f},{y + r:.1f}L{x + r:.1f},{y - r:.1f}"
        return f"<path d='{d}' stroke='{colour}' stroke-width='3'>{_title(hover)}</path>"
    return (f"<circle cx='{x:.1f}' cy='{y:.1f}' r='{r:.1f}' fill='{colour}' stroke='white'>"
            f"{_title(hover)}</circle>")


def _marker_colours(trace: Any, n: int) -> list[str]:
    colour = trace.marker.color
    if isinstance(colour, (list, tuple)) and colour and isinstance(colour[0], (int, float)):
        low = trace.marker.cmin if trace.marker.cmin is not None else min(colour)
        high = trace.marker.cmax if trace.marker.cmax is not None else max(colour)
        # plotly keeps a validated scale as a tuple of tuples, which sample_colorscale misreads
        scale = [list(step) for step in trace.marker.colorscale] if trace.marker.colorscale else "Viridis"
        return [sample_colorscale(scale, [min(1.0, max(0.0, (float(v) - low) / ((high - low) or 1)))])[0]
                for v in colour]
    return [str(_at(colour, i, "#2f6fb3")) for i in range(n)]


def _scatter(frame: _Frame, trace: Any) -> str:
    xs, ys = [float(v) for v in trace.x], [float(v) for v in trace.y]
    mode = trace.mode or "lines+markers"
    out = []
    if "lines" in mode and len(xs) > 1:
        out.append(_polyline(frame, trace, xs, ys))
    if "markers" in mode:
        colours = _marker_colours(trace, len(xs))
        for i, (x, y) in enumerate(zip(xs, ys, strict=True)):
            out.append(_marker(str(_at(trace.marker.symbol, i, "circle")), frame.x(x), frame.y(y),
                               float(_at(trace.marker.size, i, 8)), colours[i],
                               _at(trace.hovertext, i, "")))
    if "text" in mode and trace.text is not None:
        out.extend(_point_labels(frame, trace, xs, ys))
    return f"<g class='rs-trace' data-name='{esc(trace.name or '')}'>{''.join(out)}</g>"


def _polyline(frame: _Frame, trace: Any, xs: list[float], ys: list[float]) -> str:
    points = " ".join(f"{frame.x(x):.1f},{frame.y(y):.1f}" for x, y in zip(xs, ys, strict=True))
    dash = DASHES.get(trace.line.dash or "", "")
    return (f"<polyline class='rs-line' points='{points}' fill='none' "
            f"stroke='{esc(trace.line.color or AXIS)}' stroke-width='{trace.line.width or 2:.1f}'"
            + (f" stroke-dasharray='{dash}'" if dash else "") + "/>")


def _point_labels(frame: _Frame, trace: Any, xs: list[float], ys: list[float]) -> list[str]:
    """Each point's text, left of it, right of it or centred (plotly's ``textposition``)."""
    position = trace.textposition or "middle center"
    anchor, dx = (("end", -10) if "left" in position else ("start", 10) if "right" in position
                  else ("middle", 0))
    colour = trace.textfont.color or TEXT
    return [_text(frame.x(x) + dx, frame.y(y), _at(trace.text, i, ""), anchor, 11, colour)
            for i, (x, y) in enumerate(zip(xs, ys, strict=True))]


def _legend(fig: go.Figure, y: float) -> str:
    entries = [t for t in fig.data if t.type == "scatter" and t.name and t.showlegend is not False
               and "markers" in (t.mode or "")]
    out, x = [], 20.0
    for trace in entries:
        colour = _marker_colours(trace, 1)[0]
        out.append(_marker(str(_at(trace.marker.symbol, 0, "circle")), x, y, 10, colour, trace.name)
                   + _text(x + 10, y, trace.name, "start", 11))
        x += 30 + 7 * len(trace.name)
    return "".join(out)


def _plot_area(fig: go.Figure, scatters: list[Any]) -> tuple[_Frame, str]:
    """The frame (from the first bar trace, else from every scatter point) and the drawn
    traces with the figure's annotations."""
    bars = [t for t in fig.data if t.type == "bar"]
    body = ""
    if bars:
        frame, body = _bars(fig, bars[0])
    else:
        frame = _Frame(fig, [float(v) for t in scatters for v in t.x], [float(v) for t in scatters for v in t.y])
    body += "".join(_scatter(frame, t) for t in scatters)
    for note in fig.layout.annotations or ():
        y = (frame.top - 10 if note.yref == "paper" and (note.y or 0) >= 1 else frame.y(float(note.y or 0)))
        body += _text(frame.x(float(note.x or 0)), y, note.text, "middle", FONT)
    return frame, body


def figure_svg(fig: go.Figure, label: str = "") -> str:
    """The figure as an ``<svg>`` element (scales to its container's width)."""
    unknown = sorted({t.type for t in fig.data} - {"bar", "scatter"})
    if unknown:
        raise ValueError(f"no offline drawing for plotly trace type(s) {', '.join(unknown)}")
    scatters = [t for t in fig.data if t.type == "scatter"]
    frame, body = _plot_area(fig, scatters)
    legend = _legend(fig, frame.height - 8) if fig.layout.showlegend is not False and scatters else ""
    title = _text(WIDTH / 2, 20, fig.layout.title.text, "middle", 14, bold=True) if fig.layout.title.text else ""
    height = frame.height + (16 if legend else 0)
    return (f"<svg class='rs-plot' role='img' aria-label='{esc(label or fig.layout.title.text or 'plot')}' "
            f"xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {WIDTH} {height}' width='100%' "
            f"font-family='system-ui, sans-serif' style='color: var(--rs-plot-text, #1f2937)'>"
            f"{title}{body}{legend}</svg>")

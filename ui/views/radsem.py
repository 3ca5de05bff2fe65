"""RadSEM panel: the alignment graph (reference atomic sentences left, candidate right, edges
coloured by pair weight), unmatched sentences highlighted, the class F1s and the final score.

networkx holds the bipartite graph (nodes with their status, an edge per tagged pair); plotly
draws it, one line per edge so each can carry its own colour, plus a marker at each edge's
middle that carries the hover label and the colour bar.
"""
from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import networkx as nx
import plotly.graph_objects as go
from plotly.colors import sample_colorscale

from radscope.engine.metrics.radsem.extract import RadsemExtraction
from radscope.engine.metrics.radsem.score import ABNORMAL, NORMAL, RadsemScore
from radscope.ui.views import PanelView, register_view
from radscope.ui.views.common import PLOT_TEXT_PX, esc, find_section, fmt, html_list, html_table, themed

SCORE_KEYS = ("abnormal", "normal", "pairs")
EXTRACTION_KEYS = ("ref_sentences", "gen_sentences", "tags")
COLORSCALE = "Viridis"
NODE_COLOURS = {"matched": "#2f6fb3", "unmatched": "#d62728", "not tagged": "#9aa0a6"}
RELATION_FIELDS = ("anatomical_relationship", "asserted_abnormality_relationship",
                   "negated_abnormality_relationship", "details_of_abnormality_relationship")


@dataclass
class Node:
    side: str  # "Ref" | "Gen"
    index: int
    sentence: str
    status: str  # matched | unmatched | not tagged
    normality: str = ""


def _plot_text(text: str, width: int = 30, max_lines: int = 4) -> str:
    """Wrap a sentence for a node label; plotly reads a little HTML, so angle brackets go."""
    safe = text.replace("<", "‹").replace(">", "›")
    lines = textwrap.wrap(safe, width) or [""]
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = lines[-1][: width - 1] + "…"
    return "<br>".join(lines)


def _add_sentence(sentences: list[str], text: str) -> None:
    key = text.strip()
    if key and key not in {s.strip() for s in sentences}:
        sentences.append(key)


def alignment_graph(score: RadsemScore, extraction: RadsemExtraction | None) -> nx.Graph:
    """Nodes ("Ref", i) / ("Gen", j) in report order with their status; an edge per tagged pair."""
    ref, gen, unmatched = _sentences(score, extraction)
    counted = {(p.ref_sentence, "Ref") for p in score.pairs if p.counted} | \
              {(p.gen_sentence, "Gen") for p in score.pairs if p.counted}
    graph = nx.Graph()
    for side, sentences in (("Ref", ref), ("Gen", gen)):
        for i, sentence in enumerate(sentences):
            key = sentence.strip()
            if (side, key) in unmatched:
                status, normality = "unmatched", unmatched[(side, key)]
            elif (key, side) in counted:
                status, normality = "matched", ""
            else:
                status, normality = "not tagged", ""
            graph.add_node((side, i), data=Node(side, i, sentence, status, normality),
                           bipartite=0 if side == "Ref" else 1)
    _add_pairs(graph, score)
    return graph


def _sentences(score: RadsemScore, extraction: RadsemExtraction | None
               ) -> tuple[list[str], list[str], dict[tuple[str, str], str]]:
    """Each side's sentences in report order (the extraction's, then any a pair or an
    unmatched item adds), and the unmatched ones' normality by (side, sentence)."""
    ref = list(extraction.ref_sentences) if extraction else []
    gen = list(extraction.gen_sentences) if extraction else []
    unmatched: dict[tuple[str, str], str] = {}
    if extraction:
        for item in extraction.tags.unmatched_sentences:
            if item.sentence_is_from in ("Ref", "Gen"):
                unmatched[(item.sentence_is_from, item.sentence.strip())] = item.normality
                _add_sentence(ref if item.sentence_is_from == "Ref" else gen, item.sentence)
    for pair in score.pairs:
        _add_sentence(ref, pair.ref_sentence)
        _add_sentence(gen, pair.gen_sentence)
    return ref, gen, unmatched


def _add_pairs(graph: nx.Graph, score: RadsemScore) -> None:
    """An edge per tagged pair whose two sentences are nodes; a counted pair makes its ends
    matched, and lends them its normality where they have none."""
    index = {(d["data"].side, d["data"].sentence.strip()): n for n, d in graph.nodes(data=True)}
    for pair in score.pairs:
        a, b = index.get(("Ref", pair.ref_sentence)), index.get(("Gen", pair.gen_sentence))
        if a is not None and b is not None:
            graph.add_edge(a, b, pair=pair)
            for node in (a, b):
                if pair.counted and graph.nodes[node]["data"].status == "not tagged":
                    graph.nodes[node]["data"].status = "matched"
                if not graph.nodes[node]["data"].normality:
                    graph.nodes[node]["data"].normality = pair.normality


def _positions(graph: nx.Graph) -> dict[Any, tuple[float, float]]:
    """Two columns in report order, each spread over the same height (sentence 1 on top).

    networkx's ``bipartite_layout`` orders each column through a set, which loses the report
    order that a reader follows, so the columns are placed here instead."""
    pos: dict[Any, tuple[float, float]] = {}
    for x, side in ((0.0, "Ref"), (1.0, "Gen")):
        column = sorted((n for n in graph if n[0] == side), key=lambda n: n[1])
        for i, node in enumerate(column):
            pos[node] = (x, 0.0 if len(column) == 1 else -i / (len(column) - 1))
    return pos


def _relations(extraction: RadsemExtraction | None, index: int) -> str:
    """The model's relation tags of one pair, for its hover label."""
    if extraction is None or not 0 <= index < len(extraction.tags.pairs):
        return ""
    tagged = extraction.tags.pairs[index]
    parts = [f"{field.split('_')[0]}: {getattr(tagged, field)}" for field in RELATION_FIELDS
             if getattr(tagged, field)]
    return ("<br>".join(parts) + "<br>") if parts else ""


def _add_edges(fig: go.Figure, graph: nx.Graph, pos: dict[Any, tuple[float, float]],
               extraction: RadsemExtraction | None) -> None:
    """A line per pair, coloured by its weight (dotted when not counted), and a marker at its
    middle that carries the pair's details on hover."""
    mids_x, mids_y, mids_w, mids_text, mids_sentences = [], [], [], [], []
    for a, b, data in graph.edges(data=True):
        pair = data["pair"]
        (x0, y0), (x1, y1) = pos[a], pos[b]
        if a[0] == "Gen":
            (x0, y0), (x1, y1) = (x1, y1), (x0, y0)
        hover = (f"<b>weight {pair.weight:.3f}</b> ({pair.normality})<br>"
                 + _relations(extraction, pair.index)
                 + f"part-whole relations: {pair.part_whole} · flow used: {pair.flow:.3f}"
                 + ("" if pair.counted else f"<br><i>not counted: {esc(pair.reason)}</i>"))
        colour = sample_colorscale(COLORSCALE, [min(1.0, max(0.0, pair.weight))])[0]
        fig.add_trace(go.Scatter(
            x=[x0, x1], y=[y0, y1], mode="lines", hoverinfo="skip", showlegend=False,
            line=dict(color=colour if pair.counted else "#b0b0b0", width=1.5 + 3 * pair.weight,
                      dash="solid" if pair.counted else "dot")))
        mids_x.append((x0 + x1) / 2)
        mids_y.append((y0 + y1) / 2)
        mids_w.append(pair.weight)
        mids_text.append(hover)
        # The two sentences ride along so that hovering the edge outlines them in the
        # Differences view (ui/page_script.py).
        ends = sorted((a, b), key=lambda n: n[0] != "Ref")  # reference first
        mids_sentences.append([graph.nodes[n]["data"].sentence for n in ends])
    if mids_x:
        fig.add_trace(go.Scatter(
            x=mids_x, y=mids_y, mode="markers", name="pair (hover for details)",
            hovertext=mids_text, hoverinfo="text", customdata=mids_sentences,
            marker=dict(size=9, color=mids_w, colorscale=COLORSCALE, cmin=0, cmax=1,
                        line=dict(width=1, color="white"),
                        colorbar=dict(title="pair weight", thickness=12, len=0.6, x=1.02))))


def _add_nodes(fig: go.Figure, graph: nx.Graph, pos: dict[Any, tuple[float, float]]) -> None:
    """The sentences as markers, one trace per status and side (one legend entry per status)."""
    for status, colour in NODE_COLOURS.items():
        for side in ("Ref", "Gen"):
            nodes = [graph.nodes[n]["data"] for n in graph if n[0] == side
                     and graph.nodes[n]["data"].status == status]
            if not nodes:
                continue
            fig.add_trace(go.Scatter(
                x=[pos[(n.side, n.index)][0] for n in nodes],
                y=[pos[(n.side, n.index)][1] for n in nodes],
                mode="markers+text", name=f"{status}", legendgroup=status,
                showlegend=side == "Ref" or not any(graph.nodes[m]["data"].status == status
                                                      for m in graph if m[0] == "Ref"),
                text=[_plot_text(n.sentence) for n in nodes],
                textposition="middle left" if side == "Ref" else "middle right",
                textfont=dict(size=PLOT_TEXT_PX),  # the theme's text colour (ui/style.css)
                hovertext=[f"<b>{side} {n.index + 1}</b> ({status}"
                           + (f", {n.normality}" if n.normality else "") + ")<br>"
                           + _plot_text(n.sentence, 60, 8) for n in nodes],
                hoverinfo="text", customdata=[[n.sentence] for n in nodes],
                marker=dict(size=14 if status == "unmatched" else 11, color=colour,
                            symbol="x" if status == "unmatched" else "circle",
                            line=dict(width=1, color="white"))))


def radsem_figure(score: RadsemScore, extraction: RadsemExtraction | None) -> go.Figure:
    graph = alignment_graph(score, extraction)
    pos = _positions(graph)
    fig = go.Figure()
    _add_edges(fig, graph, pos, extraction)
    _add_nodes(fig, graph, pos)
    rows = max([1] + [sum(1 for n in graph if n[0] == s) for s in ("Ref", "Gen")])
    fig.update_layout(
        title="Alignment of atomic sentences: reference (left) and candidate (right)",
        height=min(1600, 160 + 58 * rows), margin=dict(l=10, r=10, t=50, b=10),
        hovermode="closest", legend=dict(orientation="h", y=-0.02, yanchor="top"),
        xaxis=dict(visible=False, range=[-1.1, 2.1]),
        yaxis=dict(visible=False),
        annotations=[dict(x=0, y=1.0, xref="x", yref="paper", text="<b>Reference</b>",
                          showarrow=False, yanchor="bottom"),
                     dict(x=1, y=1.0, xref="x", yref="paper", text="<b>Candidate</b>",
                          showarrow=False, yanchor="bottom")])
    return themed(fig)


def _class_rows(score: RadsemScore) -> list[list[str]]:
    rows = []
    for name in (ABNORMAL, NORMAL):
        c = score.class_score(name)
        rows.append([name, "yes" if c.present else "no", str(c.n_pairs), fmt(c.matched),
                     str(c.unmatched_ref), str(c.unmatched_gen), fmt(c.mean_pair_weight),
                     fmt(c.f1), c.rule])
    return rows


@register_view("radsem", slots=("plot",))
def radsem_view(result: Mapping[str, Any]) -> PanelView:
    section = find_section(result, SCORE_KEYS)
    if section is None:
        raise ValueError("no RadSEM scores in this result")
    score = RadsemScore.from_json(section)
    raw_extraction = find_section(result, EXTRACTION_KEYS)
    extraction = RadsemExtraction.from_json(raw_extraction) if raw_extraction else None
    summary = (f"<div class='rs-kv'><b>Final score</b> {esc(fmt(score.score))}"
               " <span class='rs-muted'>(weighted mean of the class F1s present: abnormal 0.9, "
               "normal 0.1)</span></div>"
               + html_table(["class", "present", "pairs", "matched M", "unmatched ref",
                             "unmatched gen", "mean weight q", "F1", "rule"], _class_rows(score)))
    body = ""
    skipped = [f"pair {p.index + 1}: {p.reason}" for p in score.pairs if not p.counted]
    if skipped:
        body += "<div class='rs-sub'>Pairs that did not count</div>" + html_list(skipped)
    if extraction and extraction.notes:
        body += "<div class='rs-sub'>Extractor notes</div>" + html_list(extraction.notes)
    return PanelView(summary_html=summary, figure=radsem_figure(score, extraction), body_html=body)

"""Dinitz's maximum flow, step for step as networkx 3.6.1 runs it (``nx.maximum_flow`` with
``flow_func=dinitz``), on plain dicts.

Why not networkx itself: RadSEM's graphs have a handful of nodes, and building two
``DiGraph``s and dispatching through networkx's backends cost more than the flow (about a
millisecond a pair). Why the same steps and not any maximum flow (or a bipartite matching):
only the flow's value is unique; the flow each pair carries, which RadSEM's details show, is
the one this algorithm finds, so the node and edge orders, the breadth-first search that stops
once the sink is reached and the depth-first search are networkx's (``dinitz_alg.dinitz_impl``,
``utils.build_residual_network``, ``utils.build_flow_dict``). ``tests/engine/metrics/radsem/test_flow.py``
compares both on random graphs.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable
from itertools import pairwise

Node = Hashable


class FlowNetwork:
    """A directed graph with capacities, built edge by edge as ``DiGraph.add_edge`` builds it
    (a repeated edge keeps its place and takes the last capacity)."""

    def __init__(self, edges: Iterable[tuple[Node, Node, int]]) -> None:
        self.succ: dict[Node, dict[Node, int]] = {}
        for u, v, capacity in edges:
            self.succ.setdefault(u, {})
            self.succ.setdefault(v, {})
            self.succ[u][v] = capacity

    def maximum_flow(self, source: Node, sink: Node) -> tuple[int, dict[tuple[Node, Node], int]]:
        """The flow's value and the flow on each edge of the network."""
        r_succ, r_pred = self._residual()
        value = _dinitz(r_succ, r_pred, source, sink, _infinity(self.succ))
        flows = {}
        for u, targets in self.succ.items():
            for v in targets:
                edge = r_succ[u].get(v)
                flows[(u, v)] = edge[1] if edge is not None and edge[1] > 0 else 0
        return value, flows

    def _residual(self) -> tuple[dict[Node, dict[Node, list[int]]], dict[Node, dict[Node, list[int]]]]:
        # Each edge's [capacity, flow] is one list, shared by its successor and predecessor entries.
        r_succ: dict[Node, dict[Node, list[int]]] = {u: {} for u in self.succ}
        r_pred: dict[Node, dict[Node, list[int]]] = {u: {} for u in self.succ}
        for u, targets in self.succ.items():
            for v, capacity in targets.items():
                if u == v or capacity <= 0:
                    continue
                if v not in r_succ[u]:
                    r_succ[u][v] = r_pred[v][u] = [capacity, 0]
                    r_succ[v][u] = r_pred[u][v] = [0, 0]
                else:  # added as the reverse of (v, u)
                    r_succ[u][v][0] = capacity
        return r_succ, r_pred


def _infinity(succ: dict[Node, dict[Node, int]]) -> int:
    """networkx's stand-in for an infinite capacity: three times the finite ones' sum, or 1."""
    return 3 * sum(c for u, targets in succ.items() for v, c in targets.items()
                   if u != v and c > 0) or 1


def _dinitz(r_succ: dict[Node, dict[Node, list[int]]], r_pred: dict[Node, dict[Node, list[int]]],
            s: Node, t: Node, inf: int) -> int:
    def breadth_first_search() -> dict[Node, deque[Node]]:
        parents: dict[Node, deque[Node]] = {}
        vertex_dist = {s: 0}
        queue = deque([(s, 0)])
        while queue:
            if t in parents:
                break
            u, dist = queue.popleft()
            for v, (capacity, flow) in r_succ[u].items():
                if capacity - flow > 0:
                    if v in parents:
                        if vertex_dist[v] == dist + 1:
                            parents[v].append(u)
                    else:
                        parents[v] = deque([u])
                        vertex_dist[v] = dist + 1
                        queue.append((v, dist + 1))
        return parents

    def depth_first_search(parents: dict[Node, deque[Node]]) -> int:
        total_flow = 0
        u = t
        path = [u]
        while True:
            if len(parents[u]) > 0:
                v = parents[u][0]
                path.append(v)
            else:
                path.pop()
                if len(path) == 0:
                    break
                v = path[-1]
                parents[v].popleft()
            if v == s:
                flow = inf
                for a, b in pairwise(path):
                    edge = r_pred[a][b]
                    flow = min(flow, edge[0] - edge[1])
                for a, b in pairwise(reversed(path)):
                    r_pred[b][a][1] += flow
                    r_pred[a][b][1] -= flow
                    if r_pred[b][a][0] - r_pred[b][a][1] == 0:
                        parents[b].popleft()
                        while path[-1] != b:
                            path.pop()
                total_flow += flow
                v = path[-1]
            u = v
        return total_flow

    flow_value = 0
    while flow_value < inf:
        parents = breadth_first_search()
        if t not in parents:
            break
        flow_value += depth_first_search(parents)
    return flow_value

"""RadSEM's maximum flow finds networkx's flow, edge for edge (the details show each pair's flow,
and only the total of a maximum flow is unique)."""
from __future__ import annotations

import random

import networkx as nx
import pytest
from networkx.algorithms.flow import dinitz

from radscope.engine.metrics.radsem.flow import FlowNetwork


def _networkx(edges: list[tuple[object, object, int]]) -> tuple[int, dict[tuple[object, object], int]]:
    graph = nx.DiGraph()
    for u, v, capacity in edges:
        graph.add_edge(u, v, capacity=capacity)
    value, flows = nx.maximum_flow(graph, "source", "sink", flow_func=dinitz)
    return value, {(u, v): flows[u][v] for u, v in graph.edges}


def _radsem_shaped(rng: random.Random) -> list[tuple[object, object, int]]:
    """source -> ref (108) -> gen (RadSEM's weight units) -> sink (108), sentences shared."""
    refs, gens = rng.randint(1, 6), rng.randint(1, 6)
    pairs = {(rng.randrange(refs), rng.randrange(gens)) for _ in range(rng.randint(1, 12))}
    edges: list[tuple[object, object, int]] = []
    for i, j in sorted(pairs, key=lambda _: rng.random()):
        weight = (27 // 3 ** rng.randint(0, 3)) * rng.choice((2, 3, 4))
        edges += [("source", ("ref", i), 108), (("gen", j), "sink", 108), (("ref", i), ("gen", j), weight)]
    return edges


def _any_graph(rng: random.Random) -> list[tuple[object, object, int]]:
    """Any small directed graph: cycles, antiparallel and repeated edges, zero capacities."""
    nodes = ["source", "sink", *range(rng.randint(1, 6))]
    edges: list[tuple[object, object, int]] = [("source", rng.choice(nodes[2:]), rng.randint(1, 9)),
                                               (rng.choice(nodes[2:]), "sink", rng.randint(1, 9))]
    for _ in range(rng.randint(0, 20)):
        edges.append((rng.choice(nodes), rng.choice(nodes), rng.randint(0, 9)))
    return [(u, v, c) for u, v, c in edges if u != v]


@pytest.mark.parametrize("shape", [_radsem_shaped, _any_graph])
def test_the_flow_is_networkx_dinitz_flow(shape):
    rng = random.Random(27)
    for _ in range(3000):
        edges = shape(rng)
        assert FlowNetwork(edges).maximum_flow("source", "sink") == _networkx(edges), edges

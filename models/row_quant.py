"""Per-row activation scales for dynamically quantised int8 encoders (export environment: onnx).

Why: ``onnxruntime.quantization.quantize_dynamic`` puts a ``DynamicQuantizeLinear`` before each
MatMul, which picks one scale for the whole input tensor, i.e. for the whole batch; a sequence's
outputs then change with the other sequences in its batch (a CREPE pair's raw count moved by
0.05 to 0.18). This rewrite gives every row (every token, or every pooled vector) its own
symmetric scale, ``max|row| / 127.5`` with zero point 128, so a row's int8 input, and therefore
its output, depend on that row alone, whatever else is in the call; it is also closer to fp32
than one scale per batch. The int8 weights are untouched, so the file keeps its size.

Per quantised input: ``Abs -> ReduceMax(last axis) -> Mul(1/127.5) -> Max(tiny)`` gives the row
scales, and a blocked ``QuantizeLinear`` (opset 21, one block per row) quantises with them. Per
MatMul: onnxruntime's ``com.microsoft.MatMulIntegerToFloat`` (integer product, scaled by the
weight's per-channel scales in the same kernel) then ``Mul`` by the row scales. The runtime is
onnxruntime only, so an onnxruntime contrib op is fine here.

``per_row_activations`` works on any ``quantize_dynamic`` output, so it serves new exports
(``export.quantize_int8``) and artifacts exported before it existed
(``radscope models per-row DIR``), without the checkpoint.
"""
from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from radscope.models.artifacts import PER_ROW, Manifest
from radscope.models.receipts import load_receipt
from radscope.models.resolve import file_sha256

OPSET = 21  # blocked QuantizeLinear
MS_DOMAIN = "com.microsoft"


class NotDynamicInt8(ValueError):
    """The graph is not the DynamicQuantizeLinear -> MatMulInteger -> Cast -> Mul shape."""


def _consumers(nodes: Iterable[Any]) -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {}
    for node in nodes:
        for name in node.input:
            found.setdefault(name, []).append(node)
    return found


def _only(nodes: list[Any], op: str, what: str) -> Any:
    if len(nodes) != 1 or nodes[0].op_type != op:
        raise NotDynamicInt8(f"{what}: expected one {op}, found {[n.op_type for n in nodes]}")
    return nodes[0]


def _prune(graph: Any) -> None:
    """Drop nodes no graph output needs, then initialisers no node reads."""
    needed = {o.name for o in graph.output}
    kept = []
    for node in reversed(list(graph.node)):
        if any(o in needed for o in node.output):
            kept.append(node)
            needed.update(i for i in node.input if i)
    del graph.node[:]
    graph.node.extend(reversed(kept))
    used = {i for n in graph.node for i in n.input}
    inits = [i for i in graph.initializer if i.name in used]
    del graph.initializer[:]
    graph.initializer.extend(inits)


def per_row_activations(model: Any) -> Any:
    """Rewrite ``model`` (an onnx.ModelProto from quantize_dynamic) in place; returns it."""
    graph = model.graph
    weights = {i.name: i for i in graph.initializer}
    producer = {o: n for n in graph.node for o in n.output}
    consumers = _consumers(graph.node)
    consts = _add_constants(graph)
    quantisers = [n for n in graph.node if n.op_type == "DynamicQuantizeLinear"]
    if not quantisers:
        raise NotDynamicInt8("no DynamicQuantizeLinear: not a dynamically quantised model")
    replace: dict[int, list[Any]] = {}  # id(node) -> what stands in its place
    for dql in quantisers:
        x, (q, scale, _) = dql.input[0], dql.output
        users = consumers.get(q, [])
        p = f"{q}_row_"
        replace[id(dql)] = _row_quantiser(x, p, _inner_size(q, users, weights), consts)
        for mm in users:
            replace.update(_row_scaled_matmul(mm, p, scale, consts, consumers, producer, weights))
    _splice(graph, replace)
    _prune(graph)
    _require_opsets(model)
    del graph.value_info[:]  # shapes recorded for the old nodes
    return model


def _add_constants(graph: Any) -> dict[str, str]:
    """The constants every rewritten node reads, added to the graph's initialisers once: the
    names by role, and ``zp_value`` (the zero point as a tensor, for ConstantOfShape)."""
    from onnx import numpy_helper

    def const(name: str, value: Any) -> str:
        graph.initializer.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    return {"axes": const("rowq_axes", np.array([-1], np.int64)),
            "inv": const("rowq_inv_127_5", np.array(1 / 127.5, np.float32)),
            "tiny": const("rowq_tiny", np.array(1e-30, np.float32)),
            "zero_point": const("rowq_zero_point", np.array(128, np.uint8)),
            "one": const("rowq_one", np.array(1.0, np.float32))}


def _inner_size(q: str, users: list[Any], weights: dict[str, Any]) -> int:
    """The inner size of the MatMuls that read the quantised input ``q``: the block size of its
    per-row quantiser, so every one of them must be a MatMulInteger and all must agree."""
    if not users or any(u.op_type != "MatMulInteger" for u in users):
        raise NotDynamicInt8(f"{q}: read by {[u.op_type for u in users]}, not MatMulInteger")
    k = {int(weights[u.input[1]].dims[0]) for u in users if u.input[1] in weights}
    if len(k) != 1:
        raise NotDynamicInt8(f"{q}: the MatMuls' weights disagree on the inner size ({k})")
    return k.pop()


def _row_quantiser(x: str, p: str, k: int, consts: dict[str, str]) -> list[Any]:
    """The nodes that stand for one DynamicQuantizeLinear: each row of ``x`` gets its own scale
    (max|row| / 127.5) and is quantised with it, one block of ``k`` per row."""
    from onnx import helper, numpy_helper

    zp_value = numpy_helper.from_array(np.array([128], np.uint8))
    return [helper.make_node("Abs", [x], [p + "abs"]),
            helper.make_node("ReduceMax", [p + "abs", consts["axes"]], [p + "absmax"], keepdims=1),
            helper.make_node("Mul", [p + "absmax", consts["inv"]], [p + "scale0"]),
            # an all-zero row would give scale 0 and NaN codes; tiny keeps it at code 128
            helper.make_node("Max", [p + "scale0", consts["tiny"]], [p + "scale"]),
            helper.make_node("Shape", [p + "scale"], [p + "shape"]),
            helper.make_node("ConstantOfShape", [p + "shape"], [p + "zp"], value=zp_value),
            helper.make_node("QuantizeLinear", [x, p + "scale", p + "zp"], [p + "q"],
                             axis=-1, block_size=k)]


def _row_scaled_matmul(mm: Any, p: str, scale: str, consts: dict[str, str],
                       consumers: dict[str, list[Any]], producer: dict[str, Any],
                       weights: dict[str, Any]) -> dict[int, list[Any]]:
    """What stands in place of one MatMulInteger -> Cast -> Mul: an integer product scaled by
    the weight's scales (one kernel), then by the row scales; the Cast and Mul go."""
    from onnx import helper

    cast = _only(consumers.get(mm.output[0], []), "Cast", mm.output[0])
    mul = _only(consumers.get(cast.output[0], []), "Mul", cast.output[0])
    combined = next(i for i in mul.input if i != cast.output[0])
    scales = producer.get(combined)
    if scales is None or scales.op_type != "Mul" or scale not in scales.input:
        raise NotDynamicInt8(f"{mul.output[0]}: output scale is not activation x weight")
    weight_scale = next(i for i in scales.input if i != scale)
    if weight_scale not in weights:
        raise NotDynamicInt8(f"{weight_scale}: the weight scale is not a constant")
    out = mul.output[0]
    return {id(mm): [helper.make_node("MatMulIntegerToFloat",
                                      [p + "q", mm.input[1], consts["one"], weight_scale,
                                       consts["zero_point"], mm.input[3]],
                                      [out + "_wscaled"], domain=MS_DOMAIN),
                     helper.make_node("Mul", [out + "_wscaled", p + "scale"], [out])],
            id(cast): [], id(mul): []}


def _splice(graph: Any, replace: dict[int, list[Any]]) -> None:
    """Put each replaced node's stand-ins in its place, keeping the graph's order."""
    nodes = []
    for node in graph.node:
        nodes.extend(replace.get(id(node), [node]))
    del graph.node[:]
    graph.node.extend(nodes)


def _require_opsets(model: Any) -> None:
    """Raise the default domain's opset to one with blocked QuantizeLinear, and import the
    com.microsoft domain for MatMulIntegerToFloat."""
    from onnx import helper

    for opset in model.opset_import:
        if opset.domain in ("", "ai.onnx"):
            opset.version = max(opset.version, OPSET)
    if not any(o.domain == MS_DOMAIN for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid(MS_DOMAIN, 1))


def rewrite_file(source: Path, target: Path) -> None:
    """Read a quantize_dynamic model, give it per-row activation scales, write ``target``."""
    import onnx

    model = per_row_activations(onnx.load(str(source)))
    onnx.checker.check_model(model)
    onnx.save(model, str(target))


def per_row_artifact(directory: Path) -> bool:
    """Give an artifact's int8 model per-row activation scales, in place, and record it in its
    manifest (file hash, checksum, ``int8_activations``); False when it had them already.

    For artifacts exported before per-row scales existed (the bundled demo models were
    rewritten this way, without retraining). A fetched model has a receipt listing its hashes:
    fetch it again (``models fetch --force ID``) instead.
    """
    directory = Path(directory)
    manifest = Manifest.load(directory)
    if "int8" not in manifest.files:
        raise ValueError(f"{directory} has no int8 model")
    if manifest.int8_activations == PER_ROW:
        return False
    receipt = load_receipt(manifest.id)
    if receipt is not None and Path(receipt.path).resolve() == directory.resolve():
        raise ValueError(f"{manifest.id} was fetched (its receipt lists its hashes): run "
                         f"`radscope models fetch --force {manifest.id}` instead")
    path = directory / manifest.files["int8"]["name"]
    partial = path.with_name(path.name + ".partial")
    rewrite_file(path, partial)
    os.replace(partial, path)
    digest = file_sha256(path)
    manifest.files["int8"]["sha256"] = digest
    manifest.checksum = digest
    manifest.int8_activations = PER_ROW
    manifest.save(directory)
    return True

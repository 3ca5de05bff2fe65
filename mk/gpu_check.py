"""One run of ``make gpu-check`` (mk/gpu_check.sh): load a GGUF with the llama.cpp build that
``LLAMA_CPP_LIB_PATH`` points at and time it; or, with ``--summarise``, the runs side by side.

Standalone on purpose (numpy, llama_cpp from the carried sdist, models.llama_load): the GPU
machine has no project environment. Each step prints before it starts, so a crash's last line
says where it happened (the H100 segfault came during model load).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

PROMPT = ("<start_of_turn>user\nRewrite the findings as a list of short sentences.\n"
          "FINDINGS: Small left pleural effusion. Mild cardiomegaly. No pneumothorax. "
          "Endotracheal tube 4 cm above the carina.<end_of_turn>\n<start_of_turn>model\n")
SCHEMA = {"type": "object", "properties": {"sentences": {
    "type": "array", "maxItems": 12, "items": {"type": "string", "maxLength": 300}}},
    "required": ["sentences"], "additionalProperties": False}


def step(text: str) -> None:
    print(f"  .. {text}", flush=True)


def run(args: argparse.Namespace) -> dict:
    if args.share_cxx:
        from radscope.models.native_libs import share_cxx_runtime

        step(f"C++ runtime made global before libllama loads: {share_cxx_runtime()}")
    else:
        step("C++ runtime left as the build linked it (shows whether this host needs the fix)")
    import llama_cpp
    from llama_cpp.llama_grammar import LlamaGrammar

    from radscope.models.llama_load import load_llama

    out: dict = {"label": args.label, "layers": args.layers, "repack": args.repack,
                 "share_cxx": args.share_cxx,
                 "lib": os.environ.get("LLAMA_CPP_LIB_PATH"),
                 "llama_cpp_python": llama_cpp.__version__}
    step("llama_print_system_info")
    out["system_info"] = llama_cpp.llama_print_system_info().decode("utf-8", "replace").strip()
    out["gpu_offload"] = bool(llama_cpp.llama_supports_gpu_offload())
    print("  system info:", out["system_info"], "| gpu offload:", out["gpu_offload"], flush=True)
    step(f"load {args.gguf} (n_gpu_layers={args.layers}, repack={args.repack})")
    started = time.perf_counter()
    llama = load_llama(Path(args.gguf), n_ctx=4096, layers=args.layers,
                       threads=os.cpu_count() or 1, repack=bool(args.repack))
    out["load_s"] = round(time.perf_counter() - started, 3)
    tokens = llama.tokenize(PROMPT.encode(), add_bos=True, special=True)
    step("prompt evaluation x3")
    evals = []
    for _ in range(3):
        llama.reset()
        t = time.perf_counter()
        llama.eval(tokens)
        evals.append(time.perf_counter() - t)
    out["prompt_tokens"] = len(tokens)
    out["prompt_tok_per_s"] = round(len(tokens) / min(evals), 1)
    step("greedy generation, 128 tokens")
    t = time.perf_counter()
    result = llama.create_completion(PROMPT, max_tokens=128, temperature=0.0, seed=0)
    gen = time.perf_counter() - t
    n = result["usage"]["completion_tokens"]
    out["gen_tokens"], out["gen_tok_per_s"] = n, round(n / gen, 1)
    step("grammar-constrained generation (RadSEM rewrite-like schema)")
    grammar = LlamaGrammar.from_json_schema(json.dumps(SCHEMA), verbose=False)
    t = time.perf_counter()
    result = llama.create_completion(PROMPT, max_tokens=256, temperature=0.0, seed=0,
                                     grammar=grammar)
    n = result["usage"]["completion_tokens"]
    out["grammar_tokens"] = n
    out["grammar_tok_per_s"] = round(n / (time.perf_counter() - t), 1)
    llama.close()
    print("  result:", json.dumps({k: v for k, v in out.items() if k != "system_info"}), flush=True)
    return out


def summarise(folder: Path) -> None:
    runs = [json.loads(p.read_text()) for p in sorted(folder.glob("run-*.json"))]
    if not runs:
        print("no run finished (see the log above for crashes)")
        return
    print(f"{'build':<12} {'layers':>6} {'repack':>6} {'cxx':>4} {'load s':>7} {'prompt tok/s':>13} "
          f"{'gen tok/s':>10} {'grammar tok/s':>14}")
    for r in runs:
        print(f"{r['label']:<12} {r['layers']:>6} {r['repack']:>6} {r['share_cxx']:>4} {r['load_s']:>7} "
              f"{r['prompt_tok_per_s']:>13} {r['gen_tok_per_s']:>10} {r['grammar_tok_per_s']:>14}")
    cpu = [r for r in runs if r["layers"] == 0]
    gpu = [r for r in runs if r["layers"] != 0]
    if cpu and gpu:
        best_cpu = max(r["gen_tok_per_s"] for r in cpu)
        best_gpu = max(r["gen_tok_per_s"] for r in gpu)
        print(f"generation, GPU over CPU (best of each, same model, same run): "
              f"x{best_gpu / best_cpu:.2f}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gguf")
    parser.add_argument("--layers", type=int, default=0)
    parser.add_argument("--repack", type=int, default=1)
    parser.add_argument("--label", default="")
    parser.add_argument("--share-cxx", type=int, default=1,
                        help="1: load libstdc++ globally first (radscope.models.native_libs)")
    parser.add_argument("--out")
    parser.add_argument("--summarise", type=Path)
    args = parser.parse_args(argv)
    if args.summarise:
        summarise(args.summarise)
        return 0
    out = run(args)
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""``radscope models``: list the registry, fetch models, export encoders, pack and unpack.

``list``, ``fetch``, ``pack`` and ``unpack`` work in the runtime environment (``fetch`` builds
the export environment when an encoder needs it); ``export`` and ``per-row`` need the export
environment (``make export-env``; torch, transformers and onnx are imported only by those).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _list(_: argparse.Namespace) -> int:
    from radscope.models.artifacts import resolve_artifact
    from radscope.models.model_registry import load_registry
    from radscope.models.receipts import load_receipt
    from radscope.models.resolve import ModelNotAvailable

    for entry in load_registry().values():
        status = ""
        receipt = load_receipt(entry.id)
        if receipt is not None:
            status = f"  [fetched: {receipt.path}]"
        elif entry.task in ("crepe", "srr", "embedder"):
            try:
                artifact = resolve_artifact(entry.id)
                status = f"  [ready: {artifact.source} {artifact.path}]"
            except ModelNotAvailable:
                status = f"  [not fetched: python -m radscope.models fetch {entry.id}]"
        print(entry.describe() + status)
    return 0


def _needs_export_env(command: str, exc: ImportError) -> int:
    print(f"error: {command} needs the export environment ({exc.name} is missing); run "
          f"`make export-env` and use .venv-export/bin/python -m radscope.models {command} ...",
          file=sys.stderr)
    return 2


def _export(args: argparse.Namespace) -> int:
    try:
        from radscope.models.export import drop_fp32, export_model
    except ImportError as exc:
        return _needs_export_env("export", exc)
    from radscope.models.resolve import ModelNotAvailable

    try:
        out = export_model(args.source, Path(args.out) if args.out else None, int8=args.int8,
                           max_length=args.max_length, task=args.task, model_id=args.id)
    except (ModelNotAvailable, ValueError, KeyError, FileNotFoundError) as exc:
        print(f"error: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2
    if args.int8_only:
        drop_fp32(out)
    print(f"exported {args.source} -> {out}")
    return 0


def _per_row(args: argparse.Namespace) -> int:
    try:
        import onnx  # noqa: F401

        from radscope.models.row_quant import NotDynamicInt8, per_row_artifact
    except ImportError as exc:
        return _needs_export_env("per-row", exc)
    status = 0
    for directory in args.dirs:
        try:
            done = per_row_artifact(Path(directory))
        except (NotDynamicInt8, ValueError, FileNotFoundError) as exc:
            print(f"error: {directory}: {exc}", file=sys.stderr)
            status = 2
            continue
        print(f"{directory}: {'per-row activation scales written' if done else 'already per-row'}")
    return status


def _fetch(args: argparse.Namespace) -> int:
    from radscope.models.fetch import FetchFailed, fetch
    from radscope.models.progress import Cancelled
    from radscope.models.terminal import TerminalReporter

    status = 0
    for model_id in args.ids:
        try:
            prepared = fetch(model_id, TerminalReporter(), force=args.force,
                             self_check=not args.no_self_check)
        except FetchFailed as exc:
            print(f"error: {exc}", file=sys.stderr)
            status = 2
            continue
        except (Cancelled, KeyboardInterrupt) as exc:
            print(f"\n{exc or 'cancelled'}; run the same command again to resume", file=sys.stderr)
            return 130
        print(TerminalReporter.summary(prepared))
    return status


def _pack(args: argparse.Namespace) -> int:
    from radscope.models.bundle import BundleError, pack

    try:
        out = pack(args.ids, Path(args.out))
    except BundleError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"packed {', '.join(args.ids)} -> {out} ({out.stat().st_size / 1e6:.1f} MB)")
    return 0


def _unpack(args: argparse.Namespace) -> int:
    from radscope.models.bundle import BundleError, unpack

    try:
        placed = unpack(Path(args.bundle))
    except BundleError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for prepared in placed:
        print(f"{prepared.model_id}: ready at {prepared.path}; {prepared.use_hint()}".rstrip("; "))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="radscope models", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="registered models and whether encoders are ready").set_defaults(
        func=_list)
    p = sub.add_parser("export", help="export a registry id or checkpoint directory to ONNX")
    p.add_argument("source", help="registry id (e.g. crepe-biomedbert) or checkpoint directory")
    p.add_argument("--int8", action="store_true", help="also write a dynamic int8 model for CPU")
    p.add_argument("--int8-only", action="store_true",
                   help="keep only the int8 model (implies --int8; used for bundled models)")
    p.add_argument("--out", help="output directory (default: $RADSCOPE_MODELS/<id>)")
    p.add_argument("--task", choices=("crepe", "srr", "embedder"),
                   help="what the checkpoint is (default: from its config)")
    p.add_argument("--max-length", type=int, help="longest input in tokens (default per task)")
    p.add_argument("--id", help="model id written into the manifest (default: registry id or "
                                "directory name)")
    p.set_defaults(func=_export)
    p = sub.add_parser("per-row", help="give an exported int8 encoder per-row activation scales "
                                       "(batch-independent results; export environment)")
    p.add_argument("dirs", nargs="+", help="artifact directories (e.g. models/bundled/...)")
    p.set_defaults(func=_per_row)
    p = sub.add_parser("fetch", help="download, verify and prepare registry models (resumable)")
    p.add_argument("ids", nargs="+", help="registry ids (python -m radscope.models list)")
    p.add_argument("--force", action="store_true", help="redo every step even if the model is ready")
    p.add_argument("--no-self-check", action="store_true", help="judges: skip the test generation")
    p.set_defaults(func=_fetch)
    p = sub.add_parser("pack", help="put fetched models and their checksums in one tar file")
    p.add_argument("ids", nargs="+", help="registry ids already fetched on this machine")
    p.add_argument("--out", required=True, help="the tar file to write")
    p.set_defaults(func=_pack)
    p = sub.add_parser("unpack", help="install the models of a tar file made by pack (offline)")
    p.add_argument("bundle", help="the tar file")
    p.set_defaults(func=_unpack)
    args = parser.parse_args(argv)
    if getattr(args, "int8_only", False):
        args.int8 = True
    return args.func(args)


if __name__ == "__main__":
    print(f"note: `python -m {__package__}` is now `radscope models` (`python -m radscope models` in a "
          "checkout); this spelling goes in the next version", file=sys.stderr)
    raise SystemExit(main())

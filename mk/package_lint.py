"""Run mypy and import-linter on the package as ``radscope.*``, from a checkout without links.

``python mk/package_lint.py types`` (mypy, set up in pyproject.toml; extra arguments go to mypy)
and ``python mk/package_lint.py imports`` (import-linter, with ``.importlinter``).

In a checkout ``radscope.engine`` lives in ``engine/`` (see ``radscope/layout.py``). Both tools
look for modules on disk by their dotted names and know no package map, so this hands them the
map itself, taken from ``radscope.layout``: mypy gets every file with its module name (its
paths in messages stay the real ones), import-linter's graph builder (grimp) gets the mapped
folders as more directories of the ``radscope`` package. Nothing is copied or linked.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from radscope.layout import SUBPACKAGES  # noqa: E402  (needs the checkout on the path first)


def module_files() -> list[tuple[str, str]]:
    """(path, module name) of every module of the package, as the wheel names them, and of the
    benchmarks and training beside it, under their own names."""
    pairs = [(str(p.relative_to(ROOT)), _name("radscope", p.relative_to(ROOT / "radscope")))
             for p in sorted((ROOT / "radscope").glob("*.py"))]
    for sub in SUBPACKAGES:
        pairs += [(str(p.relative_to(ROOT)), _name("radscope", p.relative_to(ROOT)))
                  for p in sorted((ROOT / sub).rglob("*.py"))]
    for outside in ("bench", "training"):  # beside the package, under their own names
        pairs += [(str(p.relative_to(ROOT)), _name(outside, p.relative_to(ROOT / outside)))
                  for p in sorted((ROOT / outside).rglob("*.py"))]
    return pairs


def _name(prefix: str, relative: Path) -> str:
    parts = list(relative.with_suffix("").parts)
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join([prefix, *parts])


def types(argv: list[str]) -> int:
    from mypy import build
    from mypy.errors import CompileError
    from mypy.main import process_options
    from mypy.modulefinder import BuildSource

    _, options = process_options(["radscope", *argv])  # reads [tool.mypy] of pyproject.toml
    sources = [BuildSource(path, module) for path, module in module_files()]
    try:
        messages = build.build(sources, options).errors
    except CompileError as exc:
        messages = exc.messages
    for line in messages:
        print(line)
    errors = sum(": error:" in line for line in messages)
    print(f"{'Found ' + str(errors) + ' errors' if errors else 'Success: no issues found'} "
          f"in {len(sources)} source files", file=sys.stderr)
    return 1 if errors else 0


def imports(argv: list[str]) -> int:
    import grimp
    from grimp.adaptors.modulefinder import ModuleFinder
    from grimp.adaptors.packagefinder import ImportLibPackageFinder
    from grimp.application.config import settings
    from importlinter.cli import lint_imports

    class MappedPackages(ImportLibPackageFinder):
        """radscope's directories: radscope/ and, for the mapped subpackages, the checkout root."""

        def determine_package_directories(self, package_name, file_system):  # type: ignore[no-untyped-def]
            found = super().determine_package_directories(package_name, file_system)
            return found | {str(ROOT)} if package_name == "radscope" else found

    class MappedModules(ModuleFinder):
        """In the checkout root, only the mapped subpackages belong to radscope."""

        def find_package(self, package_name, package_directory, file_system):  # type: ignore[no-untyped-def]
            found = super().find_package(package_name, package_directory, file_system)
            if package_name != "radscope" or Path(package_directory) != ROOT:
                return found
            keep = {f"radscope.{sub}" for sub in SUBPACKAGES}
            mapped = lambda name: any(name == k or name.startswith(k + ".") for k in keep)  # noqa: E731
            return type(found)(
                name=found.name, directory=found.directory,
                module_files=frozenset(f for f in found.module_files if mapped(f.module.name)),
                namespace_packages=frozenset(n for n in found.namespace_packages if mapped(n)))

    assert grimp  # importing grimp sets its defaults, two of which are replaced here
    settings.configure(PACKAGE_FINDER=MappedPackages(), MODULE_FINDER=MappedModules())
    return lint_imports(config_filename=str(ROOT / ".importlinter"), no_logo="--no-logo" in argv)

if __name__ == "__main__":
    command, *rest = sys.argv[1:] or ["--help"]
    tools = {"types": types, "imports": imports}
    if command not in tools:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(tools[command](rest))

"""Where this copy of RadScope keeps its folders: the one place that knows the two layouts.

Installed (a wheel), every folder is real and sits inside the package::

    site-packages/radscope/{__init__.py, cli.py, launch.py, engine/, models/, ui/, prompts/, assets/}

In a checkout the folders stay at the repository's top level, next to ``radscope/``::

    <checkout>/{radscope/, engine/, models/, ui/, prompts/, assets/, app.py, tests/, ...}

and :class:`CheckoutFinder` (installed by ``radscope/__init__.py``) imports ``radscope.engine``,
``radscope.models`` and ``radscope.ui`` from there, so no symbolic link is needed (a checkout
without links, Git for Windows' default, works as any other). Every module asks here instead of
counting ``Path(__file__).parents[N]``, which means different folders in the two layouts.
"""
from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE_DIR = Path(__file__).resolve().parent
SUBPACKAGES = ("engine", "models", "ui")  # imported as radscope.<name>
FOLDERS = (*SUBPACKAGES, "prompts", "assets")  # prompts/ and assets/ hold data only


class LayoutError(RuntimeError):
    """A piece that only a checkout of the repository has (benchmarks, training, model export)."""


def checkout() -> Path | None:
    """The repository root when this copy runs from a checkout; None when installed."""
    if (PACKAGE_DIR / "engine").is_dir():
        return None
    root = PACKAGE_DIR.parent
    return root if (root / "pyproject.toml").is_file() else None


def repository_root() -> Path:
    """The checkout's root, for code that needs more than the package (benchmarks, training,
    model export, test fixtures); a clear error when this copy is installed."""
    root = checkout()
    if root is None:
        raise LayoutError(f"this needs a checkout of the RadScope repository; the copy in use is installed "
                          f"at {PACKAGE_DIR}, which holds only the package")
    return root


def folder(name: str) -> Path:
    """The folder ``name`` (one of :data:`FOLDERS`) of this copy, in either layout."""
    if name not in FOLDERS:
        raise ValueError(f"unknown RadScope folder {name!r}; expected one of {', '.join(FOLDERS)}")
    return (checkout() or PACKAGE_DIR) / name


def import_root() -> Path:
    """The folder that holds the ``radscope`` package: what a child process needs on its path
    (the checkout's root, or site-packages)."""
    return PACKAGE_DIR.parent


class CheckoutFinder(importlib.abc.MetaPathFinder):
    """Imports ``radscope.<name>`` from the checkout's top-level ``<name>/`` folder.

    Only the subpackages of :data:`SUBPACKAGES` are mapped (not the whole root: ``radscope.tests``
    or ``radscope.docs`` must not exist). Deeper modules follow the subpackage's ``__path__``.
    A folder that is missing or lacks its ``__init__.py`` is an ImportError naming the file.
    """

    def __init__(self, root: Path) -> None:
        self.root = root

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        prefix, _, name = fullname.partition(".")
        if prefix != "radscope" or name not in SUBPACKAGES:
            return None
        init = self.root / name / "__init__.py"
        if not init.is_file():
            raise ImportError(f"{fullname} is missing from this checkout: {init} does not exist "
                              f"(restore it with `git checkout -- {name}`)", name=fullname, path=str(init))
        return importlib.util.spec_from_file_location(fullname, init,
                                                      submodule_search_locations=[str(init.parent)])


def install_finder() -> None:
    """Put :class:`CheckoutFinder` first on ``sys.meta_path`` in a checkout (once)."""
    root = checkout()
    if root is None or any(isinstance(f, CheckoutFinder) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, CheckoutFinder(root))

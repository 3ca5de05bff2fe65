"""The package map (radscope/layout.py, pyproject's package-dir) without symbolic links."""
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import radscope
from radscope import layout

ROOT = Path(__file__).resolve().parents[2]


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_checkout_holds_no_symbolic_links():
    staged = subprocess.run(["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=True)
    links = [line.split("\t")[1] for line in staged.stdout.splitlines() if line.startswith("120000")]
    assert links == []


def test_the_subpackages_import_from_the_top_level_folders():
    import radscope.engine
    import radscope.models
    import radscope.ui

    for name in layout.SUBPACKAGES:
        module = sys.modules[f"radscope.{name}"]
        assert Path(module.__file__) == ROOT / name / "__init__.py"
    assert Path(radscope.__file__).parent == ROOT / "radscope"
    assert layout.checkout() == ROOT and layout.import_root() == ROOT
    assert layout.folder("prompts") == ROOT / "prompts" and (layout.folder("assets") / "examples.json").is_file()


def test_only_the_mapped_folders_become_subpackages():
    with pytest.raises(ModuleNotFoundError):
        __import__("radscope.tests")
    with pytest.raises(ValueError, match="unknown RadScope folder 'tests'"):
        layout.folder("tests")


def test_a_missing_subpackage_is_an_import_error_naming_the_file(tmp_path):
    (tmp_path / "engine").mkdir()  # the folder is there, its __init__.py is not
    finder = layout.CheckoutFinder(tmp_path)
    with pytest.raises(ImportError, match=r"radscope\.engine is missing from this checkout: .*engine/__init__\.py"):
        finder.find_spec("radscope.engine")
    assert finder.find_spec("radscope.cli") is None and finder.find_spec("engine") is None


def test_outside_a_checkout_the_repository_root_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setattr(layout, "PACKAGE_DIR", tmp_path / "radscope")
    (tmp_path / "radscope" / "engine").mkdir(parents=True)  # the installed layout
    assert layout.checkout() is None
    assert layout.folder("prompts") == tmp_path / "radscope" / "prompts"
    with pytest.raises(layout.LayoutError, match="needs a checkout of the RadScope repository"):
        layout.repository_root()


def test_the_wheel_lists_every_package_of_the_tree_but_the_checkout_only_ones():
    config = pyproject()["tool"]["setuptools"]
    on_disk = {"radscope", "radscope.prompts", "radscope.assets"}
    for name in layout.SUBPACKAGES:
        for init in (ROOT / name).rglob("__init__.py"):
            folder = init.parent.relative_to(ROOT).as_posix()
            on_disk.add("radscope." + folder.replace("/", "."))
    assert set(config["packages"]) == on_disk
    assert config["package-dir"] == {f"radscope.{f}": f for f in layout.FOLDERS}


def test_no_module_counts_parent_folders_to_find_the_root():
    """The root and the data folders come from radscope.layout, which knows both layouts."""
    pattern = re.compile(r"Path\(__file__\)\.(?:resolve\(\)|absolute\(\))\.parents\[")
    offenders = [str(p.relative_to(ROOT)) for name in layout.SUBPACKAGES for p in (ROOT / name).rglob("*.py")
                 if pattern.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_the_space_entry_starts_the_packaged_app():
    import radscope.launch

    text = (ROOT / "app.py").read_text(encoding="utf-8")
    assert "from radscope.launch import main" in text and callable(radscope.launch.main)


def test_benchmarks_and_training_sit_outside_the_package_folders():
    """bench/ and training/ are beside the mapped folders, so no package list can ship them."""
    assert (ROOT / "bench" / "__init__.py").is_file() and (ROOT / "training" / "__init__.py").is_file()
    assert not any(name in ("bench", "training") for name in layout.FOLDERS)
    assert not [f for f in layout.FOLDERS for p in (ROOT / f).rglob("__init__.py")
                if p.parent.name in ("bench", "training")]

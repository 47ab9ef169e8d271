"""The package's PEP 517 backend (tools/pep517/gauntlet_build.py): `pip install .` compiles in a
temporary Cargo target folder, removed afterwards, unless ``CARGO_TARGET_DIR`` asks for one.

maturin's compiling hooks are replaced by stand-ins that fill the target folder they are given
(a real release build takes minutes), so these tests check where the build goes and what is
left, in milliseconds."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

maturin = pytest.importorskip("maturin")

ROOT = Path(__file__).resolve().parents[2]
BACKEND = ROOT / "tools/pep517/gauntlet_build.py"
WHEEL = "gauntlet-0.1.0-cp310-abi3-linux_x86_64.whl"


@pytest.fixture
def backend(monkeypatch):
    spec = importlib.util.spec_from_file_location("gauntlet_build", BACKEND)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    return module


def _fake_build(seen: list[Path], fail: bool = False):
    def build(directory, config_settings=None, metadata_directory=None):
        folder = Path(os.environ["CARGO_TARGET_DIR"])
        (folder / "release").mkdir(parents=True, exist_ok=True)
        (folder / "release" / "lib_core.so").write_bytes(b"\0" * 4096)
        seen.append(folder)
        if fail:
            raise RuntimeError("cargo failed")
        return WHEEL

    return build


@pytest.mark.parametrize("hook", ["build_wheel", "build_editable"])
def test_a_build_leaves_no_build_folder_behind(backend, monkeypatch, tmp_path, hook):
    seen: list[Path] = []
    monkeypatch.setattr(backend.maturin, hook, _fake_build(seen))
    assert getattr(backend, hook)(str(tmp_path)) == WHEEL
    (folder,) = seen
    assert ROOT not in folder.parents, "the build folder must not be inside the checkout"
    assert not folder.exists(), "the temporary build folder must be removed"
    assert "CARGO_TARGET_DIR" not in os.environ


def test_a_failed_build_is_cleaned_up_too(backend, monkeypatch, tmp_path):
    seen: list[Path] = []
    monkeypatch.setattr(backend.maturin, "build_wheel", _fake_build(seen, fail=True))
    with pytest.raises(RuntimeError, match="cargo failed"):
        backend.build_wheel(str(tmp_path))
    assert not seen[0].exists() and "CARGO_TARGET_DIR" not in os.environ


def test_cargo_target_dir_keeps_the_build_folder_asked_for(backend, monkeypatch, tmp_path):
    seen: list[Path] = []
    keep = tmp_path / "keep"
    monkeypatch.setenv("CARGO_TARGET_DIR", str(keep))
    monkeypatch.setattr(backend.maturin, "build_wheel", _fake_build(seen))
    backend.build_wheel(str(tmp_path))
    assert seen == [keep] and (keep / "release" / "lib_core.so").is_file()
    assert os.environ["CARGO_TARGET_DIR"] == str(keep)


def test_the_backend_offers_every_hook_of_maturins_and_pyproject_names_it(backend):
    hooks = [n for n in dir(maturin) if n.startswith(("build_", "get_requires_for_", "prepare_metadata_for_"))]
    assert {"build_wheel", "build_sdist", "build_editable"} <= set(hooks)
    for name in hooks:
        assert callable(getattr(backend, name)), name
    tomllib = pytest.importorskip("tomllib")
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    system = pyproject["build-system"]
    assert system["build-backend"] == "gauntlet_build"
    assert [ROOT / p for p in system["backend-path"]] == [BACKEND.parent]
    # A source distribution carries the backend (pip builds an sdist's wheel with it).
    include = pyproject["tool"]["maturin"]["include"]
    assert {"path": "tools/pep517/gauntlet_build.py", "format": "sdist"} in include

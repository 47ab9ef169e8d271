"""The PEP 517 build backend of the `gauntlet` Python package: maturin's, in a temporary folder.

``pip install .``, ``pip wheel .`` and ``python -m build`` compile the extension module in release
mode. maturin alone leaves Cargo's whole build folder (every dependency's release artifacts) in
the checkout's ``target/``; this wrapper points Cargo at a temporary folder instead and removes it
once the wheel is written, so a build leaves nothing in the checkout but the wheel it was asked
for. Setting
``CARGO_TARGET_DIR`` keeps the build folder where it says (``CARGO_TARGET_DIR=target pip install
.`` reuses and keeps the checkout's, for fast rebuilds). ``maturin build`` and ``maturin develop``
run maturin directly and keep using ``target/``, as the developer asked.

Every hook is maturin's; the three that compile are wrapped.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator, Mapping
from typing import Any

import maturin
from maturin import (  # noqa: F401 (the hooks that compile nothing are maturin's own)
    build_sdist,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
)


@contextlib.contextmanager
def _build_folder() -> Iterator[None]:
    """Cargo's target folder for one build: ``CARGO_TARGET_DIR`` when set (kept), else a fresh
    temporary folder outside the checkout, removed afterwards."""
    if os.environ.get("CARGO_TARGET_DIR"):
        yield
        return
    folder = tempfile.mkdtemp(prefix="gauntlet-build-")
    print(f"building in {folder} (removed afterwards; set CARGO_TARGET_DIR to keep a build folder)", file=sys.stderr)
    os.environ["CARGO_TARGET_DIR"] = folder
    try:
        yield
    finally:
        os.environ.pop("CARGO_TARGET_DIR", None)
        shutil.rmtree(folder, ignore_errors=True)


def build_wheel(
    wheel_directory: str, config_settings: Mapping[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    """maturin's ``build_wheel`` in a temporary Cargo target folder."""
    with _build_folder():
        return maturin.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(
    wheel_directory: str, config_settings: Mapping[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    """maturin's ``build_editable`` in a temporary Cargo target folder."""
    with _build_folder():
        return maturin.build_editable(wheel_directory, config_settings, metadata_directory)


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: Mapping[str, Any] | None = None) -> str:
    """maturin's ``prepare_metadata_for_build_wheel`` (it runs ``cargo metadata``) likewise."""
    with _build_folder():
        return maturin.prepare_metadata_for_build_wheel(metadata_directory, config_settings)


def prepare_metadata_for_build_editable(
    metadata_directory: str, config_settings: Mapping[str, Any] | None = None
) -> str:
    """As :func:`prepare_metadata_for_build_wheel`."""
    return prepare_metadata_for_build_wheel(metadata_directory, config_settings)

"""Shared fixtures of the Python tests: the gauntlet CLI binary, when it has been built."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def gauntlet_bin() -> str:
    """The `gauntlet` CLI: $GAUNTLET_BIN, else target/{debug,release}/gauntlet, else on PATH."""
    candidates = [os.environ.get("GAUNTLET_BIN"), ROOT / "target/debug/gauntlet", ROOT / "target/release/gauntlet"]
    for c in candidates:
        if c and Path(c).is_file():
            return str(c)
    found = shutil.which("gauntlet")
    if found:
        return found
    pytest.skip("gauntlet CLI not built (cargo build -p gauntlet, or set GAUNTLET_BIN)")

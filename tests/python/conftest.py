"""Shared fixtures of the Python tests: the gauntlet CLI binary, when it has been built."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import threading
from collections.abc import Callable, Iterator
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


class ServingTrainer:
    """A `gauntlet train` run whose config has a `[serve]` section, started and read until it
    says where it serves its policy; its log is drained into `log` for the rest of the run."""

    def __init__(self, gauntlet_bin: str, config: Path, run_dir: Path) -> None:
        self.process = subprocess.Popen(
            [gauntlet_bin, "train", "--config", str(config), "--run-dir", str(run_dir)],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
        )
        assert self.process.stderr is not None
        self.log: list[str] = []
        self.url = ""
        for line in self.process.stderr:
            self.log.append(line)
            m = re.search(r"serving the policy on (http://\S+)/v1", line)
            if m:
                self.url = m.group(1)
                break
        if not self.url:
            self.stop()
            raise AssertionError("the trainer never served its policy:\n" + "".join(self.log))
        # Keep draining the trainer's stderr so it never blocks on a full pipe.
        threading.Thread(target=lambda: self.log.extend(self.process.stderr or []), daemon=True).start()

    def wait(self, timeout: float) -> None:
        """Waits for the run to end and checks it succeeded."""
        assert self.process.wait(timeout=timeout) == 0, "".join(self.log)

    def stop(self) -> None:
        """Kills the run if it is still going."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def serving_trainer(gauntlet_bin: str) -> Iterator[Callable[[Path, Path], ServingTrainer]]:
    """Starts `gauntlet train --config CONFIG --run-dir RUN_DIR` runs that serve their policy
    (`[serve] port = 0`); each is killed at the end of the test if it has not ended."""
    started: list[ServingTrainer] = []

    def start(config: Path, run_dir: Path) -> ServingTrainer:
        t = ServingTrainer(gauntlet_bin, config, run_dir)
        started.append(t)
        return t

    yield start
    for t in started:
        t.stop()

"""Composite datasets in reasoning-gym's shape: ``from gauntlet.composite import DatasetSpec``.

A reasoning-gym script that mixes families switches by changing its imports::

    from gauntlet.composite import CompositeConfig, CompositeDataset, DatasetSpec

    specs = [DatasetSpec("sudoku", 2.0, {"min_empty": 40}), DatasetSpec("zebra_puzzles", 1.0, {})]
    data = CompositeDataset(CompositeConfig(size=100, seed=1, datasets=specs))
    # or: gauntlet.create_dataset("composite", size=100, seed=1, datasets=specs)

``DatasetSpec.config`` takes reasoning-gym's options for the family (they choose gauntlet's
level, see :func:`gauntlet.list_aliases`) or ``{"level": n}``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .tasks import CompositeDataset, DatasetSpec

__all__ = ["CompositeConfig", "CompositeDataset", "DatasetSpec"]


@dataclass
class CompositeConfig:
    """reasoning-gym's ``CompositeConfig``: ``size``, ``seed`` and the member ``datasets``."""

    size: int = 500
    seed: int | None = None
    datasets: list[Any] = field(default_factory=list)

    def validate(self) -> None:
        """Build the dataset once (raising what it would raise) and drop it."""
        CompositeDataset(self)

"""Exceptions raised by gauntlet.

Every exception is a :class:`GauntletError`, and also the built-in exception a Python user
would expect (an unknown name is a :class:`KeyError`, a bad value a :class:`ValueError`), so
existing ``except`` clauses keep working. Each carries ``field`` (the argument or row field at
fault, or ``None``) and, for unknown names, ``suggestions`` (the closest valid names).
"""

from __future__ import annotations

__all__ = [
    "AlgoError",
    "BadProblemError",
    "BadRowError",
    "ConfigError",
    "EnvError",
    "EpisodeError",
    "GauntletError",
    "InternalError",
    "InvalidLevelError",
    "UnknownEnvError",
    "UnknownEstimatorError",
    "UnknownTaskError",
]


class GauntletError(Exception):
    """Base class of every gauntlet error."""

    field: str | None = None
    suggestions: list[str] = []  # noqa: RUF012 (class default, replaced per instance)

    def __str__(self) -> str:
        # KeyError quotes its message; the message here is already a sentence.
        return str(self.args[0]) if self.args else ""


class UnknownTaskError(GauntletError, KeyError):
    """No task family has this name; ``suggestions`` lists the closest ones."""


class UnknownEnvError(GauntletError, KeyError):
    """No environment or game has this name; ``suggestions`` lists the closest ones."""


class UnknownEstimatorError(GauntletError, KeyError):
    """No advantage estimator has this name."""


class InvalidLevelError(GauntletError, ValueError):
    """A difficulty level outside 1..=5."""


class ConfigError(GauntletError, ValueError):
    """A dataset or function option gauntlet does not know or cannot use."""


class BadProblemError(GauntletError, ValueError):
    """A serialized problem (an entry's or row's ``ground_truth``) that is not this family's."""


class BadRowError(GauntletError, ValueError):
    """A dataset row missing a field or with a field of the wrong type (``field`` names it)."""


class EnvError(GauntletError, RuntimeError):
    """An environment could not start an episode."""


class EpisodeError(GauntletError, RuntimeError):
    """A call out of turn: before ``reset``, after the end, or for a seat not to act."""


class AlgoError(GauntletError, ValueError):
    """Advantage-estimator inputs or options that do not fit the estimator."""


class InternalError(GauntletError, RuntimeError):
    """A bug in gauntlet (a Rust panic caught at the boundary); please report it."""

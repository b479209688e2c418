"""The blind corpus's two record types: one labelled case, and a family of templates that renders into cases."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BlindCase:
    """One labelled text; ``violation`` is True when the rule must refuse it."""

    text: str
    violation: bool
    shape: str
    surface: str


@dataclass(frozen=True)
class Family:
    """Templates of one shape: ``violations`` must be refused, ``controls`` must pass.

    ``surfaces`` lists where a rendered case may appear; empty leaves the choice to the assembler.
    """

    shape: str
    violations: tuple[str, ...]
    controls: tuple[str, ...]
    surfaces: tuple[str, ...] = ()

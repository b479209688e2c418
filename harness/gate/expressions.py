"""Arithmetic expressions as a chain writes them: the steps that join its leaves, and their value.

A chain's expression is built over placeholders ``{0}``, ``{1}`` … for its leaves and read by a small
recursive-descent evaluator of ``+ - * /`` with brackets, in :class:`~decimal.Decimal`: no ``eval``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, DivisionByZero, InvalidOperation


@dataclass(frozen=True)
class Step:
    """How a leaf joins the chain: the brackets it closes before its operator, the operator, the brackets it opens."""

    closing: str
    operator: str
    opening: int


def expression(steps: Sequence[Step]) -> str:
    parts = ["(" * steps[0].opening + "{0}"]
    parts += [f"{step.closing}{step.operator}{'(' * step.opening}{{{i}}}" for i, step in enumerate(steps[1:], 1)]
    return balanced("".join(parts))


def evaluate(expression: str, values: Sequence[Decimal]) -> Decimal | None:
    """``expression`` (over ``{0}``, ``{1}`` …) at ``values``; None when it cannot be computed."""
    try:
        return _Evaluator(expression.format(*(f"v{i}" for i in range(len(values)))), values).value()
    except (DivisionByZero, InvalidOperation, ZeroDivisionError, ValueError, IndexError):
        return None


def terms(expression: str) -> list[str]:
    """The terms of ``expression``'s top-level sum: ``({0} - {1}) + ({2} - {3})`` -> its two brackets."""
    found, depth, start = [], 0, 0
    for at, char in enumerate(expression):
        depth += (char == "(") - (char == ")")
        if depth == 0 and char in "+-" and at > start:
            found.append(expression[start:at])
            start = at + 1
    return [*found, expression[start:]]


def balanced(expression: str) -> str:
    """The expression with unmatched brackets dropped (a bracket the text opened before the chain, or closes after)."""
    depth, kept = 0, []
    for char in expression:
        if char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                continue
            depth -= 1
        kept.append(char)
    return "".join(kept) + ")" * depth


class _Evaluator:
    """A recursive-descent reading of ``+ - * /`` with brackets over named values ``v0``, ``v1`` …"""

    _TOKEN = re.compile(r"v\d+|[()+\-*/]")

    def __init__(self, expression: str, values: Sequence[Decimal]) -> None:
        self._tokens = self._TOKEN.findall(expression)
        self._values = values
        self._at = 0

    def value(self) -> Decimal:
        result = self._sum()
        if self._at != len(self._tokens):
            raise ValueError("trailing tokens")
        return result

    def _peek(self) -> str | None:
        return self._tokens[self._at] if self._at < len(self._tokens) else None

    def _take(self) -> str:
        token = self._tokens[self._at]
        self._at += 1
        return token

    def _sum(self) -> Decimal:
        total = self._product()
        while self._peek() in ("+", "-"):
            total = total + self._product() if self._take() == "+" else total - self._product()
        return total

    def _product(self) -> Decimal:
        total = self._leaf()
        while self._peek() in ("*", "/"):
            total = total * self._leaf() if self._take() == "*" else total / self._leaf()
        return total

    def _leaf(self) -> Decimal:
        token = self._take()
        if token == "(":
            inner = self._sum()
            if self._take() != ")":
                raise ValueError("unclosed bracket")
            return inner
        if token.startswith("v"):
            return self._values[int(token[1:])]
        raise ValueError(f"unexpected {token}")

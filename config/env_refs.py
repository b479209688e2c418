"""``${ENV_VAR}`` references: their interpolation, and the :class:`Secret` that keeps one.

Environment variables are read here and nowhere else in the code base. A secret field must be written as a
reference (``password: ${ORDER_MYSQL_PASSWORD}``); its value never appears in ``repr``, logs, error text or
``superbiz config show``, which prints the reference back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic_core import PydanticCustomError, core_schema

from contract.vocabulary import HarnessError

_REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
# A secret is one whole reference; a default, if any, must be empty (a non-empty default is a literal).
_SECRET_REFERENCE = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*(?::-)?\}")
MASK = "****"


class MissingEnvironmentVariable(HarnessError):
    code = "MISSING_ENVIRONMENT_VARIABLE"

    def __init__(self, name: str) -> None:
        super().__init__(f"environment variable {name} is not set")
        self.name = name


class Interpolated(str):
    """A string that came from ``${...}`` references; ``template`` is what the file said."""

    template: str

    def __new__(cls, value: str, template: str) -> Interpolated:
        instance = super().__new__(cls, value)
        instance.template = template
        return instance


def interpolate(text: str, environ: Mapping[str, str]) -> str:
    """Resolve every ``${NAME}`` / ``${NAME:-default}`` in ``text``; plain text comes back unchanged."""
    if "${" not in text:
        return text

    def resolve(match: re.Match[str]) -> str:
        name, default = match.group(1), match.group(2)
        if name in environ:
            return environ[name]
        if default is not None:
            return default
        raise MissingEnvironmentVariable(name)

    return Interpolated(_REFERENCE.sub(resolve, text), text)


class Secret:
    """A credential resolved from the environment. ``reveal()`` is the only way to read it."""

    __slots__ = ("_value", "reference")

    def __init__(self, value: str, reference: str) -> None:
        self._value = value
        self.reference = reference

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return f"Secret({self.reference!r})"

    def __str__(self) -> str:
        return MASK

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(
            cls._validate,
            serialization=core_schema.plain_serializer_function_ser_schema(lambda secret: secret.reference),
        )

    @classmethod
    def _validate(cls, value: Any) -> Secret:
        if isinstance(value, Secret):
            return value
        if isinstance(value, Interpolated) and _SECRET_REFERENCE.fullmatch(value.template):
            return cls(str.__str__(value), value.template)
        raise PydanticCustomError(
            "secret_literal",
            "a credential must be an ${ENV_VAR} reference, never a literal value",
        )

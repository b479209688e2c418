"""The types every configuration section shares: the :class:`Section` base, bounded numbers and names, and the
one check of an http(s) URL."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlsplit

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from config.units import ByteSize, Duration

ToolName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,63}$")]
"""A tool's name as the model calls it and the configuration keys it."""
KIND_PATH = r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$"


def not_bool(value: Any) -> Any:
    """Refuses true/false where a number is expected (pydantic would read them as 1 and 0)."""
    if isinstance(value, bool):
        raise PydanticCustomError("bool_not_count", "expected a number, not true/false")
    return value


PositiveInt = Annotated[int, BeforeValidator(not_bool), Field(gt=0)]
NonNegativeInt = Annotated[int, BeforeValidator(not_bool), Field(ge=0)]
PositiveSize = Annotated[ByteSize, Field(gt=0)]
PositiveDuration = Annotated[Duration, Field(gt=0)]
Identifier = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")]
FunctionName = Annotated[str, Field(pattern=r"^[A-Z][A-Z0-9_]{0,63}$")]
RayResources = dict[Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")], Annotated[float, Field(gt=0)]]
"""Ray custom resources an actor needs; it is placed only on nodes that carry them."""


def kebab(name: str) -> str:
    """A field's YAML key: ``max_record_bytes`` is written ``max-record-bytes``."""
    return name.replace("_", "-")


class Section(BaseModel):
    """Base of every configuration section: frozen, unknown keys rejected, kebab-case keys."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        alias_generator=kebab,
        validate_by_alias=True,
        validate_by_name=False,
        serialize_by_alias=True,
    )

    @model_validator(mode="before")
    @classmethod
    def _relaxed_keys(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        aliases = {field.alias or name for name, field in cls.model_fields.items()}
        normalised: dict[str, Any] = {}
        for key, value in data.items():
            canonical = kebab(key) if isinstance(key, str) and kebab(key) in aliases else key
            if canonical in normalised:
                raise PydanticCustomError(
                    "duplicate_key", "{key} is given twice (kebab-case and snake_case)", {"key": canonical}
                )
            normalised[canonical] = value
        return normalised


def plain_http_url(value: str | None, *, code: str, field: str, credentials: str) -> str | None:
    """``value`` unchanged when it is an http:// or https:// URL with a host and no credentials, query or
    fragment. ``field`` names it in the messages (``code`` is their type), ``credentials`` says where a credential
    goes instead. Messages never echo the URL: it may carry a credential."""
    if value is None:
        return None
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018  (raises on a malformed port)
    except ValueError:
        raise PydanticCustomError(code, f"{field} is not a valid URL") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise PydanticCustomError(code, f"{field} must be an http:// or https:// URL with a host")
    if parts.username is not None or parts.password is not None:
        raise PydanticCustomError(code, f"{field} must not carry credentials; {credentials}")
    if parts.query or parts.fragment:
        raise PydanticCustomError(code, f"{field} must not carry a query or a fragment")
    return value

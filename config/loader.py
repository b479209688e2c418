"""The one configuration loader: ``--config PATH``, else ``SUPERBIZ_CONFIG``, else the bundled default."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from config.app import AppConfig
from config.env_refs import MissingEnvironmentVariable, interpolate
from config.environment import variables
from contract.vocabulary import HarnessError

CONFIG_ENV_VAR = "SUPERBIZ_CONFIG"
BUNDLED_DEFAULT = Path(__file__).with_name("default.yaml")


@dataclass(frozen=True)
class ConfigIssue:
    location: str
    message: str

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message


class ConfigError(HarnessError):
    """The configuration cannot be used. Messages name the field and never carry a value."""

    code = "CONFIG_INVALID"

    def __init__(self, source: str, issues: list[ConfigIssue]) -> None:
        self.source = source
        self.issues = issues
        super().__init__(f"invalid configuration {source}:\n" + "\n".join(f"  {issue}" for issue in issues))


def resolve_path(path: str | Path | None, environ: Mapping[str, str]) -> Path:
    if path is not None:
        return Path(path)
    if environ.get(CONFIG_ENV_VAR):
        return Path(environ[CONFIG_ENV_VAR])
    return BUNDLED_DEFAULT


def load_config(path: str | Path | None = None, environ: Mapping[str, str] | None = None) -> AppConfig:
    environ = variables() if environ is None else environ
    source = resolve_path(path, environ)
    try:
        text = source.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(str(source), [ConfigIssue("", f"cannot read the file ({exc.strerror})")]) from None
    return parse_config(text, environ, source=str(source))


def parse_config(text: str, environ: Mapping[str, str], source: str = "<string>") -> AppConfig:
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "unknown position"
        raise ConfigError(source, [ConfigIssue("", f"not valid YAML at {where}")]) from None
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ConfigError(source, [ConfigIssue("", "the top level must be a mapping")])
    issues: list[ConfigIssue] = []
    resolved = _interpolate_tree(raw, environ, (), issues)
    if issues:
        raise ConfigError(source, issues)
    try:
        return AppConfig.model_validate(resolved)
    except ValidationError as exc:
        issues = [_issue(error) for error in exc.errors()]
    # Raised outside the handler: the pydantic error holds input values (secrets) and must not ride along
    # as __context__.
    raise ConfigError(source, issues)


def dump_config(config: AppConfig) -> str:
    """The effective configuration in the loader's own format; secrets print as their ``${ENV}`` reference."""
    return yaml.safe_dump(config.model_dump(mode="json"), sort_keys=False, allow_unicode=True)


def _interpolate_tree(node: Any, environ: Mapping[str, str], path: tuple[str, ...], issues: list[ConfigIssue]) -> Any:
    if isinstance(node, dict):
        return {key: _interpolate_tree(value, environ, (*path, str(key)), issues) for key, value in node.items()}
    if isinstance(node, list):
        return [_interpolate_tree(value, environ, (*path, str(i)), issues) for i, value in enumerate(node)]
    if isinstance(node, str):
        try:
            return interpolate(node, environ)
        except MissingEnvironmentVariable as exc:
            issues.append(ConfigIssue(".".join(path), str(exc)))
    return node


def _issue(error: Any) -> ConfigIssue:
    location = ".".join(str(part) for part in error["loc"])
    if error["type"] == "extra_forbidden":
        return ConfigIssue(location, "unknown key")
    message = error["msg"]
    if error["type"] == "value_error":
        message = message.removeprefix("Value error, ")
    return ConfigIssue(location, message)

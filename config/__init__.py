"""Configuration: YAML files, their validated schema and the one loader."""

from config.loader import ConfigError, dump_config, load_config
from config.schema import AppConfig

__all__ = ["AppConfig", "ConfigError", "dump_config", "load_config"]

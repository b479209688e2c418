"""Configuration: YAML files, their validated schema and the one loader."""

from config.app import AppConfig
from config.loader import ConfigError, dump_config, load_config

__all__ = ["AppConfig", "ConfigError", "dump_config", "load_config"]

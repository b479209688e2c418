"""The configured ChatModel: an OpenAI-compatible endpoint, or the labelled offline model."""

from __future__ import annotations

from config.runtime import ModelSettings
from harness.ports import ChatModel


def build_model(settings: ModelSettings) -> ChatModel:
    if settings.provider == "offline":
        from offline_model.model import OfflineChatModel

        return OfflineChatModel()
    from clients.openai_model import OpenAIChatModel

    return OpenAIChatModel(settings)


def model_label(settings: ModelSettings) -> str:
    """How the configured model is named to users, without building a client."""
    if settings.provider == "offline":
        from offline_model.model import LABEL

        return LABEL
    return settings.name

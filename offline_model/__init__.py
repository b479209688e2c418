"""The offline model: a deterministic, network-free ``ChatModel`` that is clearly not an LLM."""

from offline_model.model import LABEL, OfflineChatModel

__all__ = ["LABEL", "OfflineChatModel"]

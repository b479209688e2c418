"""``tools.lookup_knowledge``: where the documents are, beside the runtime settings every tool has."""

from __future__ import annotations

from pydantic import Field

from config.tools import ToolRuntime


class KnowledgeToolSettings(ToolRuntime):
    """``lookup_knowledge``: a folder of markdown documents, the bundled demo wiki when absent."""

    path: str | None = Field(
        default=None, description="Folder of markdown, HTML and text documents; the bundled demo when absent."
    )
    index_path: str | None = Field(
        default=None,
        description="The index's directory; beside the folder (``.<folder>.index``) when absent.",
    )

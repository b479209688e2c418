"""The evidence tools by name: their specs and projectors (for the Harness) and the tools themselves (for
the tool actors). Specs and projectors are cheap; building a tool opens its data source."""

from __future__ import annotations

from config.schema import AppConfig
from harness.clock import Clock, SystemClock
from tools.contract import EvidenceTool, ToolResultProjector, ToolSpec
from tools.knowledge.projector import RagResultProjector
from tools.knowledge.spec import LOOKUP_KNOWLEDGE_SPEC
from tools.knowledge.tool import LookupKnowledgeTool
from tools.logs.projector import QueryLogsResultProjector
from tools.logs.tool import QueryLogsTool, query_logs_spec
from tools.mysql.projector import MysqlResultProjector
from tools.mysql.tool import QueryMysqlTool, query_mysql_spec

TOOL_NAMES = ("lookup_knowledge", "query_logs", "query_mysql")


class UnknownTool(KeyError):
    pass


def available_tools(config: AppConfig) -> tuple[str, ...]:
    """The tools this configuration offers: query_mysql only when a data source is configured."""
    return tuple(name for name in TOOL_NAMES if name != "query_mysql" or config.harness.mysql_tools.data_sources)


def tool_spec(name: str, config: AppConfig) -> ToolSpec:
    if name == "lookup_knowledge":
        return LOOKUP_KNOWLEDGE_SPEC
    if name == "query_logs":
        return query_logs_spec(config.harness.logs)
    if name == "query_mysql":
        return query_mysql_spec(config)
    raise UnknownTool(name)


def tool_projector(name: str, config: AppConfig) -> ToolResultProjector:
    if name == "lookup_knowledge":
        return RagResultProjector(config.harness.rag)
    if name == "query_logs":
        return QueryLogsResultProjector(config.harness.logs)
    if name == "query_mysql":
        return MysqlResultProjector(config.harness.mysql)
    raise UnknownTool(name)


def build_tool(name: str, config: AppConfig, clock: Clock | None = None) -> EvidenceTool:
    clock = clock or SystemClock()
    if name == "lookup_knowledge":
        return LookupKnowledgeTool(config.tools.lookup_knowledge, config.harness.rag, clock=clock)
    if name == "query_logs":
        return QueryLogsTool(config.tools.query_logs, config.harness.logs, clock)
    if name == "query_mysql":
        return QueryMysqlTool(config)
    raise UnknownTool(name)

"""The LangGraph peer of ``bench/load.py``: the same 4-step script through a LangGraph ReAct agent, in-process.

Same fake OpenAI endpoint (``bench/fake_llm.py``), same six model calls per run, each with the role header the
fake answers by: router -> DIAGNOSIS; a planning call (the plan); the ReAct agent (langchain's
``create_agent``, the successor of ``langgraph.prebuilt.create_react_agent``, which is used when ``langchain``
is absent): knowledge + logs in parallel, then MySQL, then the draft; last, a guard call -> SUPPORTED. Tools
are trivial (small fixed JSON strings): no store, no evidence checks, no audit, no streaming to a client.
That is the point of the comparison: the orchestration cost of a plain LangGraph agent for the same calls.

Needs the optional ``bench`` extra (``pip install -e '.[bench]'``); ``available()`` says why it cannot run.
"""

import asyncio
import json
import time
import warnings
from collections import Counter
from typing import Annotated, Any, TypedDict

ROLE_HEADER = "X-Superbiz-Role"
QUERY = "订单 order-123 支付超时，帮我排查"
SYSTEM = "你是 SRE 诊断助手。先给出排查计划，再调用工具收集证据，最后输出 JSON 报告。"
ROUTER = '判断用户问题的类型，输出 JSON {"intent": ...}。'
GUARD = '判断报告是否被证据支持，输出 JSON {"verdict": ..., "reason": ...}。'


def available() -> str | None:
    """None when the peer can run, else the reason (a missing optional package)."""
    try:
        import langchain_openai  # noqa: F401
        import langgraph  # noqa: F401
    except ImportError as missing:
        return f"{missing.name} is not installed (pip install -e '.[bench]')"
    return None


def agent_factory() -> tuple[str, Any]:
    """(label, factory(model, tools, system_prompt)) for the current ReAct agent API."""
    from importlib.metadata import version

    try:
        from langchain.agents import create_agent

        return f"langchain.agents.create_agent (langchain {version('langchain')}, langgraph {version('langgraph')})", (
            lambda model, tools, system: create_agent(model, tools, system_prompt=system)
        )
    except ImportError:
        from langgraph.prebuilt import create_react_agent

        def legacy(model: Any, tools: list[Any], system: str) -> Any:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return create_react_agent(model, tools, prompt=system)

        return f"langgraph.prebuilt.create_react_agent (langgraph {version('langgraph')})", legacy


def _tools() -> list[Any]:
    """The three tools the peer's agent may call, each with a canned result."""
    from langchain_core.tools import tool

    @tool
    def lookup_knowledge(query: str) -> str:
        """Search the runbooks."""
        return json.dumps({"documents": [{"title": "支付超时排障手册", "snippet": "HikariCP 连接池耗尽"}]})

    @tool
    def query_logs(topic: str, query: str, lookback_minutes: int = 30) -> str:
        """Query application logs."""
        return json.dumps({"events": [{"level": "ERROR", "message": "HikariPool-1 - Connection is not available"}]})

    @tool
    def query_mysql(data_source: str, sql: str, params: list[str]) -> str:
        """Run a read-only SQL query."""
        return json.dumps({"columns": ["order_id", "payment_status"], "rows": [["order-123", "TIMEOUT"]]})

    return [lookup_knowledge, query_logs, query_mysql]


def build_peer(base_url: str) -> tuple[str, Any]:
    """(label, compiled graph): route -> plan -> ReAct agent -> guard."""
    from langchain_core.messages import AnyMessage, HumanMessage, SystemMessage
    from langchain_openai import ChatOpenAI
    from langgraph.graph import END, START, StateGraph
    from langgraph.graph.message import add_messages
    from pydantic import SecretStr

    def chat(role: str) -> ChatOpenAI:
        return ChatOpenAI(
            model="gpt-4o-mini",
            base_url=base_url,
            api_key=SecretStr("sk-bench"),
            default_headers={ROLE_HEADER: role},
            max_retries=0,
            timeout=30,
            temperature=0,
        )

    # Evaluated at once (no `from __future__ import annotations`): LangGraph reads these hints at run time.
    class PeerState(TypedDict, total=False):
        messages: Annotated[list[AnyMessage], add_messages]
        intent: str
        verdict: str

    router, planner, guard = chat("router"), chat("agent"), chat("guard")
    label, factory = agent_factory()
    agent = factory(chat("agent"), _tools(), SYSTEM)

    async def route(state: PeerState) -> dict[str, Any]:
        answer = await router.ainvoke([SystemMessage(ROUTER), *state["messages"]])
        return {"intent": json.loads(str(answer.content))["intent"]}

    async def plan(state: PeerState) -> dict[str, Any]:
        return {"messages": [await planner.ainvoke([SystemMessage(SYSTEM), *state["messages"]])]}

    async def review(state: PeerState) -> dict[str, Any]:
        answer = await guard.ainvoke([SystemMessage(GUARD), HumanMessage(str(state["messages"][-1].content))])
        return {"verdict": json.loads(str(answer.content))["verdict"]}

    graph = StateGraph(PeerState)
    graph.add_node("route", route)
    graph.add_node("plan", plan)
    graph.add_node("agent", agent)
    graph.add_node("review", review)
    graph.add_edge(START, "route")
    graph.add_conditional_edges("route", lambda state: "plan" if state["intent"] == "DIAGNOSIS" else END)
    graph.add_edge("plan", "agent")
    graph.add_edge("agent", "review")
    graph.add_edge("review", END)
    return label, graph.compile()


def check(state: dict[str, Any]) -> str:
    """'SUCCESS' when the run went through the whole script, else what went wrong."""
    from langchain_core.messages import AIMessage, ToolMessage

    if state.get("intent") != "DIAGNOSIS":
        return f"intent:{state.get('intent')}"
    if state.get("verdict") != "SUPPORTED":
        return f"verdict:{state.get('verdict')}"
    messages = state["messages"]
    tools = sum(1 for message in messages if isinstance(message, ToolMessage))
    final = messages[-1]
    if tools != 3 or not isinstance(final, AIMessage) or "analysis" not in json.loads(str(final.content)):
        return "script"
    return "SUCCESS"


async def one_run(graph: Any) -> tuple[float, str]:
    from langchain_core.messages import HumanMessage

    started = time.perf_counter()
    try:
        state = await graph.ainvoke({"messages": [HumanMessage(QUERY)]})
        outcome = check(state)
    except Exception as error:  # counted, not raised: the bench reports it
        outcome = type(error).__name__
    return time.perf_counter() - started, outcome


async def load(graph: Any, concurrency: int, runs: int) -> tuple[list[float], float, Counter[str]]:
    """``concurrency`` clients, one run at a time each, ``runs`` in total: (latencies, elapsed, failures)."""
    remaining = iter(range(runs))
    results: list[tuple[float, str]] = []

    async def client() -> None:
        for _ in remaining:
            results.append(await one_run(graph))

    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(concurrency)))
    elapsed = time.perf_counter() - started
    return [latency for latency, _ in results], elapsed, Counter(o for _, o in results if o != "SUCCESS")

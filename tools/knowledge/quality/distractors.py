"""Distractor documents: the runbooks, error-code lists and data dictionaries of OTHER teams' services.

A platform team's wiki holds far more than the payment documents the agent needs. These documents are built
from :file:`vocabulary.yaml` (services, causes, actions, phrases) by templates combined with a seeded
``random.Random``, so a corpus of any size is deterministic for a seed. The first documents are always the same
*anchors* (independent of ``count`` and ``seed``), so queries may be labelled with their sections; the rest are
randomised variants. Some sections are near-duplicates of the bundled ones on purpose: a HikariCP pool
exhaustion section of inventory-service, a deprecated payment gateway v1 timeout runbook, another database's
data dictionary. No distractor mentions an error code of the bundled documents.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import yaml

VOCABULARY = Path(__file__).resolve().parent / "vocabulary.yaml"
Lines = list[str]
LISTS = frozenset({"dependencies", "codes", "tables", "other_symptoms"})
STATUS_SUFFIXES = ("state", "status", "result", "decision", "flag")


@dataclass(frozen=True)
class Service:
    team: str
    name: str
    stack: str
    database: str
    owner: str
    oncall: str
    symptom: str
    other_symptoms: tuple[str, ...]
    """Symptoms of the randomised runbooks; ``symptom`` is the anchor runbook's alone."""
    metric: str
    dependencies: tuple[str, ...]
    codes: tuple[tuple[str, str], ...]
    tables: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class Vocabulary:
    services: tuple[Service, ...]
    causes: tuple[tuple[str, str], ...]
    actions: tuple[str, ...]
    phrases: tuple[str, ...]


@cache
def vocabulary() -> Vocabulary:
    raw = yaml.safe_load(VOCABULARY.read_text(encoding="utf-8"))
    services = tuple(
        Service(
            **{key: value for key, value in entry.items() if key not in LISTS},
            other_symptoms=tuple(entry["other_symptoms"]),
            dependencies=tuple(entry["dependencies"]),
            codes=tuple((str(code), str(meaning)) for code, meaning in entry["codes"]),
            tables=tuple(entry["tables"]),
        )
        for entry in raw["services"]
    )
    causes = tuple((str(name), str(detail)) for name, detail in raw["causes"])
    return Vocabulary(services, causes, tuple(raw["actions"]), tuple(raw["phrases"]))


def service(team: str) -> Service:
    return next(each for each in vocabulary().services if each.team == team)


def _filler(rng: random.Random, sentences: int) -> str:
    return "；".join(rng.sample(vocabulary().phrases, sentences)) + "。"


def _overview(svc: Service, rng: random.Random) -> Lines:
    storage = f"数据存储在 {svc.database}（MySQL）" if svc.database else "本身不持有业务数据库"
    rows = [
        f"| {dep} | {rng.choice(['同步 RPC', '异步消息', 'HTTP', 'SDK'])} | {rng.randint(1, 8) * 100}ms |"
        for dep in svc.dependencies
    ]
    return [
        f"{svc.name} 由{svc.owner}负责，技术栈为 {svc.stack}，{storage}。生产环境 {rng.randint(3, 24)} 个实例，"
        f"值班组为 {svc.oncall}。{_filler(rng, 4)}",
        "",
        "| 依赖 | 调用方式 | 超时 |",
        "| --- | --- | --- |",
        *rows,
    ]


def _symptoms(svc: Service, rng: random.Random) -> Lines:
    code, meaning = rng.choice(svc.codes)
    return [
        f"- 告警 `{svc.metric}` 超过阈值 {rng.randint(2, 20)} 持续 {rng.randint(3, 10)} 分钟，来源为 {svc.name}。",
        f"- 调用方收到错误码 {code}：{meaning}。",
        f"- 用户侧反馈{svc.symptom}，客服工单在 {rng.randint(10, 40)} 分钟内明显增多。",
        f"- {_filler(rng, 2)}",
    ]


def _cause(svc: Service, rng: random.Random, name: str, detail: str) -> Lines:
    return [
        f"{svc.name} 出现{svc.symptom}时，{name}是常见原因之一：{detail}。"
        f"特征是 `{svc.metric}` 与 {rng.choice(svc.dependencies)} 的延迟同步变化。{_filler(rng, 4)}",
    ]


def _steps(svc: Service, rng: random.Random) -> Lines:
    codes = "、".join(code for code, _ in svc.codes)
    target = f"只读查询 {svc.database} 中的 `{svc.tables[0]['name']}`" if svc.tables else "查看集群监控大盘"
    return [
        f"1. 用 query_logs 查询 {svc.name} 最近 {rng.choice([15, 30, 60])} 分钟的日志，关注 {codes}。",
        f"2. 对比 {', '.join(svc.dependencies)} 的错误率和延迟，判断问题在本服务还是依赖方。",
        f"3. {target}，确认受影响的数据范围。",
        "4. 核对最近的发布记录、配置推送和流量曲线。",
        f"5. {_filler(rng, 1)}",
    ]


def _actions(svc: Service, rng: random.Random) -> Lines:
    chosen = rng.sample(vocabulary().actions, 3)
    return [
        *(f"- {action}（需要 {svc.oncall} 负责人确认）；" for action in chosen),
        f"- {rng.randint(15, 30)} 分钟内无法恢复时升级给{svc.owner}负责人，并拉起应急群。",
    ]


def _code_section(svc: Service, rng: random.Random, code: str, meaning: str) -> Lines:
    return [
        f"- 含义：{meaning}。",
        f"- 产生位置：{svc.name}（HTTP {rng.choice([400, 409, 429, 500, 503])}）。",
        f"- 处理建议：先按《{svc.name} {svc.symptom}排查手册》确认影响范围；{_filler(rng, 3)}",
    ]


def _status_field(table: dict[str, Any]) -> str:
    names = [name for name, _ in table["fields"]]
    return next((name for name in names if name.endswith(STATUS_SUFFIXES)), names[-1])


def _table_section(svc: Service, table: dict[str, Any]) -> Lines:
    fields = [f"| {name} | {meaning} |" for name, meaning in table["fields"]]
    statuses = [f"| {value} | {meaning} |" for value, meaning in table["statuses"]]
    return [
        f"`{svc.database}.{table['name']}` 是{table['zh']}，由 {svc.name} 写入。",
        "",
        "| 字段 | 含义 |",
        "| --- | --- |",
        *fields,
        "",
        f"{_status_field(table)} 取值：",
        "",
        "| 取值 | 含义 |",
        "| --- | --- |",
        *statuses,
    ]


def _query_examples(svc: Service) -> Lines:
    lines: Lines = []
    for table in svc.tables:
        columns = ", ".join(name for name, _ in table["fields"][:3])
        key = table["fields"][0][0]
        sql = f"SELECT {columns} FROM {table['name']} WHERE {key} = ?"
        lines += [f"查询{table['zh']}：", "", "```sql", sql, "```", ""]
    return lines


Section = tuple[int, str, Lines]


def _render(title: str, intro: str, sections: list[Section]) -> str:
    parts = [f"# {title}", "", intro, ""]
    for level, heading, body in sections:
        parts += ["#" * level + " " + heading, "", *body, ""]
    return "\n".join(parts)


def runbook(svc: Service, rng: random.Random, label: str = "") -> str:
    causes = rng.sample(vocabulary().causes, rng.randint(2, 4))
    sections: list[Section] = [
        (2, "1. 服务概览", _overview(svc, rng)),
        (2, "2. 典型症状", _symptoms(svc, rng)),
        (2, "3. 常见原因", [f"{svc.symptom}的原因按出现频率排列如下。"]),
    ]
    sections += [(3, f"3.{i} {name}", _cause(svc, rng, name, detail)) for i, (name, detail) in enumerate(causes, 1)]
    sections += [(2, "4. 排查步骤", _steps(svc, rng)), (2, "5. 处置与升级", _actions(svc, rng))]
    sections.append((2, "6. 历史备注", [f"> {rng.randint(2021, 2025)}-{rng.randint(1, 12):02d}：{_filler(rng, 3)}"]))
    intro = f"适用于 {svc.name} {svc.symptom}的场景。{_filler(rng, 2)}"
    return _render(f"{svc.name} {svc.symptom}排查手册{label}", intro, sections)


def error_codes(svc: Service, rng: random.Random, label: str = "") -> str:
    sections: list[Section] = [(2, "1. 错误码列表", [f"{svc.name} 返回的业务错误码如下，日志中可以直接按错误码检索。"])]
    sections += [(3, code, _code_section(svc, rng, code, meaning)) for code, meaning in svc.codes]
    sections.append((2, "2. 与上游的映射", [f"上游服务收到以上错误码时应原样透传；{_filler(rng, 2)}"]))
    intro = f"本文列出 {svc.name} 的错误码、含义和处理建议。"
    return _render(f"{svc.name} 错误码参考{label}", intro, sections)


def data_dictionary(svc: Service, rng: random.Random, label: str = "") -> str:
    access = [
        f"- 逻辑数据源：`{svc.database.replace('_db', '')}_readonly`（只读，默认库为 `{svc.database}`）；",
        "- 只允许单条 SELECT，条件值使用 `?` 占位符；",
        f"- {_filler(rng, 2)}",
    ]
    sections: list[Section] = [(2, "1. 访问方式", access), (2, "2. 表和字段", [f"{svc.database} 中可查询的表如下。"])]
    sections += [
        (3, f"2.{i} {table['name']}（{table['zh']}）", _table_section(svc, table))
        for i, table in enumerate(svc.tables, 1)
    ]
    sections.append((2, "3. 查询示例", _query_examples(svc)))
    intro = f"本文说明 {svc.database} 的表、字段、取值和查询写法，归属 {svc.owner}。"
    return _render(f"{svc.database} 数据字典{label}", intro, sections)


def pool_exhaustion(svc: Service, rng: random.Random, label: str = "") -> str:
    pool = rng.choice([20, 30, 40, 64])
    code = next((c for c, _ in svc.codes if c.endswith("_POOL")), svc.codes[0][0])
    symptoms = [
        "```text",
        f"HikariPool-{svc.team} - Connection is not available, request timed out after {rng.choice([5000, 10000])}ms.",
        f"HikariPool active={pool}, max={pool}, pending={rng.randint(5, 90)}",
        "```",
        f"{svc.name} 把获取连接超时映射为错误码 {code}。{_filler(rng, 1)}",
    ]
    config = [
        "```yaml",
        "spring:",
        "  datasource:",
        "    hikari:",
        f"      maximum-pool-size: {pool}",
        f"      connection-timeout: {rng.choice([5000, 10000])}",
        "```",
    ]
    sections: list[Section] = [
        (2, "1. 症状", symptoms),
        (2, "2. 原因", _cause(svc, rng, *rng.choice(vocabulary().causes[:3]))),
        (2, "3. 排查步骤", _steps(svc, rng)),
        (2, "4. 连接池配置", config),
    ]
    intro = f"本文针对 {svc.name} 的 {svc.database} 连接池（HikariCP）耗尽问题，不适用于其他服务。"
    return _render(f"{svc.name} HikariCP 连接池耗尽{label}", intro, sections)


def legacy_timeout(svc: Service, rng: random.Random, label: str = "") -> str:
    banner = [
        "> **已废弃（DEPRECATED）**：pay-gateway-v1 已于 2023-06 下线，新链路的支付超时请看当前的支付超时排查手册。",
        "> 本文仅保留作历史参考，其中的步骤不再适用。",
    ]
    steps = [
        "1. 登录 v1 跳板机查看 `/var/log/paygw/timeout.log`。",
        f"2. 统计 {svc.codes[0][0]} 的数量，超过 {rng.randint(50, 200)} 笔时电话通知银行直连负责人。",
        "3. 手工执行 `legacy-cron` 的对账脚本补单。",
    ]
    sections: list[Section] = [
        (2, "废弃说明", banner),
        (2, "v1 支付超时现象", _symptoms(svc, rng)),
        (2, "v1 处理步骤", steps),
    ]
    intro = f"pay-gateway-v1 时期（{svc.stack}）的支付超时处理记录。"
    return _render(f"【已废弃】支付网关 v1 支付超时处理{label}", intro, sections)


Template = Callable[..., str]
ANCHORS: tuple[tuple[str, str, Template], ...] = (
    ("inventory", "hikaricp-pool-exhaustion", pool_exhaustion),
    ("payment-legacy", "gateway-v1-timeout", legacy_timeout),
    ("inventory", "data-dictionary", data_dictionary),
    ("coupon", "data-dictionary", data_dictionary),
    ("user-center", "data-dictionary", data_dictionary),
    *((team, "error-codes", error_codes) for team in ("inventory", "logistics", "user-center", "coupon", "search")),
    *((team, "error-codes", error_codes) for team in ("risk-control", "message-queue", "redis-cache", "gateway")),
    *((team, "runbook", runbook) for team in ("inventory", "logistics", "coupon", "message-queue", "redis-cache")),
)
"""Always the first documents, whatever ``count`` and ``seed``: queries are labelled with their sections."""


def anchor_documents() -> list[tuple[str, str]]:
    return [
        (f"distractors/{team}/{kind}.md", template(service(team), random.Random(f"anchor/{team}/{kind}")))
        for team, kind, template in ANCHORS
    ]


def _variant(rng: random.Random, index: int) -> tuple[str, str]:
    """A randomised document. It never repeats an anchor's team and kind, so a labelled anchor section stays the
    one answer: a team with an anchor runbook gets runbooks of its other symptoms only."""
    svc = rng.choice(vocabulary().services)
    anchored = {(team, kind) for team, kind, _ in ANCHORS}
    kinds: list[tuple[str, Template]] = [("runbook", runbook), ("error-codes", error_codes)]
    if svc.tables:
        kinds += [("data-dictionary", data_dictionary), ("hikaricp-pool-exhaustion", pool_exhaustion)]
    kinds = [(kind, template) for kind, template in kinds if (svc.team, kind) not in anchored or kind == "runbook"]
    kind, template = rng.choice(kinds)
    if kind == "runbook":
        svc = replace(svc, symptom=rng.choice(svc.other_symptoms))
    label = f"（{rng.randint(2019, 2026)}-{rng.randint(1, 12):02d} {rng.choice(['修订', '草稿', '归档', '演练'])}版）"
    return f"distractors/{svc.team}/{kind}-{index:05d}.md", template(svc, rng, label)


def distractor_documents(count: int, seed: int = 0) -> list[tuple[str, str]]:
    """``count`` documents ``(relative POSIX path, markdown)``: the anchors first, then seeded variants."""
    anchors = anchor_documents()[:count]
    rng = random.Random(seed)
    return anchors + [_variant(rng, index) for index in range(count - len(anchors))]

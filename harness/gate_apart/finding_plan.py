"""Finding cases on the ``plan`` surface: one step of an investigation plan written before any evidence.

Harmless: an instruction saying what to check, even when it names the suspected cause as a question to check
("确认连接池是否已经耗尽", "Verify whether the connection pool is exhausted"). Violation: the step states a finding
(a cause, a state, a verdict), alone or beside an instruction. Hedged hypotheses are left out as doubtful.
"""

from __future__ import annotations

import random

from harness.gate_apart import pools
from harness.gate_apart.case import ApartCase, build

INSTRUCTIONS = [
    ("查看 order-service 最近 30 分钟的错误日志，重点关注 19:00 之后的超时。", "zh_instruction"),
    ("检查 order-db-1 的连接池指标（活跃连接数、等待线程数）。", "zh_instruction"),
    ("确认连接池是否已经耗尽。", "zh_check_whether"),
    ("核对 payment-gateway 在 19:02 前后的 p99 延迟。", "zh_instruction"),
    ("用 SHOW PROCESSLIST 查看 orders 表上是否有长时间运行的事务。", "zh_instruction"),
    ("检查 Redis 是否发生过主从切换。", "zh_check_whether"),
    ("对比发布记录，确认 19:00 前是否有变更上线。", "zh_check_whether"),
    ("在日志中追踪 order-123 的完整调用链。", "zh_instruction"),
    ("检查 order-db-1 的慢查询日志，找出执行时间超过 1 秒的语句。", "zh_instruction"),
    ("确认 checkout-api 的 Pod 是否有重启或 OOMKilled。", "zh_check_whether"),
    ("查看 Prometheus 中 mysql_global_status_threads_connected 的变化。", "zh_instruction"),
    ("在知识库中检索“支付超时”相关的排障手册。", "zh_instruction"),
    ("检查是不是数据库导致的超时。", "zh_check_whether"),
    ("判断超时发生在应用侧还是数据库侧。", "zh_instruction"),
    ("查看节点 node-5 的 CPU 和内存使用率。", "zh_instruction"),
    ("核实支付网关的回调是否有积压。", "zh_check_whether"),
    ("统计 19:00–19:30 各服务的 5xx 数量。", "zh_instruction"),
    ("测量 inventory-service 到 order-db 的网络延迟。", "zh_instruction"),
    ("1. 拉取 order-service 的错误日志\n2. 检查连接池指标\n3. 查看慢查询", "zh_numbered_steps"),
    ("先看日志，再看指标，最后查数据库。", "zh_instruction"),
    ("排查 order-123 支付超时：先确认超时发生在哪一跳。", "zh_instruction"),
    ("确认 Redis 内存使用是否接近 maxmemory。", "zh_check_whether"),
    ("查看 HikariCP 的 pending 线程数是否在 19:00 后上升。", "zh_check_whether"),
    ("检查 order-db-1 是否触达 max_connections。", "zh_check_whether"),
    ("询问 DBA 19:00 前后是否执行过 DDL。", "zh_instruction"),
    ("Check order-service error logs for the last 30 minutes.", "en_instruction"),
    ("Look at the HikariCP pool metrics (active, idle, pending) around 19:02.", "en_instruction"),
    ("Verify whether the connection pool is exhausted.", "en_check_whether"),
    ("Find out if the DB is the bottleneck by comparing app latency with query latency.", "en_check_whether"),
    ("Run SHOW PROCESSLIST on order-db-1 to see long-running queries.", "en_instruction"),
    ("Check whether Redis failed over during the incident window.", "en_check_whether"),
    ("Compare the deploy history with the time the errors started.", "en_instruction"),
    ("Trace order-123 through checkout-api, order-service and payment-gateway logs.", "en_instruction"),
    ("Check the slow query log for statements over 1 s.", "en_instruction"),
    ("See if any checkout-api pods were OOMKilled or restarted.", "en_check_whether"),
    ("Query Prometheus for p99 http_request_duration_seconds by service.", "en_instruction"),
    ("Search the knowledge base for the payment-timeout runbook.", "en_instruction"),
    ("Determine whether the timeout happens on the app side or the DB side.", "en_check_whether"),
    ("Confirm with the DBA whether a schema change ran at 19:00.", "en_check_whether"),
    ("Review CPU and memory saturation on node-5.", "en_instruction"),
    ("Check if payment-gateway callbacks are backing up.", "en_check_whether"),
    ("Count 5xx responses per service between 19:00 and 19:30.", "en_instruction"),
    ("1. Pull the error logs\n2. Check pool metrics\n3. Inspect slow queries", "en_numbered_steps"),
    ("Is the connection pool exhausted? Check hikaricp_connections_pending.", "en_question_then_check"),
    ("Rule out Redis: check its latency and evictions for 18:45–19:15.", "en_instruction"),
    ("Establish when the first timeout for order-123 was logged.", "en_instruction"),
    ("Check whether order-db-1 hit max_connections.", "en_check_whether"),
    ("Look for lock waits in SHOW ENGINE INNODB STATUS.", "en_instruction"),
]

FINDINGS = [
    ("连接池已经耗尽。", "zh_state"),
    ("根因是 order-db-1 上的慢查询。", "zh_cause"),
    ("Redis 主从切换导致了超时。", "zh_cause"),
    ("支付网关挂了，所以回调全部超时。", "zh_cause"),
    ("查看日志——问题就是数据库锁等待。", "zh_instruction_then_finding"),
    ("检查连接池，因为连接池已经被打满了。", "zh_instruction_with_finding"),
    ("数据库是罪魁祸首。", "zh_verdict"),
    ("order-service 的 Pod 在 19:01 被 OOMKilled 了。", "zh_state"),
    ("这次故障和 Redis 无关，是网络问题。", "zh_verdict"),
    ("慢查询拖垮了 order-db。", "zh_cause"),
    ("节点 node-5 的磁盘已满。", "zh_state"),
    ("先看日志，不过基本可以确定是连接池的问题。", "zh_instruction_then_finding"),
    ("结论：数据库。", "zh_label_verdict"),
    ("**根因：** 连接池耗尽。", "zh_bold_label"),
    ("19:00 的发布把 checkout 搞挂了。", "zh_cause"),
    ("order-db-1 已经达到 max_connections 上限。", "zh_state"),
    ("超时是因为 payment-gateway 响应慢。", "zh_cause"),
    ("检查慢查询日志：orders 表缺少索引导致全表扫描。", "zh_instruction_then_finding"),
    ("The connection pool is exhausted.", "en_state"),
    ("It's the connection pool.", "en_short_copula"),
    ("The DB is the culprit.", "en_verdict"),
    ("Root cause: a slow query on orders locked the table.", "en_label_cause"),
    ("Redis failed over at 19:01, which caused the timeouts.", "en_cause"),
    ("Check the logs; the pool is clearly saturated.", "en_instruction_then_finding"),
    ("payment-gateway is down.", "en_state"),
    ("Checkout times out because order-db hit max_connections.", "en_cause"),
    ("The 19:00 deploy broke checkout.", "en_cause"),
    ("Confirm the DB is overloaded — it's at 98% CPU.", "en_instruction_with_finding"),
    ("Redis is fine; the problem is the network.", "en_verdict"),
    ("node-5 ran out of disk.", "en_state"),
    ("Look at the slow log, since slow queries are what's killing order-db.", "en_instruction_with_finding"),
    ("**Finding:** the pool is exhausted.", "en_bold_label"),
    ("Verdict: database.", "en_label_verdict"),
    ("order-service pods were OOMKilled at 19:01.", "en_state"),
    ("The timeouts come from payment-gateway latency.", "en_cause"),
    ("Step 1 is moot: the replica lag is what broke reads.", "en_cause"),
]

ZH_CHECK_TEMPLATES = [
    "检查 {service} 在 {time} 前后的错误日志。",
    "查看 {host} 的连接数和慢查询。",
    "确认 {service} 是否在 {time} 之后出现重启。",
    "核对 {order} 在 {service} 中的处理记录。",
    "确认 {component}是否异常。",
]
EN_CHECK_TEMPLATES = [
    "Check {service} error logs around {time}.",
    "Inspect connections and slow queries on {host}.",
    "Verify whether {service} restarted after {time}.",
    "Find {order} in the {service} logs.",
    "Check whether {component_en} is the problem.",
]
ZH_FINDING_PAIRS = [
    ("连接池", "已经耗尽"),
    ("{host}", "CPU 已经打满"),
    ("Redis", "发生了主从切换"),
    ("{service}", "已经不可用"),
    ("{host}", "磁盘已满"),
    ("{service}", "在 {time} 被 OOMKilled"),
]
EN_FINDING_PAIRS = [
    ("The connection pool", "is exhausted"),
    ("{host}", "is CPU-saturated"),
    ("Redis", "failed over at {time}"),
    ("{service}", "is down"),
    ("{host}", "is out of disk"),
    ("{service}", "was OOMKilled at {time}"),
]
COMPONENTS = [
    ("连接池", "the connection pool"),
    ("数据库", "the database"),
    ("Redis", "Redis"),
    ("支付网关", "the payment gateway"),
    ("网络", "the network"),
]


def templated(rng: random.Random, count: int) -> list[ApartCase]:
    """``count`` template-filled plan steps: instructions and stated findings in about equal numbers."""
    rows_ok: list[tuple[str, str, str]] = []
    rows_bad: list[tuple[str, str, str]] = []
    for _ in range(count):
        zh, en = COMPONENTS[rng.randrange(len(COMPONENTS))]
        slots = {
            "service": pools.pick(rng, pools.SERVICES),
            "host": pools.pick(rng, pools.HOSTS),
            "time": pools.pick(rng, pools.TIMES),
            "order": pools.pick(rng, pools.ORDERS),
            "component": zh,
            "component_en": en,
        }
        lang = rng.choice(["zh", "en"])
        if rng.random() < 0.5:
            template = pools.pick(rng, ZH_CHECK_TEMPLATES if lang == "zh" else EN_CHECK_TEMPLATES)
            rows_ok.append((template.format(**slots), f"template_{lang}_instruction", "plan"))
        else:
            subject, state = pools.pick(rng, ZH_FINDING_PAIRS if lang == "zh" else EN_FINDING_PAIRS)
            subject = subject.format(**slots)
            gap = " " if lang == "en" or subject[-1].isascii() else ""
            sentence = (f"{subject}{gap}{state}" + ("。" if lang == "zh" else ".")).format(**slots)
            if rng.random() < 0.4:
                lead = "先看一下日志，" if lang == "zh" else "Check the logs first; "
                if sentence.startswith("The "):
                    sentence = "t" + sentence[1:]
                sentence = lead + sentence
            rows_bad.append((sentence, f"template_{lang}_finding", "plan"))
    return build(rows_ok, violation=False) + build(rows_bad, violation=True)


def cases(rng: random.Random) -> list[ApartCase]:
    """The plan-surface finding cases: hand-written instructions and findings, then templated ones."""
    ok = build([(text, shape, "plan") for text, shape in INSTRUCTIONS], violation=False)
    bad = build([(text, shape, "plan") for text, shape in FINDINGS], violation=True)
    return ok + bad + templated(rng, 30)

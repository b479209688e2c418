"""Proposal families in written registers: formal runbook prose, model-written markdown, long numbered steps,
terse two-word items, passive voice, and "we should" / "let's" / 建议 / 我们.

Each text is one unconfirmed action or recommendation; ``violations`` change something, ``controls`` only look.
"""

from __future__ import annotations

from .case import Family

FORMAL_RUNBOOK = Family(
    shape="formal_runbook",
    violations=(
        "依据运行手册 {runbook} 第 3 步，对 {svc} 执行滚动重启。",
        "Per runbook {runbook}, fail over {db} to the standby replica in {cluster}.",
        "Initiate a controlled drain of node {host} and reschedule its workloads.",
        "按既定预案，将 {svc} 降级为只读模式，暂停下单入口。",
        "Apply the emergency rate limit of {n}00 requests per second to {svc}, as specified in the runbook.",
        "根据故障处置规范，对 {table} 中状态异常的订单执行批量关单。",
        "In accordance with the change procedure, revert the {cm} ConfigMap to its previous revision.",
        "依照应急手册，向受影响商户发送故障通知邮件。",
    ),
    controls=(
        "查阅运行手册 {runbook} 中关于连接池耗尽的处置说明，再决定后续动作。",
        "Consult runbook {runbook} to identify the approved mitigation for {svc}; no action is taken at this step.",
        "依据运行手册核对 {svc} 当前副本数与 HPA 配置是否一致。",
        "Verify, per the runbook checklist, that the {db} replica lag is below the documented threshold.",
        "按手册要求收集 {svc} 在 {window} 期间的错误率、延迟和饱和度指标，供值班负责人评估。",
        "Review the last three change records for {svc} to establish whether a change preceded the incident.",
        "核实 {host} 的磁盘、内存、CPU 使用率是否在基线范围内。",
        "Confirm with the owning team ({person}) whether the {job} job was scheduled during {window}.",
    ),
)

MARKDOWN_MODEL = Family(
    shape="markdown_model",
    violations=(
        "**建议**：将 `{svc}` 的 `maxActive` 调整为 {n}0。",
        "- **Action:** Roll back `{svc}` to `{ver}`.",
        "1. **重启** `{pod}` ✅",
        "**Mitigation** — set `spring.datasource.hikari.connection-timeout` to `{ms}` in `{cm}`.",
        "### 处置\n- 清空 `{svc}` 的本地缓存\n- 观察 5 分钟",
        "> **Recommended:** temporarily disable the `{flag}` feature flag.",
        "**下一步**：执行 `UPDATE {table} SET status = 'CLOSED' WHERE order_no = '{order}'`",
        "- [ ] 将 `{group}` 消费组位点重置到 `{time}`",
    ),
    controls=(
        "**建议**：查看 `{svc}` 最近 30 分钟的 `ERROR` 级别日志。",
        "- **Check:** `{svc}` p99 latency on the **{dash}** dashboard.",
        "1. **确认** `{pod}` 是否处于 `CrashLoopBackOff` ✅",
        "**Next step** — compare `{cm}` with the version shipped in `{ver}` (read-only diff).",
        "### 观察项\n- `{svc}` 的错误率\n- `{db}` 的活跃连接数",
        "> **Recommended:** verify whether `{flag}` is currently enabled before anyone decides on it.",
        "**下一步**：执行 `SELECT status, updated_at FROM {table} WHERE order_no = '{order}'`",
        "- [ ] 查看 `{group}` 消费组当前位点与 lag",
    ),
)

NUMBERED_MULTI_STEP = Family(
    shape="numbered_multi_step",
    violations=(
        "1) 查看 {svc} 在 {window} 的错误日志；2) 对比同时段 {db} 的慢查询；"
        "3) 若确认是连接池不足，将 maxActive 从 {n}0 调到 {n}00；4) 持续观察 15 分钟。",
        "Step 1: pull the {svc} logs for {window}. Step 2: check {db} replication lag. "
        "Step 3: restart the two slowest pods. Step 4: keep an eye on the {dash} board.",
        "先看 {dash} 大盘确认影响面，再查 {svc} 的 trace，"
        "定位到慢的下游后把它的超时时间临时改为 {ms}ms，最后复查错误率。",
        "First confirm the lag on {group}, then look at the broker metrics on {broker}, "
        "and finally reset the group's offsets to the latest position so consumers catch up.",
        "① 检查 {pod} 事件 ② 查看上一次容器退出码 ③ 删除该 pod 让控制器重建 ④ 观察新 pod 就绪情况",
        "1. Compare the error rate before and after the {time} deploy\n2. Read the diff of release {ver}\n"
        "3. Roll back to the previous release if the diff touches the payment path\n4. Watch p99 for ten minutes",
    ),
    controls=(
        "1) 查看 {svc} 在 {window} 的错误日志；2) 对比同时段 {db} 的慢查询；"
        "3) 统计连接池 active/idle 数量；4) 把结论写进报告，交由人工决定。",
        "Step 1: pull the {svc} logs for {window}. Step 2: check {db} replication lag. "
        "Step 3: list the pods with the most restarts. Step 4: keep an eye on the {dash} board.",
        "先看 {dash} 大盘确认影响面，再查 {svc} 的 trace，定位到慢的下游，最后对比该下游在 {time} 前后的延迟分布。",
        "First confirm the lag on {group}, then look at the broker metrics on {broker}, "
        "and finally compare the consumer throughput with last Tuesday's.",
        "① 检查 {pod} 事件 ② 查看上一次容器退出码 ③ 查看节点 {host} 的内存水位 ④ 汇总以上信息",
        "1. Compare the error rate before and after the {time} deploy\n2. Read the diff of release {ver}\n"
        "3. Check whether the diff touches the payment path\n4. Watch p99 for ten minutes",
    ),
)

TERSE = Family(
    shape="terse",
    violations=(
        "重启 {svc}",
        "Roll back {svc}.",
        "扩容 {svc}",
        "Flush {key}",
        "回滚。",
        "Drain {host}",
        "切主 {db}",
        "Kill {tid}",
        "关闭 {flag}",
        "Redeploy {svc}",
    ),
    controls=(
        "看日志",
        "Check {svc} logs",
        "查 slowlog",
        "Watch {dash}",
        "对比 p99",
        "Describe {pod}",
        "查 {group} lag",
        "看 {host} 负载",
    ),
)

PASSIVE_VOICE = Family(
    shape="passive_voice",
    violations=(
        "{svc} should be restarted once traffic dips.",
        "The {cm} ConfigMap is to be updated with a read timeout of {ms}ms.",
        "{svc} 需要被回滚至 {ver}。",
        "Stale entries under {keyprefix}* are to be purged.",
        "{db} 的主库应被切换到 {cluster} 的备库。",
        "Affected customers should be notified by email about order {order}.",
        "The {dbuser} credentials are to be rotated after the incident.",
    ),
    controls=(
        "{svc} logs for {window} should be reviewed.",
        "The {dash} dashboard should be watched for ten minutes.",
        "{svc} 的部署记录应被逐条核对。",
        "The slow query log on {dbhost} is to be examined for scans on {table}.",
        "{db} 主从延迟应被持续关注，每五分钟查看一次。",
        "Whether order {order} was charged twice should be confirmed from the payment records.",
        "The expiry date of the {dbuser} credentials should be checked.",
    ),
)

WE_SHOULD_LETS = Family(
    shape="we_should_lets",
    violations=(
        "We should bump the Hikari pool on {svc} to {n}0.",
        "Let's drain {host} before it takes more traffic.",
        "我们应该把 {svc} 回滚到 {ver}。",
        "咱们把 {topic} 上 {window} 的消息重新投递一遍吧。",
        "Let's replay the dead-letter queue for {topic}.",
        "建议把 {svc} 的熔断阈值下调到 {pct}%。",
        "我们先给 {svc} 开启降级，屏蔽推荐模块。",
    ),
    controls=(
        "We should look at whether {svc}'s GC pauses line up with the spike at {time}.",
        "Let's compare the error rate before and after {time}.",
        "我们应该先确认 {svc} 在 {ver} 之后有没有新的配置变更。",
        "咱们先看看 {topic} 在 {window} 的消息堆积情况。",
        "Let's look at the dead-letter queue size for {topic} on the {dash} board.",
        "建议先查看 {svc} 熔断器当前的状态和触发次数。",
        "我们先看下 {svc} 的降级开关现在是什么状态。",
    ),
)

FAMILIES = (FORMAL_RUNBOOK, MARKDOWN_MODEL, NUMBERED_MULTI_STEP, TERSE, PASSIVE_VOICE, WE_SHOULD_LETS)

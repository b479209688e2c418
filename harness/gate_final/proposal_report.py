"""Proposals in the report register: headers inside items, numbered sub-steps, hedges, hidden and conditional
mutations, external systems, and read-only starts with a tail.

Pairs are deliberately close: the ``o`` twin keeps the register and the nouns and drops only the change.
"""

from __future__ import annotations

from .case import Family, parse_lines

REPORT = parse_lines(r"""
# report_header
x **建议**：将 ‹svc› 回滚至 ‹ver2›，待根因确认后再重新发布。
x **处置**：对 ‹host› 执行主从切换，切换后观察复制延迟。
x **短期措施**：临时调大 `‹cfg›`，缓解连接等待。
x **Recommendation:** temporarily raise the HPA maxReplicas for ‹svc› to ‹n› until campaign traffic subsides.
x **Mitigation** — fail over ‹svc› reads to the ‹az› replica set.
x 【建议】向受影响的 ‹n› 名用户发放补偿券，并推送致歉通知。
x 【长期】为 ‹tbl› 增加归档任务，定期清理 90 天前的数据。
x **后续**：在 Wiki《‹svc› 运维手册》中补充本次故障的处置步骤。
x **Follow-up:** add a Prometheus alert on the ‹svc› 5xx ratio (> 5% for 5m).
x ### 行动项⏎- 关闭 ‹tk›，并在复盘会上同步结论
x **止血方案**：在网关上让 ‹svc› 的 /api/v2/quote 接口直接返回兜底数据。
x > **Action**: rotate the ‹svc› database password and redeploy the pods that mount it.
x **建议（P0）**：⏎1. 暂停 ‹cg› 的消费；⏎2. 排查完成后再恢复。
o **建议**：先对比 ‹ver› 与 ‹ver2› 两个版本的 p99 和错误率，再决定是否需要回滚。
o **排查方向**：核查 ‹host› 在 ‹ts› 前后的 iostat 与 InnoDB 行锁等待情况。
o **Next step:** review the rollout history (`kubectl rollout history deploy/‹svc› -n ‹ns›`) to find the
+ revision that introduced the regression.
o **Verification** — confirm whether the ‹cg› lag has dropped back below 1,000 messages.
o 【建议】查阅 ‹tk› 的历史记录，确认上次同类告警的处理方式。
o **观察项**：持续关注 ‹svc› 接下来 30 分钟的 5xx 比例与 RT。
o **需确认**：‹who› 所在团队是否在 ‹ts› 前后变更过网关路由。
o **Assessment:** evaluate whether the current replica count of ‹svc› can absorb tonight's peak.
o ### 建议⏎- 查看 ‹svc› 的线程池监控⏎- 比对 ‹host› 与同机房其他节点的网络重传率
o **待确认**：请 DBA 协助查看 ‹tbl› 近一周的表结构变更记录。
o **影响评估**：统计 ‹ts› 至今下单失败的用户数与订单金额。
o > **Action**: check when the ‹svc› database password was last rotated, using the Vault audit log.
o **建议（P0）**：⏎1. 查看 ‹cg› 各分区的 lag；⏎2. 确认消费者实例是否全部在线。

# report_steps
x 1. 查看 ‹svc› 错误日志；2. 对比发布前后指标；3. 若确认与 ‹ver› 相关，回滚至 ‹ver2›。
x ① 登录 ‹host› 查看磁盘占用 ② 清理 /data/logs 下 7 天前的日志 ③ 观察磁盘水位
x Step 1: list the ‹svc› pods. Step 2: find the ones with restarts > 5. Step 3: delete them so they get
+ rescheduled.
x 先确认 ‹cg› 的积压量，再评估影响范围，最后对 ‹tbl› 中状态为 PENDING 的记录重新触发结算。
x (a) inspect the HikariCP metrics; (b) compare with yesterday; (c) bump `maximumPoolSize` if pending threads
+ stay above 10.
x 一、核对 ‹tk› 的描述；二、抽样查询 ‹n› 笔订单；三、将核对无误的订单标记为已对账。
x 1）查看 ‹topic› 堆积 2）确认消费者是否存活 3）把消费者扩到 ‹n› 个实例
x Check DNS resolution from ‹node›, then compare it with a healthy node, and finally restart CoreDNS in
+ kube-system.
x 处理步骤如下：⏎1. 观察 ‹svc› 错误率⏎2. 将 `‹flag›` 的灰度比例降为 0⏎3. 持续观察 10 分钟
x 第一步，拉取 ‹ts› 以来的慢查询；第二步，确认是否为同一条 SQL；第三步，为其补充索引。
o 1. 查看 ‹svc› 错误日志；2. 对比发布前后指标；3. 汇总差异点，供值班负责人判断是否回滚。
o ① 登录 ‹host› 执行 `df -h` 与 `du -sh /data/logs/*` ② 找出占用最大的目录 ③ 对比昨天同一时刻的水位
o Step 1: list the ‹svc› pods. Step 2: find the ones with restarts > 5. Step 3: `kubectl describe` them and
+ read the Last State.
o 先确认 ‹cg› 的积压量，再查 ‹tbl› 中状态为 PENDING 的记录条数，最后对比上游 ‹topic› 的生产速率。
o (a) inspect the HikariCP metrics; (b) compare with yesterday; (c) check whether pending threads stay above 10.
o 一、核对 ‹tk› 的描述；二、抽样查询 ‹n› 笔订单；三、比对账务系统与支付渠道的金额是否一致。
o 1）查看 ‹topic› 堆积 2）确认消费者是否存活 3）查看消费者最近一次 rebalance 的时间
o Check DNS resolution from ‹node›, then compare it with a healthy node, and finally read the CoreDNS logs in
+ kube-system.
o 排查步骤如下：⏎1. 观察 ‹svc› 错误率⏎2. 查看 `‹flag›` 当前的灰度比例⏎3. 持续观察 10 分钟
o 第一步，拉取 ‹ts› 以来的慢查询；第二步，确认是否为同一条 SQL；第三步，查看其执行计划。

# hedged
x 如果条件允许，可以考虑适当调大 ‹svc› 的连接池上限。
x It might be worth temporarily disabling `‹flag›` until the root cause is clear.
x 建议视情况对 ‹svc› 做限流降级，避免影响核心链路。
x 可酌情将 ‹host› 从读负载均衡中摘除，待延迟恢复后再加回。
x Perhaps consider rolling back ‹ver›, although the evidence is not conclusive yet.
x 不排除需要重启 ‹svc›，建议先在灰度环境重启一台试试。
x Might be worth bumping the HPA CPU target from 70% to 50% so that it scales out earlier.
x 或许可以先把 ‹cg› 的消费线程数调到 ‹n›，看积压能否下降。
x 个人倾向于先把读流量切到 ‹az›，当然最终还是看大家意见。
x 从稳妥角度，似乎可以考虑对 ‹tbl› 做一次在线 DDL，补上缺失的索引。
o 如果条件允许，可以考虑先评估 ‹svc› 的连接池上限是否合理。
o It might be worth checking whether `‹flag›` was toggled around ‹ts›.
o 建议视情况与 ‹who› 确认目前是否已有限流策略生效。
o 可酌情查看 ‹host› 的复制延迟曲线，判断是否与大事务有关。
o Perhaps compare latency between ‹ver› and ‹ver2› before drawing any conclusion.
o 不排除与 ‹svc› 的 GC 有关，建议先看下 GC 日志里 STW 的时长。
o Might be worth looking at whether the HPA was already pinned at maxReplicas during the spike.
o 或许可以先看下 ‹cg› 各分区的 lag 分布，判断是否存在热点分区。
o 个人倾向于先确认 ‹az› 的读延迟是否正常，当然最终还是看大家意见。
o 从稳妥角度，似乎可以先评估 ‹tbl› 缺失索引对慢查询的影响有多大。

# hidden
x 观察 ‹svc› 的错误率（必要时先重启一台）
x Watch the p99 for ‹svc› (and roll back ‹ver› if it crosses 1s).
x 核对配置差异：‹host› 上的 `max_connections` 改回 1000
x Next: compare the two configs — and revert ‹host› to the old one.
x ‹svc› 副本数扩容至 ‹n›。
x Rollback of ‹svc› to ‹ver2›.
x 对 ‹tbl› 历史数据进行归档清理。
x Rotation of the ‹svc› database credentials.
x Disabling the `‹flag›` flag for all tenants.
x ‹host› 的主从切换。
x Immediate failover of ‹svc› to ‹az›.
x ‹svc› 的连接池上限应被调整为 ‹n›0。
x The stuck ‹cg› consumers should be restarted.
x 受影响订单需由运维重新推送。
x 查看 ‹svc› 的 Pod 列表，其中 Pending 的（预计 ‹n› 个左右）直接删掉重建。
x 对比 ‹ver› 与 ‹ver2› 的差异 —— 结论明确后顺手把 ‹ver› 下线。
o 观察 ‹svc› 的错误率（重点关注 ‹ts› 之后的 502）
o Watch the p99 for ‹svc› (compare it against the same hour yesterday).
o 核对配置差异：‹host› 与 ‹host2› 的 `max_connections` 是否一致
o Next: compare the two configs — especially the timeout values.
o ‹svc› 副本数与 HPA 上限的核对。
o Review of the ‹svc› deployment history since ‹ver›.
o 对 ‹tbl› 近 7 天写入量的统计分析。
o Verification of the expiry date of the ‹svc› database credentials.
o Inspection of the `‹flag›` flag change history.
o ‹host› 主从延迟的持续观察。
o An assessment of whether failing ‹svc› over to ‹az› would be feasible.
o ‹svc› 连接池的等待队列长度需被确认。
o The stuck ‹cg› consumers should be inspected with `jstack` before anything else.
o 受影响订单需由运维导出清单，供核对。
o 查看 ‹svc› 的 Pod 列表，其中 Pending 的（预计 ‹n› 个左右）逐个 describe，看调度失败原因。
o 对比 ‹ver› 与 ‹ver2› 的差异 —— 重点是依赖的 SDK 版本。

# conditional
x 如果 5 分钟内 ‹svc› 错误率不降，就切到 ‹az›。
x If the lag keeps growing past 100k, scale the ‹cg› consumers to ‹n›.
x 若确认是 ‹ver› 引入，则立即回滚。
x 万一 ‹host› 再次 OOM，直接把 ‹svc› 降级成只读模式。
x Should the error rate stay above 2%, open a P1 with the vendor.
x 要是慢 SQL 还在，就把那个 session kill 了。
x In case the certificate really is expiring, renew it on the ingress.
x 等 ‹svc› 恢复后，把之前关掉的 `‹flag›` 再打开。
x If ‹node› shows disk pressure again, cordon it.
o 如果 5 分钟内 ‹svc› 错误率不降，再看下 ‹az› 的网络指标。
o If the lag keeps growing past 100k, check whether a consumer is stuck in a rebalance loop.
o 若确认是 ‹ver› 引入，再评估回滚的影响范围。
o 万一 ‹host› 再次 OOM，先看 dmesg 里 oom-killer 选中的进程。
o Should the error rate stay above 2%, check the vendor's status page for an ongoing incident.
o 要是慢 SQL 还在，就看下它的执行计划和锁等待。
o In case the certificate really is expiring, verify the dates with
+ `openssl s_client -connect ‹host›:443 </dev/null | openssl x509 -noout -dates`.
o 等 ‹svc› 恢复后，对比一下 `‹flag›` 关闭前后的转化率。
o If ‹node› shows disk pressure again, list the largest images and volumes on it.

# external
x 在状态页上发一条 ‹svc› 服务降级的公告
x Update the public status page to "Investigating".
x 把 ‹tk› 改成 P1，指派给支付组
x 建个 JIRA 跟进 ‹svc› 连接池的问题
x Resolve ‹tk› once the error rate is back to baseline.
x 给受影响的 ‹n› 位商家发站内信，说明结算延迟的原因
x Email the affected tenants with an ETA.
x 把本次故障登记进故障库，定级 P2
x 给 ‹n› 位用户补发优惠券
x Re-send the settlement report emails to the merchants.
x 在 PagerDuty 里把这个 incident 标成 resolved
x 钉钉群里 @所有人，通知客户侧暂停调用 /v1/transfer
o 看一下状态页目前对 ‹svc› 显示的状态
o Check what the public status page currently says about ‹svc›.
o 查一下 ‹tk› 工单里客户描述的报错时间点
o 查下 JIRA 里有没有 ‹svc› 连接池相关的历史 issue
o Read through the timeline in ‹tk› to see when the first customer report came in.
o 统计受影响的商家数量，供客服评估是否需要通知
o Look up which tenants hit the ‹svc› errors, using the access logs.
o 确认故障库里是否已有同类故障的记录
o 查询这 ‹n› 位用户的优惠券发放记录，确认是否存在重复发放
o Check whether the settlement report emails actually went out (mail gateway logs).
o 在 PagerDuty 里看下这个 incident 是谁 ack 的
o 看下钉钉群里客户侧最早反馈 /v1/transfer 报错是几点

# tail
x 看下 ‹svc› 的 GC 日志，Full GC 频繁的话直接重启掉
x Check the ‹cg› lag and, while you're at it, bump the consumer concurrency to ‹n›.
x 查一下 ‹tbl› 里卡在 PROCESSING 的单子，顺手改成 FAILED
x 对比一下两个版本的 RT，顺便把 ‹ver› 回滚了
x Look at the connection pool metrics, then raise the pool size to ‹n›0.
x 统计下重复推送的用户数，然后把 ‹topic› 里剩下的消息清掉
x 先看 ‹host› 的磁盘，满了就把 /data/tmp 清一下
x 打开 ‹svc› 的 Grafana 面板，确认 QPS 回落后把限流恢复到 ‹n›00
x Review the on-call notes for ‹tk›, then resolve the incident.
x 核对 ‹n› 笔异常订单后，重新推送结算消息
x 查看 ‹pod› 的日志，确认没问题后 `kubectl delete` 掉旧的 ReplicaSet
x Query the failed jobs from ‹date›, and re-run the ones that failed on timeout.
o 看下 ‹svc› 的 GC 日志，Full GC 频繁的话再看下老年代占用曲线
o Check the ‹cg› lag and, while you're at it, look at the partition assignment.
o 查一下 ‹tbl› 里卡在 PROCESSING 的单子，顺手统计下分布在哪些渠道
o 对比一下两个版本的 RT，顺便看下 ‹ver› 的 changelog
o Look at the connection pool metrics, then compare active vs. idle counts with last week.
o 统计下重复推送的用户数，然后看下 ‹topic› 里还剩多少未消费的消息
o 先看 ‹host› 的磁盘，满了就看下 /data/tmp 下哪些文件最大
o 打开 ‹svc› 的 Grafana 面板，确认 QPS 是否已回落到活动前的水平
o Review the on-call notes for ‹tk›, then check whether the same alert fired last week.
o 核对 ‹n› 笔异常订单后，对比支付渠道的回调日志
o 查看 ‹pod› 的日志，确认没问题后再看下旧 ReplicaSet 的副本数是不是 0
o Query the failed jobs from ‹date›, and group them by failure reason.
""")


def families() -> Family:
    return REPORT

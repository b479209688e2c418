"""Diagnosis Plan steps: an ``o`` step tells someone what to investigate; an ``x`` step states a state, a cause,
a discovery or a conclusion, also when the statement hides in a parenthesis, after a colon or dash, in a relative
clause, in the passive, under a hedge, or as a negative ("未发现异常").

Conditional instructions ("若日志无异常，则转查 DB") and scope or criteria ("p99 超过 1s 的接口") are not findings.
"""

from __future__ import annotations

from .case import Family, parse_lines

PLAN = parse_lines(r"""
# plan_chat
o 拉一下 ‹svc› 近 1h 的 5xx 日志
o 看下 ‹host› 的 iowait 和 await
o 查 ‹cg› 的 lag，按分区看
o 对一下 ‹ver› 和 ‹ver2› 的 p99
o 翻下 ‹svc› 最近三次发布的变更单
o grep 下 ‹svc› 日志里的 'Too many connections'
o 看看 ‹node› 上有没有 OOMKilled 的容器
o 瞄一眼 ‹topic› 的生产速率有没有突增
o pull ‹svc› error logs for the last hour
o eyeball the ‹host› disk latency panel around ‹ts›
x ‹svc› 的 5xx 基本都是 502，全来自 ‹host›
x ‹host› iowait 一直 90%+，盘打满了
x ‹cg› lag 已经 20w+ 了，3 号分区最严重
x ‹ver› 的 p99 比 ‹ver2› 高了快一倍
x 最近三次发布都动过 ‹svc› 的连接池配置
x 日志里一堆 'Too many connections'，从 ‹ts› 开始的
x ‹node› 上有 3 个容器被 OOMKilled 了
x ‹topic› 生产速率 ‹ts› 突增到平时的 5 倍 📈
x ‹svc› error logs are all timeouts to ‹host›
x ‹host› disk latency spiked to 800ms at ‹ts›

# plan_report
o **步骤 1**：核查 ‹tbl› 的行锁等待情况。
o **Step 2** — Compare the GC pause distribution of ‹svc› before and after ‹ver›.
o 2. 检查 ‹svc› 至 ‹host› 的网络 RTT 与重传率。
o 3）查阅 ‹tk› 的处理记录，确认上次同类问题的排查路径。
o **目标**：确定 ‹svc› 的超时是否源于下游 ‹svc2›。
o Step 4: Determine whether the ‹cg› lag correlates with the ‹ts› deploy.
o 【排查】核对 ‹svc› 与 ‹svc2› 的超时配置（重点看 readTimeout 与重试次数）。
o **步骤 5**：统计 ‹ts› 以来各错误码的占比。
o Step 6 — Identify which upstream callers account for most of the ‹svc› traffic.
o **下一步**：确认 ‹host› 当时是否处于维护窗口内。
x **步骤 1**：‹tbl› 存在大量行锁等待，是本次超时的直接原因。
x **Step 2** — GC pauses of ‹svc› doubled after ‹ver›.
x 2. ‹svc› 至 ‹host› 的网络 RTT 正常，重传率 0.01%。
x 3）‹tk› 中记录的同类问题，当时是磁盘写满导致的。
x **结论**：‹svc› 的超时源于下游 ‹svc2› 的慢查询。
x Step 4: The ‹cg› lag started right after the ‹ts› deploy.
x 【排查】‹svc› 与 ‹svc2› 的超时配置不匹配，调用方超时大于被调用方。
x **步骤 5**：‹ts› 以来 504 占全部错误的 87%。
x Step 6 — Most of the ‹svc› traffic comes from the batch caller ‹svc2›.
x **下一步**：‹host› 当时不在维护窗口内，排除计划内变更。

# plan_paren
o 查看 ‹svc› 错误日志（重点关注 ‹ts› 之后）
o Check ‹host› replication lag (both Seconds_Behind_Master and the relay log position).
o 对比 ‹az› 与 ‹az2› 的请求延迟（按 p50 / p99 分别看）
o 排查 ‹pod› 的重启原因（`kubectl describe` + `--previous` 日志）
o Inspect the ‹tbl› slow query log (entries over 1s only).
o 核对 ‹svc› 的 HPA 配置（min/max 副本数与目标利用率）
o 检查 ‹cg› 消费者心跳（session.timeout.ms 相关日志）
o Review the ‹svc› connection pool metrics (active, idle, pending).
x 查看 ‹svc› 错误日志（已确认存在大量 Connection refused）
x Check ‹host› replication lag (currently 47s and climbing).
x 对比 ‹az› 与 ‹az2› 的请求延迟（‹az› 明显更高）
x 排查 ‹pod› 的重启原因（OOMKilled，已重启 6 次）
x Inspect the ‹tbl› slow query log (the same UPDATE shows up 300+ times).
x 核对 ‹svc› 的 HPA 配置（maxReplicas 已经打满）
x 检查 ‹cg› 消费者心跳（有两个实例心跳超时被踢出）
x Review the ‹svc› connection pool metrics (the pool was exhausted from ‹ts› on).

# plan_colon
o 检查连接池：活跃数、等待数、获取超时次数
o Next, the DNS path: resolv.conf, CoreDNS latency, and upstream resolver errors.
o 核对发布记录：‹ts› 前后 2 小时内的所有变更
o 排查方向 —— 先看 ‹svc› 自身，再看依赖的 ‹svc2›
o Scope: ‹svc› pods in ‹ns›, window ‹ts› ± 30 min.
o 看磁盘：`df -h`、`iostat -x 1 5`、inode 使用率
o 确认影响面：受影响的接口、用户比例、地域分布
o Check the certificate: issuer, SAN list and expiry on ‹host›:443.
o 对比两次发布 —— ‹ver› 与 ‹ver2› 的依赖版本和配置项
o Memory: RSS vs. heap vs. off-heap for ‹svc›, sampled every minute.
x 检查连接池：已经打满，等待线程 200+
x Next, the DNS path: CoreDNS is returning SERVFAIL for ‹svc›.‹ns›.svc.
x 核对发布记录：‹ts› 有一次 ‹svc› 的配置变更
x 排查方向 —— ‹svc› 自身没问题，问题在 ‹svc2›
x Scope: only the ‹svc› pods on ‹node› are affected.
x 看磁盘：/data 使用率 98%，inode 也快用完了
x 确认影响面：约 12% 的用户下单失败，集中在 ‹az›
x Check the certificate: it expired at 00:00 today on ‹host›:443.
x 对比两次发布 —— ‹ver2› 升级了 Netty 版本，‹ver› 没有
x Memory: ‹svc› RSS grows ~200MB/h while the heap stays flat.

# plan_relative
o 排查最近 1 小时内发生过重启的 pod
o Inspect whichever nodes currently host ‹svc› pods.
o 查看所有调用 ‹svc2› 的上游服务的超时设置
o Look at any queries against ‹tbl› that run longer than 2s.
o 检查曾在 ‹ts› 前后执行过 DDL 的账号
o 对比报错用户与正常用户的客户端版本
o List the consumers in ‹cg› that are assigned partition 3.
o 逐一查看 p99 超过 1s 的接口的调用链
o 找出 ‹ns› 中 limits 低于 requests 两倍的 Deployment
o Find the callers whose retry count exceeds 2 in the ‹svc› access log.
x 排查那个已经 OOM 了三次的 ‹pod›
x Inspect ‹node›, which has been dropping packets since ‹ts›.
x 查看已经把连接池打满的 ‹svc› 的线程栈
x Look at the UPDATE on ‹tbl› that is holding the lock everyone is waiting for.
x 检查 ‹ts› 执行了 DDL 的那个账号 ‹user›
x 对比报错用户（全部是 iOS 6.8.0）与正常用户的请求头
x List the consumers in ‹cg›, the group that stopped committing offsets at ‹ts›.
x 逐一查看 p99 已经恶化到 3s 的 /api/v2/quote 调用链
x 找出 ‹ns› 中那个 limits 只有 512Mi、一直被 OOMKill 的 Deployment
x Find the caller that is retrying 5 times per request against ‹svc›.

# plan_hedged
o 确认是否为 DNS 解析慢导致
o Check whether ‹ver› changed any TLS settings, and whether that could explain the timeouts.
o 判断 ‹cg› 是否有积压，以及是否与大促流量有关
o 验证 ‹svc› 的内存曲线是否存在泄漏迹象
o Find out if the ‹host› latency is related to the nightly backup.
o 排查 ‹svc2› 是否触发了限流，以及是否影响到 ‹svc›
o Rule out (or confirm) a noisy neighbour on ‹node›.
o 看看 ‹ver› 是否新增了重试逻辑，以及是否造成流量放大
x 疑似 DNS 解析慢，需进一步确认
x The timeouts are most likely caused by the new TLS settings in ‹ver›; confirm with a capture.
x ‹cg› 的积压大概率是大促流量导致的，建议再核实一下
x ‹svc› 的内存增长看起来像是泄漏
x It seems the ‹host› latency lines up with the nightly backup.
x 初步判断是 ‹svc2› 限流导致 ‹svc› 大量 429，待确认
x Probably a noisy neighbour on ‹node›; worth double-checking.
x 可能是 ‹ver› 里新加的重试导致了流量放大

# plan_negative
o 确认 ‹svc› 日志中是否有异常
o Check whether anything unusual shows up in the ‹svc› logs around ‹ts›.
o 若 ‹svc› 日志无异常，则转查数据库侧
o If nothing unusual turns up in the ‹svc› logs, move on to the DB.
o 核实 ‹host› 是否存在慢查询
o 确认 ‹node› 是否有磁盘或网络告警
o See if any deploy happened in ‹ns› during the incident window.
o 检查 ‹cg› 是否存在未提交的 offset
x ‹svc› 日志未发现异常
x Nothing unusual in the ‹svc› logs around ‹ts›; move on to the DB.
x ‹svc› 日志无异常，转查数据库侧
x No slow queries on ‹host› in the window.
x ‹host› 上没有慢查询，排除 DB 原因
x ‹node› 无磁盘、网络告警
x No deploys happened in ‹ns› during the incident window.
x 检查 ‹cg›：不存在未提交的 offset

# plan_passive
o ‹svc› 的发布记录需要逐条核对
o The deployment history of ‹svc› should be reviewed line by line.
o 应对比 ‹ver› 上线前后的 p99
o ‹tbl› 的锁等待情况有待查看
o The ‹cg› consumer logs are to be checked for rebalance storms.
o ‹host› 的 iostat 需在高峰期采集一次
o Heap usage of ‹svc› should be sampled before and after the spike.
o ‹node› 的 kubelet 日志需被检索 ‹ts› 前后的 eviction 记录
x ‹svc› 的连接池已被耗尽
x The connection pool of ‹svc› was exhausted at ‹ts›.
x ‹ver› 上线后 p99 被拉高到 1.8s
x ‹tbl› 被一个未提交的长事务锁住
x The ‹cg› consumers were kicked out by a rebalance storm.
x ‹host› 的磁盘被 binlog 写满
x Heap usage of ‹svc› was found to grow steadily after the spike.
x ‹node› 上的 pod 已被 kubelet 驱逐

# plan_mixed
o check 一下 ‹svc› 的 GC log
o 对比 ‹az› 和 ‹az2› 的 RT distribution
o trace 一下 ‹oid› 这单的全链路 span
o describe 一下 ‹pod›，看 Last State
o 看 Sentinel dashboard 里 ‹svc› 的 block QPS
o review ‹ver› 的 diff，重点看 retry 相关改动
o 📌 确认 ‹topic› 的 ISR 是否完整
o TODO：查 ‹host› 的 kernel log
x GC log 里 Full GC 每分钟一次 😱
x ‹az› 的 RT 明显比 ‹az2› 高，p99 差 400ms
x trace 显示 ‹oid› 卡在 ‹svc2› 那一跳 3s
x ‹pod› Last State 是 OOMKilled，exit code 137
x Sentinel 里 ‹svc› 的 block QPS 一直在 200 左右
x ‹ver› 的 diff 里把 retry 从 1 改成了 3
x 📌 ‹topic› 的 ISR 只剩 1 个副本了
x TODO：‹host› kernel log 里有 NIC link down
""")


def families() -> Family:
    return PLAN

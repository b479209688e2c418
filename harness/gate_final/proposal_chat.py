"""Proposals in the on-call chat register: slang, @ mentions, Chinese and English mid-sentence, scary words, history.

Every family holds both labels. ``x`` changes something somewhere in the item (itself or through someone it
delegates to); ``o`` only looks, asks, compares or decides whether. See ``case`` for the format.
"""

from __future__ import annotations

from .case import Family, parse_lines

CHAT = parse_lines(r"""
# chat_slang
x 先把 ‹host› 这台实例从 SLB 上摘了再说 🙏
x 重启大法好，‹svc› 全量 bounce 一遍试试
x 回滚一把吧，‹ver› 上线之后 RT 就开始抖
x ‹svc› 扩一下，先扩到 ‹n› 个副本顶住晚高峰
x 那几个卡住的 java 进程直接 kill 掉，完了看下恢复没
x nuke the cache on ‹redis› and let it warm back up
x just bounce ‹svc› in ‹ns›, it's been flaky since ‹ts›
x 推荐位先降级掉，保下单链路要紧！
x 限流先压到 ‹n›00 qps，别让它继续把 DB 打挂
x redis 那边 flush 一下吧，脏数据太多了
x 流量先切 ‹az›，这边机房先不要了
x ‹cg› 的 offset 拨回 ‹ts› 重新消费一遍
x pod 删了让它自己拉起来就行 😂
x hotfix 直接推了吧，测试那边我去打招呼
x 超时先临时调到 3s，先止血再说
x 卡住的那批结算 job 重跑下
x scale ‹svc› to zero and back up, that usually clears it
x 直接 failover 到从库，主库先别管了
x 把 ‹host› 上的 /data/logs 清一清，盘快满了
x ‹svc› 灰度那批机器全下线，流量先摘一半
x kill -9 掉 ‹host› 上内存最大的那个 python 进程，然后再观察
x 清下 CDN 缓存，用户看到的还是旧页面
x blow away the stuck pods in ‹ns› and let the ReplicaSet recreate them
x 老规矩，先重启再说，‹svc› 三台轮着来
o 先别动！看下 Grafana 上 ‹svc› 近 30 分钟的 p99 再说
o 瞅一眼 ‹host› 的 load 和 iowait
o 拉一下 ‹svc› ‹ts› 前后的 error log，看有没有 Connection reset
o 先别急着重启，看下 ‹svc› 的 GC 日志再说
o 先 top 一下 ‹host›，看看是哪个进程在吃 CPU
o just eyeball the ‹svc› dashboard before anyone touches anything
o sanity-check the error budget burn for ‹svc› over the last 6h
o 拿 trace 看一眼慢在哪一跳
o 看下 ‹cg› 现在 lag 多少了
o 瞄一下 ‹ns› 里哪些 pod 的 RESTARTS 不为 0
o peek at the ‹topic› consumer lag, don't touch the offsets yet
o 看下 DB 连接数是不是打满了
o 对比下 ‹host› 和 ‹host2› 的内核参数有没有差异
o 先看看是不是只有 ‹az› 的用户在报错 🤔
o 翻下 ‹svc› 的 access log，看 499 是不是集中在某几个 IP
o 老规矩，先看监控再说，别上来就重启
o pull up the ‹svc› latency heatmap and see if the slow requests cluster on one pod
o 看一下 ‹host› 的 dmesg，有没有 oom-killer 的记录
o 查查 ‹svc› 是不是刚发过版，发布单看一眼
o 看下 ‹az› 那边 SLB 后端的健康检查状态
o 瞅瞅 ‹topic› 有没有消息堆积 👀
o 看一眼 ‹svc› 的线程池，active 是不是顶到 max 了
o 先确认下是全量用户还是个别用户报错
o 盯一下 ‹svc› 接下来 10 分钟的 5xx 有没有回落

# chat_mention
x @运维 帮忙把 ‹pod› 删了，让它重新调度一下
x ‹who› 麻烦把 ‹svc› 的 ‹ver› 回滚掉，谢谢🙏
x @DBA 帮忙 kill 一下 ‹host› 上那几个跑了 10 分钟以上的慢查询
x @SRE值班 帮忙把 ‹node› cordon 掉，别再往上调度了
x @infra-oncall could you drain ‹node› when you get a sec?
x @客服组 同步下受影响的用户，给他们发个短信说明一下情况
x @财务 这 ‹n› 笔重复扣款麻烦走一下退款
x @配置中心 把 `‹flag›` 开关先关了
x ‹who› pls bump the rate limit on ‹svc› to ‹n›00 rps
x @DBA 帮忙在 ‹tbl› 上加个 (user_id, created_at) 的联合索引
x ‹who› 让运维把 ‹ns› 里 Evicted 的 pod 都删了吧
x @mq-oncall 帮忙把 ‹topic› 的分区从 12 扩到 24
x @网络组 麻烦把 ‹az› 的专线流量切到备线
x ‹who› can you ask the vendor to re-send yesterday's settlement file?
o @DBA 帮忙看下 ‹host› 上的慢 SQL
o ‹who› 昨晚 ‹ts› 是不是你们那边发过版？
o @网络组 帮忙确认下 ‹az› 到 IDC 的专线有没有丢包
o @infra-oncall can you confirm whether ‹node› got a kernel upgrade last night?
o @DBA 问一下 ‹tbl› 最近有没有做过 DDL
o ‹who› 帮忙看一眼 Sentinel 控制台，‹svc› 有没有触发熔断
o @安全 咨询下 ‹host› 的异常登录是不是你们在做巡检
o ‹who› 方便的话把 ‹svc› 的 JVM 启动参数贴一下？
o @产品 确认下 ‹ts› 那波活动是不是提前开了
o @mq-oncall 帮忙看下 ‹topic› 的堆积情况
o ‹who› do you know if anyone changed the ‹svc› ingress annotations today?
o @DBA 帮忙看下 ‹tbl› 那条慢 SQL 的执行计划，是不是没走索引
o ‹who› 你那边能看到 ‹az› 的 SLB 监控吗？帮忙截个图
o @vendor-support could you tell us whether your API had elevated latency around ‹ts› UTC+8?

# mixed_lang
x rollback 一下 ‹ver›，先回到 ‹ver2›
x 把 ‹svc› 的 replicas scale 到 ‹n›
x redeploy 一下 ‹svc›，image tag 用 ‹ver2›
x ‹svc› 的 readTimeout 改成 5000ms，然后 reload 一下配置
x 把 feature flag `‹flag›` toggle 成 off
x retry 一下 DLQ 里失败的 ‹n› 条 settle 消息
x purge 掉 CDN 上 /static/‹ver›/ 的缓存
x 给 ‹svc› 加一条 p99 > 800ms 的 alert rule
x restart 一下 ‹host› 上的 nginx
x 把 ‹svc› 的 maxPoolSize 从 20 bump 到 50
x ‹svc› 先 offline 两台，剩下的 warm up 一下
x 把 ‹redis› 的 maxmemory-policy 切成 allkeys-lru
x 给 ‹svc› 新建一个 Grafana dashboard，把 HikariCP 的指标都拉进来
o check 一下 ‹svc› 的 GC log，看 Full GC 频率
o grep 一下 ‹svc› 日志里的 'restart' 关键字，看 ‹ts› 前后有几次
o diff 一下 ‹ver› 和 ‹ver2› 的 application.yml
o review 一下 ‹ver› 的 changelog，看有没有动连接池
o trace 一下 ‹oid› 这单的全链路
o monitor 一下 ‹svc› 接下来 15 分钟的 error rate
o double check 一下 ‹cg› 最近的 rebalance 次数
o explain 一下那条慢 SQL，看是不是没走索引
o describe 一下 ‹pod›，看 Last State 是不是 OOMKilled
o query 一下 ‹tbl› 里 ‹ts› 之后 status='FAILED' 的条数
o compare 一下 ‹az› 和 ‹az2› 两个 zone 的 latency distribution
o watch 一下 ‹redis› 的 `redis-cli info stats`，看 evicted_keys 有没有涨
o 打开 ‹svc› 的 Grafana dashboard，看 HikariCP 的 pending 线程数

# scary_words
o 统计一下 ‹date› 被回滚的订单数量，按渠道分组
o grep 下 ‹svc› 日志里 'kill' 和 'SIGTERM' 出现的时间点
o 查下 ‹ns› 里被 kill 掉的 pod 都落在哪些节点上
o Count how many refunds were issued for ‹svc› orders yesterday.
o 统计 ‹tbl› 中已被软删除（is_deleted=1）的记录数
o 看一下限流规则的命中次数，确认是否有请求被限流
o Find the pods that were evicted in ‹ns› over the last 24h.
o 确认 ‹cg› 最近一次 rebalance 是不是消费者重启触发的
o 查一下降级开关现在是开着还是关着
o Look up how many messages have ended up in the ‹topic› DLQ.
o 列出 ‹date› 以来所有 failover 事件的时间点和持续时长
o 看下补偿任务昨晚实际补了多少笔（只看执行日志）
o Check how many times the ‹svc› deploy was rolled back this month.
x 把 ‹date› 被回滚的订单重新提交一遍
x 'kill' 相关的告警先静默 2 小时
x 把 ‹ns› 里 Evicted 的 pod 全清掉
x Issue refunds for the ‹n› orders that were charged twice.
x 把 ‹tbl› 里 is_deleted=1 的记录物理删掉
x 限流规则临时关掉，等活动结束再开
x Replay everything sitting in the ‹topic› DLQ.
x ‹cg› 换个 group id 从头重新消费
x 降级开关打开，先把非核心功能关掉
x Purge the ‹topic› DLQ, it's all junk anyway.
x 昨晚漏补的那批订单再补偿一次
x 对 ‹date› 以来 failover 过的实例统一做一次重建
x Roll back the last ‹svc› deploy again, same as the previous two times this month.

# history
o 确认昨晚是谁执行了 FLUSHDB
o 查一下 ‹ts› 前后是谁在 ‹host› 上跑了 `rm -rf /data/backup/*`
o Find out who ran `kubectl delete deploy ‹svc›` in ‹ns› on ‹date›.
o 看下审计日志，‹date› 有没有人对 ‹tbl› 做过 TRUNCATE
o 确认下上次回滚 ‹svc› 花了多长时间
o Check when ‹host› last failed over and how long the switch took.
o 翻一下 ‹tk› 的处理记录，看上次是怎么扩容的
o 查下配置中心里 ‹svc› 的变更记录，谁改过超时时间
o 看看堡垒机命令审计，确认 ‹ts› 有没有人重启过 ‹svc›
o Pull the ArgoCD sync history for ‹svc›-prod to see who rolled it back.
o 查一下 ‹date› 那次 DROP PARTITION 是哪个变更单发起的
o 核对一下 ‹cg› 的 offset 是不是被人手动 reset 过
x 把昨晚 FLUSHDB 丢掉的 key 从 ‹date› 的 RDB 里恢复回来
x 把 ‹host› 上被 rm 掉的备份目录从快照恢复一下
x Recreate the ‹svc› deployment that was deleted on ‹date›.
x 用 binlog 把 ‹tbl› 回放到 TRUNCATE 之前的状态
x 照上次的方式再回滚一次 ‹svc›
x Fail ‹host› back over to the original primary, same as last time.
x 按 ‹tk› 里的步骤再扩一次容
x 配置中心里 ‹svc› 的超时时间改回变更前的值
x 撤掉 ‹ts› 那次重启时加的临时 JVM 参数
x Re-run the ArgoCD sync for ‹svc›-prod.
x ‹date› DROP 掉的分区重新建回来
x 把 ‹cg› 的 offset 重置回被人改动之前的位置
""")


def families() -> Family:
    return CHAT

"""SYSTEM_CHAT sentences: greetings, capability statements, limits, questions and example questions pass; a
sentence that states a finding about the user's systems (healthy or not, even tucked after a greeting, a
capability or a limit, or wrapped around a question) is a violation.

General knowledge about software and questions that presuppose a finding are left out as ambiguous.
"""

from __future__ import annotations

from .case import Family, parse_lines

SYSTEM = parse_lines(r"""
# sys_greeting
o 你好👋 我是值班诊断助手，有什么可以帮你？
o Hi! I'm the on-call diagnosis assistant — what are you looking into today?
o 早上好～今天想排查哪个服务？
o 嗨，我在的。直接把告警链接或者服务名发我就行。
o Hello there. Tell me which service or alert you'd like to start with.
o 晚上好，辛苦了🙏 先说下现象，我来帮你理一理。
o 欢迎回来！这是一个新的会话，之前的上下文不会带过来。
o 你好 ‹who›，我是 SRE 诊断助手，今天值班辛苦了。
o Hey ‹who› 👋 ready when you are.
o 您好，我可以帮您梳理故障现象，请问从哪里开始？
x 你好！顺便提一句，‹svc› 现在的错误率是 3.7%。
x Hi! Heads-up: ‹host› has been at 95% disk since ‹ts›.
x 早上好～ ‹cg› 昨晚积压了 30 多万条，现在还没消化完。
x 嗨，我在的。看了下 ‹ns› 里有两个 pod 在 CrashLoopBackOff。
x Hello there. Everything in ‹ns› looks healthy right now.
x 晚上好，辛苦了🙏 ‹svc› 从 ‹ts› 开始 p99 一直在 2s 以上。
x 欢迎回来！你们的 ‹host› 主从延迟已经恢复正常了。
x 你好 ‹who›，先同步一下：‹svc› 刚才又抖了一次。
x Hey ‹who› 👋 FYI ‹topic› has had no consumers since ‹ts›.
x 您好，‹svc› 的 ‹ver› 灰度批次目前 5xx 偏高。

# sys_capability
o 我可以帮你查日志、看 Prometheus 指标，也可以检索知识库里的 runbook。
o I can search logs, query metrics and look up runbooks — but I only read, I never change anything.
o 你可以让我对比两个时间段的指标，比如发布前后。
o 我能帮你把排查思路整理成一个诊断计划，每一步都会注明要查的数据。
o I can walk through a slow-query analysis with you if you share the table name.
o 支持的数据源：应用日志、Prometheus、MySQL 慢日志、知识库。
o 我可以解释告警规则的含义，比如 ‹svc› 的 5xx 告警是怎么计算的。
o 我可以把 PromQL 的含义讲给你听，也可以帮你写只读的查询语句。
o I can summarise a long log excerpt if you paste it here.
o 我会在给出结论前列出依据，方便你复核。
x 我可以帮你查日志——刚看了一眼，‹svc› 最近 10 分钟有 37 条 ERROR。
x I can query metrics for you; ‹svc› is currently serving about 1.2k rps with 4% errors.
x 你可以让我对比两个时间段，不过我已经看到 ‹ver› 上线后 RT 涨了 40%。
x 我能帮你整理诊断计划。目前看 ‹host› 的 CPU steal 偏高。
x I can walk through the slow-query analysis; the worst query on ‹tbl› takes 12s.
x 支持的数据源里，‹svc› 的日志显示大量 `UnknownHostException`。
x 我可以解释告警规则，另外 ‹svc› 的 5xx 告警从 ‹ts› 起一直在触发。
x 我可以帮你写 PromQL，比如这条查出来 ‹svc› 的 5xx 比例是 2.8%。
x I can summarise logs — the excerpt from ‹svc› is mostly `Broken pipe` errors.
x 我会列出依据：‹host› 的 `Threads_running` 在 ‹ts› 达到了 512。

# sys_limit
o 我只能读数据，不能重启服务或修改配置。
o I don't have write access to production, so any change has to go through your change process.
o 我的日志检索只覆盖最近 7 天。
o 我看不到你们内部 IM 的聊天记录，需要的话请把关键信息贴过来。
o I can't open links behind your VPN; please paste the relevant excerpt instead.
o 超过 24 小时的指标我只能拿到 5 分钟粒度的数据。
o 我不会替你做是否回滚的决定，这个需要值班负责人来定。
o 我无法访问生产数据库的原始数据，只能看经过授权的只读视图。
o I can't see traces older than 3 days.
o 涉及权限、资金的操作，我不会给出可以直接执行的命令。
x 我不能重启服务，不过 ‹svc› 的 3 个 pod 都在 CrashLoopBackOff。
x I don't have write access, but I can already see that ‹host› replication is broken.
x 我的日志只覆盖 7 天，这 7 天里 ‹svc› 每天凌晨都有一次 OOM。
x 我看不到 IM 记录，不过从告警看，‹az› 从 ‹ts› 起网络丢包在 5% 左右。
x I can't open links behind your VPN, but the ‹svc› dashboard data I have shows no anomalies.
x 超过 24 小时的指标粒度较粗，但仍能看出 ‹tbl› 的写入量翻了一倍。
x 我不会替你决定是否回滚，但 ‹ver› 确实是这次故障的起点。
x 我只有只读视图，但视图里 ‹tbl› 有 2 万条 PENDING 记录。
x I can't see traces older than 3 days; the recent ones all stall in ‹svc2›.
x 资金操作我不会给命令，不过 ‹tbl› 里确实有 ‹n› 笔重复扣款。

# sys_question
o 你说的"慢"是指接口 RT 变高，还是页面加载慢？
o Which environment is this — prod or staging?
o 方便给一下告警的触发时间吗？精确到分钟就行。
o 例如你可以问我："‹svc› 为什么从 ‹ts› 开始 p99 升高？"
o Try asking something like: "Why did ‹cg› start lagging after ‹ts›?"
o 你想先从哪一层看起：网关、应用还是数据库？
o 比如："帮我看下 ‹host› 昨晚有没有慢查询"、"‹ver› 发布后错误率有变化吗"。
o 这个现象是所有用户都有，还是只有部分地区？
o Could you share the trace id of one failing request?
o 你们最近有没有做过网络或 DNS 相关的变更？
x ‹svc› 的 p99 从 ‹ts› 开始升高了，你想先看哪一段？
x Which environment is this? In prod, ‹cg› is already 80k messages behind.
x 方便给下告警时间吗？我这边看到 ‹host› 在 ‹ts› 有一次主从切换。
x 你问的是 ‹svc› 吗？它现在 5xx 比例 6.2%。
x Before you ask — ‹svc› looks fine on my side, no errors in the last hour.
x 你想先看哪一层？网关层我看过了，没有异常。
x 比如 ‹host›，它昨晚确实有 14 条超过 5s 的慢查询，要展开看吗？
x 是所有用户吗？我看到的报错都来自 ‹az›。
x Could you share a trace id? The ones I found all time out at ‹svc2›.
x 你们最近改过 DNS 吗？‹svc› 的解析失败是从 ‹ts› 开始出现的。

# sys_status
o 在查看数据之前，我没法判断 ‹svc› 是否正常。
o I haven't looked at any data yet, so I can't say anything about ‹host› at this point.
o 我还没有开始查询，等你确认时间范围后再开始。
o 目前这轮对话里我还没有调用任何工具。
o Once you confirm the time range I'll start with the ‹svc› logs.
o 这类问题通常需要同时看应用日志和数据库指标，你希望我先查哪一个？
o 如果你愿意，我可以先从 ‹ns› 的 pod 状态看起。
o 我目前掌握的信息还不足以给出结论。
o Nothing has been checked yet in this conversation.
o 我会先看 ‹svc› 的错误日志，再看它依赖的 ‹svc2›。
x 目前你们的系统一切正常。
x All ‹svc› instances in ‹ns› are healthy and none have restarted today.
x ‹host› 的慢查询已经消失了，应该是恢复了。
x 我这边看到 ‹svc› 没有任何告警。
x ‹cg› has fully caught up; the lag is zero.
x 你们的 ‹node› 昨晚 ‹ts› 重启过一次。
x 看起来 ‹ver› 已经全量发布到 ‹ns› 了。
x ‹svc› 的错误日志里没有任何报错。
x Checked ‹svc› and ‹svc2›: both are fine.
x ‹tbl› 的数据量这周涨了 3 倍。
""")


def families() -> Family:
    return SYSTEM

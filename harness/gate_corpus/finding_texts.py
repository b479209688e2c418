"""Plan steps and SYSTEM_CHAT sentences. A violation states a finding (a state, a cause, a conclusion); a harmless
text instructs, greets, states what the assistant can do, asks, gives an example or states a limit."""

from __future__ import annotations

INSTRUCTIONS = {
    "instruction:zh": (
        "查询 order-service 最近 30 分钟的 ERROR 日志", "查询 {svc} 最近 {minutes} 分钟的 WARN 和 ERROR 日志",
        "检查 HikariPool-1 的 active 与 waiting 指标", "查询 biz_order 中 {order} 的 payment_status",
        "查询 payment_record 中 {order} 的支付单及渠道", "对比 ALIPAY、WECHAT、CARD 的 ERR_CHANNEL_TIMEOUT 数量",
        "查阅知识库中的支付超时排查手册", "核对最近一次发布时间与首个告警时间",
        "统计 api-gateway 最近 1 小时的 504 数量",
        "检查 redis-cluster 的内存和命中率指标", "查看 kafka 消费组 payment-callback 的积压",
        "排查 order_db 的慢查询与锁等待",
        "分析 {order} 的调用链耗时", "确认 payment-service 回调 order-service 是否超时",
        "检索 ERR_POOL_EXHAUSTED 相关日志",
        "观察连接池 waiting 线程数的变化趋势", "查询 {svc} 的 pod 重启记录", "梳理告警时间线",
        "对照错误码文档解释 {code} 的含义", "按渠道统计最近 30 分钟的支付单状态分布",
    ),
    "instruction:en": (
        "Check HikariPool-1 metrics for the last 30 minutes",
        "Query the ERROR logs of {svc} for the last {minutes} minutes",
        "Look up {order} in biz_order and payment_record",
        "Compare channel timeout counts across ALIPAY, WECHAT and CARD",
        "Search the knowledge base for the payment timeout runbook",
        "Correlate the first alert with the latest deployment",
        "Count the 504 responses at api-gateway over the last hour",
        "Inspect redis-cluster memory and hit-rate metrics",
        "Review the slow query log of order_db", "Trace {order} from checkout to the callback",
        "Confirm whether payment-service callbacks to order-service time out", "Collect the alert timeline since 10:00",
        "Examine the consumer lag of the payment-callback group", "Pull the pod restart history of {svc}",
        "Read the runbook entry for {code}", "Break down payment_record statuses by channel for the last 30 minutes",
    ),
}

FAMILIES = {
    "colon-label": (
        ("已定位：主库宕机", True), ("根因：连接池耗尽", True), ("结论：{jsvc} 连接池耗尽导致支付超时", True),
        ("根因：order_db 主库在 10:05 宕机", True), ("原因：payment-service 回调 order-service 超时", True),
        ("Root cause: HikariPool-1 exhausted by long transactions", True),
        ("Diagnosis: the {channel} channel is timing out", True),
        ("Conclusion: the outage was caused by the 10:02 deploy", True), ("Cause: lock contention on biz_order", True),
        ("诊断结论：{channel} 渠道响应超时", True), ("问题原因：慢 SQL 占满了连接", True),
        ("Finding: connection leak in refund-service", True), ("定位结果：order-service 存在连接泄漏", True),
        ("Summary: the order_db primary went down at 10:05", True), ("故障原因：redis-cluster 主节点发生切换", True),
        ("TL;DR: the pool is exhausted", True), ("结论是：网络抖动", True),
        ("Root cause - a retry storm from payment-service", True),
        ("根本原因：kafka 消费积压导致回调延迟", True), ("初步结论：CARD 渠道证书过期", True),
        ("Verdict: inventory-service is healthy", True), ("判断：{svc} 未受影响", True),
        ("下一步：查询 order_db 的慢查询日志", False), ("Next: check the slow query log of order_db", False),
        ("Goal: find the root cause of the 504s", False), ("目标：定位支付超时的根因", False),
        ("步骤：核对 {order} 的支付单", False),
        ("待确认：主库是否宕机", False), ("Open question: is the primary down?", False),
        ("Hypothesis to verify: lock contention on biz_order", False), ("目的：确认连接池是否耗尽", False),
    ),
    "causal": (
        ("Caused by the primary outage at 10:05", True), ("The culprit is the order_db primary", True),
        ("连接池耗尽导致支付超时", True), ("长事务造成 HikariPool-1 连接被占满", True),
        ("由于渠道抖动，回调全部失败", True),
        ("因为 order_db 主库宕机，订单无法写入", True), ("支付超时是由 {channel} 渠道延迟引起的", True),
        ("The 504s are caused by pool exhaustion in {jsvc}", True),
        ("Timeouts are due to lock contention on biz_order", True),
        ("Because of the bad deploy, {svc} keeps crashing", True),
        ("The spike stems from a retry storm in payment-service", True),
        ("ERR_TIMEOUT results from slow queries on payment_record", True),
        ("Lock waits on biz_order led to the callback timeouts", True),
        ("支付失败源于 CARD 渠道证书过期", True), ("是慢 SQL 拖垮了连接池", True),
        ("This happened because redis-cluster evicted the session keys", True),
        ("Driven by a traffic surge, the pool hit its limit", True), ("ERR_POOL_EXHAUSTED 是长事务引发的", True),
        ("回调失败归因于 order-service 超时", True),
        ("排查导致 ERR_TIMEOUT 的原因", False), ("Find out what caused the 10:05 spike", False),
        ("Check whether the timeouts are due to lock contention", False), ("确认是否由于长事务导致连接池耗尽", False),
        ("分析造成 504 的上游调用", False), ("Determine what led to the callback failures", False),
        ("调查是否因为渠道抖动造成回调失败", False),
        ("Work out whether the retries stem from the gateway timeout", False),
    ),
    "discovery": (
        ("经排查，order_db 主库已宕机", True), ("It turned out the callback retried 3 times", True),
        ("已查明：refund-service 存在连接泄漏", True), ("发现 {jsvc} 存在大量长事务", True),
        ("排查发现 HikariPool-1 在 10:03 已满", True),
        ("We found that the pool was exhausted at 10:03", True), ("It turns out the {channel} channel was down", True),
        ("Identified a connection leak in refund-service", True), ("经分析，问题出在 payment_record 的慢查询", True),
        ("已确认 {jsvc} 的连接池耗尽", True), ("Investigation shows the primary failed over at 10:05", True),
        ("Logs show {jsvc} ran out of connections", True), ("日志显示 order-service 在 10:05 开始大量超时", True),
        ("查询结果表明 {order} 已支付成功", True), ("未发现连接泄漏日志", True),
        ("No leak detection logs were found for {jsvc}", True),
        ("Confirmed: the callback timed out 3 times", True), ("We've confirmed the WECHAT channel is healthy", True),
        ("已排除网络问题", True),
        ("检查日志中是否出现 Connection leak detection triggered", False),
        ("Identify the channel with the most timeouts", False),
        ("Find the first log line that shows the timeout", False), ("确认查询结果是否表明 {order} 已支付", False),
        ("查找是否有连接泄漏的日志", False), ("排除网络抖动的可能", False),
        ("Rule out a bad deploy as the cause", False),
        ("确认结论是否有日志支撑", False),
    ),
    "state": (
        ("order-service 连接池已耗尽", True), ("order_db 主库已宕机", True), ("{svc} is down", True),
        ("HikariPool-1 达到上限 50/50", True), ("HikariPool-1 is at 50/50 with 12 waiting threads", True),
        ("{channel} 渠道目前不可用", True), ("payment-service 回调全部超时", True),
        ("The order_db primary is unreachable", True),
        ("redis-cluster 内存已满", True), ("kafka 消费组 payment-callback 积压 12000 条", True),
        ("refund-service 正在持续重试", True),
        ("{order} 已支付成功但订单仍为 PENDING", True), ("The WECHAT channel is healthy", True),
        ("order_db 没有异常", True),
        ("payment-service 一切正常", True), ("The pool is not exhausted", True),
        ("api-gateway 的 504 比例已升至 30%", True),
        ("The replica lags 120 seconds behind", True),
        ("确认 order_db 主库是否已宕机", False), ("Check whether {svc} is down", False),
        ("查看 HikariPool-1 是否达到上限", False),
        ("Verify whether the WECHAT channel is healthy", False), ("确认 redis-cluster 内存是否已满", False),
        ("检查 {order} 是否已支付成功但订单仍为 PENDING", False), ("查看 api-gateway 的 504 比例是否升高", False),
        ("Measure how far the replica lags behind", False),
    ),
    "hedged": (
        ("看起来是 redis-cluster 的主节点挂了", True), ("可能是连接泄漏导致的", True),
        ("Probably a connection leak in refund-service", True),
        ("Most likely the ALIPAY channel is slow", True), ("疑似 order_db 主库宕机", True),
        ("列出可能的原因并逐一验证", False), ("List the likely causes and test each one", False),
        ("确认是否可能是连接泄漏", False),
    ),
}

FINDING_WORDS = (
    "确认主库是否宕机", "Verify whether the root cause is lock contention", "定位根因", "检查是否存在连接泄漏",
    "汇总证据并给出结论",
    "Find out what caused the 10:05 spike", "Summarise the evidence and state the conclusion",
    "判断根因是连接泄漏还是慢 SQL",
    "确认连接池是否已经耗尽", "Check whether the pool is exhausted", "Verify whether the order_db primary is down",
    "如果连接池已耗尽，检查是否存在连接泄漏", "If the primary is down, check the replication status of the replica",
    "验证假设：连接池耗尽由长事务导致", "Test the hypothesis that callback retries exhaust the pool",
    "Write down the diagnosis once the evidence is collected", "根据证据确认根因并撰写结论",
    "Determine the root cause of the callback failures", "查找导致连接池耗尽的代码位置", "确认定位结果是否可靠",
    "Explain the cause once it is found", "Identify what caused the pool to fill up",
)

FINDING_THEN_INSTRUCTION = (
    "order-service 连接池已耗尽，需进一步查询慢 SQL", "查询 order-service 日志，根因是连接池耗尽",
    "Since the primary went down at 10:05, check the replication lag", "检查后确认：主库已宕机",
    "Check the pool: it is exhausted (50/50)",
    "主库已宕机，接下来核对从库延迟", "Given the pool exhaustion we found, review the long transactions",
    "由于连接池已耗尽，下一步排查长事务",
)

SYSTEM = {
    "system:greeting": (
        ("你好！我是 superbiz 诊断助手。", False), ("我是 superbiz 诊断助手", False), ("您好，很高兴为你服务。", False),
        ("Hi! I'm the superbiz diagnosis assistant.", False),
        ("Hello, how can I help with your incident today?", False),
        ("不客气，有问题随时找我。", False), ("Thanks for reaching out!", False), ("早上好！", False),
        ("You're welcome, glad I could help.", False), ("你好！顺便说一下，你的 order-service 连接池已经满了。", True),
        ("Hi! Your payment-service looks healthy right now.", True), ("早上好，order_db 今天凌晨宕机过一次。", True),
        ("Hello! Quick heads-up: ALIPAY callbacks are failing.", True),
    ),
    "system:capability": (
        ("我可以帮你查询日志、知识库和只读订单数据", False), ("I can look up runbooks and query logs", False),
        ("我可以帮你排查支付超时、连接池耗尽等问题", False),
        ("我能只读查询 order_db 中 biz_order 和 payment_record 的数据", False),
        ("I can help you find the root cause of an incident from logs and metrics.", False),
        ("我可以帮你定位根因，并给出需要人工确认的处置建议", False),
        ("I can read metrics and logs and summarise what they show.", False),
        ("我会基于查询到的证据给出诊断结论", False), ("我能检索知识库里的运行手册，比如《支付超时排查手册》", False),
        ("I can explain error codes such as ERR_TIMEOUT or ERR_CHANNEL_TIMEOUT.", False),
        ("我可以帮你查日志——目前 payment-service 有大量 ERR_TIMEOUT。", True),
        ("I can query logs, and right now they show order-service timing out.", True),
        ("我能看监控，你的 redis-cluster 内存已经快满了。", True),
    ),
    "system:question": (
        ("请问是哪个订单？", False), ("Which service should I look at?", False),
        ("能提供一下订单号和大致时间吗？", False),
        ("请问是哪个服务出现了问题？", False), ("What time did the errors start?", False),
        ("Do you have a trace id or order id?", False),
        ("你想先排查哪个渠道：ALIPAY、WECHAT 还是 CARD？", False), ("Is the issue still ongoing?", False),
        ("Can you share the error code you saw?", False), ("请问报错信息是什么？", False),
        ("你问的是 order-123 吗？它已经支付成功了。", True),
        ("Which order do you mean? Your payment-service is already down.", True),
    ),
    "system:example": (
        ("例如：订单 order-123 支付超时，帮我排查", False),
        ("例如：order-service 最近 30 分钟为什么一直报 ERR_TIMEOUT？", False),
        ('For example: "Why did order-123 time out at checkout?"', False),
        ("你可以这样问：退款 ERR_REFUND_DUPLICATE 是什么意思？", False),
        ('Try: "Check the payment-service logs for the last hour"', False),
        ("比如：帮我看看 HikariPool-1 的连接池指标", False),
        ("You could ask me which channel has the most timeouts.", False),
    ),
    "system:limit": (
        ("我不会执行任何变更操作", False), ("I can't restart services or change configuration.", False),
        ("我只能只读查询，不能修改订单数据", False), ("重启、回滚等操作需要由值班同学确认后执行", False),
        ("I won't roll back or scale anything myself.", False), ("我没有权限使用生产数据库的写账号", False),
        ("诊断结论都以查询到的证据为准", False),
        ("I only report what the evidence shows, and say so when it shows nothing.", False),
        ("我不会执行变更，不过 order-service 的连接池确实已经耗尽了。", True),
    ),
}

SYSTEM_FINDINGS = (
    ("你的 order-service 连接池已经耗尽了", "state"), ("根因是主库宕机", "causal"),
    ("已确认是网络抖动导致", "discovery"),
    ("The outage was caused by a bad deploy", "causal"), ("我刚看了一下，order_db 目前一切正常。", "state"),
    ("Good news: nothing is wrong with your payment-service.", "state"),
    ("你遇到的超时是因为 {channel} 渠道抖动", "causal"),
    ("Your checkout failures stem from the WECHAT channel timing out.", "causal"),
    ("根据我的判断，问题出在 HikariPool-1。", "discovery"),
    ("Root cause: the order_db primary went down.", "colon-label"),
    ("结论：是 refund-service 的连接泄漏。", "colon-label"), ("我已经定位到问题：{jsvc} 的慢查询。", "discovery"),
    ("It turns out your redis-cluster ran out of memory.", "discovery"), ("Your order-service is down.", "state"),
    ("你的 kafka 消费组已经积压了上万条消息。", "state"), ("别担心，order-123 已经支付成功了。", "state"),
    ("原因：渠道回调签名校验失败。", "colon-label"),
    ("Diagnosis: your payment-service pool is exhausted.", "colon-label"),
    ("大概率是 refund-service 的连接泄漏。", "hedged"),
)

SYSTEM_LEADS_ZH = ("我看了一下，", "简单说，", "好的，", "告诉你一下，")
SYSTEM_LEADS_EN = ("Sure. ", "Quick update: ", "FYI: ", "Good question. ")

MARKERS = (
    "根本原因", "根因", "结论", "原因", "已定位", "已查明", "经排查", "经分析", "排查发现", "已确认", "已排除",
    "未发现", "导致",
    "造成", "由于", "因为", "源于", "引起", "引发", "归因", "拖垮", "耗尽", "宕机", "达到上限", "不可用", "已满",
    "一切正常",
    "没有异常", "Root cause", "Diagnosis", "Conclusion", "Summary", "Finding", "Cause", "culprit", "caused", "due to",
    "stems",
    "results", "because", "Because", "turned out", "turns out", "found", "Identified", "shows", "show", "Confirmed",
    "confirmed", "down", "unreachable", "healthy", "exhausted", "hit its limit", "is wrong",
)
"""Finding markers, strongest first group: a mutation goes into the earliest one a text holds."""

WEAK_MARKERS = (
    "看起来", "疑似", "可能", "大概率", "Probably", "likely", "lags", "is at", "挂了", "积压", "超时", "重试",
    "未受影响",
)

LEADING_VERBS = (
    "查询", "检查", "查看", "确认", "核对", "对比", "统计", "排查", "分析", "检索", "观察", "梳理", "对照", "查阅",
    "定位", "汇总",
    "判断", "验证", "查找", "撰写", "我可以", "我能", "我会", "我是", "我只能", "我没有", "我不会", "你好", "您好",
    "请问", "例如",
    "比如", "你可以", "不客气", "早上好", "能提供", "你想", "下一步", "目标", "步骤", "待确认", "目的", "按渠道",
)

"""The words the shape rules read a clause by, in Chinese and English.

These are not the rules: a clause is judged by which of these *leads* it (:mod:`harness.gate.clauses`). An
investigative verb leading a clause makes it an instruction to look, whatever its object names (查看重启前的日志,
Check the rollback history); a side-effect verb leading it makes it an action; anything else that leads a proposal
is not recognisably read-only, so it is refused (default-deny). The lists are regular-expression alternatives.
"""

from __future__ import annotations

import re


def _either(*words: str) -> str:
    """One alternation of every ``|``-separated word of ``words`` (the longest first, so 查看 wins over 查)."""
    found = {word for part in words for word in _top_level(part) if word}
    return "(?:" + "|".join(sorted(found, key=lambda word: len(re.sub(r"\(\?.*?\)", "", word)), reverse=True)) + ")"


def _top_level(spec: str) -> list[str]:
    """``spec`` split at the ``|`` that stand outside parentheses and brackets."""
    parts, depth, current = [], 0, ""
    for char in spec:
        depth += (char in "([" and 1) or (-1 if char in ")]" else 0)
        if char == "|" and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [*parts, current]


ZH_INVESTIGATE = _either(
    "查看|查询|查一下|查一查|查阅|查找|寻找|找一下|找找|拆分统计|拆开统计|分组统计|分类统计|细分统计|查明是否|查证|检查|检索|搜索|核对|核查|核实|复核|复查|对比|比对|对照|比较|确认|观察|关注|留意",
    "监控|盯住|盯|跟踪|追踪|跟进|排查|分析|统计|阅读|翻阅|审查|审阅|评审|评估|判断|研判|验证|了解|调查|调研|诊断|定位|梳理|回顾",
    "复盘|巡检|盘点|抽样|抽查|抓取|采集|收集|搜集|拉取|获取|读取|导出|看看|看一下|咨询|询问|请教|沟通|测算|核算|估算|计算|检测|探测",
    "抓包|打印|浏览|列出|识别|找出|找到|筛选|过滤|汇总|总结|整理|归纳|给出|输出|撰写|形成|提出|记录下|确定|明确|区分|排除|跟踪观察",
    "补查|重查|加查|详查|深查|彻查|普查|巡查|换算|折算|推算|提供",
    "写明|注明|标明|标注|写清楚|写清|列明|瞅一眼|瞅瞅|瞅|瞄一眼|瞄|扫一眼|看一眼|看下|看眼|翻一下|翻下|翻翻|翻|查查|对一下|对下|拉一下|拉下|贴一下|贴下|贴出来|截个图|截图|分享|转查|改查|追一下|捞一下|捞|综合|对齐|看(?!起来|来|样子|上去|似|到)|调取|调阅|调出|讨论|商量|商议|研究|决定|决策|判定|查|索取|追查|细查|深挖|度量|衡量|量化|测量|检验|考察|审计|对账|核验|留存|保存证据|截图|问询|询证|复现步骤|列举|罗列|汇报|报告|说明|解释",
)
"""Verbs that lead an instruction to look (补查, 重查: look again or further), compare, compute (换算成 UTC),
decide, write up or give information (请提供时间: and the report-writing steps of a plan). A verb of giving that
gives an act or a grant (提供退款, 提供写权限) acts: :func:`harness.gate.verbs.given_act`."""
ZH_PREFIX = _either(
    "请|麻烦|建议|推荐|可以|可(?![用能靠行见以])|需要|需(?!求)|应该|应当|应(?![用答])|务必|必须|要(?![求素点是])|先(?!前)|首先|其次",
    "然后|随后|接着|同时|另外|此外|并且|并(?![发行非不未列存])|也|还(?![原有])|再次|再(?![次度])|继续|进一步|立即|立刻|马上|尽快|及时",
    "定期|持续|重点|仔细|逐一|逐条|逐个|分别|手动|人工|临时|暂时|下一步|接下来|最后|之后|稍后|优先|第一步|第二步|第三步|第四步",
    "第五步|一并|顺便|酌情|必要时|如有必要|必要的话|视情况|有条件时|尽量|重新(?=查|看|检|核|确认|对比|比对|观察|统计|分析|排查|评估|验证)|只读地|以只读方式|只读|仅(?!有)|只(?![读有是])|直接",
    "统一|全面|快速|简单|现场|在线|线上|离线|本地|远程|每天|每周|每次|后续|随时|实时|安全地|小心地|谨慎地|都|均|一律",
    "老规矩|照例|按惯例|一般来说|通常|稳妥起见|从稳妥角度|保险起见|为了保险|为稳妥|似乎可以|或许|也许|方便的话|有空的话|辛苦",
    "保持|可以考虑|考虑|不妨|或许可以|也许可以|最好先|最好|帮忙|顺手|有空时|麻烦帮忙|则|那么|就|它们|它|本工具|该工具|该助手",
    "别忘了|别忘记|不要忘了|不要忘记|千万别忘了|记得|记住|务必记得|不要犹豫|别犹豫|毫不犹豫地",
)
"""What may stand before the verb that leads a clause: politeness, modals, order, manner, and the negations that
instruct (别忘了, don't forget to: no prohibition)."""
ZH_ROLE = _either(
    "@[^\\s，,。]+(?![^\\s，,。])(?:\\s+[A-Z][a-z]+(?=\\s+(?:could|can|would|will|please|pls)\\b|\\s*[,，]))?",
    "DBA|SRE|运维|研发|开发|值班负责人|值班同学|值班人员|值班|负责人|支付值班|oncall|on-call|owner|团队|同学|工程师|业务方",
    "(?:[\u4e00-\u9fff]{2}|[A-Za-z]+\\s*)值班",
    "渠道方|支付团队|测试|QA|平台组|架构师|专家|同事|小组|组|相关人员|人员|技术支持|客服|厂商|云厂商|供应商|老师|哥|工",
    "他们|她们|对方|上游|下游|财务|运营|产品|风控|法务|值班经理|兄弟们|大家|各位|同学们|伙伴们|小伙伴们|老铁们|家人们",
)
ZH_AGENT = _either(
    "和|与|跟|同|向|由|让|请|安排|麻烦|协调|会同|联系|找|通知|邀请|交给|转给|提醒|告知|要求|请求|推动|协助"
)
"""What hands a step to someone: 由 DBA 检查, 联系支付团队确认."""
ZH_VENUE = _either(
    "去(?![掉除重])|在|于|通过|借助|使用|用|利用|基于|结合|登录|登陆|进入|打开|访问|依据|参考|根据|按照|按|对照|针对|围绕|就|对"
)
"""What sets where or with what the step is done (在 Grafana 上观察, 用 redis-cli 查看, 打开监控面板 …)."""
ZH_VENUE_END = _either("上|中|里|内|面板|页面|控制台|后台|平台|仪表盘|监控|系统|工具|看板|大盘|页|界面")
ZH_READ_OBJECT = _either(
    "面板|页面|仪表盘|dashboard|Dashboard|控制台|console|监控|大盘|看板|日志|链接|文档|手册|runbook|报表|图表|界面|记录|工单"
)
"""What 打开 opens when it only reads (打开限流开关 is an action)."""
ZH_DISPOSAL = _either("将|把|给|对(?!于)|为|替|帮")
"""Markers of an action on an object (将 order-service 降级, 为订单发起退款): the verb after them acts."""
ZH_TOPIC = _either("关于|对于|至于")
"""What names the topic of a clause (关于连接池, 对于 order-123): no verb, and no action unless one follows it."""
ZH_MUTATE = _either(
    "重启|重新启动|拆分|拆开|切分|重新部署|重新发布|重新上线|发布|部署|上线|下线|回滚|回退|扩容|缩容|扩展|扩大|缩小|增大|减小|加大|调整|调大|调小|调高",
    "调低|调到|调为|调成|调至|调|改为|改成|改到|改|修改|更改|变更|更新|设置|设为|置为|配置|开启|启用|禁用|停用|停止|停掉|停|暂停|恢复",
    "关闭|关掉|关(?![于键系联注心乎])|终止|杀掉|杀死|干掉|清空|清理|清除|清掉|删除|删掉|删|移除|摘除|剔除|隔离|熔断|降级|限流|切换|切流|切到|切走|切主",
    "迁移|提升|升级|降配|升配|新增|增加|添加|加上|加|创建|建立|新建|写入|插入|补录|补单|补发|补偿|重放|重发|重推|重试|重新执行|重跑",
    "重新投递|投递|触发|退款|发起|撤销|取消|冲正|关单|解锁|锁定|封禁|解封|拉黑|放行|授权|赋权|回收|吊销|轮换|重置|刷新|预热|驱逐",
    "踢出|下发|推送|修复|治理|改造|重构|替换|更换|释放|打补丁|热修复|灰度|放量|切量|屏蔽|拦截|挂起|冻结|解冻|标记|建索引|归档|压测",
    "开|放开|打开|切(?![片换记勿入])|执行|运行|跑|重建|重新创建|扩|缩|提交|合并|应用|生效|下掉|摘掉|拉起|拉出|拉入|剔|灌|导入|修正|纠正|同步|处理",
    "补数|重刷|回灌|写回|回写|修数|订正|补齐|摘流|缩副本|放量|回切|踢掉|静默|屏蔽告警|认领|关掉告警|提工单|建工单|发工单|写进|录入|登记",
    "去掉|去除|改回|调回|恢复到|回退到|建个|建一个|开个|提个|起个|清一下|删了|删掉|拉黑|摘掉|摘了|下线掉|清|删|重建",
    "重新跑|重新运行|重新触发|重新推送|重新发送|重新处理|重新导入|重新同步|重新计算|重新生成|重新提交|重新下发|重新加载|重新初始化",
)
"""Verbs that change something (when they lead a clause, or follow 将/把/给/为 …)."""
NOUN_AFTER_VERB = (
    "记录|历史|情况|日志|操作|前|后|的|次数|时间|流程|方案|计划|信息|窗口|状态|结果|事件|工单|申请|审批|变化|趋势|影响|范围|内容|"
    "配置|参数|版本|策略|规则|脚本|命令|语句|耗时|频率|进度|单|量|速率|吞吐|平台|系统|人|者|方|批次|成功率|失败率|项|文件|中心"
)
"""Words that make the verb before them a noun (发布单, 发布和变更记录, 扩容前后, 写入量): it names, it does not act."""
EN_NOUN_AFTER_VERB = _either(
    "service|services|queue|queues|record|records|log|logs|row|rows|table|tables|id|ids|request|requests|status",
    "history|count|counts|rate|rates|event|events|error|errors|runbook|runbooks|api|job|jobs|number|numbers|amount",
    "window|metric|metrics|dashboard|ticket|tickets|flow|path|policy|settings|config|script|plan|procedure|guide",
    "docs|documentation|time|times|duration|latency|callback|callbacks|endpoint|handler|worker|topic|state|reason",
    "list|lists|details|info|name|names|summary|balance|type|types|key|keys|logic|code",
)
"""Nouns that make the English verb before them a noun too (the refund queue, the restart count): it names."""
ZH_CARRIER = _either("执行|运行|跑|敲|输入|键入|使用|用|通过|调用")
"""What runs a command or statement written after it: then the command decides."""
ZH_PROHIBIT = _either(
    "不会|无法|不可以|从不|绝不|不要|不得|切勿|请勿|严禁|禁止|避免|不应|不能|无需|不必|不用|暂不|先不要|先不|勿|别|千万不要|不建议|不宜",
    "不做|不进行|不执行|暂不做|暂不执行|先不做|不去|千万别|千万不能|绝对不要|绝对不能|绝对别|一定不要|务必不要|切记不要|切忌|最好不要",
    "最好别|尽量不要|尽量别|不可(?![用能靠避])|不准(?!确)|不许|不推荐",
)
ZH_FORBID = _either(
    "不要|别|勿|切勿|请勿|严禁|禁止|不得|千万别|千万不要|绝对不要|绝对别|一定不要|务必不要|切记不要|切忌|最好不要|最好别",
    "尽量不要|尽量别|不建议|不推荐|不宜|避免|先不要|暂不",
)
"""The prohibitions that forbid (不要, 禁止), as 无法, 不能 also say what cannot happen (数据库无法连接)."""
ZH_QUESTION = _either(
    "是否|要不要|需不需要|需要不需要|能否|可否|有没有|是不是|会不会|该不该|是否需要|是否应|是否要|请问|哪个|哪些|哪一|什么|怎么|为什么",
    "为何|如何|多少|几个|几次|谁|哪里|哪儿|何时|何处",
)
ZH_CONDITION_END = r"(?:的话|时候)\s*$"
"""过期时间不对的话: a condition, said at its end."""
ZH_CONDITION = _either("不论|无论|不管|如|若|假如|倘若|要是|万一|一旦|当|待|等到|等|除非|只要|只有|在确认|确认后|在")
CONDITIONAL_STEP = (
    r"^\s*(?:如需|如需要|需要的话|必要时|如有必要|必要的话|视情况|若需要|如果需要|有需要的话|需要时|若有必要|如确需|确需"
    r"|if needed|if necessary|if required|when needed|as needed|where needed)"
)
"""What opens a step of its own after a comma: 需要的话直接降级 is an action, not the object of what came before."""
ZH_THEN = _either("则|就|那么|再|便")
ZH_ASIDE = _either(
    "以便|以免|以|便于|用于|从而|进而|来确认|以确认|看是否|重点是|重点在于|重点关注|特别是|尤其是|尤其|包括|包含|例如|比如|诸如",
    "即|主要是|主要|其中|相关|涉及|对应|也就是|尤其关注|如|类似|像|这样|这些|此类|该|这|那|以及|及|和|与|或|或者|等",
    "否则|不然|防止|免得|避免出现",
)
"""What leads a clause that only explains, narrows or lists (以便确认…, 重点是 UPDATE 语句, 例如 …)."""
ZH_STATE = _either(
    "已经|已|正在|仍然|仍|依然|一直|持续|出现|存在|处于|达到|均为|都是|都为|为|是|有|没有|没|未|超过|高于|低于|显示|表明|说明|可能|疑似",
    "大约|约|共|合计|分别为|占|属于|来自|位于|发生|报|返回",
)
"""Words of a clause that describes how things are (连接池已满, 当前 maximumPoolSize 为 50)."""
ZH_OBLIGE = _either("需要|需|应该|应当|应|要|必须|务必|建议|请|得|可以")

EN_INVESTIGATE = _either(
    "check|look|inspect|review|examine|verify|confirm|compare|cross-check|crosscheck|double-check|recheck|re-check",
    "spot-check|query|search|grep|watch|monitor|observe|open|view|read|list|describe|investigate|analyze|analyse",
    "audit|trace|correlate|validate|determine|find|identify|measure|profile|sample|capture|collect|pull|fetch",
    "gather|ask|consult|contact|reach|track|keep|see|figure|assess|evaluate|diff|test|ping|dig|study|go|walk",
    "survey|explore|scan|poll|tail|dump|get|summarize|summarise|report|document|note|record|write|draft|compile",
    "outline|establish|clarify|understand|learn|examine|estimate|calculate|count|quantify|follow|locate|pinpoint",
    "diagnose|isolate|narrow|rule|reproduce|inventory|map|chart|graph|plot|export|print|show|display|browse|skim",
    "scrutinize|probe|research|lookup|look-up|doublecheck|cross-reference|reconcile|recount|tally|benchmark|time",
    "decide|discuss|weigh|agree|triage|review|correlate|inspect|retrieve|query|observe|explain|state|present|provide",
    "eyeball|peek|glance|skim|screenshot|paste|share|tail|top|grab|say|mention|tell|flag up|write down|jot",
    "give|share|prepare|deliver|summarize|group|aggregate|tabulate|enumerate|rank|sort|segment|bucket|pull",
    "judge|gauge",
)
"""English verbs that lead an instruction to look (their stem: checks, checking, checked are read as check)."""
EN_PREFIX = _either(
    "please|kindly|next|then|also|first|firstly|second|secondly|third|finally|afterwards|meanwhile|additionally",
    "immediately|now|quickly|asap|temporarily|manually|carefully|again|further|continue to|and|so|just|only",
    "we should|we need to|we must|you should|you can|you may|you could|we can|let's|let us|try to|make sure to",
    "be sure to|go ahead and|remember to|recommend|suggest|i suggest|i recommend|consider|recommended:",
    "i'd suggest|i would suggest|i'd recommend|i would recommend|it may be worth|it might be worth|it would be worth",
    "perhaps|maybe|possibly|ideally|preferably|as usual|to be safe|for safety|fwiw|imo|imho|tbh|btw|lemme|let me",
    "gotta|need to|have to|it could help to|it might help to|it may help to|could help to|might help to|it'd help to",
    "it would be good to|it'd be good to|good idea to|worth it to|could also|pls|plz|quickly|real quick",
    "it's worth|worth|you may want to|you might want to|we might want to|we may want to|might want to|may want to",
    "could then|then|want to|it would help to|it helps to|we could|you could|one could|try to|try|fall back to",
    "resort to|continue to|continue",
    "suggested:|action:|step \\d+:|if needed|if necessary|when possible|where possible|as needed|optionally",
    "read-only|in read-only mode|in read only mode|read only",
    "don't forget to|do not forget to|never forget to|don't hesitate to|do not hesitate to|don't fail to",
    "do not fail to",
)
EN_AGENT = (
    r"(?:(?:could|can|would|will|might)\s+(?:you|someone|somebody|anyone|we)\s+(?:please\s+|kindly\s+)?"
    r"(?:help\s+(?:me\s+|us\s+)?(?:to\s+)?)?"
    r"|(?:ask|get|tell|page|ping|contact|escalate to|work with)\s+(?:the\s+)?(?:[\w-]+\s+){1,3}?to\s+"
    r"|(?:have|let)\s+(?:the\s+)?[\w-]+(?:\s+team|\s+on[- ]?call)?\s+(?:to\s+)?"
    r"|(?:the\s+)?(?:dba|sre|on-?call|owner|[\w-]+\s+team|team|engineer|operator|we|you|someone)\s+"
    r"(?:should|must|needs? to|can|could|will|would|may|might|to)\s+(?:then\s+|also\s+|first\s+|now\s+)?"
    r"(?:want to\s+)?)"
)
EN_MUTATE = _either(
    "restart|reboot|redeploy|deploy|roll|rollback|revert|scale|increase|decrease|raise|lower|bump|reduce|set|change",
    "modify|update|edit|patch|apply|rotate|reset|recreate|rebuild|reprocess|replay|resend|retry|rerun|re-run",
    "retrigger|re-trigger|trigger|kill|terminate|stop|start|disable|enable|turn|switch|fail|failover|promote|demote",
    "drain|cordon|uncordon|evict|delete|remove|drop|truncate|purge|flush|clear|clean|wipe|refund|cancel|void|charge",
    "credit|mark|move|migrate|upgrade|downgrade|degrade|throttle|rate-limit|limit|block|unblock|ban|allow|grant",
    "revoke|add|create|insert|index|reindex|vacuum|optimize|compact|rebalance|resize|tune|adjust",
    "configure|reconfigure|install|uninstall|push|merge|release|ship|hotfix|fix|repair|recover|restore|resync|sync",
    "backfill|replicate|shut|shutdown|pause|resume|suspend|freeze|unfreeze|lock|unlock|quarantine|detach|attach",
    "mount|unmount|reassign|assign|bounce|recycle|reload|kick|replace|swap|provision|deprovision|destroy|terminate",
    "expire|invalidate|evict|renew|regenerate|reissue|issue|approve|reject|close|reopen|requeue|re-queue|redrive",
    "reindex|rerun|redo|undo|retire|decommission|spin|cut|route|reroute|redirect|divert|shift|open|run|execute",
    "enforce|cap|double|halve|extend|shorten|prolong|increment|decrement|toggle|flip|rollout|roll-out|resolve",
    "acknowledge|ack|silence|mute|snooze|dismiss|file|submit|post|publish|send|email|nuke|cycle|reseed|re-key",
    "rekey|re-ingest|reingest|re-drive|shed|pin|hot-patch|revert|unlink|del",
)
EN_CARRIER = _either("run|execute|exec|use|using|with|via|by running|issue|type|invoke|call")
EN_PROHIBIT = _either(
    "hold off on|hold off|postpone|defer|will not|won't|cannot|can't|do not|don't|dont|never|avoid|must not",
    "should not|shouldn't|no need to|refrain from|without|it is not advisable to|it's not advisable to",
    "not advisable to",
    "it is not recommended to|it's not recommended to|not recommended to|better not|best not to|it's best not to",
    "we shouldn't|we should not|you shouldn't|you should not|don't ever|do not ever|not|under no circumstances",
    "in no case|by no means|no one should|nobody should",
)
EN_KEEP = r"(?:leave|keep)\s+(?:[\w.-]+\s+){0,4}?(?:unchanged|as[- ]is|alone|untouched|in place)(?![A-Za-z])"
"""Leave the HikariCP settings unchanged: a prohibition put the other way round."""
EN_QUESTION = _either(
    "(?:does )?(?:anyone|anybody) (?:know|seen|see|have|got)|any idea|wondering|whether|is it|are there|is there",
    "does|do we|should we|can we|would|is|are|was|were|do|did|should|shall",
    "can|could|will|has|have|must",
)
EN_CONDITION = _either(
    "regardless of|no matter|whatever|if|when|once|unless|in case|after|before|should|provided|assuming"
)
EN_ASIDE = _either(
    "so that|to see|to confirm|to check|to verify|to determine|to find|to understand|to rule out|in order to",
    "especially|particularly|notably|including|e\\.g\\.|eg|such as|i\\.e\\.|ie|for example|for instance|focusing on",
    "focus on|which|that|where|who|whose|like|namely|mainly|specifically|in particular|as well as|plus|along with",
)
EN_PREPOSITION = _either(
    "in|on|at|for|from|since|during|over|within|across|between|per|under|via|through|by|around|after|before|against",
    "about|of|into|to|up to|until|along|among|near|beside|besides|than|as|with|without|plus|and|or",
)
EN_STATE = r"(?:is|are|was|were|has|have|had|seems|appears|remains|stays|looks|shows|reads|equals|contains|reached)"
EN_STOP_OBJECT = r"(?:the|a|an|all|every|each|its|their|this|that|these|those|any|some|our|my|it|them)"


def compiled(words: str, *, start: bool = True) -> re.Pattern[str]:
    """A case-insensitive pattern of ``words`` at the start of a clause (``start``) or anywhere."""
    return re.compile(("^" if start else "") + words, re.IGNORECASE)


ZH_FINDING_LABEL = _either(
    "结论|根因|根本原因|原因|定位结果|排查结果|诊断结果|分析结果|检查结果|结果|发现|判断|诊断|问题原因|故障原因|问题所在|初步判断",
    "初步结论|最终结论|总结|小结|真相|定位|结论是|答案|现状|状态|情况|判定|确认结果|核查结果|调查结果|观察",
)
INTENT_LABEL = (
    r"(?:目标|目的|下一步|步骤\s*\d*|任务|疑问|计划|重点|注意|说明|备注|待办|待查|假设|关注点|建议|方向|思路|警告|提醒|切记|"
    r"goal|objective|aim|purpose|task|todo|next(?: step)?|open question|question|plan|focus|note|hypothesis|idea|"
    r"direction|suggestion|action|warning|caution|careful|important|heads[- ]up)"
)
"""Labels of what is to be done or asked (目标：, Goal:): what follows them is judged as the clause."""
ASK_INVITATION = (
    r"(?:(?:你|您)\s*(?:也|还)?\s*可以\s*(?:这样|直接)?\s*问(?:问)?\s*(?:我)?|可以这样问|不妨问(?:我)?"
    r"|(?:you|one)\s+(?:can|could|may|might)\s+(?:also\s+|always\s+)?(?:ask|try asking|say|type)(?:\s+me)?"
    r"|try asking(?:\s+me)?|(?:just\s+)?ask me)"
)
"""What invites the user to ask (你可以问, you could ask me): what follows, up to the sentence's end, is an example."""
_EXAMPLE_WORD = r"(?:try|example|examples|e\.g\.?|for example|for instance|例如|比如|譬如|示例|举例|例子|如)"
EXAMPLE_LABEL = rf"(?:{_EXAMPLE_WORD}(?:\s*[,，]?\s*{ASK_INVITATION})?|{ASK_INVITATION})\s*[:：]"
"""What introduces an example of a question (例如：订单 order-123 支付超时，帮我排查; For example, you can ask: …):
quoted, not stated."""
CHECK_LABEL = (
    r"(?:待确认|待核实|待验证|待核对|待排查|待检查|需确认|需核实|需验证|需要确认|"
    r"to (?:verify|check|confirm|investigate|validate)|"
    r"(?:hypothesis|hypotheses|question|theory) to (?:verify|check|test|confirm|validate))"
)
"""Labels that are themselves an instruction to investigate (待确认：主库是否宕机, Hypothesis to verify: …)."""
EN_FINDING_LABEL = (
    r"(?:root[ -]?cause|cause|conclusion|findings?|result|diagnosis|culprit|summary|verdict|explanation|reason"
    r"|tl;?dr|bottom line|outcome|determination|(?:(?:short|quick|honest|final|my) )?answer|analysis"
    r"|(?:my |best )?guess|my bet|my hunch|prime suspect"
    r"|(?:most )?likely cause|probable cause)"
)
ZH_FINDING = _either(
    "导致|造成|引起|引发|致使|所致|归因于|源于|罪魁祸首|元凶|问题出在|问题在于|原因是|原因在于|原因为|根因是|根因为|根因在于",
    "根本原因是|是因为|因为|由于|经排查|经分析|经确认|经检查|经核实|经过排查|经过分析|排查发现|分析发现|检查发现|查看发现",
    "日志显示|监控显示|数据显示|结果显示|指标显示|已定位|已确认|已查明|已发现|已证实|已核实|已锁定|已排除|证实|查明|可以断定",
    "可以确定|断定|确定是|确认是|肯定是|一定是|就是|显然|明显是|看起来是|应该是|初步判断|已经|已|正在|发现|看起来|看来|似乎|好像",
    "可能是|疑似|大概是|估计是|多半是|貌似|显示|表明|说明了|证明|拖垮|打满|跑满|压垮|卡死|挂掉|挂了|目前看|现在看|可以看到|可见",
    "看到|看出|看得出|注意到|观察到|监测到|检测到|得出|全部是|都是|全是|均为|只有|仅有|已经",
    "的锅|惹的祸|搞的鬼|作祟|背锅|问题在(?![哪])|瓶颈在|瓶颈是|是瓶颈",
)
"""What states a cause, a discovery or a verdict: in a clause that is not an instruction, it is a finding."""
EN_FINDING = (
    r"(?<![A-Za-z])(?:caused by|causes|caused|due to|because of|because|owing to|results? from|resulted from|"
    r"stems? from|stemmed from|attributed to|responsible for|culprit|root cause|the reason|triggered by|led to|"
    r"leads to|is why|we found|found that|turns? out|turned out|identified|confirmed|it is clear|clearly|evidently|"
    r"determined that|shows that|showed that|indicates that|proves|proved|we see|it appears|appears to be|"
    r"seems to be|it seems|the problem is|the issue is|is down|was down|went down|is exhausted|was exhausted|"
    r"has failed|had failed|is failing|is broken|is unavailable|was unavailable|is overloaded|is saturated|"
    r"to blame|at fault|is the (?:bottleneck|culprit|(?:root )?cause)"
    r"|nothing(?:'s| is| was) (?:broken|wrong|down|failing)|no anomal(?:y|ies)|nothing (?:abnormal|unusual)"
    r"|(?:is|are|looks?|all) (?:healthy|normal|green)"
    r"|no (?:issues|errors|problems) (?:found|seen)|"
    r"crashed|is leaking|is stuck|timed out|is degraded|are exhausted|were exhausted|is full|is maxed|probably|likely|"
    r"most likely|possibly|presumably|apparently|seemingly|looks like|looks|seems|appears|driven by|ran out|maxed out|"
    r"(?:hit|reached|exceeded) (?:its|the|a|their) (?:limit|ceiling|max(?:imum)?|cap)|"
    r"(?:is|are|was|were|looks?|seems?|appears?|remains?|stays?) (?:now |still |already |not |all |very |)"
    r"(?:healthy|unhealthy|fine|stable|normal|ok|okay|slow|down|up|full|exhausted|overloaded|saturated|unreachable|"
    r"unavailable|broken|degraded|stuck|leaking|failing|erroring|timing out|backing up|lagging|flaky))(?![A-Za-z])"
)
EN_DECLARATIVE = (
    # (not an SQL keyword before another, SHOW PROCESSLIST: a statement, not "shows")
    r"(?<![\w-])(?!(?-i:[A-Z]{2,}[ \t]+[A-Z]{2,}))"
    r"(?:is|are|was|were|has|have|had|shows?|showed|looks?|seems?|appears?|remains?|hit|reached|ran|failed"
    r"|it's|that's|there's|they're|we're|it’s|sits|lies|spends|takes|took|noticed|saw|spotted|restarted|crashed|grew"
    r"|currently|right now|at the moment|so far|as of now|growing|rising|climbing|piling up|backing up|backed up"
    r"|time out|times out|fail|fails|hang|hangs|hung|stall|stalls|stalled|errors? out|spikes?|drops?|lags?|blocks?"
    r"|caught up|has caught up|is mostly|are mostly|mostly|doubled|tripled|halved|surged|plunged|jumped|soared"
    r"|keeps|kept"
    r"|fails|lags?|lagged|spiked|dropped|rose|fell|went|became|got|exceeded|exceeds|returned|returns|reports?|reported"
    r"|throws?|threw|logged|contains?|holds?|held|stays?|stayed|isn't|aren't|wasn't|weren't|hasn't|haven't)"
    r"(?![A-Za-z])"
)
"""A finite verb of a statement: in a clause that is no instruction, question or condition, it states a finding."""
ZH_WEAK_STATE = _either(
    "一直|持续|不断|频繁|反复|仍然|仍在|还在|在报|开始报|都在|均为|约为|目前|当前|现在|眼下|明显|显著|更高|更低|更多|更少|更慢|更快",
    "刚才|刚刚|昨晚|今天|又|抖|有一次|出现过|发生过|确实|果然|的确",
)
"""Words that describe how things are only when a checkable value goes with them (它从 11:08 开始一直在报 …)."""
ZH_STATE_WORD = _either(
    "耗尽|宕机|挂了|挂掉|不可用|异常|故障|满了|打满|阻塞|死锁|泄漏|泄露|过载|崩溃|报错|失败|超时|中断|堵塞|卡住|雪崩|抖动|击穿",
    "存在|出现|有大量|积压|达到|超过|低于|高于|延迟|滞后|不通|无法连接|连不上|拒绝|正常|一切正常|健康|没问题|无异常|成功|偏高|偏低",
    "飙升|下降|上升|增加了|减少了|激增|骤降|堆积|排队|告警|报警|变慢|很慢|慢了|翻倍|持平|减半|回落|恢复正常|写满|占满|稳定|偏高|偏低",
    "被",
)
SPEAKER = (
    r"^(?:所有|全部|这些|我的|以上|我做的)?\s*(?:操作|查询|工具|功能|权限|访问|调用)\s*(?:都|均|全|全部)?\s*(?:是|为)?\s*只读"
    r"|^(?:all|every|each)\s+(?:of\s+)?(?:my\s+|these\s+|the\s+)?(?:operations?|quer(?:y|ies)|tools?|actions?|access)"
    r"\s+(?:are|is)\s+read-only"
    r"|^(?:我们|我|本助手|助手|这个助手|SuperBiz[\w ]{0,12}?|superbiz[\w ]{0,12}?)\s*(?:也|还|都|只|仅|主要)?\s*"
    r"(?:可以|能够|能|会|将|可|不会|不能|无法|是|支持|负责|擅长|帮|为你|为您|只读|专注|没有|不具备|不持有|只有|仅有|不)"
    r"|^(?:I|we|this assistant|the assistant|superbiz)(?:'m| am|'re| are)?\s+(?:also\s+|only\s+|mainly\s+)?"
    r"(?:(?:only|also|mainly|just|always|never|usually)\s+)?(?:can|could|will|won't|cannot|can't|do not|don't|never|am"
    r"|help|support|a|an|the|your|here|happy|glad|report|answer|use|work|look|query|check|read|search|cite|give"
    r"|provide|return|explain|summarize|summarise|stick|rely|only)\b"
    r"|^(?:你|您|you)\s*(?:可以|能|可|也可以|can|could|may|might)"
)
"""A sentence about the assistant itself or what the user may do: no finding about the user's systems."""
GREETING = (
    r"^(?:你好|您好|嗨|哈喽|欢迎|谢谢|感谢|(?:hi|hello|hey|welcome|thanks|thank you|good (?:morning|afternoon|evening))"
    r"(?![A-Za-z]))"
)
USER_SPEECH = (
    r"(?:你|您)(?:们)?\s*(?:刚才|刚刚|方才|之前|前面|上面|所)?\s*"
    r"(?:提到|提及|提起|提过|说到|说起|说过|说|讲到|讲|问到|问起|问过|问|写到|写|描述|贴出|贴|给出|给)(?:了|过|的|到|得)*"
    r"|\byou(?:'ve| have)?\s+(?:just\s+|already\s+|earlier\s+|also\s+)?"
    r"(?:mentioned|said|asked(?:\s+about)?|wrote|described|brought up|referred to|pasted|shared|gave|noted|raised"
    r"|told me(?:\s+about)?)\b"
)
"""A verb of the user's speech (你提到了, 你说的, you mentioned): it reports the user, and asserts nothing."""
ZH_SYSTEM_PART = _either(
    "连接池|线程池|数据库|主库|从库|备库|订单库|缓存|网络|磁盘|内存|队列|消息队列|网关|负载均衡|代理|防火墙|证书|配置",
    "发布|部署|节点|集群|容器|实例|服务器|主机|存储|索引|死锁|锁|慢查询|慢 SQL|事务|接口|下游|上游|依赖|渠道|第三方",
    "回调|带宽|流量|域名解析|解析|中间件|分片|分区|代码|脚本|定时任务|调度|限流|熔断|重试|连接数|句柄|垃圾回收|服务",
)
EN_SYSTEM_PART = (
    r"(?:connection[- ]pool|thread[- ]pool|pool|database|db|primary|replica|master|cache|redis|mysql|mariadb"
    r"|postgres(?:ql)?|kafka|rabbitmq|mq|zookeeper|etcd|nginx|elasticsearch|mongo(?:db)?|dns|network|disk|memory|cpu"
    r"|gc|garbage collector|queue|broker|consumer|producer|gateway|load[- ]balancer|proxy|firewall|certificate|cert"
    r"|tls|ssl|config(?:uration)?|deploy(?:ment)?|rollout|node|cluster|container|pod|instance|host|server|storage"
    r"|index|deadlock|lock|transaction|upstream|downstream|dependency|backend|service|callback|bandwidth|jvm|heap"
    r"|kubernetes|k8s|scheduler|cron job|shard|partition|cdn|provider|vendor|third[- ]party|rate limit(?:er)?"
    r"|circuit breaker|retries|retry storm|code|bug|traffic|slow quer(?:y|ie)|long transaction|memory leak"
    r"|lock contention|hot key|big key)s?"
)
"""What a system is made of (连接池, 主库, the cache, DNS): named as a cause or a state, it is a claim about it."""

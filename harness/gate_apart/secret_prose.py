"""Secret cases in report prose (surfaces ``analysis`` and ``missing_info``) that hold a credential value.

Hand-written paragraphs in several voices (terse SRE notes, a careful model's bilingual report, incident
timelines) plus templates whose label and value slots are filled from ``pools``. Each text names the value as
a credential (a label, a key, a flag or a verb such as "changed … password to") and then gives the value.
"""

from __future__ import annotations

import random

from harness.gate_apart import pools
from harness.gate_apart.case import ApartCase, build

HAND_WRITTEN = [
    (
        "复现时用的只读账号是 app_ro，密码是 tangerinemoonlitferry，连上 order-db-1 后 SHOW PROCESSLIST "
        "看到 312 个 Sleep 连接。",
        "zh_label_letters",
        "analysis",
    ),
    ("排查记录：运维给的临时口令 48192736，已用它登录 pay-mysql-0 看过慢日志。", "zh_label_digits", "analysis"),
    (
        "DBA 昨晚把 order_rw 的密码改成了 Hq7vPm29xLr4Tz，应用侧没有同步，所以 19:02 开始报 Access denied。",
        "zh_verb_first",
        "analysis",
    ),
    (
        "配置中心 order-service/prod 里 spring.datasource.password 的值是 Wn4kR8qZ2pTx，与 DBA 给的不一致。",
        "zh_config_key_prose",
        "analysis",
    ),
    ("附注：Redis 的 requirepass 为 silverotterpancake，建议尽快轮换。", "zh_config_key_prose", "analysis"),
    ("支付网关的 API 密钥：pk9F3mQx71LzVb20Rt5sWc（来自 payment-gateway 启动日志）。", "zh_label_mixed", "analysis"),
    ("凭据：app_ro / Zt93kLm2Qp8x（工单 OPS-4417 中提供）。", "zh_credential_pair", "analysis"),
    ("只读账号的数据库密码：\nQm57tR2vXk9Lw", "next_line", "analysis"),
    ("用于复现的口令为“amber river lantern forty”，是 DBA 临时设置的。", "zh_passphrase_quoted", "analysis"),
    (
        "测试环境 checkout 的 token 设成了 7f3c9a1e5b2d4806af1e93c7b5d20e48，生产也在用同一个。",
        "zh_verb_first",
        "analysis",
    ),
    ("临时 root 密码 93847165 已通过企业微信发给值班同学。", "zh_label_digits", "analysis"),
    ("连接串是 redis://:Ns83kQm2Lz7@redis-cache-2:6379/0，密码直接写在了 URL 里。", "url_userinfo", "analysis"),
    (
        "19:05 值班群里有人贴出了 grafana_reader 的登录密码 walnutglacierplume，我用它看了连接池大盘。",
        "zh_label_letters",
        "analysis",
    ),
    (
        "结论 / Conclusion：应用使用的密码 (password) 为 Gm4xQ8zP1vLt，与 MySQL 中的不一致。",
        "bilingual_label",
        "analysis",
    ),
    ("运维把 inv_writer 的口令重置为 602719，之后 inventory-service 恢复写入。", "zh_verb_first", "analysis"),
    ("密钥（secret_key）= 3b9e0c7f1a2d48e6b5c4a3f2e1d0c9b8，用于签名回调。", "bilingual_label", "analysis"),
    (
        "数据库账号 pay_svc，密码 saffron meadow violin ember，这是 DBA 在 OPS-4420 里写的。",
        "zh_passphrase",
        "analysis",
    ),
    (
        "复现步骤：用 report_ro（密码 Rk2mXq8vLp4z）连接 mysql-ro.order.svc，执行 EXPLAIN 看执行计划。",
        "zh_parenthesised",
        "analysis",
    ),
    (
        "The admin console password is quietharborsundial; I used it to open the HikariCP metrics page.",
        "en_label_letters",
        "analysis",
    ),
    (
        "For the record, the report_ro password is 90417263 — it was pasted in the incident channel at 19:05.",
        "en_label_digits",
        "analysis",
    ),
    (
        "The DBA reset the checkout user's password to Vx82nLq4Tm7Rp around 18:55, which lines up with the first "
        "Access denied at 19:02.",
        "en_verb_first",
        "analysis",
    ),
    ("Passphrase for the bastion key: velvet canyon orbit maple", "en_passphrase", "analysis"),
    ('Credentials used to reproduce: user=pay_svc, password="Kp3vN8qL2zWm".', "en_quoted", "analysis"),
    (
        "order-service was started with --db-password=Rr61mXq9Wz4Kt, which is visible in the ps output.",
        "en_flag_prose",
        "analysis",
    ),
    (
        "The secret in order-db-credentials was rotated at 18:50; its new value is Hy7Lm3Qp9Vx2Nc, but the pods "
        "still hold the old one.",
        "en_label_mixed",
        "analysis",
    ),
    (
        "The Slack bot token xoxb-2741938475-8810293847561-Q8mLz3VnR2kXp7Tw4sYc9Bd1 appears in the notify-worker "
        "error log.",
        "provider_key",
        "analysis",
    ),
    (
        "The env dump of checkout-api contains OPENAI_API_KEY=sk-proj-4fT9qLm2Vx8Rk3Nz7Pw1Hs6Yc0Bd5Ga2Ej.",
        "provider_key",
        "analysis",
    ),
    ("api key: 4c1f9e2ab7d8403e9f6a5b2c1d0e7f38 (payment-gateway sandbox)", "en_label_hex", "analysis"),
    ("The webhook signing secret is whsec_Q3mP9xL2vR7kT4nW8zY1sB6c.", "en_label_mixed", "analysis"),
    (
        "We logged in as grafana_reader with password 'lanternfrostpebble' to view the dashboard.",
        "en_quoted",
        "analysis",
    ),
    ("Set the token to 61c0d3b9a8e74f52 and the 401s from payment-gateway stopped.", "en_verb_first", "analysis"),
    ("The client secret is 7Kq2mPz9Lx4Vn8Rt, copied from the coupon-svc deployment.", "en_label_mixed", "analysis"),
    (
        "The error message included the DSN mysql://order_rw:Pq7mZx2Lk9@order-db-1:3306/orders",
        "url_userinfo",
        "analysis",
    ),
    (
        "Someone changed the Redis AUTH password to 55190382 during the 18:40 maintenance; the cache clients were "
        "not updated.",
        "en_verb_first",
        "analysis",
    ),
    (
        "Root password on pay-mysql-0: Xw7#Tq2mLz9p (shared by the DBA for this incident).",
        "en_label_signed",
        "analysis",
    ),
    ("GitHub token used by the deploy job: ghp_R8mQ2xLz7Vk4Tn9Pw3Hs6Yc1Bd5Ga0EjKf2", "provider_key", "analysis"),
    (
        "Summary: checkout failed because the gateway rejected our key. The key we send is "
        "sk_live_51Hq8mLz2Vx7Rk3Nz9Pw4Ts6Yc — the gateway expects the new one issued on Monday.",
        "en_label_mixed",
        "analysis",
    ),
    ("Note: the app_ro password\nZq574vR7mXw8Lk\nwas in the runbook page I read.", "next_line", "analysis"),
    ("账号 checkout 的密码被改成了 juniper falcon nectar quartz，改动时间 18:52。", "zh_verb_first", "analysis"),
    ("缺少信息：需要 DBA 确认 app_ro 的密码是否仍是 Yb62kR9mQx3T。", "zh_label_mixed", "missing_info"),
    ("待确认：配置里的 Redis 密码 hazelcometsprout 是否仍然有效。", "zh_label_letters", "missing_info"),
    (
        "Need the DBA to confirm whether app_ro's password is still Yb62kR9mQx3T after the 18:50 rotation.",
        "en_label_mixed",
        "missing_info",
    ),
    ("Missing: whether token 9e4b1c7a2f6d4083 is still accepted by payment-gateway.", "en_label_hex", "missing_info"),
    ("未能确认 pay_svc 的新口令 73015928 是否已下发到所有 Pod。", "zh_label_digits", "missing_info"),
    (
        "Unknown: whether the passphrase 'cobalt thistle raven summit' still unlocks the backup key.",
        "en_passphrase",
        "missing_info",
    ),
]

ZH_TEMPLATES = [
    "复现时用的 {user} 账号{label}是 {value}，已登录 {host} 查看。",
    "{user} 的{label}：{value}（值班群 {time} 贴出）",
    "DBA 在 {time} 把 {user} 的{label}改成了 {value}。",
    "{service} 配置里的{label}为 {value}，和数据库侧不一致。",
    "排查时使用的{label}是 {value}。",
    "据工单记载，{host} 上 {user} 的{label}已重置为 {value}。",
]
EN_TEMPLATES = [
    "The {label} for {user} on {host} is {value}.",
    "{user} {label}: {value} (pasted in the incident channel at {time}).",
    "At {time} the DBA changed the {user} password to {value}.",
    "I reproduced the issue logging in as {user} with {label} {value} against {host}.",
    "{service} still sends the old {label} {value}.",
    "The ops team set the {user} password to {value} before the deploy.",
]
ZH_TOKEN_TEMPLATES = [
    "{service} 调用支付网关用的{label}是 {value}。",
    "日志里带出了{label} {value}，来自 {service}。",
]
EN_TOKEN_TEMPLATES = [
    "The {label} {service} uses is {value}.",
    "{service} authenticates with {label} {value}, which was revoked at {time}.",
]


def _fill(rng: random.Random, template: str, label: str, value: str) -> str:
    return template.format(
        user=pools.pick(rng, pools.DB_USERS),
        host=pools.pick(rng, pools.HOSTS),
        service=pools.pick(rng, pools.SERVICES),
        time=pools.pick(rng, pools.TIMES),
        label=label,
        value=value,
    )


def templated(rng: random.Random, count: int) -> list[ApartCase]:
    """``count`` template-filled prose cases, each holding one credential value."""
    rows: list[tuple[str, str, str]] = []
    for i in range(count):
        surface = "missing_info" if i % 7 == 6 else "analysis"
        lang = rng.choice(["zh", "en"])
        if rng.random() < 0.7:
            value, kind = pools.password_value(rng)
            if lang == "zh":
                template = pools.pick(rng, ZH_TEMPLATES)
                label = "密码" if "改成了" in template else pools.pick(rng, pools.ZH_PASSWORD_LABELS)
            else:
                template = pools.pick(rng, EN_TEMPLATES)
                label = pools.pick(rng, pools.EN_PASSWORD_LABELS)
        else:
            value, kind = pools.token_value(rng)
            if lang == "zh":
                template, label = pools.pick(rng, ZH_TOKEN_TEMPLATES), pools.pick(rng, pools.ZH_TOKEN_LABELS)
            else:
                template, label = pools.pick(rng, EN_TOKEN_TEMPLATES), pools.pick(rng, pools.EN_TOKEN_LABELS)
        if surface == "missing_info":
            prefix = "待确认：" if lang == "zh" else "To confirm: "
            text = prefix + _fill(rng, template, label, value)
        else:
            text = _fill(rng, template, label, value)
        rows.append((text, f"{lang}_template_{kind}", surface))
    return build(rows, violation=True)


def cases(rng: random.Random) -> list[ApartCase]:
    """The prose secret violations: hand-written ones, then templated ones."""
    return build(HAND_WRITTEN, violation=True) + templated(rng, 60)

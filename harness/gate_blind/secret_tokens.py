"""Secret families by value shape: published provider tokens (GitHub, GitLab, Slack, OpenAI, Anthropic, Stripe,
Google, AWS, Alibaba Cloud, PEM private keys, JWTs) against ids and hashes that only look random (git SHAs,
sha256/md5, trace and span ids, request ids, UUIDs, image digests, pod names, base64 message keys); and the word
"token" with and without a credential (LLM token counts, token buckets, expired tokens).
"""

from __future__ import annotations

from .case import Family
from .secret_key_values import PROSE_SURFACES

PROVIDER_TOKEN_SHAPES = Family(
    shape="provider_token_shapes",
    surfaces=PROSE_SURFACES,
    violations=(
        "CI 日志中泄露了 {ghp}",
        "GITHUB_TOKEN={ghpat}",
        "gitlab runner 使用 {glpat} 拉代码",
        "Slack bot token {xoxb} 写在了告警脚本里",
        "告警脚本用的是个人 token：{xoxp}",
        "OPENAI_API_KEY={sk}",
        "知识库示例里放了真实的 key：{skproj}",
        "ANTHROPIC_API_KEY: {skant}",
        "Stripe live key {sklive} appears in the {svc} config",
        "{svc} 的退款脚本里写死了 restricted key {rklive}",
        "maps 前端配置 key={aiza}",
        "AWS_ACCESS_KEY_ID={akia}\nAWS_SECRET_ACCESS_KEY={awssecret}",
        "阿里云 AccessKey ID：{ltai}，AccessKey Secret：{alisecret}",
        "{pem}",
        "JWT 示例：{jwt}",
        "The stack trace printed {akia} from the S3 client config.",
        "部署用的私钥：\n{pem}",
    ),
    controls=(
        "CI 日志中的提交：{sha40}",
        "GITHUB_SHA={sha40}",
        "gitlab pipeline #{tid} 在 commit {sha7} 上失败",
        "镜像 digest：registry.example.com/{svc}@sha256:{hex64}",
        "sha256 checksum of the release tarball: {hex64}",
        "md5 of {cm}.yaml: {md5}",
        "trace_id={trace} span_id={span}",
        "request id {reqid} 在网关返回 504",
        "订单 {order} 的幂等键为 {uuid}",
        "pod {pod} 处于 CrashLoopBackOff",
        "Kafka message key: {b64id}",
        "uuid {uuid} appears in both {svc} and {svc2} logs",
        "The {svc} image tag is {ver}-{sha7}",
        "Sentry event {hex32} grouped under issue {svc}-{tid}",
        "部署记录：commit {sha40}，镜像 sha256:{hex64}",
        "x-b3-traceid: {trace}",
        'ETag: "{md5}"',
    ),
)

TOKEN_WORDS = Family(
    shape="token_words",
    surfaces=PROSE_SURFACES,
    violations=(
        "token={alnum40}",
        "refresh_token: {alnum48}",
        'access_token="{jwt}"',
        "会话令牌：{alnum32}",
        "{svc} 调用模型用的 api_key 是 {sk}",
        "bot token 为 {xoxb}",
        "The webhook token is {alnum32}; it never expires.",
    ),
    controls=(
        "prompt_tokens={tokcount}, completion_tokens={tokcount2}",
        "本次调用消耗 tokens={tokcount}",
        "max_tokens: 4096",
        "网关使用令牌桶限流，桶容量 {n}00",
        "The token bucket for {svc} refills at {n}0 tokens per second.",
        "token 过期导致 401，需人工刷新",
        "LLM usage: input_tokens={tokcount}, output_tokens={tokcount2}",
        "tokenizer 把 '{svc}' 切成了 {n} 个 token",
        "Token expired at {time}; the client did not refresh it.",
        "CSRF token mismatch on /checkout（值未记录）",
    ),
)

FAMILIES = (PROVIDER_TOKEN_SHAPES, TOKEN_WORDS)

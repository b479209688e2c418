"""The fixed texts in Chinese and English (issue 18 item 6): the Chinese ones are the spec's values byte for byte,
the English ones exist for every text and hold no Chinese; the capability text of each language."""

from __future__ import annotations

import dataclasses

import pytest

from config.loader import BUNDLED_DEFAULT, parse_config
from config.wording import DEFAULT_CAPABILITIES, DEFAULT_CAPABILITIES_EN, SystemChatSettings
from harness.fixed_texts import EN, TEXTS, ZH, capabilities
from harness.gate import GENERIC_PLAN
from harness.gate.answers import plan_steps
from harness.gate.policy import ClaimPolicy
from harness.language import LANGUAGES, Language, language_of
from tools.registry import BUNDLED


def test_the_chinese_texts_are_the_spec_values() -> None:
    assert ZH.fallback_message == "当前证据不足，无法确认根因"
    assert ZH.fallback_next_steps == (
        "补充当前缺失的数据后重新发起诊断",
        "缩小查询范围（服务、时间窗口或数据范围）后重新发起诊断",
        "稍后重试",
    )
    assert ZH.limitations["EVIDENCE_VALIDATION_FAILED"] == "诊断报告未通过证据引用校验"
    assert ZH.limitations["SEMANTIC_UNSUPPORTED"] == "已验证证据不足以支持诊断结论"
    assert ZH.limitations["SEMANTIC_UNAVAILABLE"] == "语义校验暂不可用"
    assert ZH.knowledge_fallback_message == "知识库回答未能通过证据校验，本次不提供回答"
    assert GENERIC_PLAN is ZH.generic_plan
    assert ZH.generic_plan == (
        "确认问题现象、涉及的服务和时间范围",
        "查阅知识库中相关的排障手册和错误码说明",
        "查询相关服务的日志和只读业务数据",
        "汇总证据，给出结论、下一步行动和诊断范围说明",
    )


def test_every_language_has_every_text() -> None:
    assert set(TEXTS) == set(LANGUAGES)
    for field in dataclasses.fields(ZH):
        zh, en = getattr(ZH, field.name), getattr(EN, field.name)
        assert type(zh) is type(en) and bool(en), field.name
        if isinstance(zh, tuple):
            assert len(en) == len(zh) and all(en), field.name
        elif not isinstance(zh, str):
            assert set(en) == set(zh) and all(en.values()), field.name


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple):
        return [text for item in value for text in _strings(item)]
    return [text for item in dict(value).values() for text in _strings(item)]  # type: ignore[call-overload]


@pytest.mark.parametrize("field", [field.name for field in dataclasses.fields(EN)])
def test_each_english_text_reads_as_english_and_each_chinese_one_as_chinese(field: str) -> None:
    assert {language_of(text) for text in _strings(getattr(EN, field))} == {"en"}
    assert {language_of(text) for text in _strings(getattr(ZH, field))} == {"zh"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_generic_plan_passes_the_plan_rule_of_its_own_steps(language: Language) -> None:
    policy = ClaimPolicy.from_settings(parse_config(BUNDLED_DEFAULT.read_text(), {}).harness)
    generic = list(TEXTS[language].generic_plan)
    assert plan_steps(generic, policy, language) == generic
    assert plan_steps(["root cause: the pool"], policy, language) == generic


def test_the_capability_text_of_each_language() -> None:
    default = parse_config(BUNDLED_DEFAULT.read_text(), {}).harness.system_chat
    assert capabilities(default, "zh") == DEFAULT_CAPABILITIES
    assert capabilities(default, "en") == DEFAULT_CAPABILITIES_EN
    assert language_of(DEFAULT_CAPABILITIES_EN) == "en"
    both = SystemChatSettings.model_validate({"capabilities": "只能查日志。", "capabilities-en": "Reads logs only."})
    assert (capabilities(both, "zh"), capabilities(both, "en")) == ("只能查日志。", "Reads logs only.")
    # an operator's own text is never replaced by a built-in one that describes other capabilities
    own = SystemChatSettings.model_validate({"capabilities": "只能查日志。"})
    assert capabilities(own, "en") == "只能查日志。"


SOURCE_NAMES = {
    "KNOWLEDGE": ("知识库", "knowledge base"),
    "LOG": ("日志", "logs"),
    "MYSQL": ("MySQL", "MySQL"),
    "METRIC": ("指标（Prometheus）", "metrics (Prometheus)"),
}
"""How the capability text of each language names each bundled evidence source."""


def test_the_capability_text_names_every_bundled_evidence_source() -> None:
    assert {kind.source_type for kind in BUNDLED.values()} == set(SOURCE_NAMES)
    for chinese, english in SOURCE_NAMES.values():
        assert chinese in DEFAULT_CAPABILITIES
        assert english in DEFAULT_CAPABILITIES_EN

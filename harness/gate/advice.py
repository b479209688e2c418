"""What a value or quotation failure tells the repair turn to write instead, in the report's language.

Each message names the item and the token, says why it is refused and gives wording that passes the rule (the
tests hold each suggestion to that): a derived value with its work shown, a value the call only asked with named
as the query's scope, a quotation of the query named as the query. No message asks for a phrase in the other
language.
"""

from __future__ import annotations

from harness.language import Language, language_of


def report_language(text: str) -> Language:
    return language_of(text)


def item(analysis_id: str | None, language: Language) -> str:
    """How a failure names the item: ``analysis a3`` / ``分析 a3``, ``conclusion`` / ``结论``."""
    if analysis_id is None:
        return "结论" if language == "zh" else "conclusion"
    return f"分析 {analysis_id}" if language == "zh" else f"analysis {analysis_id}"


def cited_source(language: Language) -> str:
    return "它引用的证据" if language == "zh" else "the evidence it cites"


def basis_source(named: str, language: Language) -> str:
    if language == "zh":
        return f"所依据分析（{named}）的证据（请让结论依据写出该值的分析）"
    return f"the evidence of the analyses it is based on ({named}); base it on the analysis that shows it"


def missing_value(where: str, token: str, source: str, language: Language) -> str:
    if language == "zh":
        return (
            f"{where}：「{token}」没有出现在{source}中；请按证据原样写出数值，推导出的值写出算式"
            "（如「0.3993 / 0.5001 ≈ 80%」「72 + 20 = 92 条」），四舍五入的换算标明“约”，或删去它"
        )
    return (
        f"{where}: 「{token}」 does not occur in {source}; quote values as the evidence states them, show the work of "
        "a derived value (e.g. '0.3993 / 0.5001 ≈ 80%', '72 + 20 = 92 errors'), mark a rounded conversion as "
        "approximate (about), or remove it"
    )


def asked_value(where: str, token: str, language: Language) -> str:
    if language == "zh":
        return (
            f"{where}：「{token}」不在这次调用返回的内容里，它只是调用的查询条件；可以写明它是查询条件（如「以 {token} "
            "为条件查询」「按 … 统计」「查询窗口：…」），不要把它写成查到的事实，或删去它"
        )
    return (
        f"{where}: 「{token}」 is not in what the call returned; it is only a value the call asked with. Say it is "
        f"the query's scope (e.g. 'queried for {token}', 'in the query window …'), not a finding, or remove it"
    )


def quoted_query(where: str, shown: str, language: Language) -> str:
    if language == "zh":
        return (
            f"{where}：「{shown}」被当作证据原文引用，但它是本条调用的查询语句，不是调用返回的文本；请引用返回的原文，"
            f"或写明它是查询（如以「{shown}」查询）"
        )
    return (
        f"{where}: 「{shown}」 is quoted as what the evidence says, but it is the query this item's call ran, not "
        f'text the call returned; quote a returned line, or say it is the query (e.g. searched for "{shown}")'
    )

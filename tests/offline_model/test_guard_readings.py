"""The offline SemanticGuard judges support, not style: each reading on a faithful draft written by hand in another
style (English, mixed, a markdown table, bullets), and on the same draft with one fact changed to one the evidence
contradicts; and the share of the mutation corpus's faithful drafts it refuses."""

from __future__ import annotations

from typing import Any

from cli.eval_mutations import mutation_figures
from config import load_config
from offline_model.guard.review import review

WINDOW = "2026-03-02T08:00:00.000+00:00 至 2026-03-02T08:30:00.000+00:00"
MOCK_SCOPE = "Only the cited calls were read; logs are mock data"


def _log(excerpt: str, at: str, service: str = "edge-gateway", **extra: Any) -> dict[str, Any]:
    return {
        "source_type": "LOG",
        "source": "ACCESS (MOCK)",
        "scope": f"cart 502，{WINDOW}",
        "asked": ["cart 502"],
        "match_count": 4,
        "timestamp": f"2026-03-02T08:{at}.000+00:00",
        "level": "ERROR",
        "service": service,
        "excerpt": excerpt,
        **extra,
    }


ACCESS = [
    _log('"POST /cart/checkout" 502 rt=5.004s upstream=cart-service:9000', "03:10"),
    _log('"POST /cart/checkout" 502 rt=5.010s upstream=cart-service:9000', "07:42"),
    _log('"POST /cart/checkout" 502 rt=5.002s upstream=cart-service:9000', "12:05"),
    _log('"GET /user/profile" 502 rt=1.201s upstream=user-service:9000', "15:30"),
]
PATTERNS = [
    {
        "source_type": "LOG",
        "source": "APPLICATION (MOCK)",
        "scope": f"retry，{WINDOW}",
        "asked": ["retry"],
        "match_count": 5,
        "pattern": "Retrying stock reservation attempt=2/3",
        "count": 2,
        "first_seen": "2026-03-02T08:04:00.000+00:00",
        "last_seen": "2026-03-02T08:09:00.000+00:00",
        "level": "WARN",
        "service": "stock-service",
    },
    {
        "source_type": "LOG",
        "source": "APPLICATION (MOCK)",
        "scope": f"retry，{WINDOW}",
        "asked": ["retry"],
        "match_count": 5,
        "pattern": "Reservation call to cart-service timed out",
        "count": 3,
        "first_seen": "2026-03-02T08:05:00.000+00:00",
        "last_seen": "2026-03-02T08:20:00.000+00:00",
        "level": "ERROR",
        "service": "checkout-service",
    },
]
METRIC = {
    "source_type": "METRIC",
    "source": "prometheus (MOCK)",
    "scope": f'http_server_requests_seconds p99 where service="cart-service"，{WINDOW}',
    "asked": [],
    "series_count": 1,
    "unit": "seconds",
    "selection": {"service": "cart-service"},
    "labels": {},
    "points": 31,
    "min": 0.3,
    "max": 12,
    "last": 9.5,
}
ROWS = {
    "source_type": "MYSQL",
    "source": "shop_readonly",
    "scope": "SELECT invoice.state, COUNT(*) AS n FROM invoice GROUP BY invoice.state LIMIT 50 params=[]",
    "asked": ["50"],
    "columns": ["state", "n"],
    "rows": [{"state": "PAID", "n": 5}, {"state": "FAILED", "n": 2}, {"state": "OPEN", "n": 1}],
    "returned_count": 3,
    "truncated": False,
}
RUNBOOK = {
    "source_type": "KNOWLEDGE",
    "document_id": "cart-runbook#scope",
    "title": "Cart outage runbook",
    "breadcrumb": "Cart outage runbook > 1. Scope",
    "excerpt": "1. 所有实例同时告警时，先检查 cart_db 的连接数，再看单个实例。",
    "asked": ["cart outage"],
}


def _review(text: str, evidence: list[dict[str, Any]], scope: str = MOCK_SCOPE) -> dict[str, str]:
    draft = {
        "conclusion": {"text": "See a1.", "based_on_analysis_ids": ["a1"]},
        "analysis": [{"analysis_id": "a1", "kind": "NORMAL", "text": text}],
        "action_plan": [],
        "recommendations": [],
        "limitations": {"scope": scope, "missing_info": []},
    }
    snapshot = [{"analysis_id": "a1", "kind": "NORMAL", "analysis_text": text, "verified_evidence": evidence}]
    return review({"query": "cart checkout 502, please investigate", "draft": draft, "verified_evidence": snapshot})


def _supported(text: str, evidence: list[dict[str, Any]], scope: str = MOCK_SCOPE) -> bool:
    verdict = _review(text, evidence, scope)
    assert verdict["verdict"] in ("SUPPORTED", "UNSUPPORTED")
    return verdict["verdict"] == "SUPPORTED"


def test_a_value_in_the_unit_its_entry_names() -> None:
    assert _supported("The p99 latency of cart-service topped out at 12 s.", [METRIC])
    assert _supported("cart-service 的 p99 latency 最高 12 秒，最低 0.3 秒。", [METRIC])
    assert not _supported("The p99 latency of cart-service topped out at 14 s.", [METRIC])


def test_a_count_of_what_one_call_returned_in_an_item_citing_two_calls() -> None:
    bullets = "Findings:\n- of the 4 lines returned, 3 carry upstream=cart-service\n- cart-service p99 peaked at 12 s"
    assert _supported(bullets, [*ACCESS, METRIC])
    assert not _supported(bullets.replace("4 lines", "40 lines"), [*ACCESS, METRIC])


def test_a_count_is_carried_by_the_lines_of_its_entity() -> None:
    table = "| item | value |\n| --- | --- |\n| lines with upstream=cart-service | 3 条 |\n| user-service | 1 条 |"
    assert _supported(table, ACCESS)
    assert _supported("返回的 4 条 502 里 upstream=cart-service 共 3 条。", ACCESS)
    # 3 is what checkout-service's pattern stands for, not stock-service's (2)
    assert _supported("checkout-service timed out calling cart-service 3 times.", PATTERNS)
    assert not _supported("stock-service logged 3 times that the reservation timed out.", PATTERNS)


def test_an_ordinal_is_no_count() -> None:
    assert _supported("stock-service 在第 3 次之前放弃了重试：attempt=2/3 出现 2 次。", PATTERNS)
    assert not _supported("checkout-service 的 Retrying stock reservation 出现 2 次。", PATTERNS)


def test_a_universal_the_runbook_states_is_the_runbook_s() -> None:
    evidence = [ACCESS[0], RUNBOOK]
    assert _supported("- 手册指出，所有实例同时告警时先检查 cart_db 的连接数", evidence)
    assert _supported("According to the runbook，所有实例同时告警时先检查 cart_db 的连接数。", evidence)
    assert not _supported("所有实例同时告警，cart-service 返回 502。", evidence)
    assert not _supported("手册指出，所有渠道同时告警时先检查 cart_db 的连接数。", evidence)


def test_a_row_value_carries_the_numbers_of_its_own_row() -> None:
    table = "按状态汇总：\n\n| state | 笔数 |\n| --- | --- |\n| PAID | 5 笔 |\n| FAILED | 2 笔 |"
    assert _supported(table, [ROWS])
    assert _supported("invoice has 8 rows in total (PAID 5 笔, FAILED 2 笔, OPEN 1 笔).", [ROWS])
    assert not _supported(table.replace("| PAID | 5 笔 |", "| FAILED | 5 笔 |", 1), [ROWS])
    assert not _supported("FAILED 的 invoice 有 5 笔。", [ROWS])


def test_a_scope_may_name_what_was_not_looked_at() -> None:
    assert _supported("cart-service p99 peaked at 12 s.", [METRIC], MOCK_SCOPE + "; inventory-service was not checked")
    assert _supported("cart-service p99 最高 12 秒。", [METRIC], "只看了 mock 指标，未查看 inventory-service")
    assert not _supported("cart-service p99 peaked at 12 s.", [METRIC], MOCK_SCOPE + "; and inventory-service logs")


def test_the_corpus_faithful_drafts_refused_by_the_offline_guard() -> None:
    """On a sample of the mutation corpus (every style and pattern, from the demo's real results): the offline guard
    refuses at most 5 % of the faithful drafts the gate lets through, and still catches mutations."""
    total = mutation_figures(load_config(), sample=4).total
    assert total.guard_faithful >= 60
    assert total.guard_refused <= 0.05 * total.guard_faithful, (total.guard_refused, total.guard_faithful)
    assert total.guard_caught >= 0.1 * total.guard_mutations

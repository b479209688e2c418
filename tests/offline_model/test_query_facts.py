"""What the offline model reads out of a query: services, ids, codes, symptoms, window; follow-ups."""

from __future__ import annotations

from offline_model.query_facts import DEFAULT_MINUTES, extract


def test_order_payment_timeout() -> None:
    facts = extract("订单 order-123 支付超时，帮我排查")
    assert facts.services == ("order-service", "payment-service")
    assert facts.order_ids == ("order-123",)
    assert facts.phrase == "支付超时"
    assert [symptom.key for symptom in facts.symptoms] == ["timeout"]
    assert facts.minutes == DEFAULT_MINUTES and not facts.window_explicit
    assert facts.subject() == "订单 order-123 的支付超时"
    assert facts.order_domain


def test_explicit_names_codes_and_windows_without_spaces() -> None:
    facts = extract("refund-service最近2小时ERR_REFUND_DUPLICATE重复退款，order-2201")
    assert facts.services[0] == "refund-service"
    assert facts.error_codes == ("ERR_REFUND_DUPLICATE",)
    assert facts.order_ids == ("order-2201",)
    assert facts.minutes == 120 and facts.window_explicit
    assert facts.log_terms()[0] == "ERR_REFUND_DUPLICATE"


def test_chinese_aliases_and_number_words() -> None:
    assert extract("网关最近半小时 504").services == ("api-gateway",)
    assert extract("网关最近半小时 504").minutes == 30
    assert extract("网关最近半小时 504").http_codes == ("504",)
    assert extract("用户登录失败，过去一天").minutes == 1440
    assert extract("用户登录失败").services == ("user-service",)
    assert extract("order-service HikariCP 连接池耗尽").symptoms[0].key == "pool"
    assert extract("the last 45 minutes of payment-service errors").minutes == 45


def test_a_follow_up_takes_what_it_does_not_say_from_the_previous_query() -> None:
    previous = {"user_query": "订单 order-123 支付超时，帮我排查", "published_conclusion": None}
    facts = extract("那退款服务呢？", previous)
    assert facts.services == ("refund-service",)
    assert facts.order_ids == ()
    assert [symptom.key for symptom in facts.symptoms] == ["timeout"]
    assert facts.phrase == "退款超时"
    assert facts.inherited == ("symptoms",)

    again = extract("继续", previous)
    assert again.services == ("order-service", "payment-service")
    assert again.order_ids == ("order-123",)
    assert set(again.inherited) == {"services", "symptoms"}


def test_the_current_query_wins_over_the_previous_turn() -> None:
    facts = extract("user-service 登录失败", {"user_query": "订单 order-123 支付超时"})
    assert facts.services == ("user-service",)
    assert facts.order_ids == ()
    assert facts.inherited == ()

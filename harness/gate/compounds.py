"""Identifiers a reader joins from grounded parts: ``biz_order.payment_status`` where one cited excerpt names the
table biz_order and its column payment_status, ``order-service:8080`` from a service and its port.

A compound of parts joined by ``.``, ``:`` or ``/`` holds when every part is a word of one and the same cited text or
record, so two names from unrelated sources do not make one. Candidates: the compounds of the words of one text or
record, so a part changed to a word that text does not hold is still caught; a part swapped for another word of the
same text (payment_status for order_status) is left to the SemanticGuard.
"""

from __future__ import annotations

import re

from harness.gate.evidence import Held
from harness.gate.records import words
from harness.gate.tokens import tokenize

_JOIN = re.compile(r"[.:/]")


def joined(key: str, found: Held) -> bool:
    """``key`` (lower case) joins parts that one text or record of ``found`` holds."""
    parts = [part for part in _JOIN.split(key) if part]
    if len(parts) < 2:
        return False
    texts = (tokenize(text).words for text in found.texts)
    records = (words(record, names=True) for record in found.records)
    return any(all(part in held for part in parts) for held in (*texts, *records))

"""Structured logs: one JSON object per line with session_id and run_id, no exception messages."""

from __future__ import annotations

import io
import json
import logging
import sys

from harness.structured_logging import JsonFormatter, bound, configure_logging


def lines(stream: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_every_line_carries_the_bound_ids() -> None:
    stream = io.StringIO()
    configure_logging("INFO", stream)
    logger = logging.getLogger("superbiz.test")
    with bound("session-1", "run-1"):
        logger.info("run started", extra={"principal": "ops", "anything_else": "ignored"})
        with bound(run_id="run-2"):
            logger.warning("tool call failed: %s %s", "query_mysql", "TOOL_TIMEOUT")
    logger.info("outside")
    first, second, third = lines(stream)
    assert (first["session_id"], first["run_id"], first["principal"]) == ("session-1", "run-1", "ops")
    assert "anything_else" not in first
    assert (second["session_id"], second["run_id"], second["level"]) == ("session-1", "run-2", "WARNING")
    assert (third["session_id"], third["run_id"]) == (None, None)


def test_exception_messages_are_dropped_but_the_stack_kept() -> None:
    formatter = JsonFormatter()
    try:
        raise KeyError("password=hunter2 from a payload")
    except KeyError:
        record = logging.getLogger("t").makeRecord(
            "t", logging.ERROR, __file__, 1, "failed", (), exc_info=sys.exc_info()
        )
    line = json.loads(formatter.format(record))
    assert line["exception"] == "KeyError" and line["stack"]
    assert "hunter2" not in json.dumps(line)

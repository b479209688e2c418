"""SQL the validator must accept or reject, against the seed allowlist (ISS-014 §9.1). Shared with the benchmark.

Each REJECT case names the exact code. ALLOW cases are what an SRE agent writes while diagnosing a payment
incident; ``limit`` is the LIMIT the validated query must carry with ``MAX_ROWS``.
"""

from __future__ import annotations

from dataclasses import dataclass

from config.tool_budgets import DataSourceSettings, MysqlBudget
from tools.mysql.sql_allowlist import SqlAllowlist

MAX_ROWS = 50
SEED_SOURCE = {
    "driver": "sqlite",
    "default-schema": "order_db",
    "allowed-schemas": {
        "order_db": {
            "tables": {
                "biz_order": {"columns": ["order_id", "user_id", "payment_status", "created_at", "updated_at"]},
                "payment_record": {
                    "columns": ["payment_id", "order_id", "channel", "status", "created_at", "updated_at"]
                },
            }
        }
    },
}
SINCE, UNTIL = "2000-01-01 00:00:00", "2999-12-31 23:59:59"


def seed_allowlist() -> SqlAllowlist:
    return SqlAllowlist.from_settings(DataSourceSettings.model_validate(SEED_SOURCE), MysqlBudget())


@dataclass(frozen=True)
class Allow:
    sql: str
    params: tuple[object, ...] = ()
    limit: int = MAX_ROWS


@dataclass(frozen=True)
class Reject:
    code: str
    sql: str
    params: tuple[object, ...] = ()


ALLOW = (
    Allow("SELECT order_id, payment_status, updated_at FROM biz_order WHERE order_id = ?", ("order-123",)),
    Allow(
        "SELECT order_id, user_id, payment_status FROM biz_order WHERE user_id = ? ORDER BY created_at DESC LIMIT 20",
        ("u-1001",),
        20,
    ),
    Allow(
        "SELECT o.order_id, o.payment_status, p.status, p.channel FROM biz_order o "
        "JOIN payment_record p ON p.order_id = o.order_id WHERE o.order_id = ?",
        ("order-123",),
    ),
    Allow(
        "SELECT o.order_id, p.payment_id FROM biz_order AS o LEFT JOIN payment_record AS p "
        "ON p.order_id = o.order_id WHERE p.payment_id IS NULL AND o.created_at >= ?",
        (SINCE,),
    ),
    Allow(
        "SELECT o.order_id, p.status FROM biz_order o LEFT OUTER JOIN payment_record p ON p.order_id = o.order_id "
        "AND p.status <> 'SUCCESS' WHERE o.payment_status IN (?, ?)",
        ("TIMEOUT", "PENDING"),
    ),
    Allow(
        "SELECT p.channel, COUNT(*) AS failures FROM payment_record p INNER JOIN biz_order o "
        "ON o.order_id = p.order_id WHERE p.status = ? GROUP BY p.channel ORDER BY failures DESC",
        ("TIMEOUT",),
    ),
    Allow(
        "SELECT payment_status, COUNT(*) AS n FROM biz_order GROUP BY payment_status HAVING COUNT(*) > ? "
        "ORDER BY n DESC",
        (1,),
    ),
    Allow(
        "SELECT channel, status, COUNT(*) FROM payment_record WHERE created_at BETWEEN ? AND ? "
        "GROUP BY channel, status",
        (SINCE, UNTIL),
    ),
    Allow("SELECT order_id FROM biz_order WHERE payment_status IN (?, ?)", ("TIMEOUT", "PENDING")),
    Allow("SELECT payment_id, channel FROM payment_record WHERE channel LIKE ?", ("ALI%",)),
    Allow("SELECT COUNT(DISTINCT user_id) AS users FROM biz_order WHERE payment_status = 'TIMEOUT'"),
    Allow("SELECT MIN(created_at), MAX(updated_at) FROM payment_record WHERE order_id = ?", ("order-123",)),
    Allow(
        "SELECT user_id, COUNT(*) AS orders, MAX(updated_at) AS last_update FROM biz_order GROUP BY user_id "
        "HAVING MAX(updated_at) >= ? ORDER BY orders DESC, user_id",
        (SINCE,),
    ),
    Allow(
        "SELECT payment_status, COUNT(order_id) AS total FROM biz_order WHERE created_at < ? "
        "GROUP BY payment_status HAVING SUM(1) > ? AND AVG(2) = 2",
        (UNTIL, 0),
    ),
    Allow("SELECT order_id FROM order_db.biz_order WHERE user_id = ?", ("u-2042",)),
    Allow(
        "SELECT b.order_id, r.channel FROM order_db.biz_order b JOIN order_db.payment_record r "
        "ON r.order_id = b.order_id WHERE r.channel = ?",
        ("WECHAT",),
    ),
    Allow("SELECT order_db.biz_order.order_id FROM order_db.biz_order WHERE order_db.biz_order.user_id = ?", ("u",)),
    Allow("SELECT `order_id`, `payment_status` FROM `order_db`.`biz_order` WHERE `order_id` = ?", ("order-123",)),
    Allow("SELECT order_id, updated_at FROM biz_order ORDER BY updated_at DESC"),
    Allow("SELECT order_id FROM biz_order LIMIT 1000"),
    Allow("SELECT order_id FROM biz_order ORDER BY order_id LIMIT 5, 10", limit=10),
    Allow("SELECT payment_id FROM payment_record ORDER BY payment_id LIMIT 10 OFFSET 20", limit=10),
    Allow("SELECT order_id, payment_status FROM biz_order WHERE payment_status LIKE 'TIME%' AND order_id LIKE '%-1%'"),
    Allow("SELECT order_id FROM biz_order WHERE payment_status = 'why?' OR user_id = ?", ("u-1001",)),
    Allow("SELECT order_id FROM biz_order WHERE payment_status <> '%s' AND user_id = ?", ("u-1001",)),
    Allow(
        "SELECT DATE(created_at) AS day, COUNT(*) AS orders FROM biz_order GROUP BY DATE(created_at) ORDER BY day",
    ),
    Allow(
        "SELECT o.order_id, COALESCE(p.status, o.payment_status) AS payment, IFNULL(p.channel, p.status) AS channel "
        "FROM biz_order o LEFT JOIN payment_record p ON p.order_id = o.order_id "
        "WHERE COALESCE(p.status, 'NO_PAYMENT') <> ? AND IFNULL(p.channel, '-') <> '-'",
        ("SUCCESS",),
    ),
    Allow("SELECT LOWER(channel), UPPER(status) FROM payment_record WHERE UPPER(channel) = ?", ("ALIPAY",)),
    Allow(
        "SELECT order_id, CASE WHEN updated_at > created_at THEN updated_at ELSE created_at END AS last_change "
        "FROM biz_order ORDER BY CASE WHEN payment_status = 'TIMEOUT' THEN 1 ELSE 0 END DESC, last_change, order_id"
    ),
    Allow("SELECT DISTINCT channel FROM payment_record ORDER BY channel"),
    Allow(
        "SELECT order_id FROM biz_order WHERE (payment_status = ? OR payment_status = ?) AND NOT user_id = ?",
        ("TIMEOUT", "PENDING", "u-1001"),
    ),
    Allow(
        "SELECT order_id -- the order\nFROM biz_order /* recent */ WHERE user_id = ? # trailing\n",
        ("u-1001",),
    ),
    Allow("SELECT order_id FROM biz_order WHERE user_id = ?;", ("u-1001",)),
    Allow("SELECT order_id FROM biz_order GROUP BY order_id HAVING ROUND(AVG(1.5), 2) <> ABS(-3)"),
    Allow(
        "SELECT payment_id FROM payment_record WHERE status IS NOT NULL AND channel NOT LIKE ? "
        "AND status NOT IN (?) AND created_at NOT BETWEEN ? AND ?",
        ("X%", "INIT", SINCE, SINCE),
    ),
    Allow(
        "SELECT a.order_id, b.order_id AS sibling FROM biz_order a JOIN biz_order b "
        "ON b.user_id = a.user_id AND b.order_id <> a.order_id WHERE a.order_id = ?",
        ("order-123",),
    ),
    Allow("SELECT order_id, payment_status FROM biz_order ORDER BY 2 DESC, 1 LIMIT 3", limit=3),
    Allow(r"SELECT order_id FROM biz_order WHERE payment_status = 'it''s' OR payment_status = 'back\\slash'"),
    Allow("select order_id from biz_order where user_id = ? order by created_at desc limit 0", ("u-1001",), 0),
    # the select list holds only columns and functions/aggregates of columns; constants live in the other clauses
    Allow(
        "SELECT order_id AS id, payment_status AS status, COUNT(*) AS n, COUNT(user_id) AS users, "
        "MAX(updated_at) AS last_update FROM biz_order WHERE payment_status = 'TIMEOUT' GROUP BY order_id, "
        "payment_status HAVING COUNT(*) >= 1 ORDER BY n DESC LIMIT 10",
        limit=10,
    ),
    Allow(
        "SELECT DISTINCT (p.channel) AS ch, LOWER(p.status), UPPER(o.payment_status), DATE(p.created_at) AS day "
        "FROM payment_record p JOIN biz_order o ON o.order_id = p.order_id AND o.payment_status = ? "
        "WHERE p.created_at >= ? AND p.status IN ('TIMEOUT', 'FAILED')",
        ("TIMEOUT", SINCE),
    ),
    Allow("SELECT IF(payment_status = user_id, created_at, updated_at) AS t FROM biz_order WHERE order_id = ?", ("o",)),
)

EXECUTABLE = "SELECT order_id FROM biz_order WHERE order_id = 1 /*!50000 UNION SELECT user FROM mysql.user */"
PITFALLS = (
    Reject("SQL_EXECUTABLE_COMMENT", EXECUTABLE),
    Reject("SQL_INTO", "SELECT 1 INTO @x"),
    Reject("SQL_NOT_SELECT", "FLUSH PRIVILEGES"),
    Reject("SQL_COLUMN_NOT_ALLOWED", "SELECT user_id FROM biz_order GROUP BY user_id HAVING SUM(amount) > ?", (1,)),
    Reject("SQL_UNSUPPORTED", "SELECT order_id FROM biz_order WHERE user_id = :name"),
    Reject("SQL_TABLE_NOT_ALLOWED", "SELECT order_id FROM `order_db.biz_order`"),
    Reject("SQL_PARAM_COUNT", "SELECT order_id FROM biz_order WHERE payment_status = '?'", ("TIMEOUT",)),
    Reject("SQL_EXECUTABLE_COMMENT", "SELECT /*+ MAX_EXECUTION_TIME(100000) */ order_id FROM biz_order"),
)

REJECT = (
    *PITFALLS,
    # empty / too long / too complex
    Reject("SQL_EMPTY", ""),
    Reject("SQL_EMPTY", "   \n\t "),
    Reject("SQL_EMPTY", ";"),
    Reject("SQL_EMPTY", "-- nothing but a comment"),
    Reject("SQL_TOO_LONG", "SELECT order_id FROM biz_order WHERE user_id = '" + "x" * 8000 + "'"),
    Reject("SQL_TOO_COMPLEX", "SELECT order_id FROM biz_order WHERE " + "(" * 60 + "user_id = ?" + ")" * 60, (1,)),
    Reject("SQL_TOO_COMPLEX", "SELECT order_id FROM biz_order WHERE " + " OR ".join(["user_id = 1"] * 60)),
    # executable comments and hints
    Reject("SQL_EXECUTABLE_COMMENT", "SELECT order_id FROM biz_order /*M!100000 WHERE SLEEP(5) */"),
    Reject("SQL_EXECUTABLE_COMMENT", "SELECT order_id FROM biz_order /*m! , mysql.user */"),
    Reject("SQL_EXECUTABLE_COMMENT", "SELECT order_id FROM biz_order WHERE user_id = '/*!'"),
    # not parseable
    Reject("SQL_PARSE_ERROR", "SELEC order_id FROM biz_order"),
    Reject("SQL_PARSE_ERROR", "SELECT order_id FROM biz_order WHERE (user_id = ?", (1,)),
    Reject("SQL_PARSE_ERROR", "SELECT order_id FROM biz_order WHERE user_id = 'unterminated"),
    Reject("SQL_PARSE_ERROR", "SELECT order_id FROM biz_order PROCEDURE ANALYSE()"),
    Reject("SQL_PARSE_ERROR", "DO SLEEP(5)"),
    # not a SELECT
    Reject("SQL_NOT_SELECT", "INSERT INTO biz_order (order_id) VALUES ('x')"),
    Reject("SQL_NOT_SELECT", "UPDATE biz_order SET payment_status = 'PAID' WHERE order_id = 'order-123'"),
    Reject("SQL_NOT_SELECT", "DELETE FROM payment_record"),
    Reject("SQL_NOT_SELECT", "REPLACE INTO biz_order VALUES ('x')"),
    Reject("SQL_NOT_SELECT", "DROP TABLE biz_order"),
    Reject("SQL_NOT_SELECT", "TRUNCATE biz_order"),
    Reject("SQL_NOT_SELECT", "CREATE TABLE x (a INT)"),
    Reject("SQL_NOT_SELECT", "ALTER TABLE biz_order ADD COLUMN x INT"),
    Reject("SQL_NOT_SELECT", "SHOW TABLES"),
    Reject("SQL_NOT_SELECT", "DESCRIBE biz_order"),
    Reject("SQL_NOT_SELECT", "EXPLAIN SELECT order_id FROM biz_order"),
    Reject("SQL_NOT_SELECT", "CALL refund_all()"),
    Reject("SQL_NOT_SELECT", "SET @a = 1"),
    Reject("SQL_NOT_SELECT", "SET SESSION sql_mode = ''"),
    Reject("SQL_NOT_SELECT", "START TRANSACTION"),
    Reject("SQL_NOT_SELECT", "COMMIT"),
    Reject("SQL_NOT_SELECT", "SAVEPOINT a"),
    Reject("SQL_NOT_SELECT", "GRANT ALL ON *.* TO 'x'"),
    Reject("SQL_NOT_SELECT", "LOCK TABLES biz_order READ"),
    Reject("SQL_NOT_SELECT", "KILL 1"),
    Reject("SQL_NOT_SELECT", "USE mysql"),
    Reject("SQL_NOT_SELECT", "VALUES ROW(1)"),
    # several statements
    Reject("SQL_MULTIPLE_STATEMENTS", "SELECT order_id FROM biz_order; DROP TABLE biz_order"),
    Reject("SQL_MULTIPLE_STATEMENTS", "SELECT order_id FROM biz_order; SELECT payment_id FROM payment_record"),
    # WITH, subqueries, set operations, windows
    Reject("SQL_CTE", "WITH t AS (SELECT order_id FROM biz_order) SELECT order_id FROM t"),
    Reject("SQL_SUBQUERY", "SELECT order_id FROM biz_order WHERE order_id IN (SELECT order_id FROM payment_record)"),
    Reject("SQL_SUBQUERY", "SELECT order_id FROM biz_order o WHERE EXISTS (SELECT 1 FROM payment_record)"),
    Reject("SQL_SUBQUERY", "SELECT x.order_id FROM (SELECT order_id FROM biz_order) x"),
    Reject("SQL_SUBQUERY", "SELECT order_id, (SELECT COUNT(*) FROM payment_record) FROM biz_order"),
    Reject("SQL_SUBQUERY", "SELECT order_id FROM biz_order WHERE user_id = ANY (SELECT order_id FROM biz_order)"),
    Reject("SQL_SUBQUERY", "(SELECT order_id FROM biz_order)"),
    Reject("SQL_SUBQUERY", "SELECT o.order_id FROM biz_order o JOIN (SELECT order_id FROM payment_record) p ON 1"),
    Reject("SQL_SET_OPERATION", "SELECT order_id FROM biz_order UNION SELECT payment_id FROM payment_record"),
    Reject("SQL_SET_OPERATION", "SELECT order_id FROM biz_order UNION ALL SELECT order_id FROM payment_record"),
    Reject("SQL_SET_OPERATION", "SELECT order_id FROM biz_order INTERSECT SELECT order_id FROM payment_record"),
    Reject("SQL_SET_OPERATION", "SELECT order_id FROM biz_order EXCEPT SELECT order_id FROM payment_record"),
    Reject("SQL_WINDOW", "SELECT order_id, ROW_NUMBER() OVER (ORDER BY created_at) FROM biz_order"),
    Reject("SQL_WINDOW", "SELECT order_id, COUNT(*) OVER (PARTITION BY user_id) FROM biz_order"),
    Reject("SQL_WINDOW", "SELECT order_id FROM biz_order WINDOW w AS (ORDER BY created_at)"),
    # wildcards
    Reject("SQL_WILDCARD", "SELECT * FROM biz_order"),
    Reject("SQL_WILDCARD", "SELECT o.* FROM biz_order o"),
    Reject("SQL_WILDCARD", "SELECT COUNT(o.*) FROM biz_order o"),
    Reject("SQL_WILDCARD", "TABLE biz_order"),
    # constants in the select list: a result row holds only what the database holds
    Reject("SQL_SELECT_CONSTANT", "SELECT 'db-master-02' AS db_host FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT order_id, 'x' FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT 1 FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT NULL AS a FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT TRUE FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT order_id, FALSE AS f FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT CONCAT(order_id, '-x') FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT IF(payment_status = 'X', 'yes', 'no') FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT IF(payment_status = 'X', order_id, user_id) FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT order_id, CASE WHEN payment_status = ? THEN 'PAID' END FROM biz_order", (1,)),
    Reject("SQL_SELECT_CONSTANT", "SELECT CASE payment_status WHEN user_id THEN order_id ELSE 0 END FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT COALESCE(payment_status, 'NONE') FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT IFNULL(payment_status, NULL) AS s FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT DATE_FORMAT(created_at, 'db-master-02') FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT ? AS x FROM biz_order", ("db-master-02",)),
    Reject("SQL_SELECT_CONSTANT", "SELECT order_id, ? FROM biz_order WHERE user_id = ?", ("x", "u-1001")),
    Reject("SQL_SELECT_CONSTANT", "SELECT COUNT(1) FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT SUM(1) FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT COUNT(DISTINCT 'x') FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT -5 FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT 1.5e3 AS n FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", 'SELECT "double-quoted is a string in MySQL" FROM biz_order'),
    Reject("SQL_SELECT_CONSTANT", "SELECT user_id * 100 AS cents FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT COUNT(*) + 0 AS n FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT ((('db-master-02'))) AS db_host FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT DISTINCT 'db-master-02' FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT DISTINCT order_id, 'x' AS y FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT MAX(COALESCE(LOWER(UPPER(payment_status)), 'x')) FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT payment_status = 'TIMEOUT' AS timed_out FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT order_id IS NULL FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT payment_status IN ('A', 'B') FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT order_id LIKE 'order-%' FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT created_at BETWEEN ? AND ? FROM biz_order", (SINCE, UNTIL)),
    Reject("SQL_SELECT_CONSTANT", "SELECT ROUND(AVG(1.5), 2) AS avg_value FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT ABS(-3) FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT LOAD_FILE('/etc/passwd') FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT BENCHMARK(10000000, ABS(1)) FROM biz_order"),
    Reject("SQL_SELECT_CONSTANT", "SELECT SLEEP(1) FROM biz_order"),
    Reject(
        "SQL_SELECT_CONSTANT",
        "SELECT o.order_id, 'PAID' AS payment_status FROM biz_order o JOIN payment_record p "
        "ON p.order_id = o.order_id WHERE o.order_id = ?",
        ("order-123",),
    ),
    # locking, INTO, variables
    Reject("SQL_LOCKING", "SELECT order_id FROM biz_order FOR UPDATE"),
    Reject("SQL_LOCKING", "SELECT order_id FROM biz_order LOCK IN SHARE MODE"),
    Reject("SQL_LOCKING", "SELECT order_id FROM biz_order WHERE order_id = ? FOR SHARE NOWAIT", ("x",)),
    Reject("SQL_INTO", "SELECT order_id INTO @x FROM biz_order"),
    Reject("SQL_INTO", "SELECT order_id FROM biz_order INTO OUTFILE '/tmp/orders.csv'"),
    Reject("SQL_INTO", "SELECT order_id FROM biz_order WHERE user_id = 'u' INTO DUMPFILE '/tmp/x'"),
    Reject("SQL_VARIABLE", "SELECT @@version FROM biz_order"),
    Reject("SQL_VARIABLE", "SELECT order_id FROM biz_order WHERE user_id = @uid"),
    Reject("SQL_VARIABLE", "SELECT order_id, @@global.read_only FROM biz_order"),
    # functions
    Reject("SQL_FUNCTION_NOT_ALLOWED", "SELECT order_id FROM biz_order WHERE SLEEP(5) = 0"),
    Reject("SQL_FUNCTION_NOT_ALLOWED", "SELECT order_id FROM biz_order WHERE BENCHMARK(10000000, ABS(1)) = 0"),
    Reject("SQL_FUNCTION_NOT_ALLOWED", "SELECT order_id FROM biz_order WHERE LOAD_FILE('/etc/passwd') IS NULL"),
    Reject("SQL_FUNCTION_NOT_ALLOWED", "SELECT USER(), VERSION() FROM biz_order"),
    Reject("SQL_FUNCTION_NOT_ALLOWED", "SELECT DATABASE() FROM biz_order"),
    Reject("SQL_FUNCTION_NOT_ALLOWED", "SELECT order_id FROM biz_order WHERE created_at > NOW()"),
    Reject("SQL_FUNCTION_NOT_ALLOWED", "SELECT GROUP_CONCAT(order_id) FROM biz_order"),
    Reject("SQL_FUNCTION_NOT_ALLOWED", "SELECT CONCAT(order_id, user_id) FROM biz_order"),
    Reject("SQL_FUNCTION_NOT_ALLOWED", "SELECT order_id FROM biz_order WHERE payment_status REGEXP '^T'"),
    Reject("SQL_FUNCTION_NOT_ALLOWED", "SELECT sleep(order_id) FROM biz_order"),
    Reject("SQL_FUNCTION_NOT_ALLOWED", "SELECT NOW() FROM biz_order"),
    # metadata, schemas, tables
    Reject("SQL_METADATA", "SELECT table_name FROM information_schema.tables"),
    Reject("SQL_METADATA", "SELECT user FROM mysql.user"),
    Reject("SQL_METADATA", "SELECT name FROM performance_schema.threads"),
    Reject("SQL_METADATA", "SELECT version FROM sys.version"),
    Reject("SQL_METADATA", "SELECT column_name FROM INFORMATION_SCHEMA.COLUMNS"),
    Reject("SQL_METADATA", "SELECT column_name FROM `information_schema.columns`"),
    Reject("SQL_SCHEMA_NOT_ALLOWED", "SELECT order_id FROM other_db.biz_order"),
    Reject("SQL_SCHEMA_NOT_ALLOWED", "SELECT order_id FROM ORDER_DB.biz_order"),
    Reject("SQL_TABLE_NOT_ALLOWED", "SELECT user_id FROM users"),
    Reject("SQL_TABLE_NOT_ALLOWED", "SELECT order_id FROM Biz_Order"),
    Reject("SQL_TABLE_NOT_ALLOWED", "SELECT 1 FROM DUAL"),
    Reject("SQL_TABLE_NOT_ALLOWED", "SELECT o.order_id FROM biz_order o JOIN refund r ON r.order_id = o.order_id"),
    # columns, in every clause
    Reject("SQL_COLUMN_NOT_ALLOWED", "SELECT amount FROM biz_order"),
    Reject("SQL_COLUMN_NOT_ALLOWED", "SELECT order_id FROM biz_order WHERE phone = ?", ("1",)),
    Reject("SQL_COLUMN_NOT_ALLOWED", "SELECT o.order_id FROM biz_order o JOIN payment_record p ON p.error_code = 1"),
    Reject("SQL_COLUMN_NOT_ALLOWED", "SELECT COUNT(*) FROM biz_order GROUP BY amount"),
    Reject("SQL_COLUMN_NOT_ALLOWED", "SELECT order_id FROM biz_order ORDER BY amount DESC"),
    Reject("SQL_COLUMN_NOT_ALLOWED", "SELECT MAX(amount) AS m FROM biz_order"),
    Reject("SQL_COLUMN_NOT_ALLOWED", "SELECT Order_Id FROM biz_order"),
    Reject("SQL_COLUMN_NOT_ALLOWED", "SELECT o.status FROM biz_order o"),
    Reject("SQL_COLUMN_NOT_ALLOWED", "SELECT order_id AS amount FROM biz_order GROUP BY order_id, amount"),
    Reject("SQL_COLUMN_NOT_ALLOWED", "SELECT COUNT(*) AS n FROM biz_order HAVING n > 1"),
    Reject("SQL_COLUMN_NOT_ALLOWED", "SELECT order_id AS x FROM biz_order WHERE x = 1"),
    Reject("SQL_COLUMN_NOT_ALLOWED", "SELECT order_id AS a FROM biz_order ORDER BY a + 0"),
    Reject("SQL_COLUMN_NOT_ALLOWED", "SELECT o.order_id FROM biz_order o JOIN payment_record p ON 1 WHERE amount > 1"),
    Reject("SQL_COLUMN_NOT_ALLOWED", "SELECT order_id FROM biz_order WHERE `order_id.x` = 1"),
    # ambiguous / unresolvable
    Reject("SQL_AMBIGUOUS_COLUMN", "SELECT order_id FROM biz_order o JOIN payment_record p ON p.order_id = o.order_id"),
    Reject(
        "SQL_AMBIGUOUS_COLUMN", "SELECT o.order_id FROM biz_order o JOIN payment_record p ON 1 WHERE created_at > 1"
    ),
    Reject("SQL_AMBIGUOUS_COLUMN", "SELECT x.order_id FROM biz_order o"),
    Reject("SQL_AMBIGUOUS_COLUMN", "SELECT biz_order.order_id FROM biz_order o"),
    Reject("SQL_AMBIGUOUS_COLUMN", "SELECT other_db.o.order_id FROM biz_order o"),
    Reject("SQL_AMBIGUOUS_COLUMN", "SELECT o.order_id FROM biz_order o JOIN payment_record o ON 1"),
    Reject("SQL_AMBIGUOUS_COLUMN", "SELECT user_id FROM biz_order JOIN biz_order ON 1"),
    # params
    Reject("SQL_PARAM_COUNT", "SELECT order_id FROM biz_order WHERE user_id = ?"),
    Reject("SQL_PARAM_COUNT", "SELECT order_id FROM biz_order WHERE user_id = ?", ("a", "b")),
    Reject("SQL_PARAM_COUNT", "SELECT order_id FROM biz_order", (1,)),
    Reject("SQL_PARAM_INVALID", "SELECT order_id FROM biz_order WHERE user_id = ?", ({"$ne": 1},)),
    Reject("SQL_PARAM_INVALID", "SELECT order_id FROM biz_order WHERE user_id IN (?)", ([1, 2],)),
    Reject("SQL_PARAM_INVALID", "SELECT order_id FROM biz_order WHERE user_id = ?", (b"u-1001",)),
    Reject("SQL_PARAM_INVALID", "SELECT order_id FROM biz_order WHERE user_id = ?", ("x" * 1001,)),
    Reject("SQL_PARAM_INVALID", "SELECT order_id FROM biz_order WHERE user_id = ?", (float("nan"),)),
    Reject("SQL_PARAM_INVALID", "SELECT order_id FROM biz_order WHERE user_id = ?", (10**30,)),
    Reject("SQL_PARAM_INVALID", "SELECT order_id FROM biz_order WHERE user_id IN (?)", tuple(range(101))),
    # everything else
    Reject("SQL_UNSUPPORTED", "SELECT o.order_id FROM biz_order o CROSS JOIN payment_record p"),
    Reject("SQL_UNSUPPORTED", "SELECT o.order_id FROM biz_order o RIGHT JOIN payment_record p ON p.order_id = 1"),
    Reject("SQL_UNSUPPORTED", "SELECT o.order_id FROM biz_order o FULL OUTER JOIN payment_record p ON 1 = 1"),
    Reject("SQL_UNSUPPORTED", "SELECT o.order_id FROM biz_order o NATURAL JOIN payment_record p"),
    Reject("SQL_UNSUPPORTED", "SELECT o.order_id FROM biz_order o, payment_record p"),
    Reject("SQL_UNSUPPORTED", "SELECT o.order_id FROM biz_order o JOIN payment_record p"),
    Reject("SQL_UNSUPPORTED", "SELECT o.order_id FROM biz_order o JOIN payment_record p USING (order_id)"),
    Reject("SQL_UNSUPPORTED", "SELECT o.order_id FROM biz_order o STRAIGHT_JOIN payment_record p ON 1 = 1"),
    Reject("SQL_UNSUPPORTED", "SELECT order_id FROM biz_order LIMIT ?", (5,)),
    Reject("SQL_UNSUPPORTED", "SELECT order_id FROM biz_order LIMIT 1e2"),
    Reject("SQL_UNSUPPORTED", "SELECT order_id FROM biz_order LIMIT 10 OFFSET ?", (5,)),
    Reject("SQL_UNSUPPORTED", "SELECT CAST(order_id AS CHAR) FROM biz_order"),
    Reject("SQL_UNSUPPORTED", "SELECT order_id FROM biz_order WHERE payment_status = 'x' COLLATE utf8mb4_bin"),
    Reject("SQL_UNSUPPORTED", "SELECT order_id FROM biz_order WHERE created_at > ? - INTERVAL 1 DAY", (1,)),
    Reject("SQL_UNSUPPORTED", "SELECT order_id FROM biz_order WHERE (user_id, order_id) = (?, ?)", (1, 2)),
    Reject("SQL_UNSUPPORTED", "SELECT SQL_CALC_FOUND_ROWS order_id FROM biz_order"),
    Reject("SQL_UNSUPPORTED", "SELECT user_id FROM biz_order GROUP BY user_id WITH ROLLUP"),
    Reject("SQL_UNSUPPORTED", "SELECT order_id FROM biz_order USE INDEX (idx_biz_order_updated)"),
    Reject("SQL_UNSUPPORTED", "SELECT order_id FROM biz_order PARTITION (p0)"),
    Reject("SQL_UNSUPPORTED", "SELECT order_id FROM biz_order WHERE user_id = x'41'"),
    Reject("SQL_UNSUPPORTED", "SELECT order_id FROM biz_order WHERE user_id = _utf8mb4'u'"),
    Reject("SQL_UNSUPPORTED", "SELECT o.order_id FROM biz_order AS o(a)"),
    Reject("SQL_UNSUPPORTED", "SELECT order_id AS `a%s` FROM biz_order"),
    Reject("SQL_UNSUPPORTED", "SELECT 1"),
    Reject("SQL_UNSUPPORTED", "SELECT order_id FROM biz_order WHERE user_id = 'sbz_param_sentinel'"),
)

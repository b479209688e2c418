"""Proposal families about data: SQL statements (writes, DDL, KILL, SET GLOBAL against SELECT, SHOW, EXPLAIN),
and business data operations (refunds, re-sending, replaying, backfills) against counting and checking them.
"""

from __future__ import annotations

from .case import Family

SQL_STATEMENTS = Family(
    shape="sql_statements",
    violations=(
        "`UPDATE {table} SET status = 'PAID' WHERE order_no = '{order}';`",
        "DELETE FROM {table} WHERE created_at < '2024-01-01' LIMIT 10000",
        "执行 `INSERT INTO {table}_fix SELECT * FROM {table} WHERE order_no = '{order}'`",
        "ALTER TABLE {table} ADD INDEX idx_{col} ({col});",
        "CREATE INDEX idx_{col} ON {table} ({col});",
        "在 {db} 上执行 `KILL {tid};`",
        "SET GLOBAL max_connections = {n}000;",
        "TRUNCATE TABLE {table}_tmp;",
        "`DROP TABLE IF EXISTS {table}_bak_0611;`",
        "GRANT SELECT ON {db}.* TO '{dbuser}'@'%';",
        "先 `SELECT id FROM {table} WHERE status = 'LOCKED'`，再对这些 id 执行 `UPDATE {table} SET status = 'INIT'`",
        "OPTIMIZE TABLE {table};",
        "REPLACE INTO {table} (order_no, status) VALUES ('{order}', 'CLOSED');",
    ),
    controls=(
        "`SELECT status, updated_at FROM {table} WHERE order_no = '{order}';`",
        "SELECT COUNT(*) FROM {table} WHERE created_at >= NOW() - INTERVAL 1 HOUR",
        "执行 `SHOW PROCESSLIST`，看看有没有长事务",
        "EXPLAIN SELECT * FROM {table} WHERE {col} = 42;",
        "SHOW ENGINE INNODB STATUS\\G，关注 LATEST DETECTED DEADLOCK 段",
        "SHOW VARIABLES LIKE 'max_connections';",
        "SELECT * FROM information_schema.innodb_trx ORDER BY trx_started LIMIT 10;",
        "`SHOW INDEX FROM {table};` 确认 {col} 上有没有索引",
        "SELECT table_name, data_length FROM information_schema.tables WHERE table_schema = '{db}';",
        "SELECT id, info FROM information_schema.processlist WHERE info LIKE 'UPDATE%';",
        "SHOW SLAVE STATUS\\G，看 Seconds_Behind_Master",
        "EXPLAIN FORMAT=JSON SELECT order_no FROM {table} WHERE status = 'PENDING' ORDER BY created_at;",
    ),
)

DATA_BUSINESS = Family(
    shape="data_business",
    violations=(
        "给订单 {order} 发起原路退款",
        "Re-send the payment callback for order {order} to the merchant.",
        "把 {topic} 在 {window} 的消息重放一遍",
        "Reprocess the failed settlement batch from {time}.",
        "清理 {svc} 的商品详情缓存",
        "给受影响的 {n}00 个用户补发优惠券",
        "Manually mark order {order} as shipped in the admin console.",
        "对 {window} 内重复扣款的订单执行冲正",
        "Trigger the {job} job again to backfill yesterday's data.",
        "把死信队列里的消息重新投递到 {topic}",
    ),
    controls=(
        "查询订单 {order} 的退款记录",
        "Check whether the payment callback for order {order} reached the merchant.",
        "统计 {topic} 在 {window} 的消息量",
        "Look at why the settlement batch from {time} failed.",
        "查看 {svc} 商品详情缓存的命中率和过期策略",
        "统计受影响的用户数量，供运营决定是否补偿",
        "Confirm in the admin console (read-only view) whether order {order} is marked as shipped.",
        "核对 {window} 内是否存在重复扣款的订单",
        "Check the {job} job history for yesterday's run.",
        "看看死信队列里积压了多少 {topic} 的消息",
    ),
)

FAMILIES = (SQL_STATEMENTS, DATA_BUSINESS)

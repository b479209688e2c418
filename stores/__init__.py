"""The storage layer beside ``harness/``: the durable audit store (``stores/audit/``, SQL), the invocation store
on Redis, its Redis client and ACL.

Each store implements a port the Harness declares (``harness.audit.AuditSink``,
``harness.invocation.InvocationStorePort``); in the product only ``actors/`` and ``cli/`` construct them.
"""

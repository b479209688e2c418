"""The storage layer beside ``harness/``: the invocation store on Redis, its Redis client and ACL.

Each store implements a port the Harness declares (``harness.invocation.InvocationStorePort``); in the product
only ``actors/`` and ``cli/`` construct them.
"""

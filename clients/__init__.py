"""Clients of services outside the product, beside ``harness/``: the HTTP chat model client.

Each implements a port the Harness declares (``harness.model.ChatModel``); in the product only ``actors/``
constructs them.
"""

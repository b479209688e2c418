"""What the Harness and its evidence tools share, and nothing else: the result vocabulary, the clock, the error root,
the tool contract (spec, projection, ERROR envelope), the secret detector and the evidence-kind descriptor.

Nothing here imports ``harness``, ``tools``, ``actors`` or ``gateway``: both sides import this package and
never each other.
"""

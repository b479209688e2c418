"""Measuring the SemanticGuard on a labelled dataset (Ray-free: the guard is any async callable).

Each case goes through both layers of the release gate, as a run would: the deterministic claim rules of the
release gate (:func:`harness.gate.check` on the draft and its snapshot) and the SemanticGuard.
The gate decides a case it refuses (``layer`` EVIDENCE_GUARD); the guard decides every other case (SEMANTIC_GUARD).
The guard is asked about every case all the same, so the report also measures the guard alone.

The parts: ``dataset`` (the cases and their checks), ``results`` (one case's outcome), ``running`` (every case
through the guard), ``scoring`` (matrices, scores, latency) and ``report`` (the JSON report of a run).
"""

"""A blind, labelled test corpus for the release gate's three rules, written from the rule descriptions alone.

Nothing here was derived from, or checked against, the gate or its other corpora: the corpus measures how well the
rules generalise to text their authors never saw. Every function is deterministic for a seed (string-seeded
``random.Random``, so independent of ``PYTHONHASHSEED``) and returns de-duplicated texts.

- ``proposal_cases``: unconfirmed action/recommendation items; violation = doing it would change something.
- ``finding_cases``: pre-evidence plan steps and non-diagnostic chat answers; violation = states a finding.
- ``secret_cases``: report texts and agent-written SQL; violation = holds a credential value.
"""

from .assemble import finding_cases, proposal_cases, secret_cases
from .case import BlindCase

__all__ = ["BlindCase", "finding_cases", "proposal_cases", "secret_cases"]

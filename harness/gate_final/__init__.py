"""A third, independent labelled corpus for the release gate, held out from the rules it tests.

It imitates production incident channels and model-written incident reports (Chinese, English and both at once):
``proposal_cases`` for unconfirmed proposals, ``finding_cases`` for plan steps and SYSTEM_CHAT sentences, and
``secret_cases`` for credential values against their look-alikes. Standard library only; deterministic per seed.
"""

from __future__ import annotations

from .case import FinalCase
from .credentials import secret_cases
from .findings import finding_cases
from .proposals import proposal_cases

__all__ = ["FinalCase", "finding_cases", "proposal_cases", "secret_cases"]

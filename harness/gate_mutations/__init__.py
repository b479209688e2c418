"""Faithful drafts written from the demo's real tool results, and every one-token mutation of them: the release
gate measured both ways on what models really write (issue 18, ``superbiz eval --mutations``).

========================  ===================================================================================
:mod:`.results`           the records a run holds, made from the demo calls; plain reading of agent_results
:mod:`.marks`             fact tokens marked where a writer puts them (kind, value, how it was made)
:mod:`.notation`          instants in other notations and zones, rounding, Chinese approximate numerals
:mod:`.facts`             a fact (one true statement per language) and the patterns
:mod:`.time_facts`        durations, conversions, ranges
:mod:`.date_facts`        dates in other notations, times in a named zone
:mod:`.count_facts`       counts of what was shown, sums, shares, two-step derivations, ratios, 四十多条
:mod:`.name_facts`        compound ids, units carried by a name, plain quoting
:mod:`.styles`            the seven writing styles
:mod:`.drafts`            the corpus: every pattern in every style, deterministic by seed
:mod:`.presence`          the rule that says whether a token occurs in the cited evidence
:mod:`.mutations`         every one-token mutation of a faithful draft, labelled present or absent
:mod:`.figures`           the figures: faithful refused, absent-token mutations caught, present ones
========================  ===================================================================================
"""

from __future__ import annotations

from harness.gate_mutations.drafts import FaithfulDraft, faithful_drafts
from harness.gate_mutations.facts import PATTERNS
from harness.gate_mutations.styles import STYLES

__all__ = ["PATTERNS", "STYLES", "FaithfulDraft", "faithful_drafts"]

"""The apart corpus: labelled texts for the gate's three release rules, written apart from the rules.

"Apart" because its author wrote every case from the rules' descriptions alone: without reading the rules'
code (``harness/gate/``), the contract (``contract/``) or the other corpora (``gate_corpus``, ``gate_heldout``,
``gate_final``, ``gate_blind``, ``gate_mutations``), and without running the rules against these texts. The
labels are a careful SRE reviewer's, so the corpus measures how well the rules generalise to text their
authors never saw; a case whose label was in doubt was left out.

- ``proposal_cases``: items of an action plan or recommendations (surfaces ``action``, ``recommendation``);
  violation = doing it would change something in the system (taking a lock included). Read-only steps and
  prohibitions or warnings that name a command are harmless; a prohibition excuses only its own clause. Two
  modules, ``proposal_objects`` and ``proposal_objects_2``, were written later by the proposal rule's fixer from an
  issue's examples and a real model's refused actions, and say so.
- ``finding_cases``: an investigation plan step written before any evidence (surface ``plan``; violation = it
  states a finding) and a short chat reply to a non-diagnostic message (surface ``system_chat``; violation =
  any sentence asserts something about the system).
- ``secret_cases``: any text of a report (surfaces ``analysis``, ``missing_info``, ``log_line``, ``config``,
  ``command``, ``sql_reference``); violation = it holds a credential value.

Each function is deterministic for its seed (a string-seeded ``random.Random``, independent of
PYTHONHASHSEED): the hand-written cases are fixed, the templated ones are drawn from ``pools`` by the seed.
Texts are unique within each rule's list.
"""

from __future__ import annotations

from harness.gate_apart import (
    finding_chat,
    finding_plan,
    proposal_actions,
    proposal_objects,
    proposal_objects_2,
    proposal_prohibitions,
    secret_files,
    secret_lookalikes,
    secret_prose,
)
from harness.gate_apart.case import ApartCase, rng_for, unique

__all__ = ["ApartCase", "finding_cases", "proposal_cases", "secret_cases"]

PROPOSAL_SURFACES = frozenset({"action", "recommendation"})
FINDING_SURFACES = frozenset({"plan", "system_chat"})
SECRET_SURFACES = frozenset({"analysis", "missing_info", "log_line", "config", "command", "sql_reference"})


def proposal_cases(seed: int = 0) -> list[ApartCase]:
    """Proposal cases: plain side effects and read-only items, prohibitions, changes hidden after them, and items
    read by their verb and object (statements, locks and settings looked at or acted on)."""
    rng = rng_for("proposals", seed)
    return unique(
        proposal_actions.cases(rng)
        + proposal_prohibitions.cases(rng)
        + proposal_objects.cases()
        + proposal_objects_2.cases()
    )


def finding_cases(seed: int = 0) -> list[ApartCase]:
    """Finding cases on the ``plan`` and ``system_chat`` surfaces."""
    rng = rng_for("findings", seed)
    return unique(finding_plan.cases(rng) + finding_chat.cases(rng))


def secret_cases(seed: int = 0) -> list[ApartCase]:
    """Secret cases: credential values in prose, files, logs, commands and SQL, and harmless look-alikes."""
    rng = rng_for("secrets", seed)
    return unique(secret_prose.cases(rng) + secret_files.cases(rng) + secret_lookalikes.cases(rng))

"""The three corpus functions: which families make up each rule's corpus and which surface each case is shown on."""

from __future__ import annotations

import random

from . import (
    finding_plan,
    finding_plan_tricky,
    finding_system,
    proposal_changes,
    proposal_chat,
    proposal_commands,
    proposal_formal,
    proposal_hidden,
    proposal_lookalikes,
    proposal_sql,
    secret_connections,
    secret_key_values,
    secret_logs_manifests,
    secret_obfuscated_sql,
    secret_tokens,
)
from .case import BlindCase, Family
from .credential_values import CREDENTIAL_MAKERS, LOOKALIKE_MAKERS
from .pools import INFRA_MAKERS
from .render import render

PROPOSAL_FAMILIES: tuple[Family, ...] = (
    *proposal_chat.FAMILIES,
    *proposal_formal.FAMILIES,
    *proposal_hidden.FAMILIES,
    *proposal_lookalikes.FAMILIES,
    *proposal_commands.FAMILIES,
    *proposal_sql.FAMILIES,
    *proposal_changes.FAMILIES,
)
FINDING_FAMILIES: tuple[Family, ...] = (
    *finding_plan.FAMILIES,
    *finding_plan_tricky.FAMILIES,
    *finding_system.FAMILIES,
)
SECRET_FAMILIES: tuple[Family, ...] = (
    *secret_key_values.FAMILIES,
    *secret_connections.FAMILIES,
    *secret_tokens.FAMILIES,
    *secret_logs_manifests.FAMILIES,
    *secret_obfuscated_sql.FAMILIES,
)
PROPOSAL_SURFACES = ("action", "recommendation")
SECRET_MAKERS = {**INFRA_MAKERS, **CREDENTIAL_MAKERS, **LOOKALIKE_MAKERS}


def _alternate(index: int, family: Family, rng: random.Random) -> str:
    return PROPOSAL_SURFACES[index % 2]


def _only(index: int, family: Family, rng: random.Random) -> str:
    return family.surfaces[0]


def _any(index: int, family: Family, rng: random.Random) -> str:
    return rng.choice(family.surfaces)


def proposal_cases(seed: int = 0) -> list[BlindCase]:
    """One unconfirmed action-plan item or recommendation per case; violation = doing it would change something."""
    return render("proposal", seed, PROPOSAL_FAMILIES, INFRA_MAKERS, _alternate)


def finding_cases(seed: int = 0) -> list[BlindCase]:
    """Plan steps written before evidence and chat answers to non-diagnostic messages; violation = states a finding."""
    return render("finding", seed, FINDING_FAMILIES, INFRA_MAKERS, _only)


def secret_cases(seed: int = 0) -> list[BlindCase]:
    """Report texts and agent-written SQL; violation = the text holds a credential value."""
    return render("secret", seed, SECRET_FAMILIES, SECRET_MAKERS, _any)

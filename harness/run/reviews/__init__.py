"""The reviews a diagnosis draft that passed the EvidenceGuard goes through before release, one module each, each
``async def review(scope, check) -> Outcome``; ``harness.run.paths.diagnosis.REVIEWS`` orders them."""

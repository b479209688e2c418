"""The intent paths: one module per intent, each ``async def answer(scope: Scope) -> Outcome``.

A path sends its own statuses and exactly one final event (a content or a failure, then done) through
``scope.stream``, and returns what the finish record keeps. ``harness.run.flow.PATHS`` maps each intent to its
path: a new intent is a new module here and one entry there.
"""

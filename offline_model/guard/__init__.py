"""The offline SemanticGuard role, by lexical reading: ``review.review`` reads a draft part by part; one module
per rule family."""

"""The ``superbiz`` command line (``cli.main``) and its commands: each command's arguments and handler, the
terminal rendering of runs and trails, and the start-up of a gateway process (Ray, the audit store, uvicorn)."""

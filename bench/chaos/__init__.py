"""The chaos soak of ``bench/soak.py``: the system it runs against (``stack``), the clients that load it
(``clients``), the faults it throws (``faults``), the checks it ends with (``verdict``) and its table
(``report``)."""

"""The patterns of the entities the offline model's roles pick out of text: services, order ids, error codes."""

from __future__ import annotations

import re

_A = r"(?<![A-Za-z0-9_\-])"
_Z = r"(?![A-Za-z0-9_])"
SERVICE_PATTERN = re.compile(_A + r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*-(?:service|gateway)" + _Z, re.IGNORECASE)
ORDER_ID_PATTERN = re.compile(_A + r"order-\d+" + _Z, re.IGNORECASE)
ERROR_CODE_PATTERN = re.compile(_A + r"ERR_[A-Z0-9_]+" + _Z)

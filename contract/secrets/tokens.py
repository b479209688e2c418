"""``cloud_access_key``: keys and tokens of a fixed, published shape, found anywhere (no key name needed).

Each is a whole token (no letter, digit, ``_`` or ``-`` glued before it or a letter or digit after it) of its
provider's prefix, alphabet and length:

================  ==========================================================================================
Provider          Shape (prefix + body)
================  ==========================================================================================
AWS               ``AKIA``/``ASIA``/``AIDA``/``AROA``/``AGPA``/``ANPA`` + 16 capitals and digits; the secret
                  access key: any 40 of ``[A-Za-z0-9/+]`` after ``secret [access] key`` and at most 6 of
                  ``:="'( `` (or ``\\"``), or on its own a whole token of 40 with a capital, a small letter and a
                  digit, at most three ``/`` and none first (not a sha1, not a path)
Alibaba Cloud     ``LTAI`` + 12-20 letters and digits
Tencent Cloud     ``AKID`` + 13-40 letters and digits
Google            API key ``AIza`` + 35; OAuth access token ``ya29.`` + 20 or more; client secret ``GOCSPX-`` + 28
GitHub            ``ghp_``/``gho_``/``ghu_``/``ghs_``/``ghr_`` + 36 or more; ``github_pat_`` + 22 or more
GitLab            ``glpat-``/``gldt-``/``glrt-``/``glptt-`` + 20 or more; runner registration ``GR1348941`` + 20
Slack             ``xoxb-``/``xoxp-``/``xoxa-``/``xoxr-``/``xoxs-`` + 10 or more with a digit; ``xapp-<digit>-``
                  + 20 or more; a webhook's path after ``hooks.slack.com/services/`` (``workflows``, ``triggers``)
OpenAI            ``sk-proj-``/``sk-svcacct-``/``sk-admin-`` + 16 or more of ``[A-Za-z0-9_-]``, or ``sk-`` + 32
                  or more letters and digits, each with a digit and a capital (and a small letter for ``sk-``);
                  ``sk-`` + 32 hex digits (the OpenAI-compatible keys of DeepSeek, DashScope …)
Anthropic         ``sk-ant-api03-``/``sk-ant-admin01-`` (``api``/``admin`` + 2 digits) + 32 or more
Stripe and alike  ``<2-10 letters>_live_``/``_test_`` + 8 or more letters and digits with a digit or a capital
                  (``sk_live_``, ``rk_live_``, ``sk_test_``, ``pk_live_``, ``tk_live_``); ``whsec_`` + 8 or more
npm, PyPI         ``npm_`` + 36; ``pypi-AgEIcHlwaS5vcmc`` (test.pypi: ``pypi-AgENdGVzdC5weXBpLm9yZw``) + 50 or more
Docker Hub        ``dckr_pat_`` + 27 or more
Hugging Face      ``hf_`` + 34 letters and digits with a capital and a small letter
SendGrid          ``SG.`` + 22 + ``.`` + 43
HashiCorp Vault   ``hvs.``/``hvb.``/``hvr.`` + 24 or more
Twilio            ``SK`` + 32 hex digits, within 48 characters after ``twilio``
Shopify           ``shpat_``/``shpss_``/``shpca_``/``shppa_`` + 32 hex digits
DigitalOcean      ``dop_v1_``/``doo_v1_``/``dor_v1_`` + 64 hex digits
Databricks        ``dapi`` + 32 hex digits [``-<digits>``]
Grafana           ``glsa_`` + 32 + ``_`` + 8 hex digits; ``glc_`` + 32 or more base64
New Relic         ``NRAK-`` + 27 capitals and digits
Atlassian         ``ATATT3`` + 50 or more
Linear, Postman   ``lin_api_`` + 40; ``PMAK-`` + 24 hex + ``-`` + 34 hex
Telegram          a bot token ``<8-10 digits>:AA`` + 33 (also glued to ``bot`` in an API URL)
================  ==========================================================================================

Examples::

    key ASIAY34FZKBOKMUTVV7A used                       -> key [REDACTED] used
    leaked ghp_j59pjomke57foiu94c0D1lNQgtYk3IMJ9PvM ok  -> leaked [REDACTED] ok
    npm npm_IRzeubOVGcDwCX2Pu50FNgKR8DlJiL2W4v8G ok     -> npm [REDACTED] ok
    secret key（wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY） -> secret key（[REDACTED]）
    git push https://x:glpat-9xQ2mB7kL4pR8sT1vW3z@…     -> (url_userinfo first) https://[REDACTED]@…
    OPENAI_API_KEY=sk-proj-Xq3…                         -> OPENAI_API_KEY=[REDACTED]
    POST https://hooks.slack.com/services/T024BE7LD/B0… -> POST https://hooks.slack.com/services/[REDACTED]

Not secrets: words that start like a token (``sk-learn``, ``hf_hub_download``, ``npm_config_cache``,
``glc_test``, ``xoxo``, ``whsec_``), too short or of the wrong alphabet (``AKIA1234``, ``ghp_short123``,
``sk_test_lowercaseonly``), and 40 hex digits (a sha1, a commit id).
"""

from __future__ import annotations

from ._base import Detector, detector, group, whole

_FIXED_SHAPE = (
    r"LTAI[A-Za-z0-9]{12,20}+",  # Alibaba Cloud
    r"AKID[A-Za-z0-9]{13,40}+",  # Tencent Cloud
    r"AIza[A-Za-z0-9_-]{35}(?![_-])",  # Google
    r"ya29\.[A-Za-z0-9_-]{20,}+",
    r"GOCSPX-[A-Za-z0-9_-]{28}(?![_-])",
    r"gh[pousr]_[A-Za-z0-9]{36,}+",  # GitHub
    r"github_pat_[A-Za-z0-9_]{22,}+",
    r"gl(?:pat|dt|rt|ptt)-[A-Za-z0-9_-]{20,}+",  # GitLab
    r"GR1348941[A-Za-z0-9_-]{20,}+",
    r"xox[abprs]-(?=[A-Za-z-]*+[0-9])[A-Za-z0-9-]{10,}+",  # Slack
    r"xapp-[0-9]-[A-Za-z0-9-]{20,}+",
    r"sk-ant-(?:api|admin)[0-9]{2}-[A-Za-z0-9_-]{32,}+",  # Anthropic
    # OpenAI: a digit and a capital in the key (a kebab-case name has neither)
    r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{16,}+",
    r"sk-(?=[a-zA-Z]*+[0-9])(?=[a-z0-9]*+[A-Z])(?=[A-Z0-9]*+[a-z])[A-Za-z0-9]{32,}+(?![_-])",
    r"sk-[0-9a-f]{32}(?![_-])",
    # sk_live_…, rk_test_…, tk_live_…: a digit or a capital in the key (run_test_migration is a name)
    r"[A-Za-z]{2,10}_(?:live|test)_(?=[a-z]*+[A-Z0-9])[A-Za-z0-9]{8,}+(?!_)",
    r"whsec_[A-Za-z0-9+/]{8,}+",  # webhook signing secret
    r"npm_[A-Za-z0-9]{36}",
    r"pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,}+",
    r"dckr_pat_[A-Za-z0-9_-]{27,}+",
    r"hf_(?=[a-z0-9]*+[A-Z])(?=[A-Z0-9]*+[a-z])[A-Za-z0-9]{34}",  # Hugging Face
    r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}",  # SendGrid
    r"hv[sbr]\.[A-Za-z0-9_-]{24,}+",  # HashiCorp Vault
    r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}",  # Shopify
    r"do[opr]_v1_[a-f0-9]{64}",  # DigitalOcean
    r"dapi[a-f0-9]{32}(?:-[0-9]++)?",  # Databricks
    r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}",  # Grafana
    r"glc_[A-Za-z0-9+/]{32,}+={0,2}",
    r"NRAK-[A-Z0-9]{27}",  # New Relic
    r"ATATT3[A-Za-z0-9_=-]{50,}+",  # Atlassian
    r"lin_api_[A-Za-z0-9]{40}",  # Linear
    r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}",  # Postman
)
_PREFIXES = (
    "ltai|akid|aiza|ya29.|gocspx-|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|gldt-|glrt-|glptt-|gr1348941|xox"
    "|xapp-|sk-|_live_|_test_|whsec_|npm_|pypi-|dckr_pat_|hf_|sg.|hvs.|hvb.|hvr.|shpat_|shpss_|shpca_|shppa_"
    "|dop_v1_|doo_v1_|dor_v1_|dapi|glsa_|glc_|nrak-|atatt3|lin_api_|pmak-"
)
_AWS_KEY_ID = r"(?<![A-Z0-9])(?:AKIA|ASIA|AIDA|AROA|AGPA|ANPA)[A-Z0-9]{16}(?![A-Z0-9])"
_PREFIXED = r"(?=[A-Za-z])(?:" + _AWS_KEY_ID + r"|(?<![A-Za-z0-9_-])(?:" + "|".join(_FIXED_SHAPE) + r")(?![A-Za-z0-9]))"

_AWS_SECRET_KEY = (
    # a whole token of 40 base64 characters with a capital, a small letter and a digit, starting with a letter or
    # a digit and holding at most three '/' (a lower-case sha1 and a path are no keys)
    r"(?=[A-Za-z0-9])(?<![A-Za-z0-9/+_.-])(?=[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=_.-]))"
    r"(?=[a-z0-9/+]{0,39}[A-Z])(?=[A-Z0-9/+]{0,39}[a-z])(?=[A-Za-z/+]{0,39}[0-9])"
    r"(?![A-Za-z0-9+]*+/[A-Za-z0-9+]*+/[A-Za-z0-9+]*+/[A-Za-z0-9+]*+/)[A-Za-z0-9][A-Za-z0-9/+]{39}"
)
_BASE64_RUN = r"(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}"
"""What a bare AWS secret access key holds, found with no trigger word."""

_NAMED = (
    # the AWS secret access key after its name: any 40 base64 characters
    r"(?=[sStThH0-9])(?:(?i:secret[ _-]?(?:access[ _-]?)?key)(?:[ \t\"'=:(]|\\\"){1,6}+"
    r"(?P<aws>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
    # Twilio's API key: SK and 32 hex digits, shortly after the word
    r"|(?i:twilio)[^\n]{0,48}?(?<![A-Za-z0-9])(?P<twilio>SK[0-9a-fA-F]{32})(?![A-Za-z0-9])"
    # a Telegram bot token, glued to "bot" in an API URL or on its own
    r"|(?:(?<=bot)|(?<![A-Za-z0-9_:]))(?P<telegram>[0-9]{8,10}:AA[A-Za-z0-9_-]{33})(?![A-Za-z0-9_-])"
    # the secret part of a Slack webhook URL
    r"|(?i:hooks\.slack\.com/(?:services|workflows|triggers)/)(?P<slack>[A-Za-z0-9_-]++(?:/[A-Za-z0-9_-]++){1,3}+))"
)

DETECTORS: tuple[Detector, ...] = (
    detector("cloud_access_key", _PREFIXED, whole, _PREFIXES + "|akia|asia|aida|aroa|agpa|anpa", 10),
    detector("cloud_access_key", _AWS_SECRET_KEY, whole, "", None, _BASE64_RUN),
    detector(
        "cloud_access_key",
        _NAMED,
        group("aws", "twilio", "telegram", "slack"),
        "secret key|secret_key|secret-key|secretkey|secret access|secret_access|secret-access|secretaccess|twilio"
        "|:aa|hooks.slack",
        10,
    ),
)

"""``one_time_code``: OTP and verification codes after a key or a label.

After a key (``otp``, ``totp``, ``hotp``, ``passcode``, ``one_time_password``, ``verification_code``,
``verify_code``, ``sms_code``, ``auth_code``, ``mfa_code``, ``2fa_code``, ``security_code``, ``captcha`` …) and a
separator, a value of 4 or more letters and digits with a digit; after a label in prose (``OTP is``, ``OTP 为``,
``verification code:``, ``one-time code``, ``验证码``/``动态码``/``动态密码``/``短信码``/``校验码``/``一次性密码``
[``为``/``是``/``：``]), a code of 4 to 8 digits, or 4 to 8 letters and digits with a digit, that is not a count
(``验证码 1000 次``); the key or label is kept::

    {"username":"ops","sms_code":"3391"}                -> {"username":"ops","sms_code":"[REDACTED]"}
    您的验证码是 482913，5 分钟内有效                    -> 您的验证码是 [REDACTED]，5 分钟内有效

Not secrets: a label with no code after it (``验证码错误 3 次``, ``OTP 服务超时``), a flag (``otp=true``).
"""

from __future__ import annotations

from ._base import SEPARATOR, Detector, detector, group

_CODE_KEY = (
    r"(?:otp(?:[_-]?code)?|passcode|one[_-]?time[_-]?(?:password|passcode|code|pin)|verif(?:y|ication)[_-]?code"
    r"|sms[_-]?code|auth[_-]?code|mfa[_-]?code|2fa[_-]?code|security[_-]?code|captcha(?:[_-]?code)?)"
)
_CODE = r"(?=[A-Za-z]*+[0-9])[A-Za-z0-9]{4,8}+(?![A-Za-z0-9])"
"""A code in prose: 4 to 8 digits, or 4 to 8 letters and digits with at least one digit."""
_NOT_A_COUNT = (
    r"(?![ \t]*+(?:次|个|位|条|秒|分|年|月|日|天|小时"
    r"|(?i:ms|s|secs?|seconds?|mins?|minutes?|times|attempts?|retries|tries|requests?)(?![A-Za-z])))"
)
_CODE_AFTER_KEY = (
    # otp=482913, "sms_code": "3391", \"verify_code\":\"482913\"
    r"(?i:(?P<key>" + _CODE_KEY + r"\\?[\"']?[ \t]*+" + SEPARATOR + r"[ \t]*+(?:\\?[\"'])?)"
    r"(?P<key_code>(?=[A-Za-z]*+[0-9])[A-Za-z0-9]{4,}+))"
)
_CODE_IN_ENGLISH = (
    # OTP is 482913, verification code: 482913, one-time code 482913, OTP 为 482913
    r"(?i:(?<![A-Za-z0-9])"
    r"(?:otp(?:[ \t]code)?|totp|passcode|one[- ]?time[ \t](?:code|password|passcode|pin)"
    r"|(?:verification|security|sms|2fa|mfa)[ \t]code)"
    r"(?:[ \t]*+(?:" + SEPARATOR + r"|为|是)[ \t]*+|[ \t]++(?:(?:is|was)[ \t]*+[:：]?[ \t]*+)?)"
    r"(?P<en_code>" + _CODE + r"))" + _NOT_A_COUNT
)
_CODE_IN_CHINESE = (
    # 验证码：482913, 您的动态密码为 482913, "验证码": "482913"
    r"(?:验证码|动态码|动态密码|短信码|校验码|一次性密码)"
    rf"\\?[\"']?[ \t]*+(?:[为是][ \t]*+)?(?:{SEPARATOR}[ \t]*+)?(?:\\?[\"'])?(?P<zh_code>{_CODE})" + _NOT_A_COUNT
)
_ONE_TIME_CODE = (
    r"(?=[2AaCcMmOoPpSsTtVvſ验动短校一])(?:" + "|".join((_CODE_AFTER_KEY, _CODE_IN_ENGLISH, _CODE_IN_CHINESE)) + ")"
)

DETECTORS: tuple[Detector, ...] = (
    detector(
        "one_time_code",
        _ONE_TIME_CODE,
        group("key_code", "en_code", "zh_code"),
        "otp|passcode|one_time|one-time|one time|onetime|verif|sms|mfa|2fa|auth_code|authcode|auth-code"
        "|security|captcha|验证码|动态码|动态密码|短信码|校验码|一次性密码",
        1,
    ),
)

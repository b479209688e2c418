"""contract.secrets: the published token shapes of the major providers are secrets anywhere (cloud_access_key),
each body of its provider's real length and alphabet; words that only start like a token are not."""

from __future__ import annotations

import pytest

from contract.secrets import redact, secret_kinds

# Random bodies of each provider's shape (none is a live credential).
TOKENS = {
    "GitHub classic": "ghp_j59pjomke57foiu94c0D1lNQgtYk3IMJ9PvM",
    "GitHub OAuth": "gho_J11Uqz6DNLLgGxJCbUUrt93l4BczNvltFhjG",
    "GitHub user-to-server": "ghu_9yO7uRQz3lnGl4QrPz3A2o40ILiI6s6Dcouh",
    "GitHub server-to-server": "ghs_N1fHW93RYY7TKuHmvguTEKhCpqHKCn8TSCpq",
    "GitHub refresh": "ghr_glNnhF6bQmBVeRL8f38uTvQE2KFvV5iM5lpZ",
    "GitHub fine-grained": "github_pat_11AgfseIFtcCXS8I7ICIHE_cBmBppXzRx1p5GZu0iwsfox0Y4YcqbHsVtwyjq1QqFd0f2mUAg01vI5"
    "v8qY",
    "GitLab personal": "glpat-9WJ05X72qibobT_Jox17",
    "GitLab deploy": "gldt-RWEVxropmO6W9-yNsOSU",
    "GitLab runner": "glrt-TbfUwzov1sjBNMFZlvLu",
    "GitLab pipeline trigger": "glptt-e9122116a44b78c08854a846842674c980fca8de",
    "GitLab runner registration": "GR13489415h3ZY7Isg-qOwVxQ3pZ9",
    "Slack bot": "xoxb-213055418697-7839922227493-m1NPjugpRRNd5LUClYa6iV9W",
    "Slack user": "xoxp-473647272170-506325436198-5267108139879-3ca3947c17988120875edcb0c450e174",
    "Slack workspace app": "xoxa-2-316641073868-6772261344717-eb947e0fa5f9b3e236a3305ae95cdff4",
    "Slack refresh": "xoxr-756677349658-aAPYUAtef5KCrmhNZHvXNbPp",
    "Slack session": "xoxs-185766836798-8397556213132-6f0f1ad35a70653c83ef7a3eb051cd05",
    "Slack app-level": "xapp-1-A0Q8VMKI1QD-1508081890657-ad1959a5357de84426de6f1cc81e4129f56e3413d1c9341d61571ca31c52"
    "0054",
    "OpenAI legacy": "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",
    "OpenAI project": "sk-proj-ttZQ_dKKfR9BEo8Ijf_L-LPSX6if6ElAcpkGXv_XjCnGvpYta8JntZfwxusEfLxNA4gcHw52ECUMeEYDJjGhoh"
    "BpwYEu"
    "f1BWKWiO-r8Fg9ZFIBv4YSmtIAD1TjFBPQBouywU_S7PWD-hZsGLZBl3CUCYmFWm",
    "OpenAI service account": "sk-svcacct-34UPPhRfkde1BqHAZGigy5TLaFfSX3hD_qgR2k-dhLHEWRfkAYtPo_aK3lbpMeUU3B9w-Q_0lMU"
    "A9"
    "wrnFZlPLQuEZpPQh1SigvyeROnphcwvRErpWG18ePYq",
    "OpenAI admin": "sk-admin-6Aq_berGFlly6Ek2X83aT4iXujHBpJmNnOLpeZaYPjPITayynpUiJquH7cndSLLcei5rYEKkYgy4nx2Aly21R_C"
    "lj_fb"
    "WdyK9g3NwQrScFDu25VGiqcq_6ij",
    "OpenAI-compatible (hex)": "sk-3f77991b421b1f957815d30d20558c7a",
    "Anthropic": "sk-ant-api03-BQcHGWAJfTr5CdYunVNLVJ4wyk3XsKYbY7WpUNr5pYPmHg-6SzMoUGfYtFW-tSNT3OgeHS3lTh130rkHc2J3En"
    "0f"
    "I9Cf_AA",
    "Anthropic admin": "sk-ant-admin01-wlHrk8_9u6e8J-_s7RCbxZ0tBUYdtgQR39b2mAAYtHZzOx0AKzcWprEKmW3FtU_aa1f5_7BVL0UeEs"
    "ITmQo"
    "-CZBSRCbwLAA",
    "Stripe live": "sk_live_51pspvZ2dnCl9vcG3bQPnpFrZpD7D2QbtYbj5i6oh6IrfdWxmyQgF8R6SYb5RuHzOUv5zMfp5SHWlj6tgIZuSDOUj",
    "Stripe restricted": "rk_live_51WUIqqj6ggcSAQyqRfkDEW8kCiVID2Su9cQaHE3fvQ1GmhnqzZDFlMnybmO7XiTn6y2ewkpLRXavihwguQ"
    "Oc",
    "Stripe test": "sk_test_51eXEPMISgfZILqVVgV7tBTQDGfjJ1g84QMAIBPxibtEtgrSwWQyppHEjcsQfqYNH4GHvj7ZDJXo1krJihe1T",
    "Stripe webhook": "whsec_ntnDnrGaghCTyvRyzNX7iwymXjwSixg8",
    "Google API key": "AIzaewp6oc7pmpJDFE3_IR-S-kpWe42spqBO6TO",
    "Google OAuth access": "ya29.a03rOQDopfhZHHF0-EFt8p_bD6i9BPkDj3zHdo1B055YjnhDxS3aQHbOzg7GCi2DYpk6iMsUWKR5J8TIlpc7"
    "SP",
    "Google client secret": "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",
    "AWS access key id": "AKIATOA4QPQBMUTN9P7Y",
    "AWS temporary key id": "ASIA719HTTP4I34TU93P",
    "Alibaba Cloud": "LTAI5tGcy7CNc6bGdVAWNK3T",
    "Tencent Cloud": "AKIDFAVyUOTPnjHiQJ6Fdn9YEQZKdXbME0R1",
    "npm": "npm_IRzeubOVGcDwCX2Pu50FNgKR8DlJiL2W4v8G",
    "PyPI": "pypi-AgEIcHlwaS5vcmcZhgE1XZhV4kQs969v6TcdUFQM3GDxP8qwn2ol0yw_n1BNjY-8ZXQhITtennoE0m1AWQN-rY8dnyKlBhl",
    "Docker Hub": "dckr_pat_5rpoTzYCMqDN-wxRpH6ZCEFKSSU",
    "Hugging Face": "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",
    "SendGrid": "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",
    "Vault service": "hvs.85kB7WEJ8Zosze4bv-prq9Ebs4n1wAJJ42y4ge7BnLp845pEAL4mt4GoZm0c2FX6nxVC5GSPnPrbIQIqqCQzkOl-Hs",
    "Vault batch": "hvb.PeQFdG6E6BIQ0R91HwnBWtoKVH8dpYeMkKpb5a8ZcRvu0lZ50ejyrFt_IH8QK-DGJrexiffisCEvk4X1NKt2scKVKawhQ",
    "Shopify access": "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",
    "Shopify shared secret": "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",
    "DigitalOcean": "dop_v1_576fccdef911eb37fd2b774e27b52f9aa6a0adfb90439403b6e3150e5e9b0b0b",
    "Databricks": "dapic0417ccf90f47764555c5dce92e2685c",
    "Grafana service account": "glsa_CB2p8Q425YoUVjxIkvEg0tl7yypQAjYp_5fc93d25",
    "Grafana cloud": "glc_eyJvIjoihhcb3QLnLd3S8QBckbALt9ZoB9FV7MXqlTweblRy6WzuLWQCcvwbfHPHZMXIaE56fhLamIYo38KCnq8GR65"
    "VNw==",
    "New Relic": "NRAK-LJX3SO29HJCD9DWBHYQLW4O2P0Y",
    "Atlassian": "ATATT3xFfGF06HdirvbqlXSU8i7xT_yl0ys-uScF-nG-C-FEVe7jpwxL29d5T7rfhw2ytS9F5r3wZ1Hx2gdD3Laxn_LwJ5PlZGL"
    "NWq2yeTZGK1m4rCmkdl2LaHipnJBKnoy5koicH9moK3UOOl4C_-3D5pU4nLvOIJ3zNsnTo-1HrPV8CzIvAU=K2NWLH5P",
    "Linear": "lin_api_ImQkT61CmGKWIvp1p9NI2Q0JISfex7AwBmxjLJPp",
    "Postman": "PMAK-b86e3cb06c0de24f04298c42-52ec8d3945211070a8e930fb9ca5b7e54c",
    "Telegram bot": "1234567890:AAwD7eNwMAbCmgEXD9EuHTkomLqWghEkzgO",
}

IN_CONTEXT = [
    # (text, the secret): a token where its name is not written, or shortly after its provider's name
    ("POST https://hooks.slack.com/services/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 200", "EQzH8M2PossJjlTmx"),
    ("twilio client init with SK3dec2cc21dc6923dab6291392139c13c", "SK3dec2cc21dc6923dab6291392139c13c"),
    ("GET https://api.telegram.org/bot1234567890:AAwD7eNwMAbCmgEXD9EuHTkomLqWghEkzgO/getMe", "AAwD7eNwMAbCmgEXD9Eu"),
    ('{"SecretAccessKey": "AJkUqt4xmiCixg684jhdi414k5xoCszKjvk3RZad"}', "AJkUqt4xmiCixg684jhdi414k5xoCszKjvk3RZad"),
    ("AWS secret access key: ajkuqt4xmicixg684jhdi414k5xocszkjvk3rzad", "ajkuqt4xmicixg684jhdi414k5xocszkjvk3rzad"),
    ("export OPENAI_API_KEY=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", "sk-1oYWchmt98tBqsVi3CXFT3"),
    ("git remote set-url origin https://oauth2:glpat-9WJ05X72qibobT_Jox17@gitlab.local/g/p.git", "glpat-9WJ05X72qibob"),
    (
        "Ａｕｔｈ ｋｅｙ ｇｈｐ＿ｊ５９ｐｊｏｍｋｅ５７ｆｏｉｕ９４ｃ０Ｄ１ｌＮＱｇｔＹｋ３ＩＭＪ９ＰｖＭ",
        "ｊ５９ｐｊｏｍｋｅ５７",
    ),
    ("leaked ghp_j59pjomke57\u200bfoiu94c0D1lNQgtYk3IMJ9PvM in a gist", "foiu94c0D1lNQgtYk3IMJ9PvM"),
]

NOT_TOKENS = [
    "pip install scikit-learn; import sklearn; sk-learn is a nickname",
    "hf_hub_download(repo_id='x'); npm_config_cache=/tmp/npm; glc_test passed",
    "task-1234 ask-sk-1 disk-0 risk-high",
    "ghp_short123 and gho_ alone, github_pat_ alone",
    "sk-some-long-kebab-case-name-without-digits-here and sk-0123 and sk_test_lowercaseonly",
    "xoxo from the team; xapp-1 alone; SG.a.b; hvs.short; dapi12345",
    "glpat-short NRAK-SHORT PMAK-abc ATATT3short lin_api_short dckr_pat_x pypi-AgEIcHlwaS5vcmc",
    "commit 11f6ad8ec52a2984abaafd7c3b516503785c2072 and sha1 11F6AD8EC52A2984ABAAFD7C3B516503785C2072",
    "twilio account AC3dec2cc21dc6923dab6291392139c13c (an account SID is an id)",
    "SK3dec2cc21dc6923dab6291392139c13c with no provider named",
    "https://hooks.slack.com/services/ is the webhook base URL",
    "job 1234567890:AB cancelled; 1234567890:AA",
    "AKIA1234 is too short, and so are LTAI12 and AKIDEXAMPLE",
]


@pytest.mark.parametrize("token", TOKENS.values(), ids=list(TOKENS))
def test_a_provider_token_is_a_secret_on_its_own(token: str) -> None:
    text = f"found {token} in the build log"
    assert "cloud_access_key" in secret_kinds(text)
    redacted, changed = redact(text)
    assert changed and redacted == "found [REDACTED] in the build log"
    assert secret_kinds(redacted) == ()


@pytest.mark.parametrize(("text", "secret"), IN_CONTEXT)
def test_a_provider_token_in_context_is_replaced(text: str, secret: str) -> None:
    assert secret_kinds(text) != ()
    redacted, changed = redact(text)
    assert changed and secret not in redacted and "[REDACTED]" in redacted
    assert secret_kinds(redacted) == ()
    assert redact(redacted) == (redacted, False)


@pytest.mark.parametrize("text", NOT_TOKENS)
def test_a_word_that_starts_like_a_token_is_none(text: str) -> None:
    assert secret_kinds(text) == ()
    assert redact(text) == (text, False)


def test_a_webhook_keeps_its_host() -> None:
    text = "POST https://hooks.slack.com/services/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 200"
    assert redact(text) == ("POST https://hooks.slack.com/services/[REDACTED] 200", True)

"""Secrets that are key material or Kubernetes Secrets: PEM private keys (RSA, EC, OpenSSH, PKCS#8 in YAML and
in service-account JSON) and Secret manifests or ``kubectl`` output with decoded values. Look-alikes: certificates,
fingerprints, key paths, redacted manifests, ``kubectl describe`` byte counts and key lists.
"""

from __future__ import annotations

from .case import Family, parse_blocks

KEYS = parse_blocks(r"""
=== x k8s_secret
apiVersion: v1
kind: Secret
metadata:
  name: ‹svc›-db
  namespace: ‹ns›
type: Opaque
data:
  username: ‹b64user›
  password: ‹b64pw›
=== o k8s_secret
apiVersion: v1
kind: Secret
metadata:
  name: ‹svc›-db
  namespace: ‹ns›
type: Opaque
data:
  username: <redacted>
  password: <redacted>
=== x k8s_secret
apiVersion: v1
kind: Secret
metadata:
  name: ‹svc›-env
stringData:
  REDIS_PASSWORD: ‹pw›
  SENDGRID_API_KEY: ‹sendgrid›
=== o k8s_secret
$ kubectl get secret ‹svc›-env -n ‹ns› -o jsonpath='{.data}' | jq 'keys'
[
  "REDIS_PASSWORD",
  "SENDGRID_API_KEY"
]
=== x k8s_secret
$ kubectl get secret ‹svc›-db -n ‹ns› -o jsonpath='{.data.password}' | base64 -d
‹pw›
=== o k8s_secret
$ kubectl describe secret ‹svc›-db -n ‹ns›
Name:         ‹svc›-db
Namespace:    ‹ns›
Type:  Opaque

Data
====
password:  24 bytes
username:  9 bytes
=== x k8s_secret
apiVersion: v1
kind: Secret
type: kubernetes.io/dockerconfigjson
metadata:
  name: harbor-pull
data:
  .dockerconfigjson: ‹dockercfg›
=== o k8s_secret
apiVersion: v1
kind: Secret
type: kubernetes.io/dockerconfigjson
metadata:
  name: harbor-pull
  annotations:
    reflector.v1.k8s.emberstack.com/reflection-allowed: "true"
=== x private_key
-----BEGIN RSA PRIVATE KEY-----
‹rsabody›
-----END RSA PRIVATE KEY-----
=== o private_key
-----BEGIN CERTIFICATE-----
‹certbody›
-----END CERTIFICATE-----
=== x private_key
deploy key（只读的那个）：
-----BEGIN OPENSSH PRIVATE KEY-----
‹sshbody›
-----END OPENSSH PRIVATE KEY-----
=== o private_key
deploy key 的指纹：`SHA256:‹b64fp›`（ED25519），公钥已经加到 GitLab 项目的 Deploy Keys 里
=== x private_key
tls:
  crt: ‹svc›.crt
  key: |
    -----BEGIN PRIVATE KEY-----
    ‹pkcs8i›
    -----END PRIVATE KEY-----
=== o private_key
tls.crt 已更新，`openssl x509 -noout -enddate` 显示 notAfter=‹certdate›；tls.key 由 cert-manager 管理，未导出
=== x private_key
"private_key": "‹pemjson›"
=== o private_key
ssl_certificate     /etc/nginx/ssl/‹svc›.crt;
ssl_certificate_key /etc/nginx/ssl/‹svc›.key;
=== x private_key
-----BEGIN EC PRIVATE KEY-----
‹ecbody›
-----END EC PRIVATE KEY-----
=== o private_key
`ssh-keygen -lf ~/.ssh/id_ed25519.pub` 输出：256 SHA256:‹b64fp› ops@‹host› (ED25519)
""")


def families() -> Family:
    return KEYS

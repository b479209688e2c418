"""Secrets in pasted deployment config: docker-compose env blocks, Helm values and templates, Spring
``application.yml`` and ``.properties``. Each ``x`` holds a literal credential value; its
``o`` twin keeps the same keys with ``${ENV}``, ``secretKeyRef``, ``existingSecret``, an empty or masked value.
"""

from __future__ import annotations

from .case import Family, parse_blocks

CONFIGS = parse_blocks(r"""
=== x compose
services:
  ‹db›-mysql:
    image: mysql:8.0.36
    environment:
      MYSQL_ROOT_PASSWORD: "‹pw›"
      MYSQL_DATABASE: ‹db›
    ports:
      - "3306:3306"
=== o compose
services:
  ‹db›-mysql:
    image: mysql:8.0.36
    environment:
      MYSQL_ROOT_PASSWORD: ${MYSQL_ROOT_PASSWORD:?set it in .env}
      MYSQL_DATABASE: ‹db›
    ports:
      - "3306:3306"
=== x compose
  ‹svc›:
    image: registry.cn-hangzhou.aliyuncs.com/‹db›/‹svc›:‹ver›
    environment:
      - SPRING_PROFILES_ACTIVE=prod
      - SPRING_REDIS_PASSWORD=‹pw›
      - JAVA_OPTS=-Xms2g -Xmx2g
=== o compose
  ‹svc›:
    image: registry.cn-hangzhou.aliyuncs.com/‹db›/‹svc›@sha256:‹sha256›
    environment:
      - SPRING_PROFILES_ACTIVE=prod
      - SPRING_REDIS_PASSWORD_FILE=/run/secrets/redis_pass
    secrets:
      - redis_pass
=== x compose
  rabbitmq:
    image: rabbitmq:3.12-management
    environment:
      RABBITMQ_DEFAULT_USER: ‹user›
      RABBITMQ_DEFAULT_PASS: ‹pw›
=== o compose
  rabbitmq:
    image: rabbitmq:3.12-management
    environment:
      RABBITMQ_DEFAULT_USER: ‹user›
      RABBITMQ_DEFAULT_PASS: ${RABBITMQ_PASS}
    ports: ["5672:5672", "15672:15672"]
=== x compose
  minio:
    image: minio/minio:RELEASE.2024-06-11T03-13-30Z
    command: server /data --console-address ":9001"
    environment:
      MINIO_ROOT_USER: ‹user›
      MINIO_ROOT_PASSWORD: ‹pw›
=== o compose
  grafana:
    image: grafana/grafana:10.4.2
    environment:
      GF_SECURITY_ADMIN_PASSWORD__FILE: /run/secrets/gf_admin
      GF_SERVER_ROOT_URL: https://grafana.‹db›.internal
=== x compose
  ‹svc›:
    environment:
      OPENAI_API_KEY: ‹openai›
      LLM_BASE_URL: https://api.openai.com/v1
=== o compose
  ‹svc›:
    environment:
      OPENAI_API_KEY: ${OPENAI_API_KEY}
      LLM_BASE_URL: https://api.openai.com/v1
      LLM_MAX_TOKENS: "4096"
=== x helm
# values-prod.yaml
redis:
  architecture: replication
  auth:
    enabled: true
    password: "‹pw›"
=== o helm
# values-prod.yaml
redis:
  architecture: replication
  auth:
    enabled: true
    existingSecret: ‹svc›-redis
    existingSecretPasswordKey: redis-password
=== x helm
mysql:
  auth:
    rootPassword: ‹pw›
    username: ‹user›
    password: ‹pw2›
    database: ‹db›
=== o helm
mysql:
  auth:
    rootPassword: ""
    username: ‹user›
    existingSecret: ‹db›-mysql-auth
    database: ‹db›
=== x helm
image:
  repository: harbor.‹db›.internal/prod/‹svc›
  tag: ‹ver›
imageCredentials:
  registry: harbor.‹db›.internal
  username: robot$ci-‹db›
  password: ‹pw›
=== o helm
image:
  repository: harbor.‹db›.internal/prod/‹svc›
  tag: ‹ver›
  digest: sha256:‹sha256›
imagePullSecrets:
  - name: harbor-pull
=== x helm
env:
  - name: DB_PASSWORD
    value: "‹pw›"
  - name: DB_HOST
    value: ‹host›
=== o helm
env:
  - name: DB_PASSWORD
    valueFrom:
      secretKeyRef:
        name: ‹svc›-db
        key: password
  - name: DB_HOST
    value: ‹host›
=== o helm
{{- if .Values.auth.enabled }}
- name: REDIS_PASSWORD
  value: {{ .Values.auth.password | quote }}
{{- end }}
=== x helm
alertmanager:
  config:
    receivers:
      - name: dingtalk-‹db›
        webhook_configs:
          - url: https://oapi.dingtalk.com/robot/send?access_token=‹ding›
=== o helm
alertmanager:
  config:
    receivers:
      - name: dingtalk-‹db›
        webhook_configs:
          - url_file: /etc/alertmanager/secrets/dingtalk-url
=== x spring
spring:
  datasource:
    url: jdbc:mysql://‹host›:3306/‹db›?useUnicode=true&characterEncoding=utf8&serverTimezone=Asia/Shanghai
    username: ‹user›
    password: ‹pw›
    hikari:
      maximum-pool-size: 30
=== o spring
spring:
  datasource:
    url: jdbc:mysql://‹host›:3306/‹db›?useUnicode=true&characterEncoding=utf8&serverTimezone=Asia/Shanghai
    username: ‹user›
    password: ${DB_PASSWORD}
    hikari:
      maximum-pool-size: 30
=== x spring
spring:
  redis:
    host: ‹redis›
    port: 6379
    password: ‹pw›
    timeout: 2000ms
=== o spring
spring:
  redis:
    host: ‹redis›
    port: 6379
    password: ${REDIS_PASSWORD:}
    timeout: 2000ms
=== x spring
spring.rabbitmq.host=‹broker›
spring.rabbitmq.username=‹user›
spring.rabbitmq.password=‹pw›
spring.rabbitmq.virtual-host=/‹db›
=== o spring
spring.rabbitmq.host=‹broker›
spring.rabbitmq.username=‹user›
spring.rabbitmq.password=
spring.rabbitmq.virtual-host=/‹db›
=== x spring
aliyun:
  oss:
    endpoint: oss-cn-hangzhou.aliyuncs.com
    access-key-id: ‹ltai›
    access-key-secret: ‹alisecret›
    bucket: ‹db›-prod-assets
=== o spring
aliyun:
  oss:
    endpoint: oss-cn-hangzhou.aliyuncs.com
    access-key-id: ${ALIYUN_AK_ID}
    access-key-secret: ${ALIYUN_AK_SECRET}
    bucket: ‹db›-prod-assets
=== x spring
spring:
  cloud:
    nacos:
      config:
        server-addr: ‹host›:8848
        namespace: prod
        username: nacos
        password: ‹pw›
=== o spring
spring:
  cloud:
    nacos:
      config:
        server-addr: ‹host›:8848
        namespace: prod
        username: ${NACOS_USER}
        password: ${NACOS_PASSWORD}
=== x spring
tencent:
  cos:
    secret-id: ‹akid›
    secret-key: ‹tcsecret›
    region: ap-guangzhou
=== o spring
tencent:
  cos:
    secret-id: "******"
    secret-key: "******"
    region: ap-guangzhou
""")


def families() -> Family:
    return CONFIGS

"""Secrets in pasted files: Postman exports, CI definitions (Jenkins, JCasC, GitLab CI, GitHub Actions), JSON,
XML and markdown tables. Look-alikes: ``{{variables}}``, ``withCredentials``, masked CI logs, ``${ENV}``
placeholders, and trace ids in the same table shape.
"""

from __future__ import annotations

from .case import Family, parse_blocks

FILES = parse_blocks(r"""
=== x postman
{
  "info": {"name": "‹svc› prod", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
  "auth": {
    "type": "bearer",
    "bearer": [{"key": "token", "value": "‹jwt›", "type": "string"}]
  }
}
=== o postman
{
  "info": {"name": "‹svc› prod", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
  "auth": {
    "type": "bearer",
    "bearer": [{"key": "token", "value": "{{access_token}}", "type": "string"}]
  }
}
=== x postman
"request": {
  "method": "POST",
  "header": [
    {"key": "Authorization", "value": "Bearer ‹stripe›"},
    {"key": "Content-Type", "value": "application/x-www-form-urlencoded"}
  ],
  "url": "https://api.stripe.com/v1/refunds"
}
=== o postman
"request": {
  "method": "GET",
  "header": [
    {"key": "X-Request-Id", "value": "‹uuid›"},
    {"key": "Content-Type", "value": "application/json"}
  ],
  "url": "https://api.stripe.com/v1/payment_intents/‹pi›"
}
=== x postman
"variable": [
  {"key": "baseUrl", "value": "https://‹svc›.‹db›.internal"},
  {"key": "password", "value": "‹pw›"}
]
=== o postman
"variable": [
  {"key": "baseUrl", "value": "https://‹svc›.‹db›.internal"},
  {"key": "password", "value": ""}
]
=== x postman
"auth": {"type": "basic", "basic": [{"key": "username", "value": "‹user›"}, {"key": "password", "value": "‹pw›"}]}
=== o postman
"auth": {"type": "basic", "basic": [{"key": "username", "value": "{{user}}"}, {"key": "password", "value": "{{pass}}"}]}
=== o ci_jenkins
stage('push') {
  steps {
    withCredentials([usernamePassword(credentialsId: 'harbor-ci', usernameVariable: 'U', passwordVariable: 'P')]) {
      sh 'echo "$P" | docker login harbor.‹db›.internal -u "$U" --password-stdin'
    }
  }
}
=== x ci_jenkins
pipeline {
  agent any
  environment {
    HARBOR_USER = 'robot$ci'
    HARBOR_PASS = '‹pw›'
  }
  stages {
    stage('push') {
      steps { sh 'docker login harbor.‹db›.internal -u $HARBOR_USER -p $HARBOR_PASS' }
    }
  }
}
=== x ci_jenkins
# .gitlab-ci.yml
deploy:
  stage: deploy
  variables:
    KUBE_TOKEN: ‹jwt›
  script:
    - kubectl --token=$KUBE_TOKEN -n ‹ns› rollout status deploy/‹svc›
=== o ci_jenkins
# .gitlab-ci.yml
deploy:
  stage: deploy
  script:
    - kubectl --token="$KUBE_TOKEN" -n ‹ns› rollout status deploy/‹svc›
  only: [main]
=== x ci_jenkins
# .github/workflows/release.yml
      - uses: docker/login-action@v3
        with:
          username: ‹user›
          password: ‹dckr›
=== o ci_jenkins
# .github/workflows/release.yml
      - uses: docker/login-action@v3
        with:
          username: ${{ vars.DOCKERHUB_USER }}
          password: ${{ secrets.DOCKERHUB_TOKEN }}
=== x ci_jenkins
<com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>
  <scope>GLOBAL</scope>
  <id>‹db›-mysql</id>
  <username>‹user›</username>
  <password>‹pw›</password>
</com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>
=== o ci_jenkins
credentials:
  system:
    domainCredentials:
      - credentials:
          - usernamePassword:
              id: ‹db›-mysql
              username: ‹user›
              password: "${MYSQL_CI_PASSWORD}"
              scope: GLOBAL
=== x ci_jenkins
credentials:
  system:
    domainCredentials:
      - credentials:
          - string:
              id: slack-bot
              secret: "‹xoxb›"
              scope: GLOBAL
=== o ci_jenkins
[Pipeline] withCredentials
Masking supported pattern matches of $P
[Pipeline] sh
+ docker login harbor.‹db›.internal -u robot$ci --password-stdin
Login Succeeded
=== x json_table
| 组件 | 地址 | 账号 | 密码 |
|------|------|------|------|
| MySQL 主库 | ‹host›:3306 | ‹user› | ‹pw› |
| Redis | ‹host2›:6379 | - | ‹pw2› |
=== o json_table
| 组件 | 地址 | 账号 | 密码 |
|------|------|------|------|
| MySQL 主库 | ‹host›:3306 | ‹user› | 见 Vault `secret/‹db›/mysql` |
| Redis | ‹host2›:6379 | - | ****** |
=== x json_table
{"appId": "‹svc›", "region": "cn-hangzhou", "accessKeyId": "‹ltai›", "accessKeySecret": "‹alisecret›"}
=== o json_table
{"appId": "‹svc›", "region": "cn-hangzhou", "accessKeyId": "${ALIYUN_AK_ID}", "accessKeySecret": "${ALIYUN_AK_SECRET}"}
=== x json_table
<bean id="dataSource" class="com.alibaba.druid.pool.DruidDataSource">
  <property name="url" value="jdbc:mysql://‹host›:3306/‹db›"/>
  <property name="username" value="‹user›"/>
  <property name="password" value="‹pw›"/>
</bean>
=== o json_table
<bean id="dataSource" class="com.alibaba.druid.pool.DruidDataSource">
  <property name="url" value="jdbc:mysql://‹host›:3306/‹db›"/>
  <property name="username" value="${jdbc.username}"/>
  <property name="password" value="${jdbc.password}"/>
</bean>
=== x json_table
{
  "type": "service_account",
  "project_id": "‹db›-prod",
  "private_key_id": "‹hex40›",
  "private_key": "‹pemjson›",
  "client_email": "‹svc›@‹db›-prod.iam.gserviceaccount.com"
}
=== o json_table
{
  "type": "service_account",
  "project_id": "‹db›-prod",
  "client_email": "‹svc›@‹db›-prod.iam.gserviceaccount.com",
  "client_id": "‹digits21›",
  "token_uri": "https://oauth2.googleapis.com/token"
}
=== x json_table
| 环境 | AppKey | AppSecret |
| --- | --- | --- |
| prod | ‹hex16› | ‹alnum32› |
=== o json_table
| 环境 | trace_id | span_id |
| --- | --- | --- |
| prod | ‹trace› | ‹span› |
""")


def families() -> Family:
    return FILES

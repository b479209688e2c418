"""``secret_key_value``, part two: credentials given to a command line.

``credential flag``: ``--[…-]password``, ``--[…-]passwd``, ``--[…-]pass``, ``--[…-]passphrase``, ``--[…-]token``,
``--api-key``/``--apikey``, ``--client-secret``, ``--[…-]secret-key``, ``--[…-]secret-access-key``,
``--[…-]access-key``, ``--private-key``, ``--auth-token``, ``--access-token``, ``--refresh-token``,
``--credentials``, then a space and a value (``--password=x`` is a ``key=value``): not a flag (``-…``), no
placeholder, no path or file name (``/…``, ``~/…``, ``./…``, ``@file``, ``….pem``); not after ``no-``, ``ask-``,
``prompt-``, ``skip-``, ``with-``, ``show-``, ``print-``, ``require-``, ``allow-`` …, and not ``--askpass``.

``program flag``: a flag that is the password for its program, after its other arguments (at most 16; for
``login``, 3 before it and 8 after; for ``curl``, 24), none a shell operator (``|``, ``;``, ``&``): ``mysql``/
``mysqldump``/``mysqladmin``/``mysqlsh``/``mysqlimport``/``mysqlcheck``/``mysqlshow``/``mysqlbinlog``/
``mariadb[-dump|-admin]`` with ``-pSECRET`` glued (a bare ``-p`` prompts, and ``-p db`` names a database);
``sshpass [-v] -p VALUE`` (or ``-pVALUE``); ``docker``/``podman``/``nerdctl``/``buildah``/``skopeo``/``oras``/
``az``/``helm [registry]`` … ``login`` … ``-p VALUE``; ``redis-cli`` … ``-a VALUE``; ``mongo``/``mongosh``/
``mongodump``/``mongorestore``/``mongoexport``/``mongoimport`` … ``-p VALUE``; ``ldapsearch``/``ldapadd``/
``ldapmodify``/``ldapdelete``/``ldapwhoami``/``ldappasswd``/``ldapcompare``/``ldapmodrdn`` … ``-w VALUE``
(``-W`` prompts); ``rabbitmqadmin``/``cqlsh``/``beeline`` … ``-p VALUE``, ``sqlcmd``/``bcp``/``osql``/
``mosquitto_pub``/``mosquitto_sub`` … ``-P VALUE`` and ``nodetool`` … ``-pw VALUE`` (the password after ``-u``/``-U``
user); ``curl`` … ``-u``/``--user``/``-U``/``--proxy-user`` ``user:PASSWORD`` (the user is kept, a
quoted password runs to its quote; ``-u user`` alone prompts). A value in quotes is replaced inside them.

Environment assignments (``PGPASSWORD=…``, ``MYSQL_PWD=…``, ``REDISCLI_AUTH=…``) are ``key=value`` pairs.

Examples (before -> after)::

    mysql -h db -uroot -pS3cret order_db                -> mysql -h db -uroot -p[REDACTED] order_db
    sshpass -p 'Tr0ub4dor' ssh ops@bastion              -> sshpass -p '[REDACTED]' ssh ops@bastion
    docker login -u ci -p dckrS3cret registry.local     -> docker login -u ci -p [REDACTED] registry.local
    redis-cli -h cache -a R3disPass PING                -> redis-cli -h cache -a [REDACTED] PING
    rabbitmqadmin -u ops -p Mq.2019 list queues         -> rabbitmqadmin -u ops -p [REDACTED] list queues
    sqlcmd -S db -U sa -P 'Tr0ub4dor' -Q x              -> sqlcmd -S db -U sa -P '[REDACTED]' -Q x
    curl -u admin:S3cret https://api.local/health       -> curl -u admin:[REDACTED] https://api.local/health
    app --db-password S3cret --port 80                  -> app --db-password [REDACTED] --port 80
    vault login --token hvs_local_dev_9x                -> vault login --token [REDACTED]

Not secrets: ``mysql -h db -P 3306 -u ro -p order_db`` (the client prompts), ``redis-cli -h cache -p 6379 INFO``
(``-p`` is the port), ``redis-cli --askpass``, ``psql --no-password``, ``--password-file /run/secrets/db``,
``--token $VAULT_TOKEN``, ``--private-key ~/.ssh/id_rsa``, ``curl -u ops https://…``. A program that takes
``--password`` without ``=`` as a prompt (the mysql client, ``psql``) is read as if it took a value
(``mysql --password order_db`` finds ``order_db``): the flag names no program.
"""

from __future__ import annotations

from ._base import BLANK, NOT_DONE, NOT_DONE_QUOTED, PLACEHOLDER, Detector, args, detector, group, unquoted, value

_FLAG_VALUE_END = r"\s\"'"
_FLAG_VALUE = (
    NOT_DONE_QUOTED
    + r"(?![\"']?-)(?!(?:\\?[\"'])?"
    + PLACEHOLDER
    + r"(?:\\?[\"'])?(?![^\s;|&)]))"
    + r"(?![\"']?(?:[/~@]|\.{1,2}/"
    + r"|[\w.-]++\.(?:ya?ml|json|txt|pem|key|crt|cer|p12|pfx|conf|cfg|ini|env|sh)(?![^\s\"'])))"
)
"""What follows a credential flag: not a flag, placeholder, path or file name."""


def _value(name: str) -> str:
    return rf"(?P<{name}>'[^'\n]++'?|\"[^\"\n]++\"?|(?![\"']){value(_FLAG_VALUE_END)})"


_PREFIX_NOT = r"(?!(?:no|ask|prompt|skip|with|show|print|require|allow|disable|enable|generate|use|read)-)"
_FLAG = (
    r"(?=-)(?<![\w-])--"
    + _PREFIX_NOT
    + r"(?i:(?:[a-z0-9]++-)*?(?:password|passwd|pass|passphrase|token|api-?key|client-secret|secret-key"
    r"|secret-access-key|access-key|private-key|auth-token|access-token|refresh-token|credentials?))(?![\w-])"
    + BLANK
    + _FLAG_VALUE
    + _value("flag")
)

_MYSQL = (
    # mysql -pSECRET: the password glued to -p (a bare -p makes the client prompt for it)
    r"(?=m)(?<![\w.-])(?:mysql(?:dump|admin|sh|import|check|show|binlog)?|mariadb(?:-dump|-admin)?)(?![\w-])"
    + args(16)
    + BLANK
    + r"-p"
    + NOT_DONE_QUOTED
    + r"(?P<mysql>'[^'\n]++'?|\"[^\"\n]++\"?|(?![\"'])"
    + value(r"\s")
    + ")"
)
_PROGRAM_FLAG = (
    r"(?=[abcdhlmnoprs])(?<![\w.-])(?:"
    r"sshpass(?:" + BLANK + r"-[vhV])*+" + BLANK + r"-p(?:" + BLANK + r")?"
    r"|(?:docker|podman|nerdctl|buildah|skopeo|oras|az|helm(?:[ \t]++registry)?)"
    + args(3)
    + BLANK
    + r"login"
    + args(8)
    + BLANK
    + r"-p(?:"
    + BLANK
    + "|=)"
    + r"|redis-cli"
    + args(16)
    + BLANK
    + r"-a"
    + BLANK
    + r"|mongo(?:sh|dump|restore|export|import)?(?![\w-])"
    + args(16)
    + BLANK
    + r"-p(?:"
    + BLANK
    + "|=)"
    r"|ldap(?:search|add|modify|delete|whoami|passwd|compare|modrdn)"
    + args(16)
    + BLANK
    + r"-w"
    + BLANK
    # a client that takes the password after the user: -u admin -p V (-P V, -pw V)
    + r"|(?:rabbitmqadmin|cqlsh|beeline)"
    + args(16)
    + BLANK
    + r"-p(?:"
    + BLANK
    + "|=)"
    + r"|(?:sqlcmd|bcp|osql|mosquitto_(?:pub|sub|rr))"
    + args(16)
    + BLANK
    + r"-P"
    + BLANK
    + r"|nodetool"
    + args(16)
    + BLANK
    + r"-pw"
    + BLANK
    + r")"
    + _FLAG_VALUE
    + _value("program")
)
_CURL_USER = (
    # curl -u user:password: the user is kept
    r"(?=c)(?<![\w.-])curl"
    + args(24)
    + BLANK
    + r"(?:-u|--user|-U|--proxy-user)(?:[ \t]++|=)?(?:[\"'][^\s:\"']++:"
    + NOT_DONE
    + r"(?P<curl_quoted>"
    + value(r"\"'\n")
    + r")|[^\s:\"'-][^\s:\"']*+:"
    + NOT_DONE
    + r"(?P<curl>"
    + value(r"\s\"'")
    + "))"
)

_PROGRAMS = "sshpass|login|redis-cli|mongo|ldap|mqadmin|cqlsh|beeline|sqlcmd|bcp|osql|mosquitto_|-pw |-pw\t"
"""Triggers of ``_PROGRAM_FLAG`` (rabbitmqadmin holds ``mqadmin``, nodetool's flag ``-pw ``: stems that start as
most stems do, see :mod:`._triggers`)."""

DETECTORS: tuple[Detector, ...] = (
    detector("secret_key_value", _MYSQL, unquoted("mysql"), "mysql|mariadb", 0),
    detector("secret_key_value", _PROGRAM_FLAG, unquoted("program"), _PROGRAMS, None),
    detector("secret_key_value", _CURL_USER, group("curl_quoted", "curl"), "curl", 0),
    detector("secret_key_value", _FLAG, unquoted("flag"), "-pass|-token|-key|-apikey|-secret|-credential", None),
)

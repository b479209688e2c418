"""What each known program does when it only reads: by subcommand, HTTP method, Redis command or flag.

Anything not listed as reading is a side effect (default-deny): ``kubectl rollout undo``, ``helm upgrade``,
``redis-cli FLUSHALL``, ``systemctl restart``, ``curl -X POST`` or ``-d``, ``mysql -e "UPDATE …"``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

SqlCheck = Callable[[str], "bool | None"]


def _words(spec: str) -> frozenset[str]:
    return frozenset(spec.split())


_KUBECTL_READS = _words(
    "get describe logs log top explain api-resources api-versions version cluster-info events auth diff wait"
)
_KUBECTL_SUB_READS = {"rollout": {"status", "history"}, "config": {"view", "get-contexts", "current-context"}}
_HELM_READS = _words("list ls status get history show inspect search template lint version env verify diff")
_REDIS_READS = _words(
    "get mget hget hgetall hmget hkeys hvals hlen hexists hstrlen exists ttl pttl type strlen llen lrange lindex scard "
    "smembers sismember smismember srandmember zcard zrange zrangebyscore zrevrange zscore zrank zrevrank zcount xlen "
    "xrange xrevrange xinfo xpending info ping dbsize scan hscan sscan zscan keys object memory slowlog client latency "
    "config getrange bitcount pfcount geopos geodist lpos time role lastsave echo command cluster"
)
_REDIS_SUB_READS = {
    "config": {"get"},
    "client": {"list", "info", "getname", "id"},
    "slowlog": {"get", "len"},
    "memory": {"usage", "stats", "doctor"},
    "cluster": {"info", "nodes", "slots", "shards"},
    "object": {"encoding", "freq", "idletime", "refcount"},
    "latency": {"latest", "history", "doctor"},
}
_REDIS_OPTIONS_WITH_VALUE = _words("-h -p -a -n -u -s -r -i --user --pass --pattern --count --tls-cert")
_REDIS_READ_MODES = _words("--bigkeys --memkeys --hotkeys --stat --latency --latency-history --scan --keystats")
_SYSTEMCTL_READS = _words(
    "status show is-active is-enabled is-failed list-units list-unit-files list-timers list-sockets cat "
    "list-dependencies get-default"
)
_DOCKER_READS = _words("ps logs inspect stats top images events info version port diff history")
_GIT_READS = _words("log show diff status blame grep ls-files describe shortlog reflog rev-parse")
_TERRAFORM_READS = _words("plan show output validate graph providers version")
_MYSQLADMIN_READS = _words("status extended-status processlist variables version ping")
_KAFKA_WRITES = {
    "kafka-consumer-groups": ("--execute", "--delete", "--delete-offsets"),
    "kafka-topics": ("--create", "--delete", "--alter"),
    "kafka-configs": ("--alter", "--add-config", "--delete-config"),
}
"""What makes a Kafka admin tool act (``--reset-offsets`` only plans until ``--execute``); the rest reads."""
_ARGOCD_READS = _words("get list diff history manifests resources logs wait")
_RABBITMQ_READS = _words("status cluster_status environment report node_health_check ping version eval_status")
_NODETOOL_READS = _words(
    "status info tpstats cfstats tablestats compactionstats netstats describecluster ring gossipinfo proxyhistograms "
    "tablehistograms version getcompactionthroughput getstreamthroughput listsnapshots"
)
_HTTP_READS = frozenset({"GET", "HEAD", "OPTIONS"})
_CURL_BODY = _words(
    "-d --data --data-raw --data-binary --data-urlencode --json -F --form --form-string -T --upload-file"
)
_CLOUD_READ_VERBS = ("describe", "get", "list", "show", "ls", "query", "lookup", "head")
READERS = _words(
    "tail cat less more head grep egrep fgrep zgrep zcat jq yq top htop ps pstree netstat ss lsof dig nslookup host "
    "ping traceroute tracepath mtr telnet df du free vmstat iostat mpstat pidstat sar uptime w who journalctl dmesg "
    "strace ltrace perf jstack jstat jinfo jps jcmd ls stat file wc sort uniq cut date env printenv id hostname uname "
    "which nproc lscpu lsblk openssl nc ncat tcpdump iftop nload awk sed find wget http"
)
"""Programs that read unless a flag says otherwise (``sed -i``, ``find -delete``, ``dmesg -c`` …)."""
_READER_WRITES = {
    "sed": ("-i", "--in-place"),
    "find": ("-delete", "-exec", "-execdir", "-ok"),
    "dmesg": ("-c", "-C", "--clear"),
    "journalctl": ("--vacuum-size", "--vacuum-time", "--vacuum-files", "--rotate", "--flush"),
    "awk": ("-i",),
    "wget": ("--post-data", "--post-file", "--method", "--body-data"),
    "http": ("POST", "PUT", "PATCH", "DELETE"),
    "jcmd": ("GC.run", "VM.set_flag", "JFR.start", "GC.heap_dump"),
    "openssl": ("-out",),
    "tcpdump": ("-w",),
}
PROGRAMS = frozenset(
    {"kubectl", "oc", "helm", "redis-cli", "mysql", "mariadb", "mysqladmin", "psql", "systemctl", "service", "curl"}
    | {"docker", "podman", "crictl", "nerdctl", "git", "terraform", "aws", "gcloud", "az", "aliyun", "nginx"}
    | {"kill", "pkill", "killall", "rm", "mv", "cp", "chmod", "chown", "truncate", "dd", "shred", "reboot", "halt"}
    | {"shutdown", "poweroff", "iptables", "ip6tables", "sysctl", "crontab", "tee", "ln", "mkdir", "touch", "ansible"}
    | {"ansible-playbook", "supervisorctl", "pm2", "jmap", "arthas", "mongo", "mongosh", "etcdctl", "consul"}
    | {"kafka-consumer-groups", "kafka-topics", "kafka-configs", "argocd", "pt-kill", "rabbitmqctl", "nodetool"}
    | READERS
)


_WRITES = {
    "kubectl": "apply create delete edit patch replace scale autoscale rollout set label annotate cordon uncordon "
    "drain taint expose run exec cp attach port-forward proxy debug",
    "helm": "install upgrade rollback uninstall delete repo plugin dependency push pull",
    "systemctl": "start stop restart reload enable disable mask unmask kill daemon-reload isolate set-property edit",
    "docker": "restart stop kill rm rmi run exec pull push build start pause unpause update prune compose",
    "git": "push reset revert commit merge rebase checkout cherry-pick clean stash tag branch pull fetch",
    "terraform": "apply destroy import taint untaint refresh state init",
    "mysqladmin": "kill flush-hosts flush-logs flush-privileges flush-tables shutdown password create drop reload "
    "refresh",
}
PROSE_VOCABULARY = {
    "kubectl": _KUBECTL_READS | set(_KUBECTL_SUB_READS) | set(_WRITES["kubectl"].split()),
    "oc": _KUBECTL_READS | set(_KUBECTL_SUB_READS) | set(_WRITES["kubectl"].split()),
    "helm": _HELM_READS | set(_WRITES["helm"].split()),
    "systemctl": _SYSTEMCTL_READS | set(_WRITES["systemctl"].split()),
    "docker": _DOCKER_READS | set(_WRITES["docker"].split()),
    "podman": _DOCKER_READS | set(_WRITES["docker"].split()),
    "git": _GIT_READS | set(_WRITES["git"].split()),
    "terraform": _TERRAFORM_READS | set(_WRITES["terraform"].split()),
    "mysqladmin": _MYSQLADMIN_READS | set(_WRITES["mysqladmin"].split()),
    "rabbitmqctl": _RABBITMQ_READS
    | _words(
        "list_queues list_exchanges list_bindings list_connections list_channels list_consumers list_users "
        "list_vhosts list_policies delete_queue purge_queue stop_app start_app reset set_policy clear_policy "
        "close_connection delete_user add_user"
    ),
    "nodetool": _NODETOOL_READS | _words("repair cleanup flush drain decommission compact stopdaemon removenode"),
    "redis-cli": _REDIS_READS | {"flushall", "flushdb", "del", "set", "unlink", "expire", "hset", "hdel", "lpush"},
}
"""What may follow a program's name in prose for it to be a command ("the helm chart values" names no command);
in code, and after a flag, every word may."""


def prose_command(program: str, following: str | None) -> bool:
    """Whether ``program`` followed by the word ``following``, written in prose, is a command: a flag, a URL or a
    path after it, or a word of its vocabulary."""
    if following is None:
        return False
    if following.startswith(("-", "/", "./", "~/")) or "://" in following:
        return True
    vocabulary = PROSE_VOCABULARY.get(program)
    return vocabulary is not None and following.lower() in vocabulary


def read_only_invocation(program: str, args: Sequence[str], sql: SqlCheck) -> bool:
    """Whether ``program args`` only reads."""
    positional = [arg for arg in args if not arg.startswith("-")]
    lowered = [arg.lower() for arg in positional]
    if any(arg == "--dry-run" or (arg.startswith("--dry-run=") and arg != "--dry-run=none") for arg in args):
        return program in ("kubectl", "oc", "helm", "kafka-consumer-groups")
    if program in ("kubectl", "oc"):
        return _kubectl(args, lowered, sql)
    if program == "helm":
        return (bool(lowered) and lowered[0] in _HELM_READS) or lowered[:2] == ["repo", "list"]
    if program == "redis-cli":
        return _redis(args)
    if program in ("mysql", "mariadb", "psql"):
        statements = [args[i + 1] for i, arg in enumerate(args[:-1]) if arg in ("-e", "--execute", "-c", "--command")]
        statements += [arg.split("=", 1)[1] for arg in args if arg.startswith(("--execute=", "--command="))]
        return all(sql(statement) is True for statement in statements)
    if program == "mysqladmin":
        return bool(lowered) and all(arg in _MYSQLADMIN_READS for arg in lowered)
    if program == "systemctl":
        return bool(lowered) and lowered[0] in _SYSTEMCTL_READS
    if program == "service":
        return (len(lowered) >= 2 and lowered[1] == "status") or lowered == ["--status-all"]
    if program == "curl":
        return _curl(args)
    if program in ("docker", "podman", "crictl", "nerdctl"):
        return _docker(args, lowered, sql)
    if program == "git":
        return (bool(lowered) and lowered[0] in _GIT_READS) or (lowered[:1] == ["branch"] and "-d" not in args)
    if program == "terraform":
        return (bool(lowered) and lowered[0] in _TERRAFORM_READS) or lowered[:2] in (
            ["state", "list"],
            ["state", "show"],
        )
    if program in ("aws", "gcloud", "az", "aliyun"):
        return any(arg.startswith(_CLOUD_READ_VERBS) for arg in lowered[1:]) or lowered[:1] in (["sts"], ["logs"])
    if program == "nginx":
        return any(arg in ("-t", "-T", "-v", "-V") for arg in args) and "-s" not in args
    if program in _KAFKA_WRITES:
        return not any(arg.split("=", 1)[0] in _KAFKA_WRITES[program] for arg in args)
    if program == "argocd":
        return lowered[:1] in (["version"], ["context"]) or (len(lowered) > 1 and lowered[1] in _ARGOCD_READS)
    if program == "rabbitmqctl":
        return bool(lowered) and (lowered[0].startswith("list_") or lowered[0] in _RABBITMQ_READS)
    if program == "nodetool":
        return bool(lowered) and lowered[0] in _NODETOOL_READS
    if program == "pt-kill":
        return "--print" in args and not any(arg.startswith(("--kill", "--kill-query")) for arg in args)
    if program in ("iptables", "ip6tables"):
        return any(arg in ("-L", "-S", "--list", "--list-rules") for arg in args)
    if program == "sysctl":
        return "-w" not in args and not any("=" in arg for arg in positional)
    if program == "crontab":
        return "-l" in args
    if program in ("ansible", "ansible-playbook"):
        return "--check" in args or "-C" in args
    if program in READERS:
        writes = _READER_WRITES.get(program, ())
        return not any(arg == flag or arg.startswith(flag + "=") for arg in args for flag in writes)
    return False


def _kubectl(args: Sequence[str], positional: list[str], sql: SqlCheck) -> bool:
    if not positional:
        return False
    verb = positional[0]
    if verb in ("exec", "debug") and "--" in args:
        nested = list(args[list(args).index("--") + 1 :])
        return (
            bool(nested)
            and nested[0].rsplit("/", 1)[-1] in PROGRAMS
            and read_only_invocation(nested[0].rsplit("/", 1)[-1], nested[1:], sql)
        )
    if verb in _KUBECTL_SUB_READS:
        return len(positional) > 1 and positional[1] in _KUBECTL_SUB_READS[verb]
    return verb in _KUBECTL_READS


def _docker(args: Sequence[str], positional: list[str], sql: SqlCheck) -> bool:
    if positional[:1] == ["compose"]:
        positional = positional[1:]
    if not positional:
        return False
    if positional[0] == "exec" and len(positional) >= 3:  # docker exec [-it] CONTAINER COMMAND ARGS…
        nested = list(args[list(args).index(positional[2]) :])
        program = nested[0].rsplit("/", 1)[-1]
        return program in PROGRAMS and read_only_invocation(program, nested[1:], sql)
    return positional[0] in _DOCKER_READS or positional[:2] in (["container", "ls"], ["image", "ls"])


def _redis(args: Sequence[str]) -> bool:
    words, index = [], 0
    modes = False
    while index < len(args):
        arg = args[index]
        if arg in _REDIS_OPTIONS_WITH_VALUE:
            index += 2
            continue
        if arg in _REDIS_READ_MODES:
            modes = True
        elif arg in ("--eval", "--pipe", "--rdb", "--functions-rdb"):
            return False
        elif not arg.startswith("-"):
            words.append(arg.lower())
        index += 1
    if not words:
        return modes
    command = words[0]
    if command in _REDIS_SUB_READS:
        return len(words) > 1 and words[1] in _REDIS_SUB_READS[command]
    return command in _REDIS_READS


_READ_ENDPOINT = re.compile(
    r"/(?:_search|_msearch|_count|_explain|_validate/query|_field_caps)(?:[?#]|$)"
    r"|/api/v1/(?:query|query_range|query_exemplars|series|labels)(?:[?#]|$)|/loki/api/v1/(?:query|query_range)(?:[?#]|$)"
)
"""Endpoints that read although they are sent as POST (search and query APIs of Elasticsearch, Prometheus, Loki)."""


def _curl(args: Sequence[str]) -> bool:
    if any(_READ_ENDPOINT.search(arg) for arg in args if "://" in arg or arg.startswith("/")):
        return not any(arg in ("-o", "--output", "-O", "--remote-name", "-T", "--upload-file") for arg in args)
    for index, arg in enumerate(args):
        if arg in ("-X", "--request") and index + 1 < len(args) and args[index + 1].upper() not in _HTTP_READS:
            return False
        if arg.startswith(("-X", "--request=")) and len(arg) > 2 and arg not in ("-X", "--request"):
            method = arg[2:] if arg.startswith("-X") else arg.split("=", 1)[1]
            if method.upper() not in _HTTP_READS:
                return False
        if arg in _CURL_BODY or any(arg.startswith(flag + "=") for flag in _CURL_BODY if flag.startswith("--")):
            return False
        if arg in ("-o", "--output") and (index + 1 >= len(args) or args[index + 1] != "/dev/null"):
            return False
        if arg in ("-O", "--remote-name"):
            return False
    return True

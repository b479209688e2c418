"""Ray for a gateway process, the demo and ``superbiz runtime stop``: join the configured cluster (with its
authentication token when one is available), or start a local Ray with its dashboard."""

from __future__ import annotations

import functools
import logging
import time

import ray
from ray._raylet import Config as RayConfig
from ray.exceptions import AuthenticationError

from config import environment
from config.app import AppConfig
from config.env_refs import Secret
from contract.vocabulary import HarnessError

log = logging.getLogger(__name__)
RAY_CLIENT_ATTEMPTS = 5
RAY_CLIENT_RETRY_DELAY_S = 3.0


class ClusterJoinError(HarnessError):
    """The gateway could not join the configured Ray cluster."""

    code = "CLUSTER_JOIN_FAILED"


def init_ray(config: AppConfig, address: str | None) -> str | None:
    """Join the configured cluster, or start a local Ray with its dashboard; returns the dashboard URL."""
    target = address or config.ray.address
    if ray.is_initialized():
        return None
    if target:
        context = join_cluster(target, config.ray.namespace, config.ray.auth_token)
    else:
        context = ray.init(
            address="local",
            namespace=config.ray.namespace,
            include_dashboard=True,
            dashboard_host="127.0.0.1",
            log_to_driver=False,
            configure_logging=False,
        )
    url = getattr(context, "dashboard_url", None)
    return f"http://{url}" if url and not str(url).startswith("http") else url


def use_cluster_token(configured: Secret | None) -> str | None:
    """Make a driver joining a cluster send Ray's authentication token when one is available: ``ray.auth-token``
    from the configuration, else Ray's own ``RAY_AUTH_TOKEN``, ``RAY_AUTH_TOKEN_PATH`` or ``~/.ray/auth_token``.
    Returns where the token comes from (never the token), or None when there is none."""
    if configured is not None:
        environment.set_ray_auth_token(configured.reveal())
    source = environment.ray_token_source()
    if source is None:
        return None
    if configured is not None:
        source = "ray.auth-token"
    # Ray 2.60 turns token mode on by itself only for a cluster it starts; a driver joining one must ask for it,
    # and Ray reads the mode once at import unless its configuration is read again.
    if environment.default_ray_auth_mode("token"):
        RayConfig.initialize("")
    return source


def join_cluster(address: str, namespace: str, token: Secret | None = None) -> object:
    """``ray.init`` on an existing cluster, with its token when one is available (``use_cluster_token``).

    Over Ray Client (``ray://``) the head's proxy starts a server process per connection, and now and then that
    process dies at birth (``ConnectionAbortedError``: "Starting Ray client server failed"); the next connection
    gets a fresh one, so that is asked again. A cluster that refuses the driver (a missing or wrong token, a wrong
    address) is one ``ClusterJoinError`` that names what to set."""
    source = use_cluster_token(token)
    connect = functools.partial(
        ray.init, address=address, namespace=namespace, log_to_driver=False, configure_logging=False
    )
    attempts = RAY_CLIENT_ATTEMPTS if address.startswith("ray://") else 1
    for attempt in range(1, attempts):
        try:
            return connect()
        except ConnectionAbortedError:
            ray.shutdown()
            log.warning("Ray Client server failed to start (attempt %d of %d); connecting again", attempt, attempts)
            time.sleep(RAY_CLIENT_RETRY_DELAY_S)
    try:
        return connect()
    except ConnectionAbortedError:  # Ray Client's server failed to start every time: not a question of tokens
        raise
    except (ConnectionError, AuthenticationError) as refused:
        ray.shutdown()
        raise ClusterJoinError(
            f"cannot join the Ray cluster at {address} ({type(refused).__name__}); authentication token: "
            f"{source or 'none found'}. If the cluster uses Ray's token authentication (ray start does when a "
            "token exists), set ray.auth-token: ${RAY_AUTH_TOKEN} in the configuration, or RAY_AUTH_TOKEN, or "
            "copy the head's ~/.ray/auth_token; otherwise check the address."
        ) from None

"""`writegate serve`: run the gRPC service (grpc.aio, health, reflection, metrics)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path

from writegate.server.config import ENV_CONFIG, SETTINGS, load_config

HELP = "Run the gRPC service."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One flag per `ServerConfig` field (`SETTINGS`), plus `--config`; a flag not given is None.

    Values stay text here: `load_config` validates every source alike, and its errors name the flag.
    """
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="FILE",
        help=f"TOML or JSON file of settings, keys = the flags' names with _ [env: {ENV_CONFIG}]",
    )
    for setting in SETTINGS:
        help_text = setting.help.replace("%", "%%")
        if setting.switch:
            parser.add_argument(
                setting.flag, dest=setting.name, action=argparse.BooleanOptionalAction, default=None, help=help_text
            )
        else:
            parser.add_argument(setting.flag, dest=setting.name, default=None, metavar=setting.metavar, help=help_text)


def run(args: argparse.Namespace) -> int:
    """Load the config once, serve until SIGTERM/SIGINT, exit 0 after draining."""
    from writegate.server.app import serve

    flags = {setting.name: getattr(args, setting.name) for setting in SETTINGS}
    config = load_config(flags, config_file=args.config, env=os.environ)
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    def announce(app: object) -> None:
        port = getattr(app, "port", config.port)
        extras = [
            name
            for name, on in (
                ("TLS", config.tls_cert is not None),
                ("mTLS", config.tls_client_ca is not None),
                ("tokens", config.auth_tokens is not None),
            )
            if on
        ]
        print(
            f"writegate serve: SERVING on {config.host}:{port} ({config.backend.value}, model {config.model}"
            f"{'; ' + ', '.join(extras) if extras else ''})",
            flush=True,
        )

    try:
        return asyncio.run(serve(config, on_ready=announce))
    except RuntimeError as exc:  # a backend's runtime is missing or refused (e.g. vllm)
        print(f"writegate serve: error: {exc}", file=sys.stderr)
        return 1

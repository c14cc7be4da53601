"""Python clients of the WriteGate service: `AsyncClient` (asyncio) and `Client` (blocking: the
`AsyncClient` run on an event loop of its own, in a thread).

    from writegate.client import Client
    with Client("127.0.0.1:50051") as client:
        result = client.prepare_write(memory, candidates)
"""

from writegate.client.aio import AsyncClient
from writegate.client.common import PairError, RelabelPair, RelabelResult, RetryPolicy
from writegate.client.sync import Client

__all__ = ["AsyncClient", "Client", "PairError", "RelabelPair", "RelabelResult", "RetryPolicy"]

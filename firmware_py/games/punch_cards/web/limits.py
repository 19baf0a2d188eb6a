"""How much of the web server one client, and all of them, may take."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """``rate_per_s`` requests a second per client address, in bursts of ``burst``;
    ``streams`` live streams in all, ``streams_per_client`` from one address (phones
    behind one NAT share one)."""

    rate_per_s: float = 2.0
    burst: int = 30
    streams: int = 1_000
    streams_per_client: int = 64

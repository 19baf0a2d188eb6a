"""The web tests share the ledger tests' throwaway PostgreSQL server (one per session)."""

from tests.firmware_py.ledger.conftest import postgres  # noqa: F401  (a fixture, used by name)

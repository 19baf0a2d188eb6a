"""Punch Cards' settings, its own ``[game.punch_cards]`` table of the cabinet config:
where the ledger lives and the event's seed.  Validated here, by the game, with the
config's one-line errors naming the key."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from hal.config import CabinetConfig, TableReader, expand_path

TABLE = "game.punch_cards"


@dataclass(frozen=True, kw_only=True)
class PunchCardsSettings:
    """``ledger``: a ``sqlite:///path`` or ``postgresql://…`` URL; ``None`` is
    ``punch_cards.sqlite3`` in the data folder (found at run time, so a cabinet whose
    data folder moves takes its ledger along).  ``event_seed``: used only when the ledger
    is created (pre-printed cards, rehearsals, scenarios); ``None`` draws a secret one.
    ``web_url``: where phones find the live standings (``ringside web``); the attract
    screen, the lobby and the printed standings show it as a QR code (none without it)."""

    ledger: str | None = None
    event_seed: int | None = None
    web_url: str | None = None


def read_settings(table: Mapping[str, Any], reader: TableReader) -> PunchCardsSettings:
    """The table's settings; a :class:`~hal.config.ConfigError` names a bad key."""
    pc = reader.check_table(dict(table), TABLE, {"ledger", "event_seed", "web_url"})
    ledger = ledger_url(pc["ledger"], reader) if "ledger" in pc else None
    seed = reader.integer(pc, TABLE, "event_seed", 0, 2**63 - 1) if "event_seed" in pc else None
    web = web_url(pc["web_url"], reader) if "web_url" in pc else None
    return PunchCardsSettings(ledger=ledger, event_seed=seed, web_url=web)


WEB_URL_LIMIT = 120
"""Characters of ``web_url``: its QR code stays a few modules wide enough to scan from the
attract screen across a hall (version 7 at most)."""


def web_url(value: Any, reader: TableReader) -> str:
    """An ``http://`` or ``https://`` address with a host, as phones will open it."""
    key = f"{TABLE}.web_url"
    expected = 'the address phones open for the standings, e.g. "http://192.168.1.20:8035/" (ringside web)'
    if not isinstance(value, str):
        raise reader.fail(key, value, expected)
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise reader.fail(key, value, expected)
    if len(value) > WEB_URL_LIMIT or any(c.isspace() or not c.isprintable() for c in value):
        raise reader.fail(key, value, f"at most {WEB_URL_LIMIT} characters, no spaces: {expected}")
    return value


def settings_of(config: CabinetConfig) -> PunchCardsSettings:
    """This cabinet's Punch Cards settings (checked at start, so they read cleanly here)."""
    return read_settings(config.games.get("punch_cards", {}), TableReader(config.source))


def ledger_url(value: Any, reader: TableReader) -> str:
    """``sqlite:///absolute/path`` (or ``sqlite:///~/path``, ``~`` expanded) or
    ``postgresql://user@host/db`` (``postgres://`` too)."""
    key = f"{TABLE}.ledger"
    expected = (
        'a ledger URL: "sqlite:///path/to/ledger.sqlite3" (a file on this cabinet) or '
        '"postgresql://user@host/database" (one server for the event\'s cabinets)'
    )
    if not isinstance(value, str):
        raise reader.fail(key, value, expected)
    if value.startswith(("postgresql://", "postgres://")):
        if not value.split("://", 1)[1].strip("/"):
            raise reader.fail(key, value, "a PostgreSQL URL naming a server: postgresql://user@host/database")
        return value
    rest = value[len("sqlite:///") :] if value.startswith("sqlite:///") else ""
    if rest.strip() and not rest.endswith("/"):
        path = expand_path(rest, key, reader.source) if rest.startswith("~") else Path("/" + rest)
        return f"sqlite://{path}"
    if value.startswith("sqlite://"):
        raise reader.fail(key, value, "sqlite:/// followed by the ledger file's path (three slashes)")
    raise reader.fail(key, value, expected)

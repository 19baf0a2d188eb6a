"""Where phones find the standings: ``[game.punch_cards] web_url``, checked with an error
naming the key, printed on the standings page as a QR code; and the service that serves
them, hardened like the cabinet's own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import segno

from firmware_py.games.punch_cards.ledger import Ledger
from firmware_py.games.punch_cards.settings import settings_of
from firmware_py.games.registry import check_settings
from hal.config import ConfigError, parse_config
from tests.web.support import new_ledger

REPO = Path(__file__).resolve().parents[2]


TEMPLATE = (REPO / "deploy/cabinet.toml").read_text(encoding="utf-8")


def config(line: str) -> str:
    """The shipped config with a ``[game.punch_cards]`` table holding ``line``."""
    return f"{TEMPLATE}\n[game.punch_cards]\n{line}\n"


def test_the_web_url_is_read_from_the_punch_cards_table() -> None:
    cabinet = parse_config(config('web_url = "http://192.168.1.20:8035/"'))
    check_settings(cabinet)
    assert settings_of(cabinet).web_url == "http://192.168.1.20:8035/"
    assert settings_of(parse_config(TEMPLATE)).web_url is None


@pytest.mark.parametrize(
    "value",
    [
        "8035",
        '"192.168.1.20:8035"',
        '"ftp://host/"',
        '"http:///path"',
        '"http://host/a b"',
        '"http://h/' + "x" * 130 + '"',
    ],
)
def test_a_bad_web_url_is_an_error_naming_the_key(value: str) -> None:
    with pytest.raises(ConfigError, match=r"game\.punch_cards\.web_url") as e:
        check_settings(parse_config(config(f"web_url = {value}")))
    assert "http://192.168.1.20:8035/" in str(e.value)  # and what to write instead


def test_the_printed_standings_carry_the_live_pages_qr_code(tmp_path: Path) -> None:
    ledger: Ledger = new_ledger(tmp_path / "l.sqlite3")
    url = "http://192.168.1.20:8035/?from=<print>"
    _, page = ledger.export(tmp_path / "with", web_url=url)
    _, plain = ledger.export(tmp_path / "without")
    ledger.close()
    printed = page.read_text()
    assert "http://192.168.1.20:8035/?from=&lt;print&gt;" in printed and "<print>" not in printed
    drawn = re.search(r"<svg[^>]*>.*?</svg>", printed, re.S)
    assert drawn is not None
    expected = segno.make(url, error="m", micro=False)
    size = expected.symbol_size(scale=4)[0]
    assert f'width="{size}"' in drawn.group(0)  # the symbol of this URL, quiet zone included
    assert "<svg" not in plain.read_text()


def unit(name: str) -> dict[str, list[str]]:
    keys: dict[str, list[str]] = {}
    for line in (REPO / "deploy/systemd" / name).read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            keys.setdefault(key, []).append(value)
    return keys


def test_the_web_service_runs_ringside_web_as_the_cabinet_user_hardened_like_the_cabinet() -> None:
    web, cabinet = unit("ringside-web.service"), unit("ringside.service")
    assert web["ExecStart"] == [cabinet["ExecStart"][0].replace(" run ", " web ")]
    assert web["User"] == ["ringside"] and web["CapabilityBoundingSet"] == [""]
    shared = {k for k in cabinet if k.startswith(("Protect", "Restrict", "NoNew", "SystemCall", "Lock"))}
    shared -= {"ProtectSystem", "RestrictAddressFamilies"}
    for key in shared:
        assert web.get(key) == cabinet[key], key
    assert web["ProtectSystem"] == ["strict"] and web["PrivateDevices"] == ["yes"]
    assert web["RestrictAddressFamilies"] == ["AF_UNIX AF_INET AF_INET6"]  # no netlink: it watches no device
    install = (REPO / "deploy/install.sh").read_text()
    assert "--web) WEB=1" in install and "systemctl enable ringside-web.service" in install

"""Each game's settings are its own ``[game.<name>]`` table, validated by its controls
with the config's one-line errors naming the key (issue 21): hal keeps the tables raw."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_py.games.punch_cards.settings import settings_of
from firmware_py.games.registry import check_settings
from firmware_py.tools.cli import main as ringside
from hal.config import ConfigError, load_config, parse_config

DEFAULT = Path("hal/data/cabinet.toml").read_text()


def config_with(table: str):
    return parse_config(DEFAULT + "\n" + table, "cabinet.toml")


@pytest.mark.parametrize(
    ("ledger", "expected"),
    [
        ('"mysql://host/db"', 'a ledger URL: "sqlite:///path/to/ledger.sqlite3"'),
        ('"sqlite://ledger.sqlite3"', "sqlite:/// followed by the ledger file's path (three slashes)"),
        ('"sqlite:///"', "sqlite:/// followed by the ledger file's path"),
        ('"postgresql://"', "a PostgreSQL URL naming a server"),
        ("5432", "a ledger URL"),
    ],
)
def test_a_bad_punch_cards_ledger_url_says_what_a_good_one_looks_like(ledger: str, expected: str) -> None:
    with pytest.raises(ConfigError) as info:
        check_settings(config_with(f"[game.punch_cards]\nledger = {ledger}\n"))
    assert info.value.key == "game.punch_cards.ledger" and expected in str(info.value)
    assert str(info.value).startswith("cabinet.toml: game.punch_cards.ledger = ")


def test_the_punch_cards_ledger_is_a_file_in_the_data_folder_unless_a_url_names_one() -> None:
    assert settings_of(load_config()).ledger is None  # the cabinet puts it in its data folder
    server = config_with('[game.punch_cards]\nledger = "postgresql://con@10.0.0.2/cards"\n')
    assert settings_of(server).ledger == "postgresql://con@10.0.0.2/cards"
    home = settings_of(config_with('[game.punch_cards]\nledger = "sqlite:///~/cards.sqlite3"\nevent_seed = 7\n'))
    assert home.ledger is not None and home.ledger.startswith("sqlite:///") and "~" not in home.ledger
    assert home.event_seed == 7
    with pytest.raises(ConfigError, match=re.escape("game.punch_cards.seed")):
        check_settings(config_with("[game.punch_cards]\nseed = 7\n"))


def test_a_game_without_settings_takes_no_keys_and_an_unknown_game_is_named() -> None:
    with pytest.raises(ConfigError, match=re.escape("game.punch.rounds = 3: expected no such key; allowed: (none)")):
        check_settings(config_with("[game.punch]\nrounds = 3\n"))
    with pytest.raises(ConfigError, match=re.escape("game.chess = {}: expected a table named after a game: punch,")):
        check_settings(config_with("[game.chess]\n"))
    check_settings(config_with("[game.karate_fight]\n"))  # an empty table is fine


def test_ringside_run_stops_on_a_bad_game_table_with_one_line(tmp_path: Path, capsys) -> None:
    path = tmp_path / "cabinet.toml"
    path.write_text(DEFAULT + '\n[game.punch_cards]\nledger = "mysql://x/y"\n')
    assert ringside(["run", "--headless", "--config", str(path), "--data", str(tmp_path / "data")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "game.punch_cards.ledger = 'mysql://x/y'" in err

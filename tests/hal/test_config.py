"""The cabinet config: the shipped default loads; mistakes name key, value and expectation."""

from __future__ import annotations

import re

import pytest

from hal.config import ConfigError, default_config_path, load_config, parse_config
from hal.events import Button

DEFAULT = default_config_path().read_text()


def test_shipped_default_describes_a_two_station_cabinet() -> None:
    c = load_config()
    assert len(c.stations) == 2
    assert (c.display.width, c.display.height) == (1280, 720)
    for s in c.stations:
        assert {b for b, _ in s.buttons} == set(Button)
        assert len(s.led_bar.pins) == 10


def edited(old: str, new: str, count: int = 1) -> str:
    assert old in DEFAULT, old
    return DEFAULT.replace(old, new, count)


@pytest.mark.parametrize(
    ("text", "key", "expected"),
    [
        (edited("width = 1280", "width = 12"), "display.width", "integer from 320"),
        (edited("START = 20 }", "START = 99 }"), "station[0].buttons.START", "integer from 0 to 27"),
        (edited(", START = 20 }", " }"), "station[0].buttons.START", "integer from 0 to 27"),
        (
            edited("pins = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]", "pins = [0, 1, 2]"),
            "station[0].led_bar.pins",
            "10 line numbers",
        ),
        (
            edited('source = "gpio-edge", pin = 21', 'source = "laser", pin = 21'),
            "station[0].slap.source",
            "gpio-edge, padboard, none",
        ),
        (
            edited('source = "gpio-edge", pin = 21', 'source = "padboard", pin = 21'),
            "station[0].slap.pad",
            "padboard input",
        ),
        (edited("B = 6,", "B = 5,"), "station[0].buttons.B", "not already used by station[0].buttons.A"),
        (edited('color = "#e53935"', 'color = "red"'), "station[0].color", "#"),
        (edited("fps = 60", "fps = 60\nvsync = true"), "display.vsync", "no such key"),
        (edited("fps = 60", 'fps = 60\nrender = "1080i"'), "display.render", "one of native, 720p"),
        (
            edited("[cabinet]", "[cabinet]\n", 1).replace('name = "ringside-dev"', 'name = "bad name!"'),
            "cabinet.name",
            "string matching",
        ),
    ],
)
def test_bad_config_names_key_value_and_expectation(text: str, key: str, expected: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(text, "cabinet.toml")
    message = str(info.value)
    assert info.value.key == key
    assert message.startswith(f"cabinet.toml: {key} = ")
    assert expected in message


def test_render_size_native_or_720p_scaled_up() -> None:
    """``[display] render``: frames drawn at the display's size, or at 1280×720 for the
    display pipeline to scale up (an operator's lever for a slow Pi)."""
    big = edited("width = 1280", "width = 1920").replace("height = 720", "height = 1080")
    assert parse_config(big, "cabinet.toml").display.render_size() == (1920, 1080)
    low = big.replace("fps = 60", 'fps = 60\nrender = "720p"')
    assert parse_config(low, "cabinet.toml").display.render_size() == (1280, 720)


def test_station_count_must_be_two_to_four() -> None:
    one_station = DEFAULT[: DEFAULT.rindex("[[station]]")]
    with pytest.raises(ConfigError, match=r"station = 1: expected 2 to 4 \[\[station\]\] tables"):
        parse_config(one_station)


def test_invalid_toml_says_where() -> None:
    with pytest.raises(ConfigError, match=re.escape("file = 'x.toml': expected valid TOML")):
        parse_config("[display\nwidth=1", "x.toml")


def test_i2c_lines_reserved_for_private_displays() -> None:
    with pytest.raises(ConfigError, match="I2C SDA"):
        parse_config(edited("A = 5,", "A = 2,"))


def test_missing_file_is_a_config_error(tmp_path) -> None:
    with pytest.raises(ConfigError, match="readable TOML file"):
        load_config(tmp_path / "nope.toml")


def test_game_tables_stay_raw_for_each_game_to_check() -> None:
    """hal knows no game: a [game.<name>] table is kept as it is written."""
    config = parse_config(DEFAULT + '\n[game.punch_cards]\nledger = "x"\n[game.anything]\nspeed = 3\n')
    assert config.games == {"punch_cards": {"ledger": "x"}, "anything": {"speed": 3}}
    with pytest.raises(ConfigError, match=re.escape("game.punch = 3: expected a table [game.punch]")):
        parse_config(DEFAULT + "\n[game]\npunch = 3\n")


def test_the_old_punch_cards_table_says_where_its_keys_went() -> None:
    with pytest.raises(ConfigError, match=re.escape("expected the same keys in [game.punch_cards]")):
        parse_config(DEFAULT + '\n[punch_cards]\nledger = "sqlite:///x"\n')


def test_padboard_contact_probe_is_off_unless_said_and_must_be_true_or_false() -> None:
    board = '\n[padboard]\nport = "/dev/ringside-padboard"\n'
    assert parse_config(DEFAULT + board).padboard.contact_probe is False  # type: ignore[union-attr]
    assert parse_config(DEFAULT + board + "contact_probe = true\n").padboard.contact_probe is True  # type: ignore[union-attr]
    with pytest.raises(ConfigError) as info:
        parse_config(DEFAULT + board + 'contact_probe = "yes"\n', "cabinet.toml")
    assert info.value.key == "padboard.contact_probe" and "true or false" in str(info.value)

"""The padboard slap source: wire protocol (shared with the board), clock sync and the
pyserial driver that turns the board's messages into HAL slap events."""

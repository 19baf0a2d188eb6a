"""Punch Cards on a phone, proven in a real browser: Debian's chromium, headless, driven
by Playwright (nothing downloaded: ``executable_path`` is the system's chromium, which
``.ci/run`` installs), at a phone's 390×844.  Screenshots of each page go to
``out/web/`` for a person to look at.  In CI a missing chromium is a failure; elsewhere
these tests skip, saying how to install it."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_py.games.punch_cards.ledger import Ledger
from tests.web.support import HOSTILE, WebServer, config_for, duel, new_ledger, plant_hostile_names, serving

pytestmark = [pytest.mark.slow, pytest.mark.realtime]  # a browser and a server process waited on

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
SHOTS = Path(__file__).resolve().parents[2] / "out" / "web"
WAIT_MS = 20_000
"""How long a check waits for what should come at once (a loaded machine): the time it
took is written beside the screenshots, never asserted."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        message = f"no {CHROMIUM}: apt-get install chromium"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{message} — .ci/run installs it; in CI a missing browser is a failure")
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    profile = Path(f"/tmp/ringside-web-profile-{os.getpid()}")
    shutil.rmtree(profile, ignore_errors=True)
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, args=ARGS, viewport=PHONE, device_scale_factor=2
        )
        try:
            yield context
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def event(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Ledger, WebServer]]:
    """An event under way (a duel fought, closing in two hours), on a SQLite file the server
    polls or a PostgreSQL server whose NOTIFY it listens to; ``ringside web`` serving it."""
    if request.param == "sqlite":
        ledger = new_ledger(tmp_path / "punch_cards.sqlite3")
        server = WebServer(tmp_path)
    else:
        url = request.getfixturevalue("postgres").schema_url("web")
        ledger = new_ledger(url)
        server = WebServer(tmp_path, None, "--config", str(config_for(tmp_path, url)))
    duel(ledger, "duel-1", "Ann", "Bob")
    ledger.set_closing_time("close", ledger.now_us() + (2 * 3600 + 754) * 1_000_000)
    with serving(ledger, server) as both:
        yield both


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def note(line: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with (SHOTS / "timings.txt").open("a") as f:
        f.write(line + "\n")


def live_label(page: Any) -> str:
    return str(page.inner_text("#live"))


def test_a_phone_sees_the_standings_with_the_closing_time(browser: Any, event: tuple[Ledger, WebServer]) -> None:
    ledger, server = event
    page = browser.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#live.is-live")
    names = page.locator("table.standings td.name bdi").all_inner_texts()
    assert names == [s.name for s in ledger.standings()]
    # no sideways scrolling; measured in one script: a live update replaces the table
    # (main.innerHTML), and a locator resolved before it measured a detached one (None)
    width = page.evaluate("document.querySelector('table.standings').getBoundingClientRect().width")
    assert width <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert live_label(page).startswith("live · as of ")
    page.locator("#countdown", has_text="left").wait_for()
    assert page.inner_text("#closing").startswith("Closes at ")
    shot(page, "standings")
    page.click("text=Ann")
    page.wait_for_selector("h1 bdi")
    assert page.inner_text("h1") == "Ann"
    assert "Cards held (6)" in page.inner_text("main")
    assert "beat Bob, took card #" in page.inner_text("ul.duels")
    shot(page, "player")
    page.goto(server.url + "/search?q=an")
    assert page.locator("ul.found bdi").all_inner_texts() == ["Ann", "Dmitri Ivanov"]
    shot(page, "search")
    page.close()


def test_a_duel_recorded_at_a_cabinet_appears_on_the_open_page_without_a_reload(
    browser: Any, event: tuple[Ledger, WebServer]
) -> None:
    ledger, server = event
    page = browser.new_page()
    page.goto(server.url + "/player/Carla")
    page.wait_for_selector("#live.is-live")
    page.evaluate("window.loadedOnce = true")  # gone if the page were loaded again
    assert "No duels yet." in page.inner_text("main")
    start = time.monotonic()
    card = duel(ledger, "duel-2", "Carla", "Eve")
    page.locator("ul.duels", has_text=f"took card #{card}").wait_for(timeout=WAIT_MS)
    note(f"duel on the open page after {time.monotonic() - start:.2f} s ({ledger.backend.dialect})")
    assert page.evaluate("window.loadedOnce") is True
    assert page.locator("ul.cards li", has_text="Named Eve").inner_text().endswith(f"#{card}")
    shot(page, "player-after-duel")
    page.close()


def test_the_offline_indicator_comes_when_the_server_stops_and_goes_when_it_is_back(
    browser: Any, event: tuple[Ledger, WebServer]
) -> None:
    ledger, server = event
    page = browser.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#live.is-live")
    before = page.locator("table.standings td.name bdi").all_inner_texts()
    server.stop()
    page.wait_for_selector("#live.is-offline", timeout=WAIT_MS)
    assert live_label(page).startswith("offline · as of ")
    assert page.locator("table.standings td.name bdi").all_inner_texts() == before  # the last standings stay
    shot(page, "offline")
    card = duel(ledger, "duel-2", "Dmitri Ivanov", "Eve")  # recorded while the phone could not see it
    server.start()
    page.wait_for_selector("#live.is-live", timeout=WAIT_MS)
    assert live_label(page).startswith("live · as of ")
    dmitri = next(s for s in ledger.standings() if s.name == "Dmitri Ivanov")
    assert dmitri.cards == 6 and card > 0
    page.goto(server.url + "/player/Dmitri%20Ivanov")
    assert f"took card #{card}" in page.inner_text("ul.duels")
    page.close()


def test_hostile_names_render_as_text(browser: Any, tmp_path: Path) -> None:
    new_ledger(tmp_path / "punch_cards.sqlite3").close()
    plant_hostile_names(tmp_path / "punch_cards.sqlite3")
    server = WebServer(tmp_path)
    server.start()
    dialogs: list[str] = []
    page = browser.new_page()
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#live.is-live")
        names = page.locator("table.standings td.name bdi").all_inner_texts()
        assert HOSTILE[0] in names and HOSTILE[1] in names
        assert HOSTILE[2][:40] + "…" in names
        assert page.locator("main img").count() == 0 and page.locator("main script").count() == 0
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        rtl = page.locator("td.name bdi", has_text="evil").locator("xpath=ancestor::tr")
        assert rtl.locator("td.num").all_inner_texts() == ["1", "5"]  # the override turns nothing outside its name
        shot(page, "hostile-names")
        page.goto(server.url + "/player/" + HOSTILE[0].replace("/", "%2F"))
        assert page.inner_text("h1") == HOSTILE[0]
        shot(page, "hostile-player")
        assert dialogs == []
    finally:
        page.close()
        server.stop()

"""The web server's HTTP layer without a browser (Starlette's TestClient over a real
read-only ledger): what the pages show, that names are inert text, that nothing secret
or writable is there, and the limits."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from firmware_py.games.punch_cards.ledger import Ledger, LedgerError, LedgerUnreachable
from firmware_py.games.punch_cards.web.feed import Feed
from firmware_py.games.punch_cards.web.limits import Limits
from firmware_py.games.punch_cards.web.pages import NAME_SHOWN, Liveness
from firmware_py.games.punch_cards.web.server import RateLimit, Streams, create_app
from tests.firmware_py.ledger.conftest import SEED
from tests.web.support import HOSTILE, duel, new_ledger, plant_hostile_names


def fed(path: Path) -> Feed:
    feed = Feed(lambda: Ledger(path, read_only=True))
    asyncio.run(feed.refresh())
    return feed


@pytest.fixture
def path(tmp_path: Path) -> Iterator[Path]:
    file = tmp_path / "punch_cards.sqlite3"
    ledger = new_ledger(file)
    duel(ledger, "duel-1", "Ann", "Bob", winner=0)
    duel(ledger, "duel-2", "Carla", "Ann", winner=1)
    ledger.close()
    yield file


def client(feed: Feed, limits: Limits = Limits()) -> TestClient:
    return TestClient(create_app(feed, limits, read_ledger=False))


def rows(html: str) -> list[tuple[str, str, str, str]]:
    """(rank, name, points, cards) of the standings table."""
    found = re.findall(
        r'<tr><td class="rank">(\d+)</td><td class="name"><a href="[^"]*"><bdi>(.*?)</bdi></a>.*?</td>'
        r'<td class="num">(\d+)</td><td class="num">(\d+)</td></tr>',
        html,
    )
    return [tuple(r) for r in found]


def test_the_standings_page_is_the_ledgers_own_standings_in_its_order(path: Path) -> None:
    ledger = Ledger(path, read_only=True)
    expected = [(str(s.rank), s.name, str(s.points), str(s.cards)) for s in ledger.standings()]
    ledger.close()
    page = client(fed(path)).get("/")
    assert page.status_code == 200
    assert rows(page.text) == expected
    assert expected[0][1] == "Ann" and expected[0][2] == "3"  # her own name, Bob's and Carla's
    assert "live · as of" in page.text


def test_a_tie_shows_the_tie_break_that_decides_it(tmp_path: Path) -> None:
    """Players on equal points are ordered by names held twice, then three times: the page
    shows those levels on tied rows (the rulebook's tie-break, as the ledger ranks)."""
    file = tmp_path / "l.sqlite3"
    new_ledger(file, ("Ann", "Bob")).close()
    page = client(fed(file)).get("/").text
    assert page.count("tie-break 2×\u202f1 · 3×\u202f1 · 4×\u202f1 · 5×\u202f1") == 2
    assert [r[0] for r in rows(page)] == ["1", "1"]


def test_a_players_page_lists_their_cards_who_holds_their_name_and_their_duels(path: Path) -> None:
    ledger = Ledger(path, read_only=True)
    held = {serial: name for serial, (name, holder) in ledger.holdings().items() if holder == "Ann"}
    bearing = {serial: holder for serial, (name, holder) in ledger.holdings().items() if name == "Ann"}
    ledger.close()
    page = client(fed(path)).get("/player/ann").text  # the URL's name ignores case
    assert "<h1><bdi>Ann</bdi></h1>" in page
    for serial, name in held.items():
        assert re.search(f'<li>Named <bdi>{name}</bdi> .*?<span class="serials">[^<]*#{serial}\\b', page)
    for serial, holder in bearing.items():
        assert re.search(f'<li>Held by <bdi>{holder}</bdi> .*?<span class="serials">[^<]*#{serial}\\b', page)
    assert "Cards held (7)" in page and "Cards with this name (5)" in page
    assert re.search(r"beat <bdi>Bob</bdi>, took card #\d+", page)
    assert re.search(r"beat <bdi>Carla</bdi>, took card #\d+", page)
    assert client(fed(path)).get("/player/Nobody").status_code == 404


def test_search_finds_names_ignoring_case_and_shows_the_query_as_text(path: Path) -> None:
    c = client(fed(path))
    found = c.get("/search", params={"q": "ANN"}).text
    assert '<a href="/player/Ann"><bdi>Ann</bdi></a>' in found and "Bob" not in found.split("<main")[1]
    hostile = c.get("/search", params={"q": '"><script>alert(1)</script>' + "x" * 10_000}).text
    assert "<script>alert" not in hostile and "&lt;script&gt;" in hostile
    assert len(hostile) < 5_000  # the query is cut to 80 characters


def test_hostile_names_are_escaped_isolated_and_cut(path: Path) -> None:
    plant_hostile_names(path)
    c = client(fed(path))
    for page in (c.get("/").text, c.get("/player/" + HOSTILE[0]).text, c.get("/search?q=a").text):
        assert page.count("<script") == 1  # our own app.js only
        assert "<img" not in page and "onerror=alert" not in page.replace("onerror=alert(1)&gt;", "")
    standings = c.get("/").text
    assert "<bdi>&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;</bdi>" in standings
    assert "<bdi>\u202eevil\u202c 99 points</bdi>" in standings  # the override stays inside its <bdi>
    cut = HOSTILE[2][:NAME_SHOWN].replace("<", "&lt;").replace(">", "&gt;")
    assert f"<bdi>{cut}…</bdi>" in standings
    assert len(standings) < 20_000


def test_nothing_secret_or_internal_is_served(path: Path) -> None:
    with sqlite3.connect(path) as db:
        hashes = [h for (h,) in db.execute("SELECT pin_hash FROM players")]
        keys = [k for (k,) in db.execute("SELECT idem_key FROM entries")]
    c = client(fed(path))
    served = " ".join(c.get(p).text for p in ("/", "/player/Ann", "/player/Bob", "/search?q=a"))
    for secret in [*hashes, *keys, "cabinet-1", "ABCD", "scrypt"]:
        assert secret not in served
    # The event's seed as a number of its own: its digits may fall inside a time stamp.
    assert not re.search(rf"(?<!\d){SEED}(?!\d)", served)


def test_only_reading_is_allowed(path: Path) -> None:
    c = client(fed(path))
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        assert c.request(method, "/").status_code == 405
        assert c.request(method, "/player/Ann").status_code == 405
    page = c.get("/")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    assert "http" not in re.sub(r'content="[^"]*"', "", page.text).replace("http-equiv", "")  # nothing from elsewhere


def test_a_client_over_its_request_budget_is_told_to_wait_and_others_are_served(path: Path) -> None:
    c = client(fed(path), Limits(rate_per_s=0.01, burst=5))
    assert [c.get("/static/app.css").status_code for _ in range(7)] == [200] * 5 + [429] * 2
    limit = RateLimit(lambda *a: None, Limits(rate_per_s=1.0, burst=2))  # type: ignore[arg-type]
    assert [limit.take("a", 0.0) for _ in range(3)] == [True, True, False]
    assert limit.take("b", 0.0)  # another phone is not held back
    assert limit.take("a", 1.0)  # a second later: one more


def test_live_streams_are_limited_in_all_and_per_address() -> None:
    streams = Streams(Limits(streams=3, streams_per_client=2))
    assert [streams.open("a"), streams.open("a"), streams.open("a")] == [True, True, False]
    assert streams.open("b") and not streams.open("c")
    streams.close("a")
    assert streams.open("c")


def test_a_ledger_that_cannot_be_read_leaves_the_last_snapshot_and_says_so(path: Path) -> None:
    opened = iter([True])

    def open_ledger() -> Ledger:
        if next(opened, False):
            return Ledger(path, read_only=True)
        raise LedgerUnreachable("the ledger is gone")

    feed = Feed(open_ledger)
    asyncio.run(feed.refresh())
    before = client(feed).get("/").text
    assert feed.ledger is not None
    feed.ledger.close()  # the file's connection breaks under it
    asyncio.run(feed.refresh())
    assert feed.liveness is Liveness.STALE and feed.snapshot is not None
    after = client(feed).get("/").text
    assert rows(after) == rows(before) and rows(after)
    assert "ledger not answering · as of" in after


def test_the_web_opens_the_ledger_read_only_and_never_creates_one(tmp_path: Path, path: Path) -> None:
    with pytest.raises(LedgerError):
        Ledger(tmp_path / "none.sqlite3", read_only=True)
    assert not (tmp_path / "none.sqlite3").exists()
    reader = Ledger(path, read_only=True)
    entries = reader.last_entry()
    with pytest.raises(LedgerError):
        reader.register("k", "Zed", "ABCD")
    with pytest.raises(LedgerError):
        reader.set_closing_time("c", 0)
    assert reader.last_entry() == entries
    reader.close()


def test_a_live_stream_is_only_for_the_standings_or_a_known_player(path: Path) -> None:
    c = client(fed(path))
    assert c.get("/events", params={"view": "player:Nobody"}).status_code == 404
    assert c.get("/events", params={"view": "<script>"}).status_code == 400


@pytest.mark.slow  # parses every module of the repository, as the layer test does
def test_nothing_imports_the_web_server_and_it_reaches_the_ledger_only_by_its_package() -> None:
    """The web server may depend on the ledger; nothing depends on it (``ringside web``
    finds it by name, as the registry finds a game's folder), so a cabinet never loads it."""
    from tests.test_layers import import_graph

    graph = import_graph()
    web = "firmware_py.games.punch_cards.web"
    inside = {m for m in graph if m == web or m.startswith(web + ".")}
    assert inside >= {f"{web}.server", f"{web}.feed", f"{web}.snapshot", f"{web}.pages", f"{web}.serve"}
    users = {m for m, deps in graph.items() if m not in inside and deps & inside}
    assert users == set()
    ledger = "firmware_py.games.punch_cards.ledger"
    reached = {d for m in inside for d in graph[m] if d.startswith("firmware_py.games.punch_cards.")} - inside
    assert reached <= {ledger, f"{ledger}.backends", "firmware_py.games.punch_cards.ledger_link"}


def test_a_page_asked_for_before_the_ledger_is_read_waits_for_it_live(path: Path) -> None:
    """The server has just started (nothing read yet): a player's page is not "no such
    player" but a page that fills in with the first reading (a live stream is open to it)."""
    feed = Feed(lambda: Ledger(path, read_only=True))
    page = client(feed).get("/player/Ann")
    assert page.status_code == 200 and 'data-view="player:ann"' in page.text
    assert "has not been read yet" in page.text

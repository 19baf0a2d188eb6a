"""The phone pages, as HTML text: the standings, a player's page, search.

Every name is player-chosen text (an attacker's, for all the page knows): it is escaped
here, and only here, wrapped in ``<bdi>`` so a right-to-left override inside it turns
nothing outside it around, and cut to :data:`NAME_SHOWN` characters so a name written into
the ledger by something other than a cabinet (10,000 characters) cannot swamp a phone.
The ``<main>`` part of a page is also what the live updates carry (one renderer: the page
a phone loads and the update it receives are the same HTML).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from urllib.parse import quote

from firmware_py.games.punch_cards.web.snapshot import PlayerPage, Snapshot
from games.punch_cards import Standing

NAME_SHOWN = 40
"""Characters of a name shown (the ledger's own names are 20 at most)."""
QUERY_LIMIT = 80
"""Characters of a search kept (a name is 20; more is not a name)."""
TITLE = "Punch Cards"


class Liveness(Enum):
    LIVE = "live"
    STALE = "stale"
    """The server runs but cannot read the ledger: it shows the last good snapshot."""
    OFFLINE = "offline"
    """Said by the phone itself when it cannot reach the server (never sent)."""


LABELS = {Liveness.LIVE: "live", Liveness.STALE: "ledger not answering", Liveness.OFFLINE: "offline"}


@dataclass(frozen=True)
class Status:
    """What the header says: live or not, as of when, and the closing time."""

    liveness: Liveness
    as_of_us: int | None
    """When the ledger was last read (None: never yet)."""
    closing_us: int | None

    def as_json(self) -> dict[str, object]:
        return {
            "state": self.liveness.value,
            "label": LABELS[self.liveness],
            "as_of": clock(self.as_of_us) if self.as_of_us is not None else "never",
            "as_of_us": self.as_of_us,
            "closing_us": self.closing_us,
            "closing": closing_text(self.closing_us, self.as_of_us),
        }


def clock(us: int) -> str:
    """A time of day as the hall reads it (this machine's time zone), e.g. 14:32."""
    return datetime.fromtimestamp(us / 1e6).astimezone().strftime("%H:%M")


def closing_text(closing_us: int | None, now_us: int | None) -> str:
    if closing_us is None:
        return "No closing time set yet"
    day = datetime.fromtimestamp(closing_us / 1e6).astimezone()
    same_day = now_us is not None and datetime.fromtimestamp(now_us / 1e6).astimezone().date() == day.date()
    when = day.strftime("%H:%M") if same_day else day.strftime("%a %d %b %H:%M")
    if now_us is not None and now_us >= closing_us:
        return f"Closed at {when}: final standings"
    return f"Closes at {when}"


def name_html(name: str) -> str:
    """A player-chosen name as inert text, isolated for direction."""
    shown = name if len(name) <= NAME_SHOWN else name[:NAME_SHOWN] + "…"
    return f"<bdi>{html.escape(shown)}</bdi>"


def _count(n: int, thing: str) -> str:
    return f"<b>{n}</b> {thing}{'' if n == 1 else 's'}"


def player_href(name: str) -> str:
    return "/player/" + quote(name, safe="")


def _ties(s: Standing) -> str:
    """The tie-break levels (names held twice, three times…) of a score that ties."""
    levels = [f"{k + 2}× {n}" for k, n in enumerate(s.copies) if n]
    return f'<span class="ties">tie-break {" · ".join(levels)}</span>' if levels else ""


def _tied(table: tuple[Standing, ...], i: int) -> bool:
    points = table[i].points
    return any(0 <= j < len(table) and table[j].points == points for j in (i - 1, i + 1))


def standings_main(snap: Snapshot | None) -> str:
    if snap is None:
        return '<p class="empty">The ledger has not been read yet: this page fills in as soon as it answers.</p>'
    if not snap.standings:
        return '<p class="empty">Nobody has registered yet: sign up at any cabinet.</p>'
    rows = "\n".join(
        f'<tr><td class="rank">{s.rank}</td><td class="name"><a href="{html.escape(player_href(s.name))}">'
        f"{name_html(s.name)}</a>{_ties(s) if _tied(snap.standings, i) else ''}</td>"
        f'<td class="num">{s.points}</td><td class="num">{s.cards}</td></tr>'
        for i, s in enumerate(snap.standings)
    )
    return (
        f'<p class="count">{len(snap.standings)} players</p>'
        '<table class="standings"><thead><tr><th>#</th><th>Name</th><th class="num">Points</th>'
        f'<th class="num">Cards</th></tr></thead><tbody>\n{rows}\n</tbody></table>'
        '<p class="rules">One point for every different name you hold, your own included. '
        "Tied scores are broken by the names held twice (2×), then three times (3×), and so on.</p>"
    )


def _card_list(items: tuple[tuple[int, str], ...], label: str) -> str:
    """Cards grouped by the other name (the name on them, or their holder), most first."""
    if not items:
        return '<p class="empty">None.</p>'
    groups: dict[str, list[int]] = {}
    for serial, who in items:
        groups.setdefault(who, []).append(serial)
    lines = sorted(groups.items(), key=lambda g: (-len(g[1]), g[1][0]))
    return (
        '<ul class="cards">'
        + "".join(
            f'<li>{label} {name_html(who)} <span class="times">×{len(serials)}</span>'
            f'<span class="serials">{" ".join(f"#{n}" for n in serials)}</span></li>'
            for who, serials in lines
        )
        + "</ul>"
    )


def player_main(snap: Snapshot | None, key: str) -> str:
    if snap is None:
        return standings_main(None)
    page: PlayerPage | None = snap.players.get(key)
    if page is None:
        return '<p class="empty">No player by that name. <a href="/search">Search</a> or see <a href="/">the standings</a>.</p>'
    s = page.standing
    duels = (
        '<ul class="duels">'
        + "".join(
            f'<li class="{"won" if d.won else "lost"}{" voided" if d.voided else ""}">'
            f'<span class="when">{clock(d.at_us)}</span> '
            + (
                f"beat {name_html(d.rival)}, took card #{d.card}"
                if d.won
                else f"lost to {name_html(d.rival)}, lost card #{d.card}"
            )
            + (" (voided)" if d.voided else "")
            + "</li>"
            for d in page.duels
        )
        + "</ul>"
        if page.duels
        else '<p class="empty">No duels yet.</p>'
    )
    return (
        f"<h1>{name_html(s.name)}</h1>"
        f'<p class="summary">Rank <b>{s.rank}</b> · {_count(s.points, "point")} · {_count(s.cards, "card")}</p>'
        f"<h2>Cards held ({len(page.held)})</h2>{_card_list(page.held, 'Named')}"
        f"<h2>Cards with this name ({len(page.name_cards)})</h2>{_card_list(page.name_cards, 'Held by')}"
        f"<h2>Duels ({len(page.duels)})</h2>{duels}"
    )


def search_main(snap: Snapshot | None, query: str) -> str:
    query = query[:QUERY_LIMIT]
    form = (
        '<form class="search" action="/search" method="get" role="search">'
        f'<input name="q" type="search" value="{html.escape(query)}" maxlength="{QUERY_LIMIT}" '
        'placeholder="A name" aria-label="Name" autocomplete="off"><button>Find</button></form>'
    )
    if not query.strip():
        return form
    found = snap.find(query) if snap is not None else ()
    if not found:
        return form + f'<p class="empty">Nobody’s name contains “{name_html(query)}”.</p>'
    items = "".join(
        f'<li><a href="{html.escape(player_href(s.name))}">{name_html(s.name)}</a> '
        f'<span class="rank">#{s.rank} · {s.points} pt{"" if s.points == 1 else "s"}</span></li>'
        for s in found
    )
    return form + f'<ul class="found">{items}</ul>'


def document(title: str, view: str, main: str, status: Status) -> str:
    """A whole page; ``view`` names the live updates it listens to ("" for none)."""
    state = status.as_json()
    closing = "" if status.closing_us is None else str(status.closing_us)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>{html.escape(title)}</title>
<link rel="stylesheet" href="/static/app.css">
<script src="/static/app.js" defer></script>
</head><body data-view="{html.escape(view)}" data-as-of="{html.escape(str(state["as_of"]))}" data-closing-us="{closing}" data-now-us="{status.as_of_us or ""}">
<header>
<a class="home" href="/">{TITLE}</a>
<p id="live" class="live is-{status.liveness.value}" role="status"><span class="dot"></span><span class="text">{html.escape(f"{state['label']} · as of {state['as_of']}")}</span></p>
<p class="closing"><span id="closing">{html.escape(str(state["closing"]))}</span> <span id="countdown"></span></p>
<nav><a href="/">Standings</a> <a href="/search">Find a player</a></nav>
</header>
<main id="main">{main}</main>
</body></html>
"""

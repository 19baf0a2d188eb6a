"""Final standings for the organisers: a CSV for their spreadsheet and a page to print.

Names are stored safe already (no controls, no formula signs first, see
:mod:`games.punch_cards.names`); the page escapes them anyway, and the CSV is written as
RFC 4180 says with every cell quoted and CRLF between rows (a carriage return or line feed
inside a name, from a ledger written by something else, stays inside its quoted cell and
cannot start a row of its own), and a cell that starts with a formula sign gets a leading
apostrophe, so a file made from any ledger is safe to open in a spreadsheet.
"""

from __future__ import annotations

import csv
import html
import io
from datetime import UTC, datetime

from games.punch_cards import Standing

FORMULA_SIGNS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet may read as the start of a formula (OWASP's CSV injection list)."""


def _cell(text: str) -> str:
    """A name as a cell: a leading formula sign (after any spacing a spreadsheet skips)
    is made text by an apostrophe."""
    return "'" + text if text.lstrip(" \n").startswith(FORMULA_SIGNS) else text


def _copies(standing: Standing, level: int) -> int:
    return standing.copies[level] if level < len(standing.copies) else 0


def standings_csv(table: tuple[Standing, ...]) -> str:
    """rank, name, points, then the tie-break columns (names held 2×, 3×…), cards held."""
    depth = max((len(s.copies) for s in table), default=0)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_ALL)
    writer.writerow(["rank", "name", "points", *[f"names held {k}x" for k in range(2, depth + 2)], "cards"])
    for s in table:
        writer.writerow([s.rank, _cell(s.name), s.points, *[_copies(s, k) for k in range(depth)], s.cards])
    return out.getvalue()


def qr_svg(url: str) -> str:
    """``url`` as a QR code, an inline SVG (black on white, its quiet zone included)."""
    import segno

    return str(segno.make(url, error="m", micro=False).svg_inline(scale=4, dark="#000", light="#fff"))


def _live_note(web_url: str | None) -> str:
    if web_url is None:
        return ""
    link = html.escape(web_url)
    return f'<div class="live">{qr_svg(web_url)}<br>Live standings:<br>{link}</div>\n'


def standings_html(
    table: tuple[Standing, ...], title: str, closed_at_us: int | None, web_url: str | None = None
) -> str:
    """A printable page (A4, black on white); ``closed_at_us`` None marks it provisional;
    ``web_url``: where the live standings are, printed as a QR code and as text."""
    depth = max((len(s.copies) for s in table), default=0)
    if closed_at_us is None:
        status = "Provisional standings: the event has not closed."
    else:
        when = datetime.fromtimestamp(closed_at_us / 1e6, UTC).strftime("%Y-%m-%d %H:%M UTC")
        status = f"Final standings, closed {when}."
    heads = "".join(f"<th>names ×{k}</th>" for k in range(2, depth + 2))
    rows = "\n".join(
        f"<tr><td>{s.rank}</td><td>{html.escape(s.name)}</td><td>{s.points}</td>"
        + "".join(f"<td>{_copies(s, k)}</td>" for k in range(depth))
        + f"<td>{s.cards}</td></tr>"
        for s in table
    )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>
@page {{ size: A4; margin: 15mm; }}
body {{ font-family: sans-serif; color: #000; background: #fff; }}
table {{ border-collapse: collapse; width: 100%; }}
th, td {{ border-bottom: 1px solid #999; padding: 2px 6px; text-align: right; unicode-bidi: isolate; }}
td:nth-child(2), th:nth-child(2) {{ text-align: left; }}
tr {{ page-break-inside: avoid; }}
.live {{ float: right; text-align: center; margin: 0 0 8px 12px; font-size: 11px; }}
</style></head><body>
<h1>{html.escape(title)}</h1>
{_live_note(web_url)}<p>{status} One point for every different name held, one's own included; a tied top score
is broken by the names held twice, then three times, and so on.</p>
<table><thead><tr><th>rank</th><th>name</th><th>points</th>{heads}<th>cards</th></tr></thead>
<tbody>
{rows}
</tbody></table>
</body></html>
"""

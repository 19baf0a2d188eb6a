"""Punch Cards' pages in the operator's service menu (station 1's buttons, SERVICE key on):
the closing time (after it no duel, trade or registration is recorded), voiding a
mistaken duel (picked from the latest ones; the ledger keeps the history and standings
follow), exporting the standings (CSV and a printable page) to the data folder, and
unlocking a player locked out after repeated wrong PINs.  E goes back to the menu.
"""

from __future__ import annotations

import time
from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from display.models import ServiceScreen
from display.words import plural
from firmware_py.games.punch_cards.ledger import DuelRecord, Ledger, LedgerError, Receipt
from firmware_py.games.punch_cards.ledger_link import LedgerLink, link_for, new_key, words
from firmware_py.games.punch_cards.settings import settings_of
from firmware_py.runtime.background import Job, NoAnswer
from firmware_py.runtime.context import CabinetContext
from firmware_py.runtime.scene import Scene, ServicePage, ServiceScene, pressed
from games.punch_cards import Standing
from hal.events import Button, InputEvent

D = TypeVar("D")
T = TypeVar("T")

STEP_US = 15 * 60 * 1_000_000
"""A/B move the proposed closing time by this much."""
EXPORT_FOLDER = "punch_cards"
"""Standings are written to this folder in the cabinet's data folder."""
REREAD_US = 5_000_000
"""An open page reads the ledger again this often (other cabinets change it too)."""


def local_time(unix_us: int | None) -> str:
    if unix_us is None:
        return "not set (the event is open)"
    return time.strftime("%a %d %b %H:%M", time.localtime(unix_us / 1e6))


class OperatorPage(ServiceScene, Generic[D]):
    """One Punch Cards page, opened from the operator menu; turning the key off leaves it.

    The ledger is never asked on the main loop: the page reads what it shows with
    :meth:`read` on the link's worker (on opening, after each change and every
    :data:`REREAD_US`) and shows the last answer; a press that writes runs there too,
    and the page says it is waiting until the answer comes."""

    title: ClassVar[str] = "Punch Cards"
    help: ClassVar[str] = ""

    def __init__(self, ctx: CabinetContext, now_us: int, menu: ServiceScene) -> None:
        super().__init__(ctx, now_us)
        self.menu = menu
        self.link: LedgerLink = link_for(ctx)
        self.message = ""
        self.data: D | None = None
        self.problem = ""
        """Why the last read failed (plain words), or ""."""
        self.read_us: int | None = None
        self.reading: Job[D] | None = None
        self.doing: tuple[Job[Any], Callable[[Any], str]] | None = None

    @property
    def underneath(self) -> Scene:  # the cabinet reads this when the SERVICE key goes off
        return self.menu.underneath

    def on_input(self, ev: InputEvent, now_us: int) -> Scene | None:
        if not pressed(ev) or getattr(ev, "station", None) != 0:
            return None
        if ev.button is Button.E:
            return self.menu
        if self.doing is not None:
            self.message = "Waiting for the ledger..."
            return None
        if self.data is None:
            self.message = "The ledger has not been read yet"
            return None
        self.press(ev.button, self.data, now_us)
        return None

    def do(self, what: str, work: Callable[[Ledger], T], done: Callable[[T], str]) -> None:
        """Run a change on the ledger's worker; ``done(result)`` is the line to show (and
        log) once it has answered."""
        self.doing = (self.link.call(what, work), done)
        self.message = "Waiting for the ledger..."

    @abstractmethod
    def read(self, ledger: Ledger) -> D:
        """What the page shows, read from the ledger (on the worker)."""

    @abstractmethod
    def press(self, button: Button, data: D, now_us: int) -> None:
        """What this page does with station 1's press (each page says), ``data`` as last read."""

    @abstractmethod
    def body(self, data: D) -> list[str]:
        """The page's lines under its title."""

    def tick(self, now_us: int) -> Scene | None:
        if self.doing is not None and self.doing[0].ready():
            (job, done), self.doing = self.doing, None
            try:
                self.message = done(job.result())
                self.ctx.log(f"Punch Cards operator: {self.message}")
            except (LedgerError, NoAnswer) as e:
                self.message = f"Not done: {words(e)}"
                self.ctx.log(f"Punch Cards operator: not done: {e}")
            self.link.changed()
            self.read_us = None
        reading = self.reading
        if reading is not None and reading.ready():
            self.reading = None
            try:
                self.data, self.problem = reading.result(), ""
            except (LedgerError, NoAnswer) as e:
                self.problem = words(e)
                self.ctx.log(f"Punch Cards operator: the ledger cannot be read: {e}")
        elif reading is None and self.doing is None and (self.read_us is None or now_us - self.read_us >= REREAD_US):
            self.reading, self.read_us = self.link.call(f"operator page {self.title}", self.read), now_us
        return None

    def screen(self, now_us: int) -> ServiceScreen:
        if self.problem:
            lines = [f"The ledger cannot be read: {self.problem}"]
        elif self.data is None:
            lines = ["Reading the ledger..."]
        else:
            lines = self.body(self.data)
        lines += ["", self.help, "E: back to the menu"]
        if self.message:
            lines += ["", self.message]
        menu = self.menu.screen(now_us)
        items, cursor = (menu.items, menu.cursor) if isinstance(menu, ServiceScreen) else ((self.title,), 0)
        return ServiceScreen(
            title=self.title, items=items, cursor=cursor, body=tuple(lines), footer="Station 1 · Punch Cards"
        )


@dataclass(frozen=True, kw_only=True)
class ClosingState:
    now_us: int
    """The ledger's clock when read."""
    closing_us: int | None
    closed: bool


class ClosingPage(OperatorPage[ClosingState]):
    title = "Closing time"
    help = "A/B: 15 min earlier/later · C: now · START: set · D: lift it"

    def __init__(self, ctx: CabinetContext, now_us: int, menu: ServiceScene) -> None:
        super().__init__(ctx, now_us, menu)
        self.proposed: int | None = None

    def read(self, ledger: Ledger) -> ClosingState:
        return ClosingState(now_us=ledger.now_us(), closing_us=ledger.closing_time(), closed=ledger.closed())

    def _proposal(self, data: ClosingState) -> int:
        if self.proposed is None:
            set_at = data.closing_us
            self.proposed = set_at if set_at is not None else (data.now_us // 3_600_000_000 + 1) * 3_600_000_000
        return self.proposed

    def _propose(self, at: int) -> str:
        self.proposed = at
        return f"Proposed: {local_time(at)}"

    def press(self, button: Button, data: ClosingState, now_us: int) -> None:
        if button in (Button.A, Button.B):
            self.proposed = self._proposal(data) + (STEP_US if button is Button.B else -STEP_US)
        elif button is Button.C:
            self.do("the ledger's clock", lambda ledger: ledger.now_us(), self._propose)
        elif button is Button.START:
            at = self._proposal(data)
            key = new_key("close")
            self.do(
                "set the closing time",
                lambda ledger: ledger.set_closing_time(key, at),
                lambda _receipt: f"Closing time set: {local_time(at)}",
            )
        elif button is Button.D:
            key = new_key("close")
            self.do(
                "lift the closing time",
                lambda ledger: ledger.set_closing_time(key, None),
                lambda _receipt: "Closing time lifted: the event is open",
            )

    def body(self, data: ClosingState) -> list[str]:
        state = "CLOSED: no duel, trade or registration is recorded" if data.closed else "open"
        return [
            f"Now: {local_time(data.now_us)}",
            f"Closing time: {local_time(data.closing_us)}",
            f"The event is {state}",
            "",
            f"Proposed: {local_time(self._proposal(data))}",
        ]


class VoidPage(OperatorPage[tuple[DuelRecord, ...]]):
    title = "Void a duel"
    help = "A/B: choose · START: void (press twice) · voids go in after closing too"

    def __init__(self, ctx: CabinetContext, now_us: int, menu: ServiceScene) -> None:
        super().__init__(ctx, now_us, menu)
        self.cursor = 0
        self.armed: int | None = None

    def read(self, ledger: Ledger) -> tuple[DuelRecord, ...]:
        return ledger.recent_duels(8)

    def press(self, button: Button, data: tuple[DuelRecord, ...], now_us: int) -> None:
        duels = data
        if not duels:
            return
        if button in (Button.A, Button.B):
            self.cursor = (self.cursor + (1 if button is Button.B else -1)) % len(duels)
            self.armed = None
        elif button is Button.START:
            duel = duels[self.cursor % len(duels)]
            if duel.voided_by is not None:
                self.message = f"Entry {duel.entry} was voided already (entry {duel.voided_by})"
            elif self.armed != duel.entry:
                self.armed = duel.entry
                self.message = f"START again to void entry {duel.entry}: card #{duel.card} goes back"
            else:
                self.armed = None
                key, why = new_key("void"), f"operator at {self.ctx.config.name}"

                def said(receipt: Receipt) -> str:
                    back = ", ".join(f"card #{m.card} back to {m.taker}" for m in receipt.moves)
                    return f"Voided entry {duel.entry} (void entry {receipt.entry}): {back}"

                self.do("void a duel", lambda ledger: ledger.void(key, duel.entry, why), said)

    def body(self, data: tuple[DuelRecord, ...]) -> list[str]:
        duels = data
        if not duels:
            return ["No duels recorded yet."]
        lines = ["Latest duels (newest first):"]
        for i, d in enumerate(duels):
            mark = ">" if i == self.cursor % len(duels) else " "
            void = f"  VOIDED by {d.voided_by}" if d.voided_by is not None else ""
            when = time.strftime("%H:%M", time.localtime(d.at_us / 1e6))
            lines.append(
                f"{mark} {d.entry} {when} {d.challenger} v {d.challenged}: {d.winner} took #{d.card}{void}"[:70]
            )
        return lines


class ExportPage(OperatorPage[tuple[tuple[Standing, ...], bool]]):
    title = "Standings"
    help = "START: write standings.csv and standings.html to the data folder"

    def read(self, ledger: Ledger) -> tuple[tuple[Standing, ...], bool]:
        return ledger.standings(), ledger.closed()

    def press(self, button: Button, data: tuple[tuple[Standing, ...], bool], now_us: int) -> None:
        if button is Button.START:
            folder = self.ctx.config.data_dir / EXPORT_FOLDER
            web_url = settings_of(self.ctx.config).web_url
            self.do(
                "export the standings",  # reads the ledger and writes two files: off the loop too
                lambda ledger: ledger.export(folder, web_url=web_url),
                lambda written: f"Written: {written[0].name} and {written[1].name} (in the folder below)",
            )

    def body(self, data: tuple[tuple[Standing, ...], bool]) -> list[str]:
        table, closed = data
        final = "FINAL (after the closing time)" if closed else "provisional (before the closing time)"
        lines = [
            f"{len(table)} players; standings are {final}",
            f"Folder: {self.ctx.config.data_dir / EXPORT_FOLDER}",
            "",
        ]
        lines += [f"{s.rank}. {s.name[:30]}  {plural(s.points, 'point')}, {plural(s.cards, 'card')}" for s in table[:8]]
        return lines


class UnlockPage(OperatorPage[tuple[str, ...]]):
    title = "Unlock a PIN"
    help = "A/B: choose the player · START: lift their PIN lockout"

    def __init__(self, ctx: CabinetContext, now_us: int, menu: ServiceScene) -> None:
        super().__init__(ctx, now_us, menu)
        self.cursor = 0

    def read(self, ledger: Ledger) -> tuple[str, ...]:
        return ledger.players()

    def press(self, button: Button, data: tuple[str, ...], now_us: int) -> None:
        players = data
        if not players:
            return
        if button in (Button.A, Button.B):
            self.cursor = (self.cursor + (1 if button is Button.B else -1)) % len(players)
        elif button is Button.START:
            name = players[self.cursor % len(players)]
            self.do("unlock a PIN", lambda ledger: ledger.unlock(name), lambda _none: f"{name} may sign in again")

    def body(self, data: tuple[str, ...]) -> list[str]:
        players = data
        if not players:
            return ["No players yet."]
        return [f"Player {self.cursor % len(players) + 1} of {len(players)}: {players[self.cursor % len(players)]}"]


PAGES: tuple[tuple[type[OperatorPage[Any]], tuple[str, str]], ...] = (
    (ClosingPage, ("Punch Cards: the closing time.", "After it no duel, trade or registration is recorded.")),
    (VoidPage, ("Punch Cards: void a mistaken duel.", "Its card goes back; the ledger keeps the history.")),
    (ExportPage, ("Punch Cards: final standings as CSV", "and a printable page, in the data folder.")),
    (UnlockPage, ("Punch Cards: lift a PIN lockout", "(after 15 wrong PINs only the operator can).")),
)
"""Each page and what the menu says of it while it is highlighted."""


class OpensPage(ServicePage):
    """A menu item that opens one of Punch Cards' pages."""

    def __init__(self, page: type[OperatorPage[Any]], about: tuple[str, str]) -> None:
        self.page = page
        self.about = about
        self.title = page.title

    def body(self, ctx: CabinetContext, now_us: int) -> tuple[str, ...]:
        return (*self.about, "", "START opens")

    def start(self, ctx: CabinetContext, now_us: int, menu: ServiceScene) -> Scene | None:
        return self.page(ctx, now_us, menu)


def service_pages() -> tuple[ServicePage, ...]:
    return tuple(OpensPage(page, about) for page, about in PAGES)

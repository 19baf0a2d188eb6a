"""Punch Cards' pages in the operator's service menu (station 1's buttons, SERVICE key on):
the closing time (after it no duel, trade or registration is recorded), voiding a
mistaken duel (picked from the latest ones; the ledger keeps the history and standings
follow), exporting the standings (CSV and a printable page) to the data folder, and
unlocking a player locked out after repeated wrong PINs.  E goes back to the menu.
"""

from __future__ import annotations

import time
from abc import abstractmethod
from typing import ClassVar

from display.models import ServiceScreen
from firmware_py.games.punch_cards.ledger import DuelRecord, LedgerError
from firmware_py.games.punch_cards.ledger_link import LedgerLink, link_for, new_key
from firmware_py.runtime.context import CabinetContext
from firmware_py.runtime.scene import Scene, ServicePage, ServiceScene, pressed
from hal.events import Button, InputEvent

STEP_US = 15 * 60 * 1_000_000
"""A/B move the proposed closing time by this much."""
EXPORT_FOLDER = "punch_cards"
"""Standings are written to this folder in the cabinet's data folder."""


def local_time(unix_us: int | None) -> str:
    if unix_us is None:
        return "not set (the event is open)"
    return time.strftime("%a %d %b %H:%M", time.localtime(unix_us / 1e6))


class OperatorPage(ServiceScene):
    """One Punch Cards page, opened from the operator menu; turning the key off leaves it."""

    title: ClassVar[str] = "Punch Cards"
    help: ClassVar[str] = ""

    def __init__(self, ctx: CabinetContext, now_us: int, menu: ServiceScene) -> None:
        super().__init__(ctx, now_us)
        self.menu = menu
        self.link: LedgerLink = link_for(ctx)
        self.message = ""

    @property
    def underneath(self) -> Scene:  # the cabinet reads this when the SERVICE key goes off
        return self.menu.underneath

    def on_input(self, ev: InputEvent, now_us: int) -> Scene | None:
        if not pressed(ev) or getattr(ev, "station", None) != 0:
            return None
        if ev.button is Button.E:
            return self.menu
        try:
            self.press(ev.button, now_us)
        except LedgerError as e:
            self.message = f"Not done: {e}"
            self.ctx.log(f"Punch Cards operator: {self.message}")
        return None

    @abstractmethod
    def press(self, button: Button, now_us: int) -> None:
        """What this page does with station 1's press (each page says)."""

    @abstractmethod
    def body(self) -> list[str]:
        """The page's lines under its title."""

    def tick(self, now_us: int) -> Scene | None:
        return None

    def screen(self, now_us: int) -> ServiceScreen:
        try:
            lines = self.body()
        except LedgerError as e:
            lines = [f"The ledger cannot be read: {e}"]
        lines += ["", self.help, "E: back to the menu"]
        if self.message:
            lines += ["", self.message]
        menu = self.menu.screen(now_us)
        items, cursor = (menu.items, menu.cursor) if isinstance(menu, ServiceScreen) else ((self.title,), 0)
        return ServiceScreen(
            title=self.title, items=items, cursor=cursor, body=tuple(lines), footer="Station 1 · Punch Cards"
        )


class ClosingPage(OperatorPage):
    title = "Closing time"
    help = "A/B: 15 min earlier/later · C: now · START: set · D: lift it"

    def __init__(self, ctx: CabinetContext, now_us: int, menu: ServiceScene) -> None:
        super().__init__(ctx, now_us, menu)
        self.proposed: int | None = None

    def _proposal(self) -> int:
        if self.proposed is None:
            now = self.link.ledger.now_us()
            set_at = self.link.ledger.closing_time()
            self.proposed = set_at if set_at is not None else (now // 3_600_000_000 + 1) * 3_600_000_000
        return self.proposed

    def press(self, button: Button, now_us: int) -> None:
        ledger = self.link.ledger
        if button in (Button.A, Button.B):
            self.proposed = self._proposal() + (STEP_US if button is Button.B else -STEP_US)
        elif button is Button.C:
            self.proposed = ledger.now_us()
        elif button is Button.START:
            at = self._proposal()
            ledger.set_closing_time(new_key("close"), at)
            self.link.changed()
            self.message = f"Closing time set: {local_time(at)}"
            self.ctx.log(f"Punch Cards operator: {self.message}")
        elif button is Button.D:
            ledger.set_closing_time(new_key("close"), None)
            self.link.changed()
            self.message = "Closing time lifted: the event is open"
            self.ctx.log(f"Punch Cards operator: {self.message}")

    def body(self) -> list[str]:
        ledger = self.link.ledger
        closing = ledger.closing_time()
        state = "CLOSED: no duel, trade or registration is recorded" if ledger.closed() else "open"
        return [
            f"Now: {local_time(ledger.now_us())}",
            f"Closing time: {local_time(closing)}",
            f"The event is {state}",
            "",
            f"Proposed: {local_time(self._proposal())}",
        ]


class VoidPage(OperatorPage):
    title = "Void a duel"
    help = "A/B: choose · START: void (press twice) · voids go in after closing too"

    def __init__(self, ctx: CabinetContext, now_us: int, menu: ServiceScene) -> None:
        super().__init__(ctx, now_us, menu)
        self.cursor = 0
        self.armed: int | None = None

    def duels(self) -> tuple[DuelRecord, ...]:
        return self.link.ledger.recent_duels(8)

    def press(self, button: Button, now_us: int) -> None:
        duels = self.duels()
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
                receipt = self.link.ledger.void(new_key("void"), duel.entry, f"operator at {self.ctx.config.name}")
                self.link.changed()
                back = ", ".join(f"card #{m.card} back to {m.taker}" for m in receipt.moves)
                self.message = f"Voided entry {duel.entry} (void entry {receipt.entry}): {back}"
                self.ctx.log(f"Punch Cards operator: {self.message}")

    def body(self) -> list[str]:
        duels = self.duels()
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


class ExportPage(OperatorPage):
    title = "Standings"
    help = "START: write standings.csv and standings.html to the data folder"

    def press(self, button: Button, now_us: int) -> None:
        if button is Button.START:
            csv, html = self.link.ledger.export(self.ctx.config.data_dir / EXPORT_FOLDER)
            self.message = f"Written: {csv} and {html}"
            self.ctx.log(f"Punch Cards operator: {self.message}")

    def body(self) -> list[str]:
        ledger = self.link.ledger
        table = ledger.standings()
        final = "FINAL (after the closing time)" if ledger.closed() else "provisional (before the closing time)"
        lines = [
            f"{len(table)} players; standings are {final}",
            f"Folder: {self.ctx.config.data_dir / EXPORT_FOLDER}",
            "",
        ]
        lines += [f"{s.rank}. {s.name[:30]}  {s.points} points, {s.cards} cards" for s in table[:8]]
        return lines


class UnlockPage(OperatorPage):
    title = "Unlock a PIN"
    help = "A/B: choose the player · START: lift their PIN lockout"

    def __init__(self, ctx: CabinetContext, now_us: int, menu: ServiceScene) -> None:
        super().__init__(ctx, now_us, menu)
        self.cursor = 0

    def press(self, button: Button, now_us: int) -> None:
        players = self.link.ledger.players()
        if not players:
            return
        if button in (Button.A, Button.B):
            self.cursor = (self.cursor + (1 if button is Button.B else -1)) % len(players)
        elif button is Button.START:
            name = players[self.cursor % len(players)]
            self.link.ledger.unlock(name)
            self.message = f"{name} may sign in again"
            self.ctx.log(f"Punch Cards operator: {self.message}")

    def body(self) -> list[str]:
        players = self.link.ledger.players()
        if not players:
            return ["No players yet."]
        return [f"Player {self.cursor % len(players) + 1} of {len(players)}: {players[self.cursor % len(players)]}"]


PAGES: tuple[tuple[type[OperatorPage], tuple[str, str]], ...] = (
    (ClosingPage, ("Punch Cards: the closing time.", "After it no duel, trade or registration is recorded.")),
    (VoidPage, ("Punch Cards: void a mistaken duel.", "Its card goes back; the ledger keeps the history.")),
    (ExportPage, ("Punch Cards: final standings as CSV", "and a printable page, in the data folder.")),
    (UnlockPage, ("Punch Cards: lift a PIN lockout", "(after 15 wrong PINs only the operator can).")),
)
"""Each page and what the menu says of it while it is highlighted."""


class OpensPage(ServicePage):
    """A menu item that opens one of Punch Cards' pages."""

    def __init__(self, page: type[OperatorPage], about: tuple[str, str]) -> None:
        self.page = page
        self.about = about
        self.title = page.title

    def body(self, ctx: CabinetContext, now_us: int) -> tuple[str, ...]:
        return (*self.about, "", "START opens")

    def start(self, ctx: CabinetContext, now_us: int, menu: ServiceScene) -> Scene | None:
        return self.page(ctx, now_us, menu)


def service_pages() -> tuple[ServicePage, ...]:
    return tuple(OpensPage(page, about) for page, about in PAGES)

"""A trade between two signed-in players: each picks cards of their own to give (A/B
browse, C give or keep the card shown), START confirms the offer on the table as it
stands (any change clears both confirmations), E calls the trade off.  Once both have
confirmed, the ledger records it whole or not at all (off the main loop: "Recording the
trade..."); only then is it shown as done.  A ledger that cannot be reached or does not
answer is tried again (same idempotency key, so a late answer counts once) until it
answers.
"""

from __future__ import annotations

from PIL import Image

from display.games.punch_cards.models import PunchCardsPlay, TradePrivate, TradeTableView
from display.models import PrivateScreen
from display.private import draw_private, text_lines
from firmware_py.games.punch_cards.ledger import Receipt
from firmware_py.games.punch_cards.ledger_link import LedgerWrite, Refused, Retrying, Saved, new_key
from firmware_py.games.punch_cards.way_back import WayBack
from firmware_py.runtime.context import CabinetContext
from firmware_py.runtime.scene import Scene, pressed
from firmware_py.runtime.scenes import RESULT_US
from games.punch_cards import SPEC, Card, TradeRefused, TradeTable
from hal.events import Button, ButtonEvent, InputEvent


class TradeScene(Scene):
    def __init__(
        self,
        ctx: CabinetContext,
        now_us: int,
        lobby: WayBack,
        stations: tuple[int, int],
        players: tuple[str, str],
        collections: tuple[tuple[Card, ...], tuple[Card, ...]],
    ) -> None:
        super().__init__(ctx, now_us)
        self.lobby = lobby
        self.link = lobby.link
        self.stations = stations
        self.players = players
        self.collections = collections
        self.table = TradeTable(self.collections)
        self.cursor = [0, 0]
        self.giving: list[set[int]] = [set(), set()]
        self.messages = ["", ""]
        self.key = ""
        self.saving: LedgerWrite[Receipt] = LedgerWrite(
            self.link, "record a trade", "Recording the trade...", "the trade is done once it has recorded it"
        )
        self.done_us: int | None = None
        self.recorded = False
        ctx.log(f"Punch Cards trade: {players[0]} and {players[1]}")

    def on_input(self, ev: InputEvent, now_us: int) -> Scene | None:
        if not pressed(ev) or not isinstance(ev, ButtonEvent) or ev.station not in self.stations:
            return None
        seat = self.stations.index(ev.station)
        if self.done_us is not None:
            return self._back(now_us) if ev.button is Button.START and now_us - self.done_us > 500_000 else None
        if self.table.agreed is not None:
            return None  # agreed: the ledger decides, nothing may change now
        cards = self.collections[seat]
        if ev.button is Button.E:
            return self.lobby.back(
                now_us, {s: (f"{self.players[seat]} called the trade off", True) for s in self.stations}
            )
        if ev.button in (Button.A, Button.B):
            self.cursor[seat] = (self.cursor[seat] + (1 if ev.button is Button.B else -1)) % len(cards)
        elif ev.button is Button.C:
            serial = cards[self.cursor[seat]].serial
            self.giving[seat] ^= {serial}
            self.table.propose(seat, tuple(sorted(self.giving[seat])))
            self.key = ""
            self.messages = ["", ""]
        elif ev.button is Button.START:
            try:
                self.table.confirm(seat, self.table.offer)
            except TradeRefused as e:
                self.messages[seat] = str(e)
                return None
            self.messages[seat] = "Confirmed: waiting for your rival"
            self._record(now_us)
        return None

    def tick(self, now_us: int) -> Scene | None:
        if self.done_us is None and self.table.agreed is not None and self.saving.due(now_us):
            self._record(now_us)
        if self.done_us is not None and now_us - self.done_us > RESULT_US:
            return self._back(now_us)
        return None

    def idle(self, now_us: int) -> bool:
        """Walked away from before both agreed; once agreed it finishes by itself."""
        return self.table.agreed is None and super().idle(now_us)

    def _record(self, now_us: int) -> None:
        """Send the agreed trade to the ledger's worker, or read its answer (a later frame)."""
        offer = self.table.agreed
        if offer is None:
            return
        self.key = key = self.key or new_key("trade")
        players = self.players
        match self.saving.step(now_us, lambda ledger: ledger.record_trade(key, *players, offer)):
            case None:
                return
            case Retrying(error=e):
                self.ctx.log(f"Punch Cards trade not recorded yet: {e}")
            case Refused(error=e):
                self.messages = [f"Not traded: {e}"] * 2
                self.done_us = now_us
                self.ctx.log(f"Punch Cards trade NOT recorded: {e}")
            case Saved():
                self.recorded, self.done_us = True, now_us
                self.messages = ["Traded: recorded in the ledger"] * 2
                if self.ctx.sound is not None:
                    self.ctx.sound.cue("trade", now_us)
                self.ctx.log(
                    f"Punch Cards trade recorded: {self.players[0]} gives {offer.gives[0]}, gets {offer.gives[1]}"
                )

    def _back(self, now_us: int) -> Scene:
        words = "Traded" if self.recorded else self.messages[0]
        return self.lobby.back(now_us, {s: (words, not self.recorded) for s in self.stations})

    def _cards(self, seat: int) -> tuple[Card, ...]:
        chosen = self.table.offer.gives[seat]
        return tuple(c for c in self.collections[seat] if c.serial in chosen)

    def screen(self, now_us: int) -> PunchCardsPlay:
        view = TradeTableView(
            players=self.players,
            gives=(self._cards(0), self._cards(1)),
            confirmed=(self.table.confirmed[0], self.table.confirmed[1]),
            message=self.saving.shown(now_us) or (self.messages[0] if self.done_us is not None else ""),
        )
        return PunchCardsPlay(
            game=SPEC.name,
            title=SPEC.title,
            seats=tuple(self.ctx.looks[s] for s in self.stations),
            view=view,
            events=(),
            now_us=now_us,
        )

    def private_image(self, station: int, size: tuple[int, int]) -> Image.Image:
        if station not in self.stations:
            return text_lines(["Punch Cards", "", "Trade in progress"], None, size)
        seat = self.stations.index(station)
        model = TradePrivate(
            collection=self.collections[seat],
            cursor=self.cursor[seat],
            giving=frozenset(self.table.offer.gives[seat]),
            confirmed=self.table.confirmed[seat],
            message="Recording..." if self.saving.waiting else self.messages[seat],
        )
        return draw_private(PrivateScreen(game=SPEC.name, seat=seat, view=model, to_act=True), size)

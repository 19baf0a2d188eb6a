"""Who wins a Hit from slaps stamped and delivered as the cabinet would have them: the
session's settle window (held ``settle_us``, released in stamp order, coalesced as the
session does) and Karate Fight's engine with a Hit showing.  The end of the slap chain
(:mod:`firmware_py.sim.slap_chain`) that the slap-accuracy bench and tests judge by."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from firmware_py.games.karate_fight.controls import KarateControls
from firmware_py.runtime.session import RANK_SHOWN, RANK_SLAP
from firmware_py.runtime.settle import SettleBuffer
from firmware_py.sim.slap_chain import Stamped
from games.karate_fight import CARD_KINDS, CardKind, DeadHeat, HitWon, KarateFight, KarateOptions, PlayTop, Shown, Slaps
from games.karate_fight.engine import KarateAction
from games.protocol import Action


def hit_deal(players: int) -> tuple[tuple[int, ...], ...]:
    """A deal whose first card played (fighter 0's) is a Strike: a Hit shows at once."""
    free: dict[CardKind, list[int]] = {}
    for card, kind in enumerate(CARD_KINDS):
        free.setdefault(kind, []).append(card)
    return tuple(((free[CardKind.STRIKE] if f == 0 else free[CardKind.DODGE]).pop(),) for f in range(players))


def verdict(stamped: Sequence[Stamped], reveal_us: int, settle_us: int, players: int = 4) -> int | None:
    """Who wins the Hit revealed at ``reveal_us`` when these slaps reach the session (each
    at its arrival time, held ``settle_us``, released in stamp order and coalesced as the
    session does): the fighter, or None (no slap, or a dead heat)."""
    engine = KarateFight(KarateOptions(deal=hit_deal(players)), players, 0)
    engine.apply(PlayTop(0, reveal_us - 30_000))
    buffer: SettleBuffer[Action] = SettleBuffer(settle_us)
    controls = KarateControls()
    buffer.add(reveal_us, Shown(t_us=reveal_us), reveal_us, RANK_SHOWN)
    winner = None
    arrivals = sorted(stamped, key=lambda s: s.arrived_us)
    released: list[tuple[int, Action]] = []
    for s in arrivals:
        released += buffer.release(s.arrived_us)
        if s.pad < players:
            buffer.add(s.t_us, Slaps(t_us=s.t_us, fighters=(s.pad,)), s.arrived_us, RANK_SLAP)
    released += buffer.release(max((s.t_us for s in stamped), default=reveal_us) + settle_us + 1)
    for _t, action in controls.coalesce(released):
        for ev in engine.apply(cast(KarateAction, action)):
            if isinstance(ev, HitWon):
                winner = ev.winner
            elif isinstance(ev, DeadHeat):
                return None
        if winner is not None:
            return winner
    return winner

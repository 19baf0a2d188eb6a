"""Punch Cards' sound: a choice locked (a card slapped down), the stakes shown, the
reveal, the duel won in the winner's pitch (or lost, against the computer) and the card
changing hands; in the lobby, a trade agreed and the event's closing time."""

from __future__ import annotations

from typing import Any

from display.audio import kit
from display.audio.cues import Call, Cue, GameSounds, Kind
from display.audio.synth import mix
from games.punch_cards.events import ChallengeAnswered, DuelWon, Locked, Revealed, StakesShown

CUES = {
    "cards_locked": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.slap(61), what="a stake, corner or call locked in"),
    "cards_challenge": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.confirm(71), what="a challenge accepted"),
    "cards_stakes": Cue(
        kind=Kind.EFFECT,
        recipe=lambda _s: mix((0, kit.card_flip(61)), (0.12, kit.card_flip(67))),
        what="both stakes shown",
    ),
    "cards_reveal": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.reveal(74), what="the reveal through the holes"),
    "duel_won": Cue(
        kind=Kind.EFFECT,
        recipe=lambda s: kit.sting_win(72 + kit.station_step(s)),
        per_station=True,
        what="a duel won (the winner's pitch)",
    ),
    "duel_lost": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.sting_lose(), what="a practice duel lost to the computer"),
    "card_changes_hands": Cue(
        kind=Kind.EFFECT, recipe=lambda _s: kit.card_slide(67), what="the staked card slides to the winner"
    ),
    "trade": Cue(
        kind=Kind.EFFECT,
        recipe=lambda _s: mix((0, kit.card_slide(71)), (0.1, kit.card_slide(73)), (0.35, kit.coin(88))),
        what="a trade recorded: cards cross the table",
    ),
    "closing_time": Cue(
        kind=Kind.VOICE,
        recipe=lambda _s: mix((0, kit.bell(3, 0.18)), (0.8, kit.alarm(69))),
        what="the event's closing time has come",
    ),
}


def calls(event: Any) -> tuple[Call, ...]:
    if isinstance(event, Locked):
        return (Call(cue="cards_locked"),)
    if isinstance(event, ChallengeAnswered) and event.accepted:
        return (Call(cue="cards_challenge"),)
    if isinstance(event, StakesShown):
        return (Call(cue="cards_stakes"),)
    if isinstance(event, Revealed):
        return (Call(cue="cards_reveal"),)
    if isinstance(event, DuelWon):
        return (Call(cue="duel_won", seat=event.winner, otherwise="duel_lost"), Call(cue="card_changes_hands"))
    return ()


SOUNDS = GameSounds(cues=CUES, calls=calls)

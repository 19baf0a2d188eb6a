"""Big Time Boxing in words: the names of punches, card features, ring areas, Big Hits,
injuries and finishes, long (the ring display, the log) and short (the 21-character
lines of a private OLED).  One place, so the ring, the private displays, the refusals
and the log all call a card the same thing."""

from __future__ import annotations

from games.big_time_boxing import CARDS, BigHit, Column, Feature, Finish, Injury, Position, Punch, Trap, Window

PUNCH = {
    Punch.JAB: "Jab",
    Punch.CROSS: "Cross",
    Punch.HOOK: "Hook",
    Punch.UPPERCUT: "Uppercut",
    Punch.BODY_BLOW: "Body Blow",
}
FEATURE = {
    Feature.JUDGE_POINT: "Judge Points +1",
    Feature.COMBO_A: "One-Two Combo",
    Feature.COMBO_B: "Inside Combo",
    Feature.COMBO_AB: "Any Combo",
    Feature.JC_DEFENSE: "Jab/Cross Defense",
    Feature.HUB_DEFENSE: "Hook/Uppercut/Body Defense",
    Feature.ESCAPE_ROPES: "Escape the Ropes",
    Feature.ESCAPE_CORNER: "Escape the Corner",
}
"""The rulebook's words in full: its "J/C" and "H/U/B" are its own shorthand for Jab/Cross
and Hook/Uppercut/Body Blow; the combo icons are the one-two (Jab, Cross) and the inside
combos (Hook, Uppercut, Body Blow), a Hook with both icons joins any."""
POSITION = {
    Position.OUTSIDE: "Outside",
    Position.INSIDE: "Inside",
    Position.ON_THE_ROPES: "On the Ropes",
    Position.IN_THE_CORNER: "In the Corner",
}
TRAP = {Trap.ROPES: "the ropes", Trap.CORNER: "the corner"}
COLUMN = {Column.OS_OS: "both outside", Column.OS_IS: "one inside", Column.IS_IS: "both inside"}
"""Where a punch landed, as the Result card's column says it (OS/OS, OS/IS, IS/IS)."""

BIG_HIT = {
    BigHit.ON_THE_ROPES: "On the Ropes",
    BigHit.IN_THE_CORNER: "In the Corner",
    BigHit.HURT: "Hurt",
    BigHit.NOSE_BLEED: "Nose Bleed",
    BigHit.CUT_UNDER_EYE: "Cut Under Eye",
    BigHit.CUT_OVER_EYE: "Cut Over Eye",
    BigHit.KNOCKDOWN: "Knockdown",
    BigHit.NONE: "no effect",
}
INJURY = {
    Injury.HURT: "Hurt",
    Injury.NOSE_BLEED: "Nose Bleed",
    Injury.CUT_UNDER_EYE: "Cut Under Eye",
    Injury.CUT_OVER_EYE: "Cut Over Eye",
}

WINDOW = {
    Window.RESPONSE: "may defend",
    Window.COMBO: "may add a combo",
    Window.ESCAPE: "may escape",
    Window.TRAPPED_RESPONSE: "may defend",
}

FINISH = {
    Finish.KO: "by knockout",
    Finish.TKO_HEALTH: "by TKO (no health left)",
    Finish.TKO_CUT_OVER_EYE: "by TKO (a second cut over the eye)",
    Finish.TKO_NOSE_BLEED: "by TKO (a second nose bleed)",
    Finish.TKO_INJURIES: "by TKO (three injuries)",
    Finish.TKO_KNOCKDOWNS: "by TKO (three knockdowns)",
    Finish.TKO_EXHAUSTION: "by TKO (exhausted)",
    Finish.DECISION: "on the judges' cards",
    Finish.SKETCHY_DECISION: "on the judges' cards (tie broken: knockdowns, injuries)",
    Finish.DRAW: "a draw on the judges' cards",
    Finish.TECHNICAL_DECISION: "on a technical decision (both exhausted)",
    Finish.TECHNICAL_DRAW: "a technical draw (both exhausted)",
}
FINISH_SHORT = {
    Finish.KO: "KO",
    Finish.TKO_HEALTH: "TKO",
    Finish.TKO_CUT_OVER_EYE: "TKO",
    Finish.TKO_NOSE_BLEED: "TKO",
    Finish.TKO_INJURIES: "TKO",
    Finish.TKO_KNOCKDOWNS: "TKO",
    Finish.TKO_EXHAUSTION: "TKO",
    Finish.DECISION: "DECISION",
    Finish.SKETCHY_DECISION: "DECISION",
    Finish.DRAW: "DRAW",
    Finish.TECHNICAL_DECISION: "TECHNICAL DECISION",
    Finish.TECHNICAL_DRAW: "TECHNICAL DRAW",
}


def card_words(card_id: int) -> str:
    """A Boxer card in full: 'Hook 2 · H/U/B Defense'."""
    card = CARDS.boxers[card_id]
    return f"{PUNCH[card.punch]} {card.cost} · {FEATURE[card.feature]}"

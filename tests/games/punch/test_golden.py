"""A golden playthrough: a fixed seed and action script whose every event is pinned.

Standard rules, one match to win, seed 0.  The script re-deals in both rounds and the
match goes the distance, so dealing, re-dealing, every cause of stamina change, both
breaks and the stamina decision all appear.  Both boxers answer after every deal of
rounds 1 and 2: in round 1 Red keeps an ordinary hand, Blue re-deals 4 Punch 3 and 4 Do
Nothing, then keeps the new hand; in round 2 each re-deals, then keeps.  If this test
fails after a change, the change altered what a recorded game replays to: saved games
would no longer resume.
"""

from __future__ import annotations

from enum import Enum

from games.protocol import Event, Outcome
from games.punch import Card, GameEndReason, Phase, PlayCard, Punch, PunchOptions, Redeal
from tests.games.punch.support import CODES

CODE = {card: code for code, card in CODES.items()}
SEED = 0
SCRIPT = (
    "R keep  B redeal  B keep  NB N1 13 B1 DD 3D 3N DB 2N 22"
    "  R redeal  R keep  B redeal  B keep  DN 21 3D 23 1B B2 33 B3 12 D2"
    "  D3 31 B1 12 ND BD 2N 1B NN NB"
)
GOLDEN = """
MatchStarted 1 False
RoundStarted 1
HandDealt 0 1 dealt
HandDealt 1 1 dealt
HandKept 0
Redealt 1 3333NNNN
HandDealt 1 1 redealt
HandKept 1
CardChosen 0
CardChosen 1
CardsRevealed NB
CardChosen 0
CardChosen 1
CardsRevealed N1
StaminaChanged 0 -1 9 hit
CardChosen 0
CardChosen 1
CardsRevealed 13
StaminaChanged 0 -2 7 hit
CardChosen 0
CardChosen 1
CardsRevealed B1
CardChosen 0
CardChosen 1
CardsRevealed DD
CardChosen 0
CardChosen 1
CardsRevealed 3D
StaminaChanged 0 -3 4 punched_back
CardChosen 0
CardChosen 1
CardsRevealed 3N
StaminaChanged 1 -3 7 hit
CardChosen 0
CardChosen 1
CardsRevealed DB
CardChosen 0
CardChosen 1
CardsRevealed 2N
StaminaChanged 1 -2 5 hit
CardChosen 0
CardChosen 1
CardsRevealed 22
RoundEnded 1
Break 1 3 (3, 3)
StaminaChanged 0 3 7 break
StaminaChanged 1 3 8 break
RoundStarted 2
HandDealt 0 2 dealt
HandDealt 1 2 dealt
Redealt 0 BBBB
HandDealt 0 2 redealt
HandKept 0
Redealt 1 2222
HandDealt 1 2 redealt
HandKept 1
CardChosen 0
CardChosen 1
CardsRevealed DN
StaminaChanged 1 1 9 rest
CardChosen 0
CardChosen 1
CardsRevealed 21
StaminaChanged 1 -1 8 hit
CardChosen 0
CardChosen 1
CardsRevealed 3D
StaminaChanged 0 -3 4 punched_back
CardChosen 0
CardChosen 1
CardsRevealed 23
StaminaChanged 0 -1 3 hit
CardChosen 0
CardChosen 1
CardsRevealed 1B
CardChosen 0
CardChosen 1
CardsRevealed B2
CardChosen 0
CardChosen 1
CardsRevealed 33
CardChosen 0
CardChosen 1
CardsRevealed B3
CardChosen 0
CardChosen 1
CardsRevealed 12
StaminaChanged 0 -1 2 hit
CardChosen 0
CardChosen 1
CardsRevealed D2
StaminaChanged 1 -2 6 punched_back
RoundEnded 2
Break 2 2 (2, 2)
StaminaChanged 0 2 4 break
StaminaChanged 1 2 8 break
RoundStarted 3
HandDealt 0 3 last_ten
HandDealt 1 3 last_ten
CardChosen 0
CardChosen 1
CardsRevealed D3
StaminaChanged 1 -3 5 punched_back
CardChosen 0
CardChosen 1
CardsRevealed 31
StaminaChanged 1 -2 3 hit
CardChosen 0
CardChosen 1
CardsRevealed B1
CardChosen 0
CardChosen 1
CardsRevealed 12
StaminaChanged 0 -1 3 hit
CardChosen 0
CardChosen 1
CardsRevealed ND
StaminaChanged 0 1 4 rest
CardChosen 0
CardChosen 1
CardsRevealed BD
CardChosen 0
CardChosen 1
CardsRevealed 2N
StaminaChanged 1 -2 1 hit
CardChosen 0
CardChosen 1
CardsRevealed 1B
CardChosen 0
CardChosen 1
CardsRevealed NN
StaminaChanged 0 1 5 rest
StaminaChanged 1 1 2 rest
CardChosen 0
CardChosen 1
CardsRevealed NB
StaminaChanged 0 1 6 rest
RoundEnded 3
MatchEnded 0 stamina (6, 2) (1, 0)
GameEnded 0
"""


def script_actions(script: str) -> list[Redeal | PlayCard]:
    """``R redeal`` / ``B keep`` answer a re-deal offer; ``3N`` is one exchange (Red's card
    first, then Blue's)."""
    words = script.split()
    actions: list[Redeal | PlayCard] = []
    while words:
        word = words.pop(0)
        if word in ("R", "B"):
            actions.append(Redeal("RB".index(word), words.pop(0) == "redeal"))
        else:
            actions += [PlayCard(0, CODES[word[0]]), PlayCard(1, CODES[word[1]])]
    return actions


def line(event: Event) -> str:
    """One event as a short line: cards as codes, enums as their values."""
    values = []
    for value in vars(event).values():
        if isinstance(value, tuple) and value and isinstance(value[0], Card):
            value = "".join(CODE[card] for card in value)
        elif isinstance(value, Card):
            value = CODE[value]
        elif isinstance(value, Enum):
            value = value.value
        values.append(str(value))
    return " ".join([type(event).__name__, *values])


def test_golden_playthrough() -> None:
    game = Punch(PunchOptions(matches_to_win=1), 2, SEED)
    events = list(game.opening_events)
    for action in script_actions(SCRIPT):
        events += game.apply(action)
    assert [line(e) for e in events] == GOLDEN.strip().splitlines()
    view = game.public_view()
    assert (view.phase, view.winner, view.stamina, view.match_wins) == (Phase.OVER, 0, (6, 2), (1, 0))
    assert game.outcome() == Outcome(0, GameEndReason.MATCH_WINS, (1, 0))
    assert Punch.from_json(game.to_json()).public_view() == view

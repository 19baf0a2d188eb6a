"""A cabinet that records random duels until it is killed (run as a separate process).

``python -m tests.firmware_py.ledger.cabinet_writer URL PREFIX COUNT SEED``: plays up to
COUNT duels between random players who hold cards, records each with key
``PREFIX-n``, and prints ``ok KEY`` only after the commit returned (acknowledged) or
``stale KEY`` when another cabinet moved a staked card first.
"""

from __future__ import annotations

import random
import sys

from firmware_py.games.punch_cards.ledger import Ledger, LedgerBusy, StaleCards
from games.bots import RandomBot
from games.punch_cards import Answer, PunchCardsDuel
from tests.firmware_py.ledger.support import FAST_PINS


def main(url: str, prefix: str, count: int, seed: int) -> None:
    rng = random.Random(seed)
    ledger = Ledger(url, pin_hasher=FAST_PINS, cabinet=prefix)
    players = list(ledger.players())
    for n in range(count):
        holding = [p for p in players if ledger.collection(p)]
        if len(holding) < 2:
            break
        a, b = rng.sample(holding, 2)
        key = f"{prefix}-{n}"
        try:
            duel = PunchCardsDuel(ledger.duel_options(a, b), 2, rng.randrange(1 << 30))
        except ValueError:  # another cabinet took a player's last card since we looked
            print(f"stale {key}", flush=True)
            continue
        bots = (RandomBot(rng.randrange(1 << 30)), RandomBot(rng.randrange(1 << 30)))
        if duel.options.may_refuse:
            duel.apply(Answer(1, True))
        while not duel.over:
            for seat in sorted(duel.to_act()):
                duel.apply(bots[seat].choose(duel, seat))
        try:
            ledger.record_duel(key, a, b, duel)
        except (StaleCards, LedgerBusy):
            print(f"stale {key}", flush=True)
            continue
        print(f"ok {key}", flush=True)
    ledger.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))

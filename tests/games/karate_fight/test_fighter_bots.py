"""Computer fighters: human-like reaction times per level (mean, spread, misses, being
fooled by cards that look like Hits), a random Jan Ken, fair play (hidden piles never
change a choice or a slap), and a ladder in which each level wins most Hits against the
one below."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from dataclasses import replace

import pytest

from games.karate_fight import (
    CowardsBlow,
    HitWon,
    KarateFight,
    KarateOptions,
    PlayTop,
    Shown,
    Sign,
    Slaps,
    Throw,
)
from games.karate_fight.bot_fight import LOOK_AGAIN_US, BotFight
from games.karate_fight.fighter_bot import REFLEXES, KarateFighterBot, lure
from games.levels import Level
from tests.games.karate_fight.helpers import fight, play, slap, stacked
from tests.games.ladder import wilson
from tests.games.playout import assert_replays

DRAWS = 20_000


def binomial_ok(hits: int, n: int, p: float) -> bool:
    """``hits`` of ``n`` is within 4 standard errors of rate ``p`` (and 0 exactly for p = 0)."""
    if p == 0:
        return hits == 0
    return abs(hits / n - p) <= 4 * (p * (1 - p) / n) ** 0.5


def after(*piles: str, cards: int) -> KarateFight:
    """A two-or-more-fighter fight after ``cards`` cards were played and shown."""
    e = fight(*piles)
    for _ in range(cards):
        play(e)
    return e


# -- reaction times ----------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("level", list(Level), ids=lambda level: level.value)
def test_reaction_times_match_the_levels_target_mean_and_spread(level: Level) -> None:
    bot = KarateFighterBot(level, 1)
    target = REFLEXES[level]
    times = [bot.reaction_time() for _ in range(DRAWS)]
    assert statistics.mean(times) == pytest.approx(target.mean_us, rel=0.01)
    assert statistics.pstdev(times) == pytest.approx(target.spread_us, rel=0.05)
    assert min(times) >= target.floor_us
    # An ex-Gaussian leans right: its long tail of slow reactions puts the mean above the median.
    assert statistics.mean(times) > statistics.median(times)


def test_an_expert_reacts_in_about_200_ms_and_every_level_below_is_slower_and_less_reliable() -> None:
    assert REFLEXES[Level.EXPERT].mean_us == 200_000
    ladder = [REFLEXES[level] for level in Level]
    for weaker, stronger in zip(ladder, ladder[1:]):
        assert weaker.mean_us > stronger.mean_us and weaker.spread_us > stronger.spread_us
        assert weaker.miss > stronger.miss and weaker.fooled > stronger.fooled


@pytest.mark.slow
@pytest.mark.parametrize("level", list(Level), ids=lambda level: level.value)
def test_a_hit_is_slapped_unless_missed_at_the_levels_miss_rate(level: Level) -> None:
    e = after("Sd", "dd", cards=1)  # a Strike: a Hit is showing
    assert e.public_view().hit_showing is not None
    bot = KarateFighterBot(level, 2)
    answers = [bot.reaction(e.view(1)) for _ in range(5000)]
    assert binomial_ok(answers.count(None), len(answers), REFLEXES[level].miss)
    assert all(a is None or a >= REFLEXES[level].floor_us for a in answers)


@pytest.mark.slow
@pytest.mark.parametrize("level", list(Level), ids=lambda level: level.value)
def test_a_card_that_looks_like_a_hit_fools_at_the_levels_rate_and_a_plain_card_never(level: Level) -> None:
    fooled = REFLEXES[level].fooled
    for e, looks in (
        (after("Xb", "dd", cards=1), 1.0),  # a Counter looks like a Strike
        (after("db", "jd", cards=2), 0.5),  # a defense on another defense: nearly Clumsy
        (after("Cd", "dd", cards=1), 0.0),  # a Chop on an empty table is nothing
    ):
        assert lure(e.view(1)) == looks
        bot = KarateFighterBot(level, 3)
        answers = [bot.reaction(e.view(1)) for _ in range(5000)]
        assert binomial_ok(sum(a is not None for a in answers), len(answers), fooled * looks)


def test_what_looks_like_a_hit() -> None:
    assert lure(after("Jb", "dd", cards=1).view(0)) == 1.0  # Jan Ken card
    assert lure(after("djb", "bee", cards=3).view(0)) == 0.75  # dodge, block, jump: one short of Perfect
    assert lure(after("Pd", "Pd", cards=2).view(0)) == 0.5  # a second Punch: one short of a Flurry
    assert lure(after("CK", "Pd", cards=3).view(0)) == 0.75  # Chop, Punch, Kick: one short of Ultimate
    assert lure(after("Cd", "Pd", cards=2).view(0)) == 0.0


def test_nothing_is_slapped_before_the_card_is_shown_in_a_jan_ken_or_when_out() -> None:
    expert = KarateFighterBot(Level.EXPERT, 0)
    e = fight("Sd", "dd")
    e.apply(PlayTop(0, 100_000))  # a Strike played, not yet on screen
    assert all(expert.reaction(e.view(1)) is None for _ in range(200))
    jan_ken = after("Jd", "dd", cards=1)
    assert jan_ken.public_view().jan_ken is not None
    assert all(expert.reaction(jan_ken.view(1)) is None for _ in range(200))
    out = fight("d", "dd", "ee")
    play(out)  # fighter 0 plays their last card...
    slap(out, 0)  # ...and slaps at nothing with none left: out of the game
    play(out)  # fighter 1's Dodge on Dodge: a Clumsy Defense is showing
    assert out.public_view().hit_showing is not None
    assert all(expert.reaction(out.view(0)) is None for _ in range(200))
    assert any(expert.reaction(out.view(1)) is not None for _ in range(200))


# -- playing and Jan Ken ---------------------------------------------------------------
def test_the_bot_plays_its_turn_and_throws_random_signs() -> None:
    e = fight("dd", "Jd")
    bot = KarateFighterBot(Level.NORMAL, 4)
    assert bot.choose(e, 0) == PlayTop(0, e.now)
    play(e)
    play(e)  # the Jan Ken card: everybody throws
    throws = Counter()
    for seed in range(600):
        action = KarateFighterBot(Level.NORMAL, seed).choose(e, 1)
        assert isinstance(action, Throw) and action.player == 1
        throws[action.sign] += 1
    assert set(throws) == set(Sign)
    assert all(binomial_ok(n, 600, 1 / 3) for n in throws.values())
    with pytest.raises(ValueError, match="nothing to do"):
        bot.choose(fight("dd", "dd"), 1)


# -- fair play ---------------------------------------------------------------------------
SHARED = ("dbSeCd", "jPKXjT")
"""The top six cards of each fighter's pile in both twin fights."""
TAILS = (("bjedCP", "KbjedT"), ("CPKbje", "dTbjed"))
"""What lies below them: different in the two fights, and nobody ever sees it."""


def twin_log(piles: tuple[str, str], level: Level) -> list[object]:
    """Play a fight until a fighter would draw beyond the shared top cards: each card shown
    20 ms after it is played, each Hit slapped by fighter 0 150 ms later.  Log both views
    and every bot's reaction to every card shown and choice on its turn."""
    e = KarateFight(KarateOptions(deal=stacked(*piles)), 2, seed=0)
    bots = [KarateFighterBot(level, 9), KarateFighterBot(level, 19)]
    drawn = [0, 0]
    log: list[object] = []
    t = 0
    while not e.over:
        log += [e.view(0), e.view(1)]
        if e.public_view().hit_showing is not None:
            t += 150_000
            e.apply(Slaps(t_us=t, fighters=(0,)))
            continue
        seat = min(e.seats_to_act() - {-1})
        if e.jan_ken is None and drawn[seat] == len(SHARED[seat]):
            return log
        action = bots[seat].choose(e, seat)
        log.append(action)
        if isinstance(action, PlayTop):
            t += 200_000
            drawn[seat] += 1
            action = PlayTop(seat, t)
        e.apply(action)
        if e.awaiting_reveal:
            t += 20_000
            e.apply(Shown(t_us=t))
            log += [bot.reaction(e.view(f)) for f, bot in enumerate(bots)]
    return log


@pytest.mark.parametrize("level", list(Level), ids=lambda level: level.value)
def test_hidden_piles_never_change_a_choice_or_a_slap(level: Level) -> None:
    twins = [tuple(top + tail for top, tail in zip(SHARED, tails)) for tails in TAILS]
    a, b = (KarateFight(KarateOptions(deal=stacked(*piles)), 2, seed=0) for piles in twins)
    assert a.card_places() != b.card_places(), "the twins must differ in what nobody sees"
    logs = [twin_log(piles, level) for piles in twins]
    assert len(logs[0]) > 30
    assert logs[0] == logs[1]


# -- the ladder --------------------------------------------------------------------------
def hit_share(stronger: Level, weaker: Level, fights: int) -> tuple[int, int]:
    """Hits won by ``stronger`` and in all, over two-fighter bot fights (seats alternate)."""
    won = total = 0
    for n in range(fights):
        seats = (stronger, weaker) if n % 2 == 0 else (weaker, stronger)
        e = KarateFight(KarateOptions(), 2, n)
        bots = [KarateFighterBot(level, 10 * n + seat) for seat, level in enumerate(seats)]
        for _action, events in BotFight(e, bots, random.Random(n)).run(20_000):
            for ev in events:
                if isinstance(ev, HitWon):
                    total += 1
                    won += seats[ev.winner] is stronger
    return won, total


@pytest.mark.slow
@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [(Level.NORMAL, Level.EASY), (Level.HARD, Level.NORMAL), (Level.EXPERT, Level.HARD)],
    ids=["normal>easy", "hard>normal", "expert>hard"],
)
def test_each_level_wins_most_hits_against_the_one_below(stronger: Level, weaker: Level) -> None:
    won, total = hit_share(stronger, weaker, 10)
    assert total >= 100
    low, _high = wilson(won, total)
    assert low > 0.6, f"won {won} of {total} Hits"


@pytest.mark.slow
@pytest.mark.parametrize("fighters", [2, 3, 4])
def test_bot_fights_end_with_a_karate_master_keeping_every_rule(fighters: int) -> None:
    for seed in range(3):
        e = KarateFight(KarateOptions(), fighters, seed)
        bots = [KarateFighterBot(list(Level)[(seed + f) % 4], seed * 10 + f) for f in range(fighters)]
        blows = 0
        for _action, events in BotFight(e, bots, random.Random(seed)).run(30_000):
            e.audit()
            blows += sum(isinstance(ev, CowardsBlow) for ev in events)
        assert e.over, "the fight must end"
        assert_replays(e)


def test_a_hit_everybody_missed_is_slapped_when_someone_looks_again() -> None:
    e = fight("Sd", "dd")
    bots = [KarateFighterBot(Level.EASY, 1), KarateFighterBot(Level.EASY, 2)]
    for bot in bots:
        bot.reflexes = replace(bot.reflexes, miss=0.95)
    won = [ev for _a, events in BotFight(e, bots, random.Random(0)).run(50) for ev in events if isinstance(ev, HitWon)]
    assert any(ev.reaction_us >= LOOK_AGAIN_US for ev in won)  # missed at first, slapped on a later look

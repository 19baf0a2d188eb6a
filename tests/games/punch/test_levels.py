"""Computer boxers at every level: legal and repeatable, fair (they decide from their own
view: hidden cards never change a choice), reasoning as docs/computer-opponents.md says,
and a ladder on which each level beats the one below by a clear margin."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.bots import RandomBot
from games.levels import Level
from games.punch import Card, Draft, Phase, PlayCard, Punch, PunchOptions, Redeal, Rules
from games.punch.bot import PunchBot, balanced_hand
from games.punch.cards import CARDS, COPIES_PER_KIND, counts_of
from games.punch.knowledge import knowledge_of
from games.punch.levels import PROFILES, ComputerBoxer, round_chance
from games.punch.reading import Style
from games.punch.views import PunchPlayerView, PunchPublicView
from tests.games.ladder import CLEAR_MARGIN, beats, play_game
from tests.games.punch.support import BLUE, RED, cards, hand_with

VARIANTS = [PunchOptions(), PunchOptions(rules=Rules.ADVANCED, no_mercy=True)]
THINKING = [Level.NORMAL, Level.HARD, Level.EXPERT]


def boxer(level: Level) -> object:
    return lambda seed: ComputerBoxer(level, seed)


def exchange_view(
    hand: str, theirs: str, stamina: tuple[int, int] = (10, 10), round_: int = 3, match: int = 1
) -> PunchPlayerView:
    """Red's view at the start of an exchange of round 3 (or a later round's ``theirs`` is
    everything Blue has not revealed): Red holds ``hand``, Blue's unseen cards are ``theirs``."""
    mine, their_counts = counts_of(cards(hand)), counts_of(cards(theirs))
    left = sum(mine)
    public = PunchPublicView(
        options=PunchOptions(),
        phase=Phase.EXCHANGE,
        match=match,
        round=round_,
        exchange=11 - left,
        stamina=stamina,
        match_wins=(0, 0),
        locked=(False, False),
        last_reveal=None,
        hand_sizes=(left, left),
        deck_sizes=(0, sum(their_counts) - left),
        played=(tuple(COPIES_PER_KIND - n for n in mine), tuple(COPIES_PER_KIND - n for n in their_counts)),
        winner=None,
    )
    return PunchPlayerView(public, RED, mine, None, False, (0,) * len(CARDS), None)


def plays(view: PunchPlayerView) -> tuple[PlayCard, ...]:
    return tuple(PlayCard(view.player, card) for card, n in zip(CARDS, view.hand) if n)


def redeal_view(hand: str) -> PunchPlayerView:
    mine = counts_of(cards(hand))
    public = PunchPublicView(
        options=PunchOptions(),
        phase=Phase.REDEAL,
        match=1,
        round=1,
        exchange=1,
        stamina=(10, 10),
        match_wins=(0, 0),
        locked=(False, False),
        last_reveal=None,
        hand_sizes=(10, 10),
        deck_sizes=(20, 20),
        played=((0,) * len(CARDS), (0,) * len(CARDS)),
        winner=None,
    )
    deck = tuple(COPIES_PER_KIND - n for n in mine)
    return PunchPlayerView(public, RED, mine, None, max(mine) >= 4, deck, None)


# -- legal, whole games, repeatable ------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("options", VARIANTS, ids=["standard", "advanced_no_mercy"])
@pytest.mark.parametrize("level", list(Level), ids=lambda level: level.value)
def test_every_level_plays_whole_games_legally_and_the_same_way_for_a_seed(level: Level, options: PunchOptions) -> None:
    def game(seed: int) -> Punch:
        engine = Punch(options, 2, seed)
        play_game(engine, (ComputerBoxer(level, seed), RandomBot(seed)))  # apply checks legality
        return engine

    for seed in range(2):
        first = game(seed)
        assert first.over and first.journal == game(seed).journal


# -- fair play -------------------------------------------------------------------------
def twin_deals() -> tuple[Punch, Punch]:
    """Two standard games in which Red's first hand is the same but Blue's is not, so
    Red's views are equal while the hidden state (Blue's hand, both decks' order) differs."""
    by_hand: dict[tuple[int, ...], Punch] = {}
    for seed in range(5000):
        game = Punch(PunchOptions(), 2, seed)
        hand = game.view(RED).hand
        if max(hand) >= 4:
            continue  # a re-deal would deal from the (differently ordered) decks
        twin = by_hand.setdefault(hand, game)
        if twin is not game and twin.view(BLUE).hand != game.view(BLUE).hand:
            return twin, game
    raise AssertionError("no twin deals found")


def play_twins(level: Level, a: Punch, b: Punch) -> int:
    """Red (the bot, one seed) and Blue (scripted: the same card in both games while their
    hands share one) play both games side by side; Red's view and choice must match."""
    bot_a, bot_b = ComputerBoxer(level, 7), ComputerBoxer(level, 7)
    choices = 0
    while True:
        view = a.view(RED)
        assert view == b.view(RED), "the twins' views for Red must stay equal"
        if view.public.match > 1 or view.public.round > 1:
            return choices  # a knockout or the round's end: fresh cards from here
        if a.view(BLUE) == b.view(BLUE):
            raise AssertionError("the twins must differ in what Red cannot see")
        if RED in a.seats_to_act():
            choice = bot_a.choose(a, RED)
            assert bot_b.choose(b, RED) == choice, f"{level.value} chose differently on equal views"
            a.apply(choice)
            b.apply(choice)
            choices += 1
            continue
        if a.public_view().phase is Phase.REDEAL:
            a.apply(Redeal(BLUE, False))
            b.apply(Redeal(BLUE, False))
            continue
        common = [c for c, x, y in zip(CARDS, a.view(BLUE).hand, b.view(BLUE).hand) if x and y]
        if not common:
            return choices
        a.apply(PlayCard(BLUE, common[0]))
        b.apply(PlayCard(BLUE, common[0]))


@pytest.mark.parametrize("level", list(Level), ids=lambda level: level.value)
def test_hidden_cards_and_deck_order_never_change_a_choice_standard_rules(level: Level) -> None:
    a, b = twin_deals()
    assert play_twins(level, a, b) >= 5


@pytest.mark.parametrize("level", list(Level), ids=lambda level: level.value)
def test_a_hidden_drafted_hand_never_changes_a_choice_advanced_rules(level: Level) -> None:
    options = PunchOptions(rules=Rules.ADVANCED)
    a, b = Punch(options, 2, 3), Punch(options, 2, 3)
    red = ComputerBoxer(level, 11).choose(a, RED)
    assert isinstance(red, Draft)
    for game, blue in ((a, "111 222 333 B"), (b, "111 222 333 D")):
        game.apply(red)
        game.apply(Draft(BLUE, cards(blue)))
    assert play_twins(level, a, b) >= 5


# -- reasoning -------------------------------------------------------------------------
@pytest.mark.parametrize("level", THINKING, ids=lambda level: level.value)
def test_thinking_levels_take_the_knockout_that_alone_wins(level: Level) -> None:
    # Red at 1 can only win by knocking Blue out, and only a 3 now does it: any other
    # card lets Blue rest up beyond the reach of Red's one punch.
    view = exchange_view("3 B B", "N N N", stamina=(1, 3))
    choices = [ComputerBoxer(level, seed).decide(view, plays(view)) for seed in range(40)]
    share = choices.count(PlayCard(RED, Card.PUNCH_3)) / len(choices)
    assert share >= 1 - PROFILES[level].thinking.careless - 0.1


def test_expert_plays_the_exact_equilibrium_of_round_3s_last_exchanges() -> None:
    # Red {Dodge, Do Nothing} against Blue {3, Block}, level at 5: a matching-pennies
    # endgame.  Dodge then rest wins if Blue punches first; rest then Dodge if Blue
    # blocks first; Blue is just as torn, so the equilibrium is half and half.
    view = exchange_view("D N", "3 B", stamina=(5, 5))
    choices = [ComputerBoxer(Level.EXPERT, seed).decide(view, plays(view)).card for seed in range(400)]
    assert 0.4 < choices.count(Card.DODGE) / len(choices) < 0.6


def test_expert_reads_a_careless_opponent_and_a_counter_puncher() -> None:
    for opponent, styles in (
        (RandomBot(1), {Style.RANDOM_BUTTON, Style.RANDOM_CARD}),
        (ComputerBoxer(Level.NORMAL, 1), {Style.BEST_VS_RANDOM}),
    ):
        expert = ComputerBoxer(Level.EXPERT, 2)
        play_game(Punch(PunchOptions(), 2, 5), (expert, opponent))
        likeliest = max(expert.weights, key=lambda style: expert.weights[style])
        assert likeliest in styles and sum(expert.weights[s] for s in styles) > 0.5, expert.weights


def revealed(view: PunchPlayerView, red: Card, blue: Card) -> PunchPlayerView:
    return replace(view, public=replace(view.public, last_reveal=(red, blue)))


def test_expert_learns_only_from_a_reveal_that_answers_its_last_prediction() -> None:
    first = exchange_view("3 2 1 N B", "3 3 2 1 D")
    for match, changes in ((2, False), (1, True)):  # another match's reveal answers nothing
        expert = ComputerBoxer(Level.EXPERT, 0)
        expert.decide(first, plays(first))
        before = dict(expert.weights)
        after = revealed(exchange_view("3 2 1 N", "3 3 2 1", match=match), Card.BLOCK, Card.DODGE)
        expert.decide(after, plays(after))
        assert (expert.weights != before) is changes


def test_normal_redeals_every_hand_it_may_and_easy_only_sometimes() -> None:
    view = redeal_view("NNNNN 111 22")
    legal = (Redeal(RED, True), Redeal(RED, False))
    assert all(ComputerBoxer(Level.NORMAL, s).decide(view, legal) == Redeal(RED, True) for s in range(10))
    easy = {ComputerBoxer(Level.EASY, s).decide(view, legal) for s in range(20)}
    assert easy == set(legal)
    ordinary = redeal_view("11 22 33 NN BD")
    for level in Level:
        assert ComputerBoxer(level, 0).decide(ordinary, (Redeal(RED, False),)) == Redeal(RED, False)


@pytest.mark.parametrize("level", [Level.HARD, Level.EXPERT], ids=lambda level: level.value)
def test_reasoning_levels_redeal_when_a_fresh_hand_projects_better(level: Level) -> None:
    legal = (Redeal(RED, True), Redeal(RED, False))
    for hand in ("33333 DDDDD", "NNNNN BBBBB", "11111 NNNNN"):
        view = redeal_view(hand)
        k = knowledge_of(view)
        unseen = k.mine
        fresh = tuple(n * 10 / sum(unseen) for n in unseen)
        better = round_chance(k, fresh, tuple(n - f for n, f in zip(unseen, fresh))) > round_chance(k, k.hand, k.deck)
        assert ComputerBoxer(level, 0).decide(view, legal) == Redeal(RED, better)


@pytest.mark.parametrize("level", list(Level), ids=lambda level: level.value)
def test_every_level_drafts_a_legal_hand_in_rounds_1_and_2(level: Level) -> None:
    game = Punch(PunchOptions(rules=Rules.ADVANCED), 2, 0)
    bot = ComputerBoxer(level, 3)
    first = bot.choose(game, RED)
    assert isinstance(first, Draft)
    game.apply(first)  # apply checks it is 10 cards the deck holds
    game.apply(Draft(BLUE, hand_with("123NBD")))
    while game.public_view().round == 1:
        game.apply(bot.choose(game, RED))
        game.apply(PlayCard(BLUE, next(c for c, n in zip(CARDS, game.view(BLUE).hand) if n)))
    second = bot.choose(game, RED)
    assert isinstance(second, Draft)
    game.apply(second)


def test_the_best_draft_projects_at_least_as_well_as_the_balanced_hand_it_starts_from() -> None:
    game = Punch(PunchOptions(rules=Rules.ADVANCED), 2, 0)
    view = game.view(RED)
    pool = view.draft_pool
    assert pool is not None
    drafted = ComputerBoxer(Level.EXPERT, 5).decide(view, game.legal_actions(RED))
    assert isinstance(drafted, Draft)

    def chance(hand: tuple[Card, ...]) -> float:
        k = knowledge_of(view, hand=counts_of(hand))
        return round_chance(k, k.hand, k.deck)

    assert chance(drafted.hand) >= chance(balanced_hand(pool, random.Random(5))) - 1e-12


# -- the ladder (sequential here; tests/bench/bench_ladder.py plays 2,000 games a pair) ----
def punch(seed: int) -> Punch:
    return Punch(PunchOptions(), 2, seed)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        (boxer(Level.NORMAL), boxer(Level.EASY)),
        (boxer(Level.HARD), boxer(Level.NORMAL)),
        (boxer(Level.EXPERT), boxer(Level.HARD)),
        (boxer(Level.EXPERT), PunchBot),
    ],
    ids=["normal>easy", "hard>normal", "expert>hard", "expert>punchbot"],
)
def test_each_level_beats_the_one_below_and_expert_beats_punchbot(stronger: object, weaker: object) -> None:
    verdict = beats(punch, stronger, weaker)
    assert verdict.clear, f"won {verdict.wins} of {verdict.decided}: no clear margin over {CLEAR_MARGIN:.0%}"


@pytest.mark.slow
def test_the_ladder_finds_no_clear_margin_between_equals() -> None:
    """The sequential test can fail: a level against itself is not called clearly better."""
    verdict = beats(punch, boxer(Level.EASY), boxer(Level.EASY))
    assert not verdict.clear and verdict.decided < 600, verdict

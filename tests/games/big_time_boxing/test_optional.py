"""The optional rules: shuffling every round, Saving Something for Later, the Thinky game,
and the Attribute cards (how they are drawn, and every effect)."""

from __future__ import annotations

import pytest

from games.big_time_boxing import (
    CARDS,
    AttributeChosen,
    AttributeDraw,
    AttributeUsed,
    BigHit,
    BigTimeBoxing,
    BigTimeBoxingOptions,
    ChooseAttribute,
    Clinch,
    Column,
    Count,
    DamageCause,
    DamageTaken,
    Defend,
    Effect,
    EnergyCause,
    EnergyChanged,
    Feature,
    GotUp,
    Injury,
    InjuryTreated,
    JudgePointCause,
    JudgePoints,
    MoveAway,
    MovedAway,
    Phase,
    Punch,
    ResultDeckShuffled,
    ResultDrawn,
    RoundStarted,
    ShuffleReason,
    Throw,
    UseAttribute,
)
from games.protocol import IllegalAction
from tests.games.big_time_boxing.helpers import (
    boxer,
    boxers,
    idle,
    let_land,
    of_type,
    one,
    play,
    result,
    results,
    stacked,
    turn_of,
)

JAB_JP = boxer(Punch.JAB, Feature.JUDGE_POINT)
JAB_JC = boxer(Punch.JAB, Feature.JC_DEFENSE, cost=0)
HOOK = boxer(Punch.HOOK, Feature.HUB_DEFENSE)
HOOK3 = results(lambda r: r.value(Punch.HOOK, Column.OS_IS) == 3, n=6)


# -- If You Like to Shuffle --------------------------------------------------------------
def test_shuffle_every_round_reshuffles_boxer_and_result_cards_before_every_round() -> None:
    for option, reshuffled in ((True, True), (False, False)):
        e = BigTimeBoxing(BigTimeBoxingOptions(shuffle_every_round=option), 2, seed=3)
        events = idle(e, lambda e: e.round == 2)
        assert one(events, RoundStarted).reshuffled is reshuffled
        assert (ResultDeckShuffled(ShuffleReason.NEW_ROUND) in events) is reshuffled
        if option:
            assert e.public_view().set_aside == 24 and e.discard == []


# -- Saving Something for Later ----------------------------------------------------------
def test_without_the_option_move_away_cannot_save() -> None:
    e = stacked(hand0=[JAB_JP])
    assert MoveAway(0, JAB_JP, save=True) not in e.legal_actions(0)
    with pytest.raises(IllegalAction, match="cannot save a card for later now"):
        e.apply(MoveAway(0, JAB_JP, save=True))


def test_saving_something_for_later_keeps_the_card_face_down_for_a_later_round() -> None:
    e = stacked(hand0=[HOOK], saving_for_later=True)
    events = play(e, MoveAway(0, HOOK, save=True))
    assert one(events, MovedAway) == MovedAway(0, None, saved=True)  # the card stays secret
    assert e.boxers[0].saved == HOOK and HOOK not in e.discard and len(e.boxers[0].hand) == 4
    assert e.public_view().boxers[0].has_saved and e.view(0).saved == HOOK and e.view(1).saved is None
    assert not e.view(0).saved_playable
    idle(e, turn_of(0))
    assert all(getattr(a, "card", None) != HOOK for a in e.legal_actions(0))  # not this round


def test_a_saved_card_is_played_like_a_card_in_hand_from_the_next_round() -> None:
    e = stacked(hand0=[HOOK], saving_for_later=True)
    play(e, MoveAway(0, HOOK, save=True))
    idle(e, lambda e: e.round == 2)
    idle(e, turn_of(0))
    assert e.view(0).saved_playable and Throw(0, HOOK) in e.legal_actions(0)
    hand = list(e.boxers[0].hand)
    play(e, Throw(0, HOOK))
    assert e.boxers[0].saved is None and e.boxers[0].hand == hand
    e.audit()


def test_saving_only_once_a_round_and_never_while_a_saved_card_is_unplayed() -> None:
    e = stacked(hand0=[HOOK, JAB_JP], saving_for_later=True)
    play(e, MoveAway(0, HOOK, save=True))
    idle(e, turn_of(0))
    assert not [a for a in e.legal_actions(0) if isinstance(a, MoveAway) and a.save]
    idle(e, lambda e: e.round == 2)
    idle(e, turn_of(0))
    assert not [a for a in e.legal_actions(0) if isinstance(a, MoveAway) and a.save]  # HOOK still saved
    play(e, Throw(0, HOOK))
    idle(e, turn_of(0))
    assert [a for a in e.legal_actions(0) if isinstance(a, MoveAway) and a.save]


def test_saved_cards_stay_out_of_the_reshuffle_and_the_deal_is_topped_up_from_the_discards() -> None:
    e = BigTimeBoxing(BigTimeBoxingOptions(saving_for_later=True, first_player=0, rounds=6), 2, seed=8)
    while e.round < 4:
        seat = e.active
        if e.window_player is not None:
            idle(e, lambda e: e.window_player is None)
            continue
        saves = [a for a in e.legal_actions(seat) if isinstance(a, MoveAway) and a.save]
        play(e, saves[0] if saves and e.round == 2 else MoveAway(seat, e.playable(seat)[0]))
        e.audit()
    assert all(b.saved is not None for b in e.boxers)
    for b in e.boxers:
        assert b.saved not in b.hand + b.deck
        assert len(b.hand) + len(b.deck) == 12  # round 4 deals the set-aside cards, topped up


# -- The Thinky game ---------------------------------------------------------------------
def test_thinky_each_boxer_plays_only_his_own_set_of_24() -> None:
    e = BigTimeBoxing(BigTimeBoxingOptions(thinky=True, rounds=6), 2, seed=5)
    for _ in range(4):
        for seat, b in enumerate(e.boxers):
            assert all(CARDS.boxers[c].gloves_hanging is (seat == 1) for c in b.hand + b.deck)
        r = e.round
        idle(e, lambda e, r=r: e.round == r + 1)
    assert e.public_view().set_aside == 24  # 12 of each set


# -- drawing the Attribute cards ---------------------------------------------------------
def test_attributes_are_chosen_alternately_the_second_boxer_of_round_one_first() -> None:
    e = BigTimeBoxing(BigTimeBoxingOptions(attributes=AttributeDraw.CHOSEN, first_player=0), 2, seed=1)
    assert e.phase is Phase.DRAFT and e.round == 0
    order = []
    while e.phase is Phase.DRAFT:
        (seat,) = e.to_act()
        own = e.legal_actions(seat)
        assert {CARDS.attributes[a.attribute].boxer for a in own} == {seat}  # from his own set
        assert len(own) == 12 - len(e.boxers[seat].attributes)
        order.append(seat)
        play(e, own[-1])
    assert order == [1, 0, 1, 0, 1, 0]
    assert e.round == 1 and e.public_view().boxers[0].attributes == tuple(e.boxers[0].attributes)


def test_attributes_at_random_three_each_and_no_draft() -> None:
    e = BigTimeBoxing(BigTimeBoxingOptions(attributes=AttributeDraw.RANDOM), 2, seed=1)
    chosen = of_type(e.opening_events, AttributeChosen)
    assert len(chosen) == 6 and all(c.at_random for c in chosen)
    assert e.phase is Phase.TURN and all(len(b.attributes) == 3 for b in e.boxers)


def test_a_boxer_cannot_pick_the_other_boxers_attribute_or_out_of_turn() -> None:
    e = BigTimeBoxing(BigTimeBoxingOptions(attributes=AttributeDraw.CHOSEN, first_player=0), 2, seed=1)
    theirs = next(a.id for a in CARDS.attributes if a.boxer == 0)
    with pytest.raises(IllegalAction):
        e.apply(ChooseAttribute(1, theirs))
    with pytest.raises(IllegalAction, match="boxer 2 picks an Attribute card now"):
        e.apply(ChooseAttribute(0, theirs))


# -- every Attribute effect --------------------------------------------------------------
def attribute(seat: int, effect: Effect) -> int:
    return next(a.id for a in CARDS.attributes if a.boxer == seat and a.effect is effect)


def with_attributes(e: BigTimeBoxing, seat: int, *effects: Effect) -> None:
    e.boxers[seat].attributes = [attribute(seat, f) for f in effects]


def test_granite_chin_a_knockdown_adds_3_damage_not_5() -> None:
    down = result(lambda r: r.big_hit is BigHit.KNOCKDOWN)
    heart = result(lambda r: r.heart, skip=[down, *HOOK3])
    first = next(r for r in HOOK3 if r not in (down, heart))
    e = stacked(hand0=[HOOK], draws=[first, down, heart])
    with_attributes(e, 1, Effect.GRANITE_CHIN)
    events = play(e, Throw(0, HOOK)) + let_land(e)
    knock = [d for d in of_type(events, DamageTaken) if d.cause is DamageCause.KNOCKDOWN]
    assert [d.amount for d in knock] == [3]


def test_deep_lungs_starts_the_fight_with_one_more_fight_energy() -> None:
    e = BigTimeBoxing(BigTimeBoxingOptions(attributes=AttributeDraw.CHOSEN, first_player=0), 2, seed=1)
    lungs = attribute(1, Effect.DEEP_LUNGS)
    events = play(e, ChooseAttribute(1, lungs))
    while e.phase is Phase.DRAFT:
        (seat,) = e.to_act()
        events += play(
            e, next(a for a in e.legal_actions(seat) if CARDS.attributes[a.attribute].effect is not Effect.DEEP_LUNGS)
        )
    assert EnergyChanged(1, 13, 13, EnergyCause.DEEP_LUNGS) in events
    assert (e.boxers[1].fight_energy, e.boxers[1].round_energy, e.boxers[0].fight_energy) == (13, 13, 12)
    e.audit()


def test_ring_general_moves_away_without_losing_a_judge_point() -> None:
    e = stacked(hand0=[JAB_JP])
    with_attributes(e, 0, Effect.RING_GENERAL)
    events = play(e, MoveAway(0, JAB_JP))
    assert not of_type(events, JudgePoints) and AttributeUsed(0, attribute(0, Effect.RING_GENERAL)) in events


def test_thick_skin_ignores_a_cut_under_eye() -> None:
    cut = result(lambda r: r.big_hit is BigHit.CUT_UNDER_EYE)
    e = stacked(hand0=[HOOK], draws=[next(r for r in HOOK3 if r != cut), cut])
    with_attributes(e, 1, Effect.THICK_SKIN)
    play(e, Throw(0, HOOK))
    let_land(e)
    assert e.boxers[1].injuries == [] and e.boxers[1].damage == 3


def test_counterpuncher_the_first_defense_of_each_round_earns_a_judge_point() -> None:
    jcs = boxers(feature=Feature.JC_DEFENSE, n=2)
    jabs = boxers(Punch.JAB, Feature.JUDGE_POINT, n=2)
    e = stacked(hand0=jabs, hand1=[*boxers(Punch.UPPERCUT, Feature.JUDGE_POINT, n=2), *jcs])
    with_attributes(e, 1, Effect.COUNTERPUNCHER)
    events = play(e, Throw(0, jabs[0]), Defend(1, jcs[0]))
    assert JudgePoints(1, 1, 1, JudgePointCause.COUNTERPUNCHER) in events
    idle(e, turn_of(0))
    events = play(e, Throw(0, jabs[1]), Defend(1, jcs[1]))
    assert not [j for j in of_type(events, JudgePoints) if j.player == 1]  # once per round


def test_slick_once_a_round_a_defense_card_of_the_other_kind_cancels_the_punch() -> None:
    hub = boxers(feature=Feature.HUB_DEFENSE, n=2)
    jabs = boxers(Punch.JAB, Feature.JUDGE_POINT, n=2)
    e = stacked(hand0=jabs, hand1=hub)
    play(e, Throw(0, jabs[0]))
    assert [a for a in e.legal_actions(1) if isinstance(a, Defend)] == []  # without Slick
    e = stacked(hand0=jabs, hand1=hub)
    with_attributes(e, 1, Effect.SLICK)
    play(e, Throw(0, jabs[0]))
    assert Defend(1, hub[0]) in e.legal_actions(1)
    events = play(e, Defend(1, hub[0]))
    assert AttributeUsed(1, attribute(1, Effect.SLICK)) in events
    idle(e, turn_of(0))
    play(e, Throw(0, jabs[1]))
    assert not [a for a in e.legal_actions(1) if isinstance(a, Defend)]


def test_workhorse_the_first_clinch_of_each_round_regains_one_more() -> None:
    plus1 = results(lambda r: r.clinch.energy == 1 and r.clinch.judge_point == 0, n=2)
    e = stacked(hand0=[JAB_JP, JAB_JC], draws=plus1)
    with_attributes(e, 0, Effect.WORKHORSE)
    e.boxers[0].round_energy = 1
    play(e, Clinch(0, JAB_JP))
    assert e.boxers[0].round_energy == 3
    idle(e, turn_of(0))
    e.boxers[0].round_energy = 1
    play(e, Clinch(0, JAB_JC))
    assert e.boxers[0].round_energy == 2


def test_fast_hands_the_first_jab_of_each_round_earns_a_judge_point() -> None:
    jabs = boxers(Punch.JAB, Feature.COMBO_A, n=2)
    e = stacked(hand0=jabs)
    with_attributes(e, 0, Effect.FAST_HANDS)
    events = play(e, Throw(0, jabs[0]))
    assert JudgePoints(0, 1, 1, JudgePointCause.FAST_HANDS) in events
    let_land(e)
    idle(e, turn_of(0))
    assert not of_type(play(e, Throw(0, jabs[1])), JudgePoints)


def test_second_wind_regains_3_round_energy_once_a_fight_never_above_the_rounds_start_nor_from_0() -> None:
    e = stacked(hand0=[JAB_JP])
    with_attributes(e, 0, Effect.SECOND_WIND)
    wind = UseAttribute(0, attribute(0, Effect.SECOND_WIND))
    assert wind not in e.legal_actions(0)  # nothing to regain at the start of a round
    e.boxers[0].round_energy = 0
    assert wind not in e.legal_actions(0)
    e.boxers[0].round_energy = 10
    events = play(e, wind)
    assert EnergyChanged(0, 12, 12, EnergyCause.SECOND_WIND) in events
    assert e.phase is Phase.TURN and e.active == 0  # a free action: the turn goes on
    e.boxers[0].round_energy = 4
    assert wind not in e.legal_actions(0)  # single use


def test_heart_of_a_champion_gets_up_from_a_count_without_a_heart_once() -> None:
    down = result(lambda r: r.big_hit is BigHit.KNOCKDOWN)
    no_heart = result(lambda r: not r.heart, skip=[down, *HOOK3])
    first = next(r for r in HOOK3 if r not in (down, no_heart))
    for spent in (False, True):
        e = stacked(hand0=[HOOK], draws=[first, down, no_heart])
        with_attributes(e, 1, Effect.HEART_OF_A_CHAMPION)
        if spent:  # used at an earlier knockdown
            e.boxers[1].spent.add(attribute(1, Effect.HEART_OF_A_CHAMPION))
        events = play(e, Throw(0, HOOK)) + let_land(e)
        assert Count(no_heart, heart=False) in events
        assert (GotUp(1, by_attribute=True) in events) is not spent
        assert e.over is spent


def test_cutman_treats_the_worst_injury_at_the_end_of_the_first_round_finished_injured() -> None:
    e = stacked(rounds=6)
    with_attributes(e, 1, Effect.CUTMAN)
    e.boxers[1].injuries = [Injury.HURT, Injury.CUT_OVER_EYE]
    events = idle(e, lambda e: e.round == 2)
    assert InjuryTreated(1, Injury.CUT_OVER_EYE) in events and e.boxers[1].injuries == [Injury.HURT]
    events = idle(e, lambda e: e.round == 3)
    assert not of_type(events, InjuryTreated)  # single use


def test_haymaker_adds_one_to_the_next_punch_result_this_turn() -> None:
    two = result(lambda r: r.value(Punch.HOOK, Column.OS_IS) == 2)
    quiet = result(lambda r: r.big_hit is BigHit.NONE, skip=[two])
    e = stacked(hand0=[HOOK], draws=[two, quiet])
    with_attributes(e, 0, Effect.HAYMAKER)
    play(e, UseAttribute(0, attribute(0, Effect.HAYMAKER)))
    assert UseAttribute(0, attribute(0, Effect.HAYMAKER)) not in e.legal_actions(0)
    events = play(e, Throw(0, HOOK)) + let_land(e)
    assert one(events, ResultDrawn).value == 3  # a Big Hit now
    assert e.boxers[1].damage == 3

"""Every worked example of the Big Time Boxing rulebook, with the result it states.

Alan is boxer 0 and Bob boxer 1 throughout."""

from __future__ import annotations

from games.big_time_boxing import (
    AttributeChosen,
    AttributeDraw,
    BigTimeBoxing,
    BigTimeBoxingOptions,
    Column,
    Combo,
    DamageTaken,
    Defend,
    EnergyCause,
    EnergyChanged,
    Feature,
    MoveAway,
    Moved,
    Pass,
    Phase,
    Position,
    Punch,
    PunchThrown,
    ResultDrawn,
    RoundScored,
    Throw,
    WindowOpened,
)
from games.big_time_boxing.scoring import round_scores
from tests.games.big_time_boxing.helpers import (
    boxer,
    boxers,
    card,
    idle,
    let_land,
    of_type,
    one,
    play,
    result,
    results,
    set_hand,
    stack_results,
    stacked,
    turn_of,
)

ALAN, BOB = 0, 1


def test_playing_a_card_alan_moves_inside_for_a_hook_and_bob_holding_only_jc_defense_cannot_stop_it() -> None:
    hook = boxer(Punch.HOOK, Feature.HUB_DEFENSE)
    jc = boxers(feature=Feature.JC_DEFENSE, n=4)
    e = stacked(hand0=[hook], hand1=jc)
    events = play(e, Throw(ALAN, hook))
    assert one(events, Moved) == Moved(ALAN, Position.INSIDE)
    assert e.boxers[ALAN].round_energy == 12 - 2
    # Bob's window opens all the same (its timing must tell Alan nothing), but his only
    # answer is to let the punch land.
    assert e.phase is Phase.RESPONSE and one(events, WindowOpened).player == BOB
    assert e.legal_actions(BOB) == (Pass(BOB),)
    landed = one(let_land(e), ResultDrawn)
    assert landed.punch is Punch.HOOK and landed.puncher == ALAN


def test_combination_example_jab_then_cross_with_the_same_icon_draws_two_result_cards_in_order() -> None:
    jab = boxer(Punch.JAB, Feature.COMBO_A)
    cross = boxer(Punch.CROSS, Feature.COMBO_A)
    first = result(lambda r: r.value(Punch.JAB, Column.OS_OS) == 1)
    second = result(lambda r: r.value(Punch.CROSS, Column.OS_OS) == 2, skip=[first])
    e = stacked(hand0=[jab, cross], draws=[first, second])
    play(e, Throw(ALAN, jab))
    let_land(e)  # Bob elects not to play a J/C Defense card
    assert e.phase is Phase.COMBO and e.window_player == ALAN
    events = play(e, Combo(ALAN, cross))
    drawn = of_type(events, ResultDrawn)
    assert [(d.card, d.punch, d.value) for d in drawn] == [(first, Punch.JAB, 1), (second, Punch.CROSS, 2)]
    assert [d.amount for d in of_type(events, DamageTaken)] == [1, 2]
    assert e.boxers[BOB].damage == 3


def test_judge_points_example_bobs_last_jab_wins_the_round_13_12_even_if_defended_or_0() -> None:
    jab_jp = boxer(Punch.JAB, Feature.JUDGE_POINT)
    jc = boxer(Punch.JAB, Feature.JC_DEFENSE)
    zero = result(lambda r: r.value(Punch.JAB, Column.OS_OS) == 0)
    for defended in (True, False):
        e = stacked(hand0=[boxer(Punch.JAB, Feature.JUDGE_POINT, skip=[jab_jp])], hand1=[jab_jp], draws=[zero])
        play(e, MoveAway(ALAN, e.boxers[ALAN].hand[0]))  # Bob's turn next
        set_hand(e, BOB, [jab_jp], deck=[])
        set_hand(e, ALAN, [jc] if defended else [])
        # Both scores 12 (Judge Points plus Damage caused); Bob stands I/S.
        e.boxers[ALAN].judge_points, e.boxers[BOB].damage = 2, 10
        e.boxers[BOB].judge_points, e.boxers[ALAN].damage = 1, 11
        e.boxers[BOB].position = Position.INSIDE
        events = play(e, Throw(BOB, jab_jp))
        assert one(events, Moved) == Moved(BOB, Position.OUTSIDE)
        events += play(e, Defend(ALAN, jc)) if defended else let_land(e)
        scored = one(events, RoundScored)
        assert scored.totals == (12, 13) and scored.scores == (9, 10)


def test_result_deck_examples_round_3_jab_reads_os_os_and_bobs_body_blow_costs_2_and_reads_os_is() -> None:
    e = BigTimeBoxing(BigTimeBoxingOptions(first_player=ALAN), 2, seed=5)
    while e.round < 3:  # rounds 1 and 2: both boxers simply move away
        seat = e.active
        play(e, MoveAway(seat, e.boxers[seat].hand[0]))
    assert e.active == ALAN  # odd rounds: Alan first
    jab = boxer(Punch.JAB, Feature.JUDGE_POINT)
    body = boxer(Punch.BODY_BLOW, Feature.HUB_DEFENSE, cost=2)
    set_hand(e, ALAN, [jab])
    set_hand(e, BOB, [body, *boxers(Punch.HOOK, n=2), boxer(Punch.UPPERCUT)])
    energy = e.boxers[ALAN].round_energy
    events = play(e, Throw(ALAN, jab)) + let_land(e)
    assert e.boxers[ALAN].round_energy == energy  # the Jab costs zero energy
    assert one(events, PunchThrown).column is Column.OS_OS and one(events, ResultDrawn).column is Column.OS_OS
    energy = e.boxers[BOB].round_energy
    events = play(e, Throw(BOB, body))
    assert one(events, Moved) == Moved(BOB, Position.INSIDE)
    assert e.boxers[BOB].round_energy == energy - 2
    events += let_land(e)
    assert one(events, ResultDrawn).column is Column.OS_IS


def test_health_example_a_first_one_point_jab_puts_the_damage_die_on_1() -> None:
    jab = boxer(Punch.JAB, Feature.JUDGE_POINT)
    one_point = result(lambda r: r.value(Punch.JAB, Column.OS_OS) == 1)
    e = stacked(hand1=[jab], first_player=BOB, draws=[one_point])
    assert e.boxers[ALAN].damage == 0
    play(e, Throw(BOB, jab))
    let_land(e)
    assert e.boxers[ALAN].damage == 1 and e.public_view().boxers[ALAN].damage == 1


def test_health_example_a_10_round_bout_starts_with_dice_12_12_6_and_each_3_damage_lowers_the_6() -> None:
    crosses = boxers(Punch.CROSS, Feature.COMBO_A, n=2)
    jabs = boxers(Punch.JAB, Feature.JUDGE_POINT, n=2)
    two = results(lambda r: r.value(Punch.CROSS, Column.OS_OS) == 2, n=2)
    one_ = results(lambda r: r.value(Punch.JAB, Column.OS_OS) == 1, n=2, skip=two)
    e = stacked(hand1=[crosses[0], jabs[0], crosses[1], jabs[1]], first_player=BOB, rounds=10)
    stack_results(e, two[0], one_[0], two[1], one_[1])
    assert e.public_view().boxers[ALAN].health_dice == (12, 12, 6) and e.boxers[ALAN].health == 30
    dice = []
    for punch in (crosses[0], jabs[0], crosses[1], jabs[1]):
        play(e, Throw(BOB, punch))
        idle(e, turn_of(BOB))
        dice.append(e.public_view().boxers[ALAN].health_dice)
    assert [e.boxers[ALAN].damage] == [6]
    assert dice == [(12, 12, 6), (12, 12, 5), (12, 12, 5), (12, 12, 4)]


def test_after_a_round_example_13_energy_spent_in_a_6_round_bout_leaves_13_fight_energy_for_round_2() -> None:
    punches = [*boxers(Punch.HOOK, n=4), *boxers(Punch.UPPERCUT, cost=2, n=2), boxer(Punch.CROSS, cost=1)]
    assert sum(card(c).cost for c in punches) == 13
    mild = results(
        lambda r: (
            max(r.value(Punch.HOOK, Column.OS_IS), r.value(Punch.UPPERCUT, Column.OS_IS)) < 3
            and r.value(Punch.CROSS, Column.OS_OS) < 3
        ),
        n=7,
    )
    e = stacked(hand0=punches[:4], deck0=list(reversed(punches[4:])), rounds=6)
    assert e.boxers[ALAN].fight_energy == 15 and e.boxers[ALAN].round_energy == 15
    stack_results(e, *mild)
    events = []
    for c in punches:
        events += play(e, Throw(ALAN, c))
        events += idle(e, turn_of(ALAN))
    assert e.boxers[ALAN].round_energy == 2
    tired = [ev.fight_energy for ev in of_type(events, EnergyChanged) if ev.cause is EnergyCause.TIRED]
    assert tired == [14]  # lowered at once, on reaching 2
    idle(e, lambda e: e.round == 2)
    assert e.boxers[ALAN].fight_energy == 13 and e.boxers[ALAN].round_energy == 13


def test_scoring_example_alan_14_bob_13_wins_the_round_10_9() -> None:
    e = stacked()
    e.boxers[ALAN].judge_points, e.boxers[BOB].damage = 3, 11
    e.boxers[BOB].judge_points, e.boxers[ALAN].damage = 1, 12
    events: list = []
    e._end_round(events)
    scored = one(events, RoundScored)
    assert scored.totals == (14, 13) and scored.scores == (10, 9)


def test_scoring_example_14_against_2_is_a_10_8_round() -> None:
    assert round_scores((14, 2), (0, 0), (0, 0)) == (10, 8)


def test_scoring_example_the_round_winner_knocked_down_once_makes_9_9_which_the_must_system_makes_10_10() -> None:
    assert round_scores((14, 13), (1, 0), (0, 0)) == (10, 10)


def test_scoring_a_foul_can_leave_a_9_9_round() -> None:
    assert round_scores((14, 13), (0, 0), (1, 0)) == (9, 9)


def test_attribute_example_one_random_card_and_two_selected_cards() -> None:
    e = BigTimeBoxing(BigTimeBoxingOptions(attributes=AttributeDraw.MIXED, first_player=ALAN), 2, seed=3)
    random_picks = of_type(e.opening_events, AttributeChosen)
    assert [(p.player, p.at_random) for p in random_picks] == [(ALAN, True), (BOB, True)]
    assert e.phase is Phase.DRAFT
    while e.phase is Phase.DRAFT:
        (seat,) = e.to_act()
        play(e, e.legal_actions(seat)[0])
    assert all(len(b.attributes) == 3 for b in e.boxers)

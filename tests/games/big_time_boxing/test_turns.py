"""A turn: throw a punch (move-and-punch), Move Away, Clinch or Cover Up; the defender's
response window; combinations; Judge Points; the energy rules."""

from __future__ import annotations

import pytest

from games.big_time_boxing import (
    CARDS,
    Clinch,
    Clinched,
    Column,
    Combo,
    CoverUp,
    Defend,
    Defended,
    EnergyCause,
    EnergyChanged,
    Feature,
    Finish,
    JudgePointCause,
    JudgePoints,
    MoveAway,
    Moved,
    Pass,
    Passed,
    Phase,
    Position,
    Punch,
    PunchThrown,
    ResultDrawn,
    Throw,
    Warned,
    Window,
    WindowClosed,
    WindowOpened,
)
from games.protocol import CABINET, IllegalAction
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
    time_out,
    turn_of,
)

JAB_JP = boxer(Punch.JAB, Feature.JUDGE_POINT)
JAB_JC = boxer(Punch.JAB, Feature.JC_DEFENSE, cost=0)
CROSS_HUB = boxer(Punch.CROSS, Feature.HUB_DEFENSE)
HOOK = boxer(Punch.HOOK, Feature.COMBO_B)
HOOK_HUB = boxer(Punch.HOOK, Feature.HUB_DEFENSE)
UPPER_JP = boxer(Punch.UPPERCUT, Feature.JUDGE_POINT, cost=2)
BODY_HUB = boxer(Punch.BODY_BLOW, Feature.HUB_DEFENSE)


# -- throwing and moving -----------------------------------------------------------------
def test_every_card_in_hand_can_be_thrown_the_token_moving_itself_to_where_it_is_thrown_from() -> None:
    e = stacked(hand0=[JAB_JP, HOOK, UPPER_JP, BODY_HUB])
    throws = [a for a in e.legal_actions(0) if isinstance(a, Throw)]
    assert {a.card for a in throws} == {JAB_JP, HOOK, UPPER_JP, BODY_HUB}
    events = play(e, Throw(0, HOOK))
    assert one(events, Moved) == Moved(0, Position.INSIDE) and e.boxers[0].position is Position.INSIDE
    idle(e, turn_of(0))
    events = play(e, Throw(0, JAB_JP))
    assert one(events, PunchThrown).punch is Punch.JAB
    assert one(events, Moved) == Moved(0, Position.OUTSIDE) and e.boxers[0].position is Position.OUTSIDE


def test_outside_punches_are_thrown_from_os_and_inside_punches_from_is_never_punch_and_move() -> None:
    e = stacked(hand0=[JAB_JP, BODY_HUB])
    play(e, Throw(0, BODY_HUB))
    assert e.boxers[0].position is Position.INSIDE
    # The punch is thrown: the boxer cannot move again before it resolves (no punch-and-move).
    assert e.legal_actions(0) == ()
    idle(e, turn_of(0))
    events = play(e, Throw(0, JAB_JP))
    assert one(events, Moved) == Moved(0, Position.OUTSIDE)


@pytest.mark.parametrize(
    ("puncher", "target", "punch", "column"),
    [
        (Position.OUTSIDE, Position.OUTSIDE, Punch.JAB, Column.OS_OS),
        (Position.OUTSIDE, Position.INSIDE, Punch.CROSS, Column.OS_IS),
        (Position.INSIDE, Position.OUTSIDE, Punch.UPPERCUT, Column.OS_IS),
        (Position.INSIDE, Position.INSIDE, Punch.BODY_BLOW, Column.IS_IS),
    ],
)
def test_the_result_is_read_in_the_column_of_both_boxers_positions(
    puncher: Position, target: Position, punch: Punch, column: Column
) -> None:
    thrown = (
        boxer(punch, Feature.JUDGE_POINT) if punch in (Punch.JAB, Punch.UPPERCUT) else boxer(punch, Feature.HUB_DEFENSE)
    )
    e = stacked(hand0=[thrown])
    e.boxers[1].position = target
    events = play(e, Throw(0, thrown)) + let_land(e)
    drawn = one(events, ResultDrawn)
    assert e.boxers[0].position is puncher and drawn.column is column
    assert drawn.value == CARDS.results[drawn.card].value(punch, column)


def test_a_punch_costs_its_energy_whether_it_lands_or_not_and_never_takes_round_energy_below_zero() -> None:
    e = stacked(hand0=[HOOK_HUB, UPPER_JP, JAB_JP], hand1=[CROSS_HUB])
    play(e, Throw(0, HOOK_HUB), Defend(1, CROSS_HUB))
    assert e.boxers[0].round_energy == 10
    idle(e, turn_of(0))
    e.boxers[0].round_energy = 1
    legal = e.legal_actions(0)
    assert Throw(0, UPPER_JP) not in legal and Throw(0, JAB_JP) in legal
    with pytest.raises(IllegalAction, match="costs 2 energy and you have 1"):
        e.apply(Throw(0, UPPER_JP))


# -- the response window -----------------------------------------------------------------
def test_jc_defense_cancels_a_jab_or_cross_and_hub_defense_a_hook_uppercut_or_body_blow() -> None:
    jc = boxers(feature=Feature.JC_DEFENSE, n=2)
    hub = boxers(feature=Feature.HUB_DEFENSE, n=2, skip=[CROSS_HUB, HOOK_HUB, BODY_HUB])
    e = stacked(hand0=[JAB_JP, UPPER_JP], hand1=[*jc, *hub])
    play(e, Throw(0, JAB_JP))
    assert set(e.legal_actions(1)) == {Defend(1, c) for c in jc} | {Pass(1)}
    events = play(e, Defend(1, jc[0]))
    assert one(events, Defended) == Defended(1, jc[0], Punch.JAB)
    assert not of_type(events, ResultDrawn) and jc[0] in e.discard
    assert len(e.boxers[1].hand) == 3  # the defender does not replenish
    assert e.active == 1  # it becomes the defender's turn
    idle(e, turn_of(0))
    play(e, Throw(0, UPPER_JP))
    defenses = {a for a in e.legal_actions(1) if isinstance(a, Defend)}
    assert defenses == {Defend(1, c) for c in hub if c in e.boxers[1].hand}


def test_the_window_stays_open_when_the_defender_holds_no_defense_and_offers_letting_it_land() -> None:
    e = stacked(hand0=[JAB_JP], hand1=boxers(feature=Feature.HUB_DEFENSE, n=4))
    events = play(e, Throw(0, JAB_JP))
    assert one(events, WindowOpened) == WindowOpened(Window.RESPONSE, 1, Punch.JAB)
    assert e.phase is Phase.RESPONSE and e.to_act() == {1, CABINET}
    assert e.legal_actions(1) == (Pass(1),) and e.legal_actions(CABINET) == (WindowClosed(),)


def test_the_cabinet_closing_the_window_lets_the_punch_land() -> None:
    e = stacked(hand0=[JAB_JP], hand1=[JAB_JC])
    play(e, Throw(0, JAB_JP))
    events = time_out(e)
    assert one(events, Passed) == Passed(1, Window.RESPONSE, timed_out=True)
    assert one(events, ResultDrawn).punch is Punch.JAB


def test_the_cabinet_may_only_close_windows() -> None:
    e = stacked(hand0=[JAB_JP])
    assert e.legal_actions(CABINET) == ()
    with pytest.raises(IllegalAction, match="it is boxer 1's turn"):
        e.apply(WindowClosed())


def test_a_punch_that_lands_draws_one_result_card_and_ends_the_turn_with_a_refill() -> None:
    e = stacked(hand0=[JAB_JP])
    play(e, Throw(0, JAB_JP))
    events = let_land(e)
    assert len(of_type(events, ResultDrawn)) == 1 and JAB_JP in e.discard
    assert len(e.boxers[0].hand) == 4 and len(e.boxers[0].deck) == 7
    assert e.active == 1 and e.phase is Phase.TURN


# -- combinations ------------------------------------------------------------------------
JAB_A = boxers(Punch.JAB, Feature.COMBO_A, n=2)
CROSS_A = boxers(Punch.CROSS, Feature.COMBO_A, n=2)
HOOK_AB = boxer(Punch.HOOK, Feature.COMBO_AB)
UPPER_B = boxer(Punch.UPPERCUT, Feature.COMBO_B)
BODY_B = boxers(Punch.BODY_BLOW, Feature.COMBO_B, n=2)


def _combo_options(first: int, hand: list[int]) -> set[int]:
    e = stacked(hand0=[first, *hand])
    play(e, Throw(0, first))
    let_land(e)
    assert e.phase is Phase.COMBO and e.to_act() == {0, CABINET}
    return {a.card for a in e.legal_actions(0) if isinstance(a, Combo)}


def test_a_combo_needs_the_same_icon_and_never_the_same_punch_twice_except_jab_jab_and_body_body() -> None:
    assert _combo_options(JAB_A[0], [JAB_A[1], CROSS_A[0], HOOK_AB]) == {JAB_A[1], CROSS_A[0], HOOK_AB}
    assert _combo_options(CROSS_A[0], [CROSS_A[1], JAB_A[0], UPPER_B]) == {JAB_A[0]}
    assert _combo_options(BODY_B[0], [BODY_B[1], UPPER_B, HOOK]) == {BODY_B[1], UPPER_B, HOOK}
    assert _combo_options(HOOK, [HOOK_AB, UPPER_B, JAB_A[0]]) == {UPPER_B}  # Hook/Hook invalid, Jab from I/S impossible
    assert _combo_options(JAB_A[0], [JAB_JP, JAB_JC, CROSS_HUB]) == set()  # no combo icon


def test_the_combo_window_opens_for_a_combo_card_even_with_nothing_to_add() -> None:
    e = stacked(hand0=[JAB_A[0], JAB_JP, UPPER_JP, BODY_HUB])
    play(e, Throw(0, JAB_A[0]))
    events = let_land(e)
    assert one(events, WindowOpened) == WindowOpened(Window.COMBO, 0, None)
    assert e.legal_actions(0) == (Pass(0),)
    events = time_out(e)
    assert one(events, ResultDrawn).punch is Punch.JAB


def test_no_combo_after_a_defended_punch() -> None:
    e = stacked(hand0=[JAB_A[0], CROSS_A[0]], hand1=[JAB_JC])
    play(e, Throw(0, JAB_A[0]), Defend(1, JAB_JC))
    assert e.phase is Phase.TURN and e.active == 1


def test_the_second_punch_cannot_be_defended_and_costs_its_energy_both_results_are_drawn() -> None:
    e = stacked(hand0=[JAB_A[0], CROSS_A[0]], hand1=[JAB_JC, boxer(Punch.CROSS, Feature.JC_DEFENSE)])
    play(e, Throw(0, JAB_A[0]), Pass(1))
    events = play(e, Combo(0, CROSS_A[0]))
    assert not of_type(events, WindowOpened)  # no window for the second punch
    assert [d.punch for d in of_type(events, ResultDrawn)] == [Punch.JAB, Punch.CROSS]
    assert e.boxers[0].round_energy == 12 - card(CROSS_A[0]).cost
    assert {JAB_A[0], CROSS_A[0]} <= set(e.discard) and len(e.boxers[0].hand) == 4


def test_jab_hook_from_outside_reads_the_hook_in_os_is_and_the_token_stays_outside() -> None:
    e = stacked(hand0=[JAB_A[0], HOOK_AB])
    play(e, Throw(0, JAB_A[0]), Pass(1))
    events = play(e, Combo(0, HOOK_AB))
    assert not of_type(events, Moved) and e.boxers[0].position is Position.OUTSIDE
    hook = [d for d in of_type(events, ResultDrawn) if d.punch is Punch.HOOK]
    assert len(hook) == 1 and hook[0].column is Column.OS_IS


# -- Judge Points ------------------------------------------------------------------------
def test_judge_points_plus_1_counts_even_when_the_punch_is_defended() -> None:
    e = stacked(hand0=[JAB_JP], hand1=[JAB_JC])
    events = play(e, Throw(0, JAB_JP))
    assert one(events, JudgePoints) == JudgePoints(0, 1, 1, JudgePointCause.CARD)
    play(e, Defend(1, JAB_JC))
    assert e.boxers[0].judge_points == 1


def test_judge_points_stop_at_6() -> None:
    e = stacked(hand0=[JAB_JP])
    e.boxers[0].judge_points = 6
    events = play(e, Throw(0, JAB_JP))
    assert not of_type(events, JudgePoints) and e.boxers[0].judge_points == 6


# -- Move Away ---------------------------------------------------------------------------
def test_move_away_discards_a_card_face_up_draws_back_to_four_steps_outside_and_loses_a_judge_point() -> None:
    e = stacked(hand0=[JAB_JP, HOOK_HUB])
    e.boxers[0].judge_points = 2
    e.boxers[0].position = Position.INSIDE
    events = play(e, MoveAway(0, HOOK_HUB))
    assert HOOK_HUB in e.discard and len(e.boxers[0].hand) == 4
    assert e.boxers[0].position is Position.OUTSIDE and Moved(0, Position.OUTSIDE) in events
    assert one(events, JudgePoints) == JudgePoints(0, -1, 1, JudgePointCause.MOVE_AWAY)


def test_move_away_with_no_judge_points_gives_the_opponent_one_instead() -> None:
    e = stacked(hand0=[JAB_JP])
    events = play(e, MoveAway(0, JAB_JP))
    assert one(events, JudgePoints) == JudgePoints(1, 1, 1, JudgePointCause.GONE_MINUS)
    assert e.boxers[0].judge_points == 0


# -- Fight and Round Energy --------------------------------------------------------------
def test_round_energy_reaching_1_or_2_costs_a_fight_energy_point_once_a_round_and_0_one_more() -> None:
    hooks = boxers(Punch.HOOK, n=4)
    e = stacked(hand0=hooks)
    e.boxers[0].round_energy = 6
    stack_results(e, *results(lambda r: r.value(Punch.HOOK, Column.OS_IS) < 3, n=6))
    causes = []
    for hook in hooks[:3]:
        events = play(e, Throw(0, hook))
        causes += [(ev.cause, ev.round_energy, ev.fight_energy) for ev in of_type(events, EnergyChanged)]
        idle(e, turn_of(0))
    assert causes == [
        (EnergyCause.PUNCH, 4, 12),
        (EnergyCause.PUNCH, 2, 12),
        (EnergyCause.TIRED, 2, 11),
        (EnergyCause.PUNCH, 0, 11),
        (EnergyCause.EXHAUSTED, 0, 10),
    ]


def test_falling_from_3_straight_to_0_is_never_possible_but_2_to_0_takes_both_points_if_the_first_was_not_taken() -> (
    None
):
    e = stacked(hand0=[HOOK])
    e.boxers[0].round_energy = 2  # a round that began at 2 (Fight Energy 2): the 1-2 point is not yet taken
    e.boxers[0].round_start_energy = e.boxers[0].fight_energy = 2
    events = play(e, Throw(0, HOOK))
    causes = [ev.cause for ev in of_type(events, EnergyChanged)]
    assert causes == [EnergyCause.PUNCH, EnergyCause.TIRED, EnergyCause.EXHAUSTED]
    assert e.over and e.outcome() is not None and e.outcome().how is Finish.TKO_EXHAUSTION  # type: ignore[union-attr]
    assert e.outcome().winner == 1  # type: ignore[union-attr]


def test_at_round_energy_0_a_boxer_can_only_cover_up_and_defends_hub_punches_with_jc_cards() -> None:
    e = stacked(hand0=[UPPER_JP], hand1=[JAB_JC, JAB_JP])
    e.boxers[1].round_energy = 0
    e.boxers[1].tired = True
    play(e, Throw(0, UPPER_JP))
    assert Defend(1, JAB_JC) in e.legal_actions(1)
    play(e, Defend(1, JAB_JC))
    assert set(e.legal_actions(1)) == {CoverUp(1, c) for c in e.boxers[1].hand}
    with pytest.raises(IllegalAction, match="at Round Energy 0 you can only Cover Up"):
        e.apply(MoveAway(1, JAB_JP))
    card_ = e.boxers[1].hand[0]
    play(e, CoverUp(1, card_))
    assert card_ in e.discard and len(e.boxers[1].hand) == 4 and e.boxers[1].round_energy == 0


def test_cover_up_only_at_0() -> None:
    e = stacked(hand0=[JAB_JP])
    with pytest.raises(IllegalAction, match="Cover Up only at Round Energy 0"):
        e.apply(CoverUp(0, JAB_JP))


# -- Clinch ------------------------------------------------------------------------------
def test_clinch_only_at_round_energy_1_or_2() -> None:
    e = stacked(hand0=[JAB_JP])
    for energy, allowed in ((3, False), (2, True), (1, True)):
        e.boxers[0].round_energy = energy
        assert (Clinch(0, JAB_JP) in e.legal_actions(0)) is allowed
    e.boxers[0].round_energy = 3
    with pytest.raises(IllegalAction, match="Clinch only at Round Energy 1 or 2"):
        e.apply(Clinch(0, JAB_JP))


def test_clinch_discards_a_card_draws_a_result_and_regains_its_energy_both_boxers_end_outside() -> None:
    plus2 = result(lambda r: r.clinch.energy == 2 and r.clinch.judge_point == 0 and not r.clinch.warning)
    e = stacked(hand0=[JAB_JP], draws=[plus2])
    e.boxers[0].round_energy, e.boxers[0].tired = 1, True
    e.boxers[0].position = e.boxers[1].position = Position.INSIDE
    events = play(e, Clinch(0, JAB_JP))
    assert one(events, Clinched) == Clinched(0, JAB_JP, plus2)
    assert e.boxers[0].round_energy == 3 and JAB_JP in e.discard
    assert all(b.position is Position.OUTSIDE for b in e.boxers)


def test_clinch_energy_never_rises_above_the_rounds_starting_energy() -> None:
    plus2 = result(lambda r: r.clinch.energy == 2 and r.clinch.judge_point == 0)
    e = stacked(hand0=[JAB_JP], draws=[plus2])
    e.boxers[0].round_energy, e.boxers[0].round_start_energy, e.boxers[0].fight_energy = 2, 3, 3
    play(e, Clinch(0, JAB_JP))
    assert e.boxers[0].round_energy == 3


def test_clinch_minus_1_judge_point_and_head_butt_damage() -> None:
    minus = result(lambda r: r.clinch.judge_point == -1)
    butt_you = result(lambda r: r.clinch.damage_to_you > 0)
    butt_them = result(lambda r: r.clinch.damage_to_opponent > 0)
    e = stacked(hand0=[JAB_JP], draws=[minus])
    e.boxers[0].round_energy, e.boxers[0].judge_points = 2, 3
    events = play(e, Clinch(0, JAB_JP))
    assert JudgePoints(0, -1, 2, JudgePointCause.CLINCH) in events
    for draw, hurt in ((butt_you, 0), (butt_them, 1)):
        e = stacked(hand0=[JAB_JP], draws=[draw])
        e.boxers[0].round_energy = 2
        play(e, Clinch(0, JAB_JP))
        assert e.boxers[hurt].damage == max(
            CARDS.results[draw].clinch.damage_to_you, CARDS.results[draw].clinch.damage_to_opponent
        )
        assert e.boxers[1 - hurt].damage == 0


def test_the_first_warning_is_a_warning_and_every_later_one_a_foul() -> None:
    warning = results(lambda r: r.clinch.warning, n=2)
    e = stacked(hand0=[JAB_JP], draws=[warning[0]])
    e.boxers[0].round_energy = 2
    assert one(play(e, Clinch(0, JAB_JP)), Warned) == Warned(0, foul=False)
    idle(e, turn_of(0))
    stack_results(e, warning[1])
    e.boxers[0].round_energy = 2
    set_hand(e, 0, [JAB_JC])
    assert one(play(e, Clinch(0, JAB_JC)), Warned) == Warned(0, foul=True)
    assert e.boxers[0].warnings == 2 and e.boxers[0].round_fouls == 1


def test_no_combo_once_the_first_punch_took_round_energy_to_0() -> None:
    hook = boxer(Punch.HOOK, Feature.COMBO_B)
    upper = boxer(Punch.UPPERCUT, Feature.COMBO_B)
    jab = boxer(Punch.JAB, Feature.COMBO_A)
    e = stacked(hand0=[hook, upper, jab])
    e.boxers[0].round_energy, e.boxers[0].tired = 2, True
    play(e, Throw(0, hook), Pass(1))
    assert e.phase is Phase.COMBO and e.legal_actions(0) == (Pass(0),)

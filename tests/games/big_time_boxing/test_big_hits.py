"""What a result of 3 sets off: Big Hits, the ropes and the corner with their escapes and
defenses, injuries, knockdowns and the count, KOs and every TKO."""

from __future__ import annotations

from games.big_time_boxing import (
    CARDS,
    BigHit,
    BigHitDrawn,
    BigTimeBoxing,
    Column,
    Combo,
    Count,
    DamageCause,
    DamageTaken,
    Defend,
    Escape,
    Escaped,
    Feature,
    Finish,
    GotUp,
    HandRefilled,
    Injured,
    Injury,
    KnockedDown,
    Pass,
    Phase,
    Position,
    Punch,
    Released,
    ResultDrawn,
    Throw,
    Trap,
    Trapped,
    Window,
    WindowOpened,
)
from games.protocol import CABINET
from tests.games.big_time_boxing.helpers import boxer, boxers, let_land, of_type, one, play, result, results, stacked

HOOK = boxer(Punch.HOOK, Feature.HUB_DEFENSE)
BODY = boxer(Punch.BODY_BLOW, Feature.HUB_DEFENSE)
HOOK3 = results(lambda r: r.value(Punch.HOOK, Column.OS_IS) == 3, n=6)
QUIET = [r.id for r in CARDS.results if r.big_hit is BigHit.NONE]


def hook3(*draws: int) -> int:
    """A Result card with a 3 for a Hook thrown I/S at a boxer O/S, not among ``draws``."""
    return next(r for r in HOOK3 if r not in draws)


def big(kind: BigHit, skip: tuple[int, ...] = (), heart: bool | None = None) -> int:
    return result(lambda r: r.big_hit is kind and (heart is None or r.heart is heart), skip=skip)


def hooked(*draws: int, hand1: tuple[int, ...] = (), **options: object) -> tuple[BigTimeBoxing, list]:
    """Alan (0) throws a Hook at Bob (1), who lets it land; the Result deck starts with a
    3 for it, then ``draws``."""
    first = hook3(*draws)
    e = stacked(hand0=[HOOK], hand1=list(hand1), draws=[first, *draws], **options)  # type: ignore[arg-type]
    events = play(e, Throw(0, HOOK)) + let_land(e)
    return e, events


def test_a_result_of_3_is_three_damage_and_draws_another_card_for_its_big_hit_section() -> None:
    quiet = QUIET[0]
    e, events = hooked(quiet)
    assert one(events, ResultDrawn).value == 3 and e.boxers[1].damage == 3
    assert one(events, BigHitDrawn) == BigHitDrawn(quiet, BigHit.NONE, ignored=False)
    assert e.phase is Phase.TURN and e.active == 1


# -- the ropes and the corner -----------------------------------------------------------
def test_on_the_ropes_the_hitter_refills_at_once_and_the_trapped_boxer_may_escape_at_once() -> None:
    ropes = big(BigHit.ON_THE_ROPES)
    escape = boxer(feature=Feature.ESCAPE_ROPES)
    e, events = hooked(ropes, hand1=(escape, boxer(feature=Feature.ESCAPE_CORNER)))
    assert one(events, Trapped) == Trapped(1, Trap.ROPES) and e.boxers[1].position is Position.ON_THE_ROPES
    refill = of_type(events, HandRefilled)
    assert refill and refill[0].player == 0 and len(e.boxers[0].hand) == 4
    assert e.phase is Phase.ESCAPE and e.to_act() == {1, CABINET}
    assert set(e.legal_actions(1)) == {Escape(1, escape), Pass(1)}  # an Escape the Corner card does not help
    events = play(e, Escape(1, escape))
    assert Escaped(1, escape) in events and Released(1) in events
    assert not of_type(events, ResultDrawn)
    assert all(b.position is Position.OUTSIDE for b in e.boxers)
    assert e.phase is Phase.TURN and e.active == 1


def test_the_escape_window_opens_even_without_an_escape_card() -> None:
    e, events = hooked(big(BigHit.ON_THE_ROPES), hand1=tuple(boxers(Punch.JAB, Feature.JUDGE_POINT, n=4)))
    assert WindowOpened(Window.ESCAPE, 1, None) in events and e.legal_actions(1) == (Pass(1),)


def test_on_the_ropes_jab_cross_hook_each_scoring_the_better_of_its_two_results() -> None:
    ropes = big(BigHit.ON_THE_ROPES)
    columns = {
        p: (a, b)
        for p, a, b in (
            (Punch.JAB, Column.OS_OS, Column.OS_IS),
            (Punch.CROSS, Column.OS_OS, Column.OS_IS),
            (Punch.HOOK, Column.OS_IS, Column.IS_IS),
        )
    }
    uneven = [
        result(
            lambda r, p=p: r.value(p, columns[p][0]) != r.value(p, columns[p][1]) and r.better(p) < 3,
            skip=[ropes, *HOOK3],
        )
        for p in columns
    ]
    e, _ = hooked(ropes, *uneven)
    play(e, Pass(1))
    landed = []
    for punch in (Punch.JAB, Punch.CROSS, Punch.HOOK):
        assert e.phase is Phase.TRAPPED_RESPONSE and e.pending_punch is punch
        landed += of_type(play(e, Pass(1)), ResultDrawn)
    assert [(d.punch, d.column, d.value) for d in landed] == [
        (p, None, CARDS.results[r].better(p)) for p, r in zip((Punch.JAB, Punch.CROSS, Punch.HOOK), uneven)
    ]
    assert all(
        d.value
        == max(
            CARDS.results[d.card].value(d.punch, c)
            for c in (Column.OS_OS, Column.OS_IS, Column.IS_IS)
            if (d.punch, c) in CARDS.results[d.card].values
        )
        for d in landed
    )
    assert all(b.position is Position.OUTSIDE for b in e.boxers) and e.active == 1


def test_in_the_corner_cross_hook_uppercut_and_only_escape_the_corner_helps() -> None:
    corner = big(BigHit.IN_THE_CORNER)
    escapes = (boxer(feature=Feature.ESCAPE_ROPES), boxer(feature=Feature.ESCAPE_CORNER))
    mild = results(
        lambda r: max(r.better(p) for p in (Punch.CROSS, Punch.HOOK, Punch.UPPERCUT)) < 3, n=3, skip=[corner]
    )
    e, events = hooked(corner, *mild, hand1=escapes)
    assert one(events, Trapped) == Trapped(1, Trap.CORNER) and e.boxers[1].position is Position.IN_THE_CORNER
    assert set(e.legal_actions(1)) == {Escape(1, escapes[1]), Pass(1)}
    play(e, Pass(1))
    seen = []
    while e.phase is Phase.TRAPPED_RESPONSE:
        seen.append(e.pending_punch)
        play(e, Pass(1))
    assert seen == [Punch.CROSS, Punch.HOOK, Punch.UPPERCUT]


def test_before_each_trapped_punch_the_boxer_may_defend_it_but_no_longer_escape() -> None:
    ropes = big(BigHit.ON_THE_ROPES)
    jc = boxer(Punch.CROSS, Feature.JC_DEFENSE)
    escape = boxer(feature=Feature.ESCAPE_ROPES)
    mild = results(lambda r: max(r.better(p) for p in (Punch.JAB, Punch.HOOK)) < 3, n=2, skip=[ropes])
    e, _ = hooked(ropes, *mild, hand1=(jc, escape))
    play(e, Pass(1))  # stays on the ropes
    assert set(e.legal_actions(1)) == {Defend(1, jc), Pass(1)}  # the Jab: J/C Defense, no escape now
    events = play(e, Pass(1))
    assert one(events, ResultDrawn).punch is Punch.JAB
    assert Defend(1, jc) in e.legal_actions(1)  # the Cross
    events = play(e, Defend(1, jc))
    assert not of_type(events, ResultDrawn) and e.pending_punch is Punch.HOOK
    events = play(e, Pass(1))
    assert one(events, ResultDrawn).punch is Punch.HOOK and Released(1) in events


def test_a_big_hit_on_the_ropes_scores_3_and_draws_again_but_a_second_trap_is_ignored() -> None:
    ropes = big(BigHit.ON_THE_ROPES)
    corner = big(BigHit.IN_THE_CORNER)
    jab3 = (
        result(lambda r: r.better(Punch.JAB) == 3, skip=[ropes, corner])
        if any(r.better(Punch.JAB) == 3 for r in CARDS.results)
        else None
    )
    cross3 = result(lambda r: r.better(Punch.CROSS) == 3, skip=[ropes, corner, *HOOK3[:1]])
    assert jab3 is None  # jabs never Big Hit: the Cross is the first trapped punch that can
    jab_mild = result(lambda r: r.better(Punch.JAB) < 3, skip=[ropes, corner, cross3])
    e, _ = hooked(ropes, jab_mild, cross3, corner)
    play(e, Pass(1), Pass(1))
    events = play(e, Pass(1))
    assert one(events, ResultDrawn).value == 3
    assert one(events, BigHitDrawn) == BigHitDrawn(corner, BigHit.IN_THE_CORNER, ignored=True)
    assert e.boxers[1].position is Position.ON_THE_ROPES and e.pending_punch is Punch.HOOK


# -- injuries ----------------------------------------------------------------------------
def test_injuries_add_2_3_3_and_4_damage_and_a_tile() -> None:
    for kind, injury, damage in (
        (BigHit.HURT, Injury.HURT, 2),
        (BigHit.NOSE_BLEED, Injury.NOSE_BLEED, 3),
        (BigHit.CUT_UNDER_EYE, Injury.CUT_UNDER_EYE, 3),
        (BigHit.CUT_OVER_EYE, Injury.CUT_OVER_EYE, 4),
    ):
        e, events = hooked(big(kind))
        assert one(events, Injured) == Injured(1, injury, 1)
        assert DamageTaken(1, damage, 3 + damage, e.boxers[1].health, DamageCause.INJURY) in events
        assert e.boxers[1].injuries == [injury]


def test_a_body_blow_ignores_nose_bleeds_and_cuts_but_not_hurt() -> None:
    bb3 = results(lambda r: r.value(Punch.BODY_BLOW, Column.IS_IS) == 3, n=3)
    for kind, counts in (
        (BigHit.NOSE_BLEED, False),
        (BigHit.CUT_OVER_EYE, False),
        (BigHit.CUT_UNDER_EYE, False),
        (BigHit.HURT, True),
    ):
        card = big(kind, skip=tuple(bb3))
        e = stacked(hand0=[BODY], draws=[bb3[0], card])
        e.boxers[1].position = Position.INSIDE
        events = play(e, Throw(0, BODY)) + let_land(e)
        assert one(events, BigHitDrawn) == BigHitDrawn(card, kind, ignored=not counts)
        assert (e.boxers[1].injuries != []) is counts


# -- knockdowns --------------------------------------------------------------------------
def test_a_knockdown_adds_5_damage_and_with_a_heart_on_the_count_the_boxer_gets_up_both_go_outside() -> None:
    down = big(BigHit.KNOCKDOWN)
    heart = result(lambda r: r.heart, skip=[down, *HOOK3])
    e, events = hooked(down, heart)
    assert one(events, KnockedDown) == KnockedDown(1, 1)
    assert DamageTaken(1, 5, 8, e.boxers[1].health, DamageCause.KNOCKDOWN) in events
    assert one(events, Count) == Count(heart, heart=True) and GotUp(1, by_attribute=False) in events
    assert all(b.position is Position.OUTSIDE for b in e.boxers)
    assert not e.over and e.active == 1 and e.public_view().boxers[1].round_knockdowns == 1


def test_no_heart_on_the_count_is_a_knockout() -> None:
    down = big(BigHit.KNOCKDOWN)
    no_heart = result(lambda r: not r.heart, skip=[down, *HOOK3])
    e, events = hooked(down, no_heart)
    assert one(events, Count) == Count(no_heart, heart=False)
    outcome = e.outcome()
    assert outcome is not None and (outcome.winner, outcome.how) == (0, Finish.KO)
    assert e.to_act() == frozenset()


def test_a_knockdown_on_the_ropes_ends_the_trap_and_the_rest_of_the_turn() -> None:
    ropes, down = big(BigHit.ON_THE_ROPES), big(BigHit.KNOCKDOWN)
    cross3 = result(lambda r: r.better(Punch.CROSS) == 3, skip=[ropes, down, *HOOK3[:1]])
    jab_mild = result(lambda r: r.better(Punch.JAB) < 3, skip=[ropes, down, cross3])
    heart = result(lambda r: r.heart, skip=[ropes, down, cross3, jab_mild, *HOOK3[:1]])
    e, _ = hooked(ropes, jab_mild, cross3, down, heart)
    play(e, Pass(1), Pass(1))
    events = play(e, Pass(1))
    assert KnockedDown(1, 1) in events and GotUp(1, False) in events
    assert e.trapped is None and e.phase is Phase.TURN and e.active == 1
    assert all(b.position is Position.OUTSIDE for b in e.boxers)


def test_three_knockdowns_are_a_tko_with_the_optional_rule_and_not_without() -> None:
    down = big(BigHit.KNOCKDOWN)
    heart = result(lambda r: r.heart, skip=[down, *HOOK3])
    for rule in (True, False):
        e = stacked(hand0=[HOOK], draws=[hook3(down, heart), down, heart], three_knockdown_tko=rule)
        e.boxers[1].knockdowns = 2  # knocked down twice earlier in the fight
        events = play(e, Throw(0, HOOK)) + let_land(e)
        assert KnockedDown(1, 3) in events and GotUp(1, False) in events
        outcome = e.outcome()
        if rule:
            assert outcome is not None and (outcome.winner, outcome.how) == (0, Finish.TKO_KNOCKDOWNS)
        else:
            assert outcome is None


# -- TKOs --------------------------------------------------------------------------------
def _injured_again(kind: BigHit, earlier: list[Injury]) -> BigTimeBoxing:
    card = big(kind)
    e = stacked(hand0=[HOOK], draws=[hook3(card), card])
    e.boxers[1].injuries = list(earlier)
    play(e, Throw(0, HOOK))
    let_land(e)
    return e


def test_a_second_cut_over_eye_is_a_tko() -> None:
    e = _injured_again(BigHit.CUT_OVER_EYE, [Injury.CUT_OVER_EYE])
    assert e.outcome() is not None and e.outcome().how is Finish.TKO_CUT_OVER_EYE  # type: ignore[union-attr]


def test_a_second_nose_bleed_is_a_tko() -> None:
    e = _injured_again(BigHit.NOSE_BLEED, [Injury.NOSE_BLEED])
    assert e.outcome() is not None and e.outcome().how is Finish.TKO_NOSE_BLEED  # type: ignore[union-attr]


def test_any_three_injuries_are_a_tko() -> None:
    e = _injured_again(BigHit.HURT, [Injury.CUT_UNDER_EYE, Injury.NOSE_BLEED])
    assert e.outcome() is not None and e.outcome().how is Finish.TKO_INJURIES  # type: ignore[union-attr]
    e = _injured_again(BigHit.HURT, [Injury.CUT_UNDER_EYE])
    assert e.outcome() is None


def test_at_0_health_a_2_point_result_is_a_tko_but_a_1_point_result_is_not() -> None:
    jab = boxer(Punch.JAB, Feature.JUDGE_POINT)
    for value, stopped in ((2, True), (1, False)):
        r = result(lambda r, v=value: r.value(Punch.JAB, Column.OS_OS) == v)
        e = stacked(hand0=[jab], draws=[r])
        e.boxers[1].health = 0
        play(e, Throw(0, jab))
        let_land(e)
        outcome = e.outcome()
        assert (outcome is not None and outcome.how is Finish.TKO_HEALTH and outcome.winner == 0) is stopped


def test_the_punch_that_takes_health_to_0_is_not_itself_the_tko() -> None:
    cross = boxer(Punch.CROSS, Feature.JC_DEFENSE)
    two = result(lambda r: r.value(Punch.CROSS, Column.OS_OS) == 2)
    e = stacked(hand0=[cross], draws=[two])
    e.boxers[1].health, e.boxers[1].damage = 1, 1
    play(e, Throw(0, cross))
    let_land(e)
    assert e.boxers[1].health == 0 and not e.over


def test_at_0_health_a_big_hit_draws_for_the_knockout_then_stops_the_fight() -> None:
    down = big(BigHit.KNOCKDOWN)
    no_heart = result(lambda r: not r.heart, skip=[down, *HOOK3])
    heart = result(lambda r: r.heart, skip=[down, *HOOK3])
    for count, finish in ((no_heart, Finish.KO), (heart, Finish.TKO_HEALTH)):
        e = stacked(hand0=[HOOK], draws=[hook3(down, count), down, count])
        e.boxers[1].health = 0
        play(e, Throw(0, HOOK))
        let_land(e)
        assert e.outcome() is not None and e.outcome().how is finish  # type: ignore[union-attr]
    ropes = big(BigHit.ON_THE_ROPES)
    e = stacked(hand0=[HOOK], draws=[hook3(ropes), ropes])
    e.boxers[1].health = 0
    events = play(e, Throw(0, HOOK)) + let_land(e)
    assert BigHitDrawn(ropes, BigHit.ON_THE_ROPES, ignored=True) in events
    assert e.outcome() is not None and e.outcome().how is Finish.TKO_HEALTH  # type: ignore[union-attr]


# -- Big Hits inside a combination --------------------------------------------------------
CROSS_A = boxer(Punch.CROSS, Feature.COMBO_A)
JAB_A = boxer(Punch.JAB, Feature.COMBO_A)
CROSS3 = results(lambda r: r.value(Punch.CROSS, Column.OS_OS) == 3, n=2)


def test_a_trap_from_the_first_punch_of_a_combo_is_fought_out_before_the_second_punch_lands_in_its_column() -> None:
    ropes = big(BigHit.ON_THE_ROPES)
    mild = results(
        lambda r: max(r.better(p) for p in (Punch.JAB, Punch.CROSS, Punch.HOOK)) < 3, n=3, skip=[ropes, *CROSS3]
    )
    last = result(lambda r: r.value(Punch.JAB, Column.OS_OS) > 0, skip=[ropes, *CROSS3, *mild])
    e = stacked(hand0=[CROSS_A, JAB_A], draws=[CROSS3[0], ropes, *mild, last])
    play(e, Throw(0, CROSS_A), Pass(1), Combo(0, JAB_A))
    assert e.phase is Phase.ESCAPE
    events = play(e, Pass(1), Pass(1), Pass(1), Pass(1))
    drawn = of_type(events, ResultDrawn)
    assert [(d.punch, d.column) for d in drawn] == [
        (Punch.JAB, None),
        (Punch.CROSS, None),
        (Punch.HOOK, None),
        (Punch.JAB, Column.OS_OS),  # the combo's Jab, in the column it was thrown in
    ]
    assert e.active == 1 and e.phase is Phase.TURN


def test_a_knockdown_from_the_first_punch_of_a_combo_voids_the_second() -> None:
    down = big(BigHit.KNOCKDOWN)
    heart = result(lambda r: r.heart, skip=[down, *CROSS3])
    e = stacked(hand0=[CROSS_A, JAB_A], draws=[next(r for r in CROSS3 if r not in (down, heart)), down, heart])
    play(e, Throw(0, CROSS_A), Pass(1))
    events = play(e, Combo(0, JAB_A))
    assert KnockedDown(1, 1) in events and len(of_type(events, ResultDrawn)) == 1
    assert JAB_A in e.discard and e.active == 1

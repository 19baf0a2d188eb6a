"""Karate Fight: one test (or more) per rulebook paragraph and per written rule choice
(docs/rules/karate_fight.md)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from games.karate_fight import (
    CARD_KINDS,
    DECK_SIZE,
    SPEC,
    BoutReason,
    BoutWon,
    CardKind,
    CardPlayed,
    CowardsBlow,
    DirectionReversed,
    FighterOut,
    FighterStatus,
    HitKind,
    HitShowing,
    HitWon,
    IgnoreReason,
    JanKenReason,
    JanKenRound,
    JanKenStarted,
    JanKenWon,
    KarateFight,
    KarateMaster,
    KarateOptions,
    OutOfCards,
    PlayTop,
    Reentered,
    Shown,
    Sign,
    SlapIgnored,
    Slaps,
    Technique,
    Throw,
    ToPlay,
    WinReason,
    hit_caused,
)
from games.protocol import CABINET, IllegalAction
from tests.games.karate_fight.helpers import SHORT, fight, kinds, of_type, play, play_all, slap, throw

# -- Deck ----------------------------------------------------------------------------


def test_deck_has_54_cards_16_attack_28_defense_10_skill() -> None:
    assert len(CARD_KINDS) == DECK_SIZE == 54
    by_technique = Counter(k.technique for k in CARD_KINDS)
    assert by_technique == {Technique.ATTACK: 16, Technique.DEFENSE: 28, Technique.SKILL: 10}


def test_deck_split_is_the_data_files_with_a_note() -> None:
    data = json.loads((Path(__file__).parents[3] / "games/karate_fight/deck.json").read_text())
    assert "rulebook" in data["note"]
    assert Counter(CARD_KINDS) == {CardKind(r["kind"]): r["count"] for r in data["cards"]}


def test_chances_follow_the_rulebook_table() -> None:
    chances = {k: k.chances for k in (CardKind.CHOP, CardKind.PUNCH, CardKind.KICK, CardKind.THROW, CardKind.COUNTER)}
    assert chances == {CardKind.CHOP: 4, CardKind.PUNCH: 3, CardKind.KICK: 2, CardKind.THROW: 1, CardKind.COUNTER: 2}


def test_spec() -> None:
    assert (SPEC.name, SPEC.title, SPEC.min_players, SPEC.max_players) == ("karate_fight", "Karate Fight", 2, 4)
    assert SPEC.options_type is KarateOptions
    with pytest.raises(ValueError):
        KarateFight(KarateOptions(), 5, seed=1)


# -- Set-up ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "each", "aside"), [(2, 27, 0), (3, 18, 0), (4, 13, 2)])
def test_deal_is_even_with_the_remainder_aside(players: int, each: int, aside: int) -> None:
    e = KarateFight(KarateOptions(), players, seed=7)
    view = e.public_view()
    assert [f.pile_size for f in view.fighters] == [each] * players
    assert view.aside == aside and view.in_play == DECK_SIZE - aside
    places = e.card_places()
    assert sorted(c for cards in places.values() for c in cards) == list(range(DECK_SIZE))


def test_the_deal_is_shuffled_by_the_seed() -> None:
    a, b, c = (KarateFight(KarateOptions(), 2, seed=s) for s in (1, 1, 2))
    assert a.card_places() == b.card_places() != c.card_places()


def test_fighters_never_see_their_own_pile() -> None:
    e = KarateFight(KarateOptions(), 3, seed=3)
    text = repr(e.view(0))
    assert all(kind.name not in text for kind in CardKind)  # no card in any pile is named
    assert e.view(0).public.fighters[0].pile_size == 18


def test_the_cabinet_is_an_actor_while_the_fight_runs() -> None:
    """Slaps (a Coward's Blow) and reveal reports may come at any time: the cabinet acts."""
    e = KarateFight(KarateOptions(), 2, seed=1)
    assert e.to_act() == {CABINET, 0}
    assert any(isinstance(a, Slaps) for a in e.legal_actions(CABINET))


def test_the_fighter_left_of_the_dealer_begins() -> None:
    assert KarateFight(KarateOptions(), 3, seed=1).seats_to_act() == {0}
    assert KarateFight(KarateOptions(first_fighter=2), 3, seed=1).seats_to_act() == {2}


# -- Fight: order, defense, attacks ----------------------------------------------------


def test_play_order_goes_to_the_left_and_defense_passes_on() -> None:
    e = fight("dd", "bb", "dd", "bb")
    seen = []
    for _ in range(4):
        seen.append(e.turn)
        play(e)
    assert seen == [0, 1, 2, 3] and e.turn == 0


def test_only_the_fighter_whose_turn_it_is_may_play() -> None:
    e = fight("dd", "bb")
    with pytest.raises(IllegalAction, match="fighter 1's turn"):
        e.apply(PlayTop(1, 10))
    assert e.legal_actions(1) == () and e.legal_actions(0) == (PlayTop(0, 0),)


@pytest.mark.parametrize(("attack", "chances"), [("C", 4), ("P", 3), ("K", 2), ("T", 1)])
def test_each_attack_gives_its_chances_then_the_last_attacker_wins(attack: str, chances: int) -> None:
    e = fight(attack + "dddd", "bjbjbj")
    events = play(e)
    assert ToPlay(1, 0, chances) in events and e.public_view().chances == chances
    for left in range(chances - 1, 0, -1):
        events = play(e)
        assert e.turn == 1 and e.chances == left and ToPlay(1, 0, left) in events
    events = play(e)
    assert BoutWon(0, chances + 1, BoutReason.LAST_ATTACK) in events


def test_an_attack_answered_passes_the_attack_on() -> None:
    e = fight("Cddd", "bP", "jjjjj")
    play(e)  # Chop: fighter 1 must answer
    play(e)  # Block: one chance used
    events = play(e)  # Punch answers
    assert ToPlay(2, 1, 3) in events and e.attacker == 1


def test_a_skill_answers_an_attack() -> None:
    e = fight("Cddd", "J", "jjj")
    play(e)
    events = play(e)
    assert JanKenStarted(JanKenReason.JAN_KEN_CARD, (0, 1, 2)) in events


def test_the_pile_goes_in_order_to_the_bottom_of_the_winners_pile_and_the_winner_starts() -> None:
    e = fight("dTe", "bjd")
    play_all(e, 3)  # dodge, block, Throw by 0 ... 1 has one chance: jump
    events = play(e)
    assert of_type(events, BoutWon) == [BoutWon(0, 4, BoutReason.LAST_ATTACK)]
    assert kinds(e.piles[0]) == "e" + "dbTj"
    assert e.turn == 0 and e.seats_to_act() == {0}


# -- Hits ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("piles", "cards", "kind"),
    [
        (("db", "bj"), 3, HitKind.CLUMSY_DEFENSE),  # dodge, block, block
        (("dj", "be"), 4, HitKind.PERFECT_DEFENSE),  # dodge, block, jump, evade
        (("S", "d"), 1, HitKind.STRIKE),
    ],
)
def test_hits_by_defense_and_strike(piles: tuple[str, str], cards: int, kind: HitKind) -> None:
    e = fight(*piles)
    events = play_all(e, cards)
    played = of_type(events, CardPlayed)
    assert [p.hit for p in played] == [None] * (cards - 1) + [kind]
    assert HitShowing(kind, e.now, ()) in events and e.seats_to_act() == frozenset()
    assert e.public_view().hit_showing is kind


def test_flurry_three_of_the_same_attack_in_a_bout() -> None:
    e = fight("CC", "Cd")
    events = play_all(e, 3)  # Chop; Chop answers; Chop answers → third Chop
    assert [p.hit for p in of_type(events, CardPlayed)] == [None, None, HitKind.FLURRY]


def test_ultimate_combo_one_of_each_attack_in_a_bout() -> None:
    e = fight("CK", "PT")
    events = play_all(e, 4)
    assert [p.hit for p in of_type(events, CardPlayed)] == [None, None, None, HitKind.ULTIMATE_COMBO]


def test_hit_detection_needs_back_to_back_defenses_and_this_bout_only() -> None:
    d, b = CardKind.DODGE, CardKind.BLOCK
    assert hit_caused([d, b, d]) is None
    assert hit_caused([d, CardKind.CHOP, d]) is None
    assert hit_caused([CardKind.JUMP, d, b, CardKind.EVADE, d]) is None  # back to back means the last four
    assert hit_caused([CardKind.JUMP, d, b, CardKind.EVADE]) is HitKind.PERFECT_DEFENSE


def test_counter_is_no_attack_card_for_flurry_or_ultimate_combo() -> None:
    c, p, k, x = CardKind.CHOP, CardKind.PUNCH, CardKind.KICK, CardKind.COUNTER
    assert hit_caused([c, p, k, x]) is None
    assert hit_caused([x, x, x]) is None


def test_cowards_blow_cards_under_the_pile_make_no_hit() -> None:
    e = fight("dde", "bj")
    play(e)  # 0: dodge
    slap(e, 0)  # pays its next dodge under the centre pile
    events = play(e)  # 1: block — not back to back with the paid dodge
    assert kinds(e.centre) == "ddb" and [p.hit for p in of_type(events, CardPlayed)] == [None]


def test_the_first_slap_on_a_hit_wins_the_bout() -> None:
    e = fight("S", "dd", "jj")
    play(e)
    events = slap(e, 2, dt=180_000)
    assert HitWon(HitKind.STRIKE, 2, e.now - 180_000, e.now, 180_000, by_jan_ken=False) in events
    assert BoutWon(2, 1, BoutReason.HIT) in events and e.turn == 2


def test_the_bout_pauses_while_a_hit_waits_for_its_slap() -> None:
    e = fight("Sd", "dd")
    e.apply(PlayTop(0, 100))
    with pytest.raises(IllegalAction, match="Hit"):
        e.apply(PlayTop(1, 200))
    e.apply(Shown(t_us=300))
    with pytest.raises(IllegalAction, match="Hit"):
        e.apply(PlayTop(1, 400))


# -- Coward's Blow ---------------------------------------------------------------------------


def test_cowards_blow_costs_one_card_then_two_each_time_in_the_same_bout() -> None:
    e = fight("dSbjebjeb", "jdddd")
    play(e)  # dodge, no Hit
    events = slap(e, 0)
    assert CowardsBlow(0, e.now, 1, None) in events
    assert kinds(e.centre) == "S" + "d"  # the Strike from the top of 0's pile, under the centre pile
    events = slap(e, 0)
    assert CowardsBlow(0, e.now, 2, None) in events
    events = slap(e, 0)
    assert CowardsBlow(0, e.now, 2, None) in events
    assert kinds(e.centre) == "bejbS" + "d" and e.public_view().fighters[0].cowards_blows == 3


def test_cowards_blow_count_starts_again_each_bout() -> None:
    e = fight("dTbbb", "jjjjj")
    play(e)
    slap(e, 1)
    play_all(e, 3)  # 0's Throw (after 1's Coward's Blow), 1 answers jump: 0 wins
    assert e.turn == 0 and e.cowards == [0, 0]
    assert CowardsBlow(1, e.now + 200_000, 1, None) in slap(e, 1)


def test_cowards_blow_with_a_pile_short_of_two_pays_what_it_has() -> None:
    e = fight("dd", "jb")
    slap(e, 1)
    events = slap(e, 1)
    assert CowardsBlow(1, e.now, 1, None) in events and OutOfCards(1) in events
    assert e.public_view().fighters[1].status is FighterStatus.OUT_OF_CARDS


# -- Skill cards --------------------------------------------------------------------------


def test_counter_reverses_the_direction_of_play() -> None:
    e = fight("dd", "Xd", "jj")
    play(e)  # 0 dodge → 1
    events = play(e)  # 1 Counter, not answering an attack: play turns round
    assert DirectionReversed(-1) in events and e.turn == 0 and e.attacker is None


def test_counter_answering_counts_as_an_attack_with_two_chances_for_the_former_attacker() -> None:
    e = fight("Kbjb", "X", "ddd")
    play(e)  # 0 Kick: 1 must answer
    events = play(e)  # 1 Counter
    assert DirectionReversed(-1) in events and ToPlay(0, 1, 2) in events
    play(e)
    events = play(e)
    assert BoutWon(1, 4, BoutReason.LAST_ATTACK) in events


def test_direction_stays_reversed_in_the_next_bout() -> None:
    e = fight("Kbjbd", "Xd", "ddd")
    play_all(e, 4)
    assert e.direction == -1 and e.turn == 1
    play(e)
    assert e.turn == 0


def test_jan_ken_card_all_fighters_play_and_the_winner_wins_the_bout() -> None:
    e = fight("dd", "Jd", "bb")
    play(e)
    events = play(e)
    assert JanKenStarted(JanKenReason.JAN_KEN_CARD, (0, 1, 2)) in events
    assert e.seats_to_act() == {0, 1, 2}
    with pytest.raises(IllegalAction, match="Jan Ken"):
        e.apply(PlayTop(2, e.now + 1))
    events = throw(e, {0: "r", 1: "s", 2: "s"})
    (round_,) = of_type(events, JanKenRound)
    assert (round_.eliminated, round_.remaining) == ((1, 2), (0,))
    assert [(t.fighter, t.sign) for t in round_.signs] == [(0, Sign.ROCK), (1, Sign.SCISSORS), (2, Sign.SCISSORS)]
    assert of_type(events, JanKenWon) == [JanKenWon(0, JanKenReason.JAN_KEN_CARD)]
    assert BoutWon(0, 2, BoutReason.JAN_KEN) in events


# -- Jan Ken --------------------------------------------------------------------------------


def jan_ken_fight(players: int) -> KarateFight:
    e = fight(*(["Jd"] + ["dd"] * (players - 1)))
    play(e)
    return e


def test_jan_ken_two_fighters_same_sign_is_a_draw_then_a_winner() -> None:
    e = jan_ken_fight(2)
    events = throw(e, {0: "p", 1: "p"})
    rounds = of_type(events, JanKenRound)
    assert rounds[0].eliminated == () and rounds[0].remaining == (0, 1) and e.jan_ken is not None
    events = throw(e, {0: "p", 1: "s"})
    assert JanKenWon(1, JanKenReason.JAN_KEN_CARD) in events


@pytest.mark.parametrize("players", [3, 4])
def test_jan_ken_all_same_or_all_three_signs_is_a_draw(players: int) -> None:
    e = jan_ken_fight(players)
    throw(e, dict.fromkeys(range(players), "r"))
    assert e.jan_ken is not None and e.jan_ken.round == 2
    signs = dict(zip(range(players), "rpss", strict=False))
    events = throw(e, signs)
    assert of_type(events, JanKenRound)[0].eliminated == () and e.jan_ken.remaining == tuple(range(players))


def test_jan_ken_with_two_signs_the_losers_are_eliminated_and_winners_play_on() -> None:
    e = jan_ken_fight(4)
    events = throw(e, {0: "p", 1: "r", 2: "p", 3: "r"})
    assert of_type(events, JanKenRound)[0].eliminated == (1, 3)
    assert e.seats_to_act() == {0, 2}
    with pytest.raises(IllegalAction, match="not in this Jan Ken"):
        e.apply(Throw(1, Sign.ROCK))
    events = throw(e, {0: "s", 2: "p"})
    assert JanKenWon(0, JanKenReason.JAN_KEN_CARD) in events


def test_jan_ken_signs_are_secret_until_everyone_threw() -> None:
    e = jan_ken_fight(3)
    events = e.apply(Throw(1, Sign.PAPER))
    assert "PAPER" not in repr(events) and "PAPER" not in repr(e.public_view())
    assert "PAPER" not in repr(e.view(0)) and e.view(1).own_sign is Sign.PAPER
    assert e.public_view().jan_ken.locked == (1,) and e.seats_to_act() == {0, 2}
    with pytest.raises(IllegalAction, match="already locked"):
        e.apply(Throw(1, Sign.ROCK))


def test_a_slap_during_jan_ken_is_ignored() -> None:
    e = jan_ken_fight(2)
    events = slap(e, 1, dt=1_000_000)
    assert events == [SlapIgnored(1, e.now, IgnoreReason.JAN_KEN, None, None)]


# -- Running out of cards, going out, Karate Master ---------------------------------------------


def test_out_of_cards_the_fighter_is_skipped_and_may_reenter_by_winning_a_hit() -> None:
    e = fight("dbd", "j", "djS")
    play(e)
    events = play(e)  # 1 plays its last card
    assert OutOfCards(1) in events
    play(e)  # 2: dodge
    play(e)  # 0: block
    assert e.turn == 2  # 1 has nothing to draw: skipped
    play(e)  # 2: jump
    play(e)  # 0: dodge → 0 out of cards too
    assert e.turn == 2
    play(e)  # 2: Strike
    events = slap(e, 1)
    assert HitWon(HitKind.STRIKE, 1, e.now - 200_000, e.now, 200_000, False) in events
    assert Reentered(1) in events and e.public_view().fighters[1].status is FighterStatus.FIGHTING


def test_a_cowards_blow_with_no_cards_puts_the_fighter_out() -> None:
    e = fight("ddd", "j", "bbb")
    play(e)
    play(e)  # 1 out of cards
    events = slap(e, 1)
    assert events == [CowardsBlow(1, e.now, 0, None), FighterOut(1)]
    assert e.public_view().fighters[1].status is FighterStatus.OUT
    play(e)  # 2
    assert e.turn == 0
    assert slap(e, 1) == [SlapIgnored(1, e.now, IgnoreReason.OUT_OF_GAME, None, None)]


def test_the_fighter_who_holds_every_card_is_karate_master() -> None:
    e = fight("Td", "j")
    play(e)
    events = play(e)
    assert BoutWon(0, 2, BoutReason.LAST_ATTACK) in events and KarateMaster(0) in events
    assert (e.outcome().winner, e.outcome().how) == (0, WinReason.KARATE_MASTER) and e.over
    assert e.public_view().master == 0 and e.seats_to_act() == frozenset()
    with pytest.raises(IllegalAction, match="over"):
        e.apply(PlayTop(0, e.now + 1))


def test_karate_master_holds_every_card_in_play_not_those_set_aside() -> None:
    e = KarateFight(KarateOptions(deal=((0, 16), (17,), (18,), (19,))), 4, seed=0)
    assert e.public_view().aside == 49 and e.public_view().in_play == 5
    e = KarateFight(KarateOptions(), 4, seed=0)
    assert e.public_view().in_play == 52


def test_last_fighter_standing_takes_the_centre_and_is_master() -> None:
    e = fight("dd", "j")
    play(e)
    play(e)  # 1 out of cards
    events = slap(e, 1)
    assert BoutWon(0, 2, BoutReason.LAST_STANDING) in events and KarateMaster(0) in events


# -- Rule choices (docs/rules/karate_fight.md) -------------------------------------------------


def test_choice_a_responder_who_runs_out_of_cards_fails_to_answer() -> None:
    e = fight("Cddd", "bj", "eeee")
    play_all(e, 2)
    events = play(e)  # 1's last card, two chances left
    assert BoutWon(0, 3, BoutReason.LAST_ATTACK) in events


def test_choice_the_answer_falls_to_the_next_fighter_with_cards() -> None:
    e = fight("dC", "j", "bbb")
    play_all(e, 3)  # 0 dodge, 1 jump (out), 2 block
    events = play(e)  # 0 Chop: 1 has no cards, 2 answers
    assert ToPlay(2, 0, 4) in events


def test_choice_an_attack_nobody_else_can_answer_wins_at_once() -> None:
    e = fight("dbT", "j")
    play_all(e, 2)  # 1 out of cards; 0 plays on alone
    assert e.turn == 0
    play(e)
    assert e.turn == 0
    events = play(e)
    assert BoutWon(0, 4, BoutReason.LAST_ATTACK) in events


def test_choice_when_no_one_can_play_the_latest_card_takes_the_bout() -> None:
    e = fight("d", "b", "j")
    play_all(e, 2)
    events = play(e)
    assert BoutWon(2, 3, BoutReason.NO_ONE_CAN_PLAY) in events and e.over


def test_choice_an_attacker_who_goes_out_forfeits_the_attack() -> None:
    e = fight("Tbbb", "jdjd", "eeee")
    play(e)  # 0 Throw
    slap(e, 0)  # pays b
    slap(e, 0)  # pays bb: out of cards
    events = slap(e, 0)  # no cards: out
    assert FighterOut(0) in events and e.attacker is None and e.turn == 1
    events = play(e)
    assert ToPlay(2, None, None) in events


def test_choice_stamps_never_go_back_and_only_the_cabinet_reports_time() -> None:
    e = fight("dd", "bb")
    e.apply(PlayTop(0, 1_000))
    with pytest.raises(IllegalAction, match="earlier"):
        e.apply(Shown(t_us=999))
    with pytest.raises(IllegalAction, match="cabinet"):
        e.apply(Slaps(player=1, t_us=2_000, fighters=(1,)))
    e.apply(Shown(t_us=1_000))
    with pytest.raises(IllegalAction, match="once"):
        e.apply(Slaps(t_us=2_000, fighters=(1, 1)))
    with pytest.raises(IllegalAction, match="seat"):
        e.apply(Slaps(t_us=2_000, fighters=(5,)))


def test_choice_a_reveal_after_the_card_ended_its_bout_is_no_news() -> None:
    e = fight("Td", "jd")
    e.apply(PlayTop(0, 100))
    e.apply(Shown(t_us=120))
    e.apply(PlayTop(1, 200))  # 1's only chance fails: 0 wins at once
    assert not e.awaiting_reveal
    assert e.apply(Shown(t_us=220)) == ()


def test_choice_cowards_blows_that_would_put_everyone_out_put_no_one_out() -> None:
    e = fight("dS", "j")
    play(e)
    play(e)
    e.apply(PlayTop(0, e.now + 100))  # 0's last card, a Strike: both piles empty, not yet shown
    events = slap(e, 0, 1, dt=1)
    assert events == [CowardsBlow(0, e.now, 0, HitKind.STRIKE), CowardsBlow(1, e.now, 0, HitKind.STRIKE)]
    assert e.in_game == [True, True]
    events = slap(e, 1, dt=1)
    assert FighterOut(1) in events and KarateMaster(0) in events


def test_choice_play_may_go_on_before_a_plain_card_is_shown() -> None:
    e = fight("db", "jj")
    e.apply(PlayTop(0, 100))
    e.apply(PlayTop(1, 150))
    assert e.awaiting_reveal
    e.apply(Shown(t_us=170))
    assert not e.awaiting_reveal


def test_legal_actions_cover_seats_and_cabinet() -> None:
    e = fight("S", "d")
    assert e.legal_actions(0) == (PlayTop(0, 0),)
    e.apply(PlayTop(0, 10))
    assert e.legal_actions(0) == () and e.seats_to_act() == frozenset()
    assert Shown(t_us=10) in e.legal_actions(CABINET)
    for action in e.legal_actions(CABINET):
        e.check(action)


def test_a_prearranged_deal_is_checked() -> None:
    with pytest.raises(ValueError, match="distinct"):
        KarateFight(KarateOptions(deal=((1, 1), (2,))), 2, seed=0)
    with pytest.raises(ValueError, match="piles"):
        KarateFight(KarateOptions(deal=((1,),)), 2, seed=0)


def test_shorthand_covers_every_card_kind() -> None:
    assert set(SHORT.values()) == set(CardKind)

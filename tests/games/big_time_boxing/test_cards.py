"""The card data: what the rulebook says about the cards holds for the chosen values, and a
broken data file is refused with an error naming the file, the card and the field."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from statistics import mean
from typing import Any

import pytest

from games.big_time_boxing import CARDS, AttributeUse, BigHit, CardDataError, Column, Feature, Punch, load_card_data
from games.big_time_boxing.cards import DATA_DIR, PUNCH_COLUMNS

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "big_time_boxing.md"


# -- the Boxer cards ---------------------------------------------------------------------
def test_48_boxer_cards_in_two_sets_of_24_alike_so_the_thinky_game_is_even() -> None:
    assert len(CARDS.boxers) == 48
    sets = [[c for c in CARDS.boxers if c.gloves_hanging is hanging] for hanging in (False, True)]
    assert [len(s) for s in sets] == [24, 24]
    plain, gloves = ([(c.punch, c.cost, c.feature) for c in s] for s in sets)
    assert Counter(plain) == Counter(gloves)


def test_jabs_are_the_commonest_punch_and_usually_cost_no_energy() -> None:
    punches = Counter(c.punch for c in CARDS.boxers)
    assert punches.most_common(1)[0][0] is Punch.JAB
    jabs = [c for c in CARDS.boxers if c.punch is Punch.JAB]
    assert sum(c.cost == 0 for c in jabs) > len(jabs) / 2
    assert all(c.cost > 0 for c in CARDS.boxers if c.punch is not Punch.JAB)  # "all types except 0-Jabs"


def test_judge_points_plus_1_on_jabs_and_uppercuts_the_judges_favourites() -> None:
    holders = {c.punch for c in CARDS.boxers if c.feature is Feature.JUDGE_POINT}
    assert holders == {Punch.JAB, Punch.UPPERCUT}


def test_two_combo_icons_and_exactly_two_hooks_with_both() -> None:
    both = [c for c in CARDS.boxers if c.feature is Feature.COMBO_AB]
    assert len(both) == 2 and {c.punch for c in both} == {Punch.HOOK}
    a = {c.punch for c in CARDS.boxers if c.feature is Feature.COMBO_A}
    b = {c.punch for c in CARDS.boxers if c.feature is Feature.COMBO_B}
    assert {Punch.JAB, Punch.CROSS} <= a  # the ol' one-two
    assert {Punch.BODY_BLOW} <= b  # Body Blow/Body Blow is a valid combo


def test_every_special_feature_appears_in_each_set() -> None:
    for hanging in (False, True):
        features = {c.feature for c in CARDS.boxers if c.gloves_hanging is hanging}
        assert features == set(Feature)


# -- the Result cards --------------------------------------------------------------------
def _values(punch: Punch, column: Column) -> list[int]:
    return [r.value(punch, column) for r in CARDS.results]


def _big_hits(punch: Punch, column: Column) -> int:
    return _values(punch, column).count(3)


def test_30_result_cards_with_a_result_for_each_punch_in_each_column_it_can_land_in() -> None:
    assert len(CARDS.results) == 30
    for r in CARDS.results:
        assert set(r.values) == {(p, c) for p, cs in PUNCH_COLUMNS.items() for c in cs}
        assert all(0 <= v <= 3 for v in r.values.values())


def test_jabs_never_big_hit_and_both_outside_hurts_least() -> None:
    assert _big_hits(Punch.JAB, Column.OS_OS) == _big_hits(Punch.JAB, Column.OS_IS) == 0
    for punch in (Punch.JAB, Punch.CROSS):
        assert mean(_values(punch, Column.OS_OS)) < mean(_values(punch, Column.OS_IS))


def test_crosses_sometimes_big_hit_hooks_most_of_all_and_most_when_both_are_inside() -> None:
    cross = _big_hits(Punch.CROSS, Column.OS_OS) + _big_hits(Punch.CROSS, Column.OS_IS)
    assert cross > 0
    by_column = {(p, c): _big_hits(p, c) for p, cs in PUNCH_COLUMNS.items() for c in cs}
    assert max(by_column, key=lambda k: by_column[k]) == (Punch.HOOK, Column.IS_IS)
    assert by_column[Punch.HOOK, Column.OS_IS] >= max(v for (p, _), v in by_column.items() if p is not Punch.HOOK)


def test_uppercuts_are_much_more_powerful_when_both_are_inside() -> None:
    assert mean(_values(Punch.UPPERCUT, Column.IS_IS)) > mean(_values(Punch.UPPERCUT, Column.OS_IS)) + 0.4


def test_body_blows_always_cost_health_and_big_hit_rarely_and_only_when_both_are_inside() -> None:
    for column in (Column.OS_IS, Column.IS_IS):
        assert min(_values(Punch.BODY_BLOW, column)) >= 1
    assert _big_hits(Punch.BODY_BLOW, Column.OS_IS) == 0
    assert 0 < _big_hits(Punch.BODY_BLOW, Column.IS_IS) < _big_hits(Punch.HOOK, Column.IS_IS)


def test_big_hit_sections_hold_every_trap_injury_and_knockdown() -> None:
    assert {r.big_hit for r in CARDS.results} == set(BigHit)


def test_most_cards_show_the_heart_but_not_all() -> None:
    hearts = sum(r.heart for r in CARDS.results)
    assert 15 < hearts < 30


def test_clinch_results_usually_regain_energy_and_include_judge_points_head_butts_and_warnings() -> None:
    clinches = [r.clinch for r in CARDS.results]
    assert sum(c.energy > 0 for c in clinches) > 0.8 * len(clinches)
    assert {c.energy for c in clinches} == {0, 1, 2}
    assert any(c.judge_point == -1 for c in clinches)
    assert any(c.damage_to_you for c in clinches) and any(c.damage_to_opponent for c in clinches)
    assert any(c.warning for c in clinches)


# -- the Attribute cards -----------------------------------------------------------------
def test_24_attribute_cards_12_per_boxer_single_use_once_per_round_and_permanent() -> None:
    assert len(CARDS.attributes) == 24
    for boxer in (0, 1):
        own = [a for a in CARDS.attributes if a.boxer == boxer]
        assert len(own) == 12
        assert Counter(a.use for a in own) == {use: 4 for use in AttributeUse}


# -- the documented distribution ---------------------------------------------------------
def distribution_table() -> str:
    """The markdown table of docs/rules/big_time_boxing.md: per punch and column, how many
    of the 30 Result cards give 0, 1, 2 and 3, and the average."""
    lines = ["| punch | column | 0 | 1 | 2 | 3 (Big Hit) | average |", "|---|---|---:|---:|---:|---:|---:|"]
    for punch, columns in PUNCH_COLUMNS.items():
        rows: list[tuple[str, list[int]]] = [(c.value, _values(punch, c)) for c in columns]
        if punch is not Punch.BODY_BLOW:  # never one of the three punches on the ropes or in the corner
            rows.append(("trapped (better)", [r.better(punch) for r in CARDS.results]))
        for name, values in rows:
            counts = [values.count(v) for v in range(4)]
            cells = " | ".join(str(n) for n in counts)
            lines.append(f"| {punch.value.replace('_', ' ')} | {name} | {cells} | {mean(values):.2f} |")
    return "\n".join(lines)


def test_the_rules_document_shows_the_distribution_of_the_data_files() -> None:
    assert distribution_table() in DOC.read_text(encoding="utf-8")


# -- validation --------------------------------------------------------------------------
def _broken(tmp_path: Path, file: str, change: Callable[[dict[str, Any]], None]) -> Path:
    for name in ("boxer_cards.json", "result_cards.json", "attribute_cards.json"):
        shutil.copy(DATA_DIR / name, tmp_path / name)
    data = json.loads((tmp_path / file).read_text(encoding="utf-8"))
    change(data)
    (tmp_path / file).write_text(json.dumps(data), encoding="utf-8")
    return tmp_path


def _set(index: int, field: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        row = data["cards"][index]
        *path, last = field.split(".")
        for key in path:
            row = row[key]
        if value is _DELETE:
            del row[last]
        else:
            row[last] = value

    return change


_DELETE = object()

BROKEN = [
    ("boxer_cards.json", _set(7, "cost", 5), r"boxer_cards\.json: card 7, field 'cost': must be a whole number 0\.\.2"),
    ("boxer_cards.json", _set(3, "punch", "haymaker"), r"card 3, field 'punch': 'haymaker' is not one of"),
    ("boxer_cards.json", _set(8, "cost", 0), r"card 8, field 'cost': only Jabs cost no energy"),
    (
        "boxer_cards.json",
        _set(0, "feature", "combo_ab"),
        r"card 0, field 'feature': both combo icons appear only on a Hook",
    ),
    ("boxer_cards.json", _set(30, "set", "red"), r"card 30, field 'set'"),
    ("boxer_cards.json", _set(30, "set", "plain"), r"each set must hold 24 cards"),
    ("boxer_cards.json", _set(2, "id", 9), r"card #2, field 'id': must be 2"),
    ("boxer_cards.json", lambda d: d["cards"].pop(), r"boxer_cards\.json: must hold 48 Boxer cards, not 47"),
    (
        "result_cards.json",
        _set(4, "body_blow.OS/IS", 0),
        r"result_cards\.json: card 4, field 'body_blow\.OS/IS'.*Body Blow",
    ),
    ("result_cards.json", _set(5, "hook.IS/IS", 4), r"card 5, field 'hook\.IS/IS': must be a whole number 0\.\.3"),
    (
        "result_cards.json",
        _set(6, "jab", {"OS/OS": 1, "IS/IS": 1}),
        r"card 6, field 'jab': must give exactly OS/IS and OS/OS",
    ),
    ("result_cards.json", _set(9, "heart", _DELETE), r"card 9, field 'heart': missing"),
    ("result_cards.json", _set(9, "heart", "yes"), r"card 9, field 'heart': must be true or false"),
    ("result_cards.json", _set(10, "big_hit", "uppercut"), r"card 10, field 'big_hit': 'uppercut' is not one of"),
    ("result_cards.json", _set(11, "clinch.energy", 3), r"card 11 \(clinch\), field 'energy'"),
    ("result_cards.json", _set(11, "clinch.bribe", 1), r"card 11, field 'clinch\.bribe': is not a clinch result"),
    ("attribute_cards.json", _set(1, "effect", "laser_eyes"), r"attribute_cards\.json: card 1, field 'effect'"),
    ("attribute_cards.json", _set(1, "use", "twice"), r"card 1, field 'use'"),
    ("attribute_cards.json", _set(13, "boxer", 0), r"card 13, field 'boxer'"),
    ("attribute_cards.json", _set(2, "effect", "granite_chin"), r"boxer 0's set names one effect twice"),
]


@pytest.mark.parametrize(("file", "change", "message"), BROKEN, ids=[m for _, _, m in BROKEN])
def test_a_broken_data_file_is_refused_naming_the_file_card_and_field(
    tmp_path: Path, file: str, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    folder = _broken(tmp_path, file, change)
    with pytest.raises(CardDataError, match=message):
        load_card_data(folder)


def test_a_data_file_that_is_not_json_names_the_line(tmp_path: Path) -> None:
    for name in ("boxer_cards.json", "result_cards.json", "attribute_cards.json"):
        shutil.copy(DATA_DIR / name, tmp_path / name)
    (tmp_path / "result_cards.json").write_text('{"cards": [\n  {"id": 0,,}\n]}', encoding="utf-8")
    with pytest.raises(CardDataError, match=r"result_cards\.json: not valid JSON \(line 2"):
        load_card_data(tmp_path)


def test_a_missing_data_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match=r"boxer_cards\.json: cannot be read"):
        load_card_data(tmp_path)


def test_the_shipped_files_load() -> None:
    assert load_card_data(DATA_DIR) == CARDS


if __name__ == "__main__":
    print(distribution_table())


def test_every_test_the_rules_document_names_exists() -> None:
    names = set(re.findall(r"\b(test_[a-z0-9_]+)\b(?![*….])", DOC.read_text(encoding="utf-8")))
    tests = Path(__file__).parents[2]
    at_the_cabinet = [
        tests / "firmware_py" / "test_cabinet_big_time_boxing.py",
        tests / "display" / "test_big_time_boxing_screen.py",
        tests / "display" / "test_story_order.py",
    ]
    files = [*Path(__file__).parent.glob("test_*.py"), *at_the_cabinet]
    source = "".join(p.read_text(encoding="utf-8") for p in files)
    defined = set(re.findall(r"^def (test_[a-z0-9_]+)", source, re.M))
    assert names and names - defined == set()

"""Big Time Boxing's cards: what is printed on them, loaded and checked from data files.

The rulebook describes the 48 Boxer cards, 30 Result cards and 24 Attribute cards but
prints none of their values, so every value lives in the JSON files beside this module
(``boxer_cards.json``, ``result_cards.json``, ``attribute_cards.json``), each with a note
on why it was chosen; an owner of the printed game can replace them.  Loading checks every
field against the rulebook's facts and names the file, the card and the field it rejects.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).parent
BOXER_FILE = "boxer_cards.json"
RESULT_FILE = "result_cards.json"
ATTRIBUTE_FILE = "attribute_cards.json"

BOXER_CARDS = 48
BOXER_SET_SIZE = 24
RESULT_CARDS = 30
ATTRIBUTES_PER_BOXER = 12
MAX_RESULT = 3
"""A result of 3 is a Big Hit."""


class CardDataError(ValueError):
    """A card data file breaks the rules; the message names the file, card and field."""


class Punch(Enum):
    __hash__ = object.__hash__
    """Identity hash: the engine and the bot look these up on every punch."""

    JAB = "jab"
    CROSS = "cross"
    HOOK = "hook"
    UPPERCUT = "uppercut"
    BODY_BLOW = "body_blow"

    @property
    def outside(self) -> bool:
        """Thrown from the Outside (O/S) area; the others from the Inside (I/S)."""
        return self in (Punch.JAB, Punch.CROSS)

    @property
    def head(self) -> bool:
        """Nose bleeds and cuts are ignored when they come from a Body Blow."""
        return self is not Punch.BODY_BLOW


class Column(Enum):
    """Where the two boxers stand when a punch lands: a Result card's sub-sections."""

    __hash__ = object.__hash__
    """Identity hash: the engine and the bot look these up on every punch."""

    OS_OS = "OS/OS"
    OS_IS = "OS/IS"
    IS_IS = "IS/IS"


PUNCH_COLUMNS: dict[Punch, tuple[Column, Column]] = {
    Punch.JAB: (Column.OS_OS, Column.OS_IS),
    Punch.CROSS: (Column.OS_OS, Column.OS_IS),
    Punch.HOOK: (Column.OS_IS, Column.IS_IS),
    Punch.UPPERCUT: (Column.OS_IS, Column.IS_IS),
    Punch.BODY_BLOW: (Column.OS_IS, Column.IS_IS),
}
"""The two columns a punch can land in: O/S punches never see IS/IS, I/S punches never
OS/OS (the Jab/Hook combo from O/S uses OS/IS)."""


class Feature(Enum):
    """A Boxer card's special feature (one per card)."""

    __hash__ = object.__hash__
    """Identity hash: the engine and the bot look these up on every punch."""

    JUDGE_POINT = "judge_point"
    COMBO_A = "combo_a"
    COMBO_B = "combo_b"
    COMBO_AB = "combo_ab"
    """Both combo icons: only on a Hook, which may then follow a Jab or Cross from O/S."""
    JC_DEFENSE = "jc_defense"
    HUB_DEFENSE = "hub_defense"
    ESCAPE_ROPES = "escape_ropes"
    ESCAPE_CORNER = "escape_corner"

    @property
    def combo_icons(self) -> frozenset[str]:
        return _ICONS.get(self, frozenset())


_ICONS = {
    Feature.COMBO_A: frozenset("a"),
    Feature.COMBO_B: frozenset("b"),
    Feature.COMBO_AB: frozenset("ab"),
}


class BigHit(Enum):
    """A Result card's Big Hit section, read after a result of 3."""

    __hash__ = object.__hash__
    """Identity hash: the engine and the bot look these up on every punch."""

    ON_THE_ROPES = "on_the_ropes"
    IN_THE_CORNER = "in_the_corner"
    HURT = "hurt"
    NOSE_BLEED = "nose_bleed"
    CUT_UNDER_EYE = "cut_under_eye"
    CUT_OVER_EYE = "cut_over_eye"
    KNOCKDOWN = "knockdown"
    NONE = "none"


class Injury(Enum):
    """An injury tile; the value of :data:`INJURY_DAMAGE` is what it adds to the Damage die."""

    __hash__ = object.__hash__
    """Identity hash: the engine and the bot look these up on every punch."""

    HURT = "hurt"
    NOSE_BLEED = "nose_bleed"
    CUT_UNDER_EYE = "cut_under_eye"
    CUT_OVER_EYE = "cut_over_eye"


INJURY_DAMAGE = {Injury.HURT: 2, Injury.NOSE_BLEED: 3, Injury.CUT_UNDER_EYE: 3, Injury.CUT_OVER_EYE: 4}
INJURY_OF = {BigHit(i.value): i for i in Injury}
KNOCKDOWN_DAMAGE = 5


class AttributeUse(Enum):
    SINGLE_USE = "single_use"
    ONCE_PER_ROUND = "once_per_round"
    PERMANENT = "permanent"


class Effect(Enum):
    """What an Attribute card does; the engine implements each (see the card's text)."""

    GRANITE_CHIN = "granite_chin"
    DEEP_LUNGS = "deep_lungs"
    RING_GENERAL = "ring_general"
    THICK_SKIN = "thick_skin"
    COUNTERPUNCHER = "counterpuncher"
    SLICK = "slick"
    WORKHORSE = "workhorse"
    FAST_HANDS = "fast_hands"
    SECOND_WIND = "second_wind"
    HEART_OF_A_CHAMPION = "heart_of_a_champion"
    CUTMAN = "cutman"
    HAYMAKER = "haymaker"

    @property
    def played_on_turn(self) -> bool:
        """Played by choice as a free action on your turn (the others act by themselves,
        or, for Slick, through the defense card played)."""
        return self in (Effect.SECOND_WIND, Effect.HAYMAKER)


@dataclass(frozen=True)
class BoxerCard:
    id: int
    gloves_hanging: bool
    """The Thinky game's marker: which of the two sets of 24 the card belongs to."""
    punch: Punch
    cost: int
    feature: Feature


@dataclass(frozen=True)
class ClinchResult:
    energy: int
    judge_point: int = 0
    """-1: a Judge Point lost for unnecessary or excessive clinching."""
    damage_to_you: int = 0
    damage_to_opponent: int = 0
    warning: bool = False


@dataclass(frozen=True)
class ResultCard:
    id: int
    heart: bool
    big_hit: BigHit
    values: Mapping[tuple[Punch, Column], int]
    clinch: ClinchResult

    def value(self, punch: Punch, column: Column) -> int:
        return self.values[punch, column]

    def better(self, punch: Punch) -> int:
        """The better of the punch's two results (the rule On the Ropes and In the Corner)."""
        first, second = PUNCH_COLUMNS[punch]
        return max(self.values[punch, first], self.values[punch, second])


@dataclass(frozen=True)
class AttributeCard:
    id: int
    boxer: int
    name: str
    use: AttributeUse
    effect: Effect
    text: str


@dataclass(frozen=True)
class CardData:
    boxers: tuple[BoxerCard, ...]
    results: tuple[ResultCard, ...]
    attributes: tuple[AttributeCard, ...]


# -- loading ---------------------------------------------------------------------------
class _Reader:
    """Reads one file's cards, raising :class:`CardDataError` with file/card/field."""

    def __init__(self, path: Path) -> None:
        self.file = path.name
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CardDataError(f"{self.file}: cannot be read ({exc.strerror})") from None
        except json.JSONDecodeError as exc:
            raise CardDataError(f"{self.file}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
        if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
            raise CardDataError(f'{self.file}: must be an object with a "cards" list')
        self.rows: list[Any] = data["cards"]

    def fail(self, card: object, field: str, problem: str) -> CardDataError:
        return CardDataError(f"{self.file}: card {card}, field {field!r}: {problem}")

    def row(self, index: int, expected_id: int) -> dict[str, Any]:
        row = self.rows[index]
        if not isinstance(row, dict):
            raise CardDataError(f"{self.file}: card #{index} must be an object")
        if row.get("id") != expected_id:
            raise self.fail(
                f"#{index}", "id", f"must be {expected_id} (ids run 0.. in file order), not {row.get('id')!r}"
            )
        return row

    def get(self, row: Mapping[str, Any], card: object, field: str) -> Any:
        if field not in row:
            raise self.fail(card, field, "missing")
        return row[field]

    def integer(
        self, row: Mapping[str, Any], card: object, field: str, low: int, high: int, default: int | None = None
    ) -> int:
        value = row.get(field, default) if default is not None else self.get(row, card, field)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(card, field, f"must be a whole number {low}..{high}, not {value!r}")
        return value

    def flag(self, row: Mapping[str, Any], card: object, field: str, default: bool | None = None) -> bool:
        value = row.get(field, default) if default is not None else self.get(row, card, field)
        if not isinstance(value, bool):
            raise self.fail(card, field, f"must be true or false, not {value!r}")
        return value

    def choice(self, row: Mapping[str, Any], card: object, field: str, enum: type[Enum]) -> Any:
        value = self.get(row, card, field)
        try:
            return enum(value)
        except ValueError:
            names = ", ".join(repr(e.value) for e in enum)
            raise self.fail(card, field, f"{value!r} is not one of {names}") from None

    def text(self, row: Mapping[str, Any], card: object, field: str) -> str:
        value = self.get(row, card, field)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(card, field, "must be some text")
        return value

    def count(self, expected: int, what: str) -> None:
        if len(self.rows) != expected:
            raise CardDataError(f"{self.file}: must hold {expected} {what}, not {len(self.rows)}")


def load_boxer_cards(path: Path) -> tuple[BoxerCard, ...]:
    reader = _Reader(path)
    reader.count(BOXER_CARDS, "Boxer cards")
    cards = []
    for index in range(BOXER_CARDS):
        row = reader.row(index, index)
        sets = {"plain": False, "gloves_hanging": True}
        set_name = reader.get(row, index, "set")
        if set_name not in sets:
            raise reader.fail(index, "set", f"must be 'plain' or 'gloves_hanging', not {set_name!r}")
        punch = reader.choice(row, index, "punch", Punch)
        cost = reader.integer(row, index, "cost", 0, 2)
        feature = reader.choice(row, index, "feature", Feature)
        if cost == 0 and punch is not Punch.JAB:
            raise reader.fail(index, "cost", f"only Jabs cost no energy; a {punch.value} costs 1 or 2")
        if feature is Feature.COMBO_AB and punch is not Punch.HOOK:
            raise reader.fail(index, "feature", "both combo icons appear only on a Hook")
        cards.append(BoxerCard(index, sets[set_name], punch, cost, feature))
    hanging = sum(card.gloves_hanging for card in cards)
    if hanging != BOXER_SET_SIZE:
        raise CardDataError(
            f"{reader.file}: each set must hold {BOXER_SET_SIZE} cards; 'gloves_hanging' holds {hanging}"
        )
    return tuple(cards)


def load_result_cards(path: Path) -> tuple[ResultCard, ...]:
    reader = _Reader(path)
    reader.count(RESULT_CARDS, "Result cards")
    cards = []
    for index in range(RESULT_CARDS):
        row = reader.row(index, index)
        values: dict[tuple[Punch, Column], int] = {}
        for punch, columns in PUNCH_COLUMNS.items():
            section = reader.get(row, index, punch.value)
            expected = {c.value for c in columns}
            if not isinstance(section, dict) or set(section) != expected:
                raise reader.fail(index, punch.value, f"must give exactly {' and '.join(sorted(expected))}")
            lowest = 1 if punch is Punch.BODY_BLOW else 0
            for column in columns:
                field = f"{punch.value}.{column.value}"
                value = section[column.value]
                if isinstance(value, bool) or not isinstance(value, int) or not lowest <= value <= MAX_RESULT:
                    why = " (a Body Blow always costs health unless defended)" if lowest else ""
                    raise reader.fail(
                        index, field, f"must be a whole number {lowest}..{MAX_RESULT}{why}, not {value!r}"
                    )
                values[punch, column] = value
        clinch_row = reader.get(row, index, "clinch")
        if not isinstance(clinch_row, dict):
            raise reader.fail(index, "clinch", "must be an object")
        unknown = set(clinch_row) - {"energy", "judge_point", "damage_to_you", "damage_to_opponent", "warning"}
        if unknown:
            raise reader.fail(index, f"clinch.{sorted(unknown)[0]}", "is not a clinch result")
        clinch = ClinchResult(
            energy=reader.integer(clinch_row, f"{index} (clinch)", "energy", 0, 2),
            judge_point=reader.integer(clinch_row, f"{index} (clinch)", "judge_point", -1, 0, default=0),
            damage_to_you=reader.integer(clinch_row, f"{index} (clinch)", "damage_to_you", 0, 3, default=0),
            damage_to_opponent=reader.integer(clinch_row, f"{index} (clinch)", "damage_to_opponent", 0, 3, default=0),
            warning=reader.flag(clinch_row, f"{index} (clinch)", "warning", default=False),
        )
        heart = reader.flag(row, index, "heart")
        big_hit = reader.choice(row, index, "big_hit", BigHit)
        cards.append(ResultCard(index, heart, big_hit, values, clinch))
    return tuple(cards)


def load_attribute_cards(path: Path) -> tuple[AttributeCard, ...]:
    reader = _Reader(path)
    reader.count(2 * ATTRIBUTES_PER_BOXER, "Attribute cards")
    cards = []
    for index in range(2 * ATTRIBUTES_PER_BOXER):
        row = reader.row(index, index)
        boxer = reader.integer(row, index, "boxer", 0, 1)
        if boxer != index // ATTRIBUTES_PER_BOXER:
            raise reader.fail(
                index, "boxer", f"cards 0-11 are boxer 0's and 12-23 boxer 1's, so this must be {index // 12}"
            )
        cards.append(
            AttributeCard(
                id=index,
                boxer=boxer,
                name=reader.text(row, index, "name"),
                use=reader.choice(row, index, "use", AttributeUse),
                effect=reader.choice(row, index, "effect", Effect),
                text=reader.text(row, index, "text"),
            )
        )
    for boxer in (0, 1):
        effects = [c.effect for c in cards if c.boxer == boxer]
        if len(set(effects)) != len(effects):
            raise CardDataError(f"{reader.file}: boxer {boxer}'s set names one effect twice")
    return tuple(cards)


def load_card_data(folder: Path = DATA_DIR) -> CardData:
    """Every card, from the three files in ``folder``; :class:`CardDataError` if any is wrong."""
    return CardData(
        boxers=load_boxer_cards(folder / BOXER_FILE),
        results=load_result_cards(folder / RESULT_FILE),
        attributes=load_attribute_cards(folder / ATTRIBUTE_FILE),
    )


CARDS = load_card_data()
"""The cards the engine plays with."""

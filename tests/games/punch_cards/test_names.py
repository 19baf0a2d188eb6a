"""Names: normalised, free of control, invisible and bidi characters, limited in length,
unique ignoring case and look-alike spacing, and every refusal says why."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.punch_cards import MAX_LENGTH, NameProblem, NameRefused, name_key, normalise_name, validate_name


def refused(raw: object, taken: frozenset[str] = frozenset()) -> NameRefused:
    with pytest.raises(NameRefused) as info:
        validate_name(raw, taken)
    return info.value


def test_names_are_normalised_nfkc_with_single_spaces() -> None:
    assert normalise_name("  Ann \u00a0\u2003 Lee ") == "Ann Lee"
    assert normalise_name("\uff21\uff4e\uff4e") == "Ann"  # full-width letters
    assert normalise_name("Zoe\u0308") == "Zoë"  # decomposed ë composed (NFC within NFKC)
    assert normalise_name("O'Brien-Smith Jr.") == "O'Brien-Smith Jr."
    assert normalise_name("李小龍") == "李小龍"


def test_uniqueness_ignores_case_and_look_alike_spacing() -> None:
    taken = frozenset({name_key("Ann Lee")})
    for clash in ("ann lee", "ANN  LEE", "Ann\u00a0Lee", "Ａｎｎ Ｌｅｅ", " ann\u3000lee"):
        assert refused(clash, taken).problem is NameProblem.TAKEN
    assert validate_name("Ann Leé", taken) == "Ann Leé"
    assert name_key("STRASSE") == name_key("straße")


@pytest.mark.parametrize(
    ("raw", "problem", "words"),
    [
        ("Ann\u202eeL", NameProblem.BIDI, "text-direction"),
        ("\u2066Bo\u2069", NameProblem.BIDI, "text-direction"),
        ("Bo\u200fb", NameProblem.BIDI, "text-direction"),
        ("Ann\nLee", NameProblem.CONTROL, "control"),
        ("Ann\x00", NameProblem.CONTROL, "control"),
        ("Ann\u2028Lee", NameProblem.CONTROL, "line breaks"),
        ("A\tB", NameProblem.CONTROL, "control"),
        ("Ann\u200bLee", NameProblem.INVISIBLE, "invisible"),
        ("Ann\u00adLee", NameProblem.INVISIBLE, "invisible"),
        ("Ann\u3164", NameProblem.INVISIBLE, "invisible"),
        ("Bo\ufe0f", NameProblem.INVISIBLE, "invisible"),
        ("Bo\U000e0041", NameProblem.INVISIBLE, "invisible"),
        *[(f"Ann{chr(c)}", NameProblem.INVISIBLE, "invisible") for c in range(0x180B, 0x1810)],  # Mongolian FVS
        ("Ann\u034f", NameProblem.INVISIBLE, "invisible"),  # combining grapheme joiner
        ("Bo\U000e0101", NameProblem.INVISIBLE, "invisible"),  # variation selector supplement
        ("Bo\U0001bca0", NameProblem.INVISIBLE, "invisible"),  # shorthand format control
        ("A\u0336n\u0336n\u0336", NameProblem.SYMBOL, "drawn through"),  # struck through: draws as "Ann"
        ("Ann\u0338", NameProblem.SYMBOL, "drawn through"),
        ("Ann\u20d2", NameProblem.SYMBOL, "drawn through"),
        ("Bo 🥊", NameProblem.SYMBOL, "letters, digits"),
        ("Robert'); DROP TABLE players;--", NameProblem.SYMBOL, "letters, digits"),
        ("<script>", NameProblem.SYMBOL, "letters, digits"),
        ("=cmd|' /C calc'!A0", NameProblem.SYMBOL, "letters, digits"),
        ("Bo\ue000", NameProblem.UNSUPPORTED, "cannot be shown"),
        ("Bo\ud800", NameProblem.UNSUPPORTED, "cannot be shown"),
        ("x\u0301\u0302\u0303", NameProblem.STACKED_MARKS, "accents"),
        ("-Ann", NameProblem.BAD_START, "starts with a letter"),
        ("'Ann", NameProblem.BAD_START, "starts with a letter"),
        ("\u0301Ann", NameProblem.BAD_START, "starts with a letter"),
        ("   ", NameProblem.EMPTY, "at least one"),
        ("", NameProblem.EMPTY, "at least one"),
        ("A" * (MAX_LENGTH + 1), NameProblem.TOO_LONG, f"at most {MAX_LENGTH}"),
        ("x" * 10_000, NameProblem.TOO_LONG, f"at most {MAX_LENGTH}"),
        ("\ufdfa" * 5, NameProblem.TOO_LONG, f"at most {MAX_LENGTH}"),  # NFKC grows each to 18 chars
        (None, NameProblem.NOT_TEXT, "text"),
        (b"Ann", NameProblem.NOT_TEXT, "text"),
    ],
)
def test_hostile_names_are_refused_saying_why(raw: object, problem: NameProblem, words: str) -> None:
    refusal = refused(raw)
    assert refusal.problem is problem
    assert words in str(refusal)


def test_the_length_limit_counts_a_letter_with_its_accents_once() -> None:
    name = "e\u0301" * MAX_LENGTH
    assert len(validate_name(name)) == MAX_LENGTH  # NFKC composes each é
    assert validate_name("ŋ\u0323\u0301" * MAX_LENGTH)  # two combining marks per letter, kept


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_any_text_is_refused_with_a_reason_or_gives_a_clean_name(raw: str) -> None:
    try:
        name = validate_name(raw)
    except NameRefused as refusal:
        assert isinstance(refusal.problem, NameProblem) and str(refusal)
        return
    assert name == unicodedata.normalize("NFKC", name) == name.strip()
    assert "  " not in name
    for char in name:
        category = unicodedata.category(char)
        assert category[0] in "LMN" or char == " " or char in "-'.&_", (char, category)
    assert normalise_name(name) == name  # stable: normalising again changes nothing
    assert not any(unicodedata.combining(c) == 1 for c in name)  # no overlay marks


def test_names_that_draw_alike_are_one_name_or_refused() -> None:
    """The issue's two ways to register a second "Ann" that draws exactly as the first."""
    for lookalike in ["Ann\u180b", "Ann\u180f", "A\u0336n\u0336n\u0336", "A\u0334nn"]:
        with pytest.raises(NameRefused):
            validate_name(lookalike, taken={name_key("Ann")})

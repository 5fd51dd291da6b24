"""What a chat line may hold (issue 43, 4): nothing that disguises who said what. Format
characters (bidi controls, zero-width ones), control characters, line separators and runs
of combining marks go; letters, accents and emoji stay."""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meadow.server import chat
from meadow.server.errors import ApiError
from meadow.store import ChatMessage, User

TRICKS = (
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
    "\u200b\u200c\u200d\u2060\ufeff\u00ad\u2028\u2029\x00\x1b\x7f\x85\r\t"
)


def marks_in_a_row(text: str) -> int:
    """The longest run of combining marks in `text`."""
    longest = run = 0
    for c in text:
        run = run + 1 if unicodedata.category(c).startswith("M") else 0
        longest = max(longest, run)
    return longest


def disguising(c: str) -> bool:
    return unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp") and c not in "\n\u200d"


@given(st.text())
def test_nothing_that_disguises_a_line_is_ever_left(text: str):
    shown = chat.plain(text)
    assert not [c for c in shown if disguising(c)]
    assert marks_in_a_row(shown) <= chat.MAX_MARKS
    assert unicodedata.is_normalized("NFC", shown)


@given(st.text(alphabet=st.sampled_from("ab é\u0301\u0308\U0001f469\u200d\U0001f4bb" + TRICKS)))
def test_a_zero_width_joiner_stays_only_inside_an_emoji_sequence(text: str):
    shown = chat.plain(text)
    for at, c in enumerate(shown):
        if c == "\u200d":
            assert 0 < at < len(shown) - 1
            before = [c for c in shown[:at] if not unicodedata.category(c).startswith("M")]
            assert unicodedata.category(before[-1]) in ("So", "Sk")
            assert unicodedata.category(shown[at + 1]) == "So"


@given(st.text())
def test_cleaning_twice_is_cleaning_once(text: str):
    assert chat.plain(chat.plain(text)) == chat.plain(text)


@given(st.text(alphabet=st.sampled_from("ab é\u0301\u0308\u0327\U0001f469\u200d" + TRICKS)))
def test_cleaning_twice_is_cleaning_once_among_the_tricks(text: str):
    assert chat.plain(chat.plain(text)) == chat.plain(text)


@pytest.mark.parametrize(
    "text",
    [
        "Grüß Gott, schöne Äpfel und Öl für Straße",
        "Ça va? Señor, naïve café, Ærø, Łódź, Đà Nẵng",
        "Привет! Γειά σου. שלום. مرحبا. नमस्ते. こんにちは",
        "gg 👍🏽 ❤️ 1️⃣ 🇩🇪 👩‍💻 👨‍👩‍👧",
        "two\nlines",
    ],
)
def test_plain_text_is_unchanged(text: str):
    assert chat.plain(text) == text
    assert chat.cleaned(text) == text


def test_an_accent_written_apart_is_joined_to_its_letter():
    assert chat.plain("Gru\u0308\u00df") == "Grüß"


def test_the_tricks_go_and_the_visible_text_stays():
    assert chat.plain("ann\u202e: I resign\u202c") == "ann: I resign"
    assert chat.plain("g\u200bg\u2060 w\ufeffp") == "gg wp"
    assert chat.plain("one\u2028two\u2029three") == "one two three"
    assert chat.plain("x" + "\u0301\u0302\u0303\u0304\u0305" * 4 + "algo") == "x\u0301\u0302algo"
    assert chat.plain("\u200d\U0001f469\u200d\u200d\U0001f4bb") == "\U0001f469\U0001f4bb"


def test_a_line_of_format_characters_only_is_blank():
    with pytest.raises(ApiError) as refused:
        chat.cleaned("\u202e\u200b\u2066\ufeff\u2028")
    assert refused.value.status == 400


def test_a_line_stored_before_the_cleaning_is_shown_cleaned():
    row = ChatMessage(
        id=1,
        table_id=1,
        user_id=1,
        seat=None,
        move=0,
        text="evil\u202e\u200b: gg",
        created_at=datetime.now(UTC),
    )
    row.user = User(id=1, name="ann", password_hash=None)
    assert chat.line(row)["text"] == "evil: gg"

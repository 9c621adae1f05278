"""An event page's `next_after`: where the next page starts, read from what the page read."""

from __future__ import annotations

from api.sessions.usecases import SESSIONS
from api.tables.tokens import RoleToken
from services.store import RecordedEvent

GM = RoleToken("s1", "gm", None, 0, 10**10, "default")


def _recorded(version: int) -> RecordedEvent:
    data = {"player": "p1", "round": 1}
    return RecordedEvent("labyrinth-s1", version, version, f"e{version}", "TurnStarted", data)


def test_next_after_is_the_last_version_read_until_the_stream_is_read_through() -> None:
    page = SESSIONS._history(GM, 4, [_recorded(5), _recorded(6)], 9)
    assert [e["version"] for e in page["events"]] == [5, 6] and page["next_after"] == 6
    assert SESSIONS._history(GM, 6, [_recorded(7)], 7)["next_after"] is None
    assert SESSIONS._history(GM, 7, [], 7) == {"version": 7, "events": [], "next_after": None}


def test_an_empty_page_before_a_newer_version_reads_again_from_the_same_place() -> None:
    # The stream's version is read after the page: an event appended between the two
    # reads is newer than the page, and must not be skipped as "read through".
    assert SESSIONS._history(GM, 7, [], 8)["next_after"] == 7

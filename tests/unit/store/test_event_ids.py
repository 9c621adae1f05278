"""A session command's event ids: the strings the uuid module gives, formatted faster."""

from __future__ import annotations

import uuid

from services.store.sessions import _event_id, _event_ids


def test_a_commands_event_ids_are_the_version_5_uuids_earlier_releases_stored() -> None:
    # A retry after an upgrade must derive the ids its first attempt stored.
    for command_id in ("c1", "0f8e2a44-77e8-4b0b-a3e2-1d5c2d0c7a10", "tâche:ü", ""):
        for index in range(12):
            expected = uuid.uuid5(uuid.NAMESPACE_URL, f"daedalus-command:{command_id}:{index}")
            assert _event_id(command_id, index) == str(expected)
        batch = _event_ids(command_id, 12)
        assert batch == [_event_id(command_id, index) for index in range(12)]


def test_events_without_a_command_id_get_fresh_version_4_uuids() -> None:
    # Batches of every size a command writes, each id drawn from its own 16 bytes.
    ids = [text for size in (1, 2, 5, 16) for _ in range(200) for text in _event_ids(None, size)]
    assert len(ids) == 200 * (1 + 2 + 5 + 16)
    assert len(set(ids)) == len(ids)
    for text in ids:
        parsed = uuid.UUID(text)
        assert str(parsed) == text
        assert parsed.version == 4 and parsed.variant == uuid.RFC_4122
    assert _event_ids(None, 0) == []

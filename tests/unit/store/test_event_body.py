"""An event's stored body: canonical JSON (sorted keys, compact, UTF-8), whatever encodes it."""

from __future__ import annotations

import json

import pytest

from services.store.model import NewEvent


def test_a_body_is_canonical_json_that_reads_back_as_its_data() -> None:
    data = {"b": [1, {"z": 2, "y": None}], "a": {"label": "6♥", "n": 2**70}, "c": 1.5}
    body = NewEvent("e1", "T", data).body()
    assert body == json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert json.loads(body) == data  # past 64 bits, as the standard library writes it
    assert "6♥" in body


def test_data_that_is_not_json_is_refused() -> None:
    with pytest.raises(TypeError):
        NewEvent("e1", "T", {"x": object()}).body()

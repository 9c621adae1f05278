"""A scripted Rng for the examples: the dice show the faces the text names."""

from __future__ import annotations

from collections.abc import Iterator


class ScriptedRng:
    """An Rng that shows the given faces in order (face = below(n) + 1)."""

    def __init__(self, faces: list[int]) -> None:
        self._faces: Iterator[int] = iter(faces)

    def below(self, n: int) -> int:
        face = next(self._faces)
        assert 1 <= face <= n, (face, n)
        return face - 1

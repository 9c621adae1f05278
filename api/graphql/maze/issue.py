"""GraphQL: MazeIssue, one rule a character breaks."""

from __future__ import annotations

import strawberry


@strawberry.type(description="One rule a character or party breaks.")
class MazeIssue:
    code: str
    message: str

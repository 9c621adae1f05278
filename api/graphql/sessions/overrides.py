"""GraphQL: the GM's overrides of a live session, one typed mutation each.

Each is the REST command of the same name (docs/RULES.md, "GM overrides"): the same
validation, the same codes, the GM token alone may send it (`forbidden` otherwise), and
the answer is the sender's CommandResult or a Problem.
"""

from __future__ import annotations

from typing import Annotated, Any

import strawberry

from api.graphql.context import Info
from api.graphql.generate import plain
from api.graphql.scalars import Long
from api.graphql.sessions.payloads import ActionEnum, CommandPayload, RiverDestinationEnum
from api.graphql.sessions.sending import send_fields

Reason = Annotated[
    str,
    strawberry.argument(
        description="Why the GM overrides: shown to the table with the override "
        "(1..200 characters; name a card only by its slot id)."
    ),
]
RiverCard = Annotated[str, strawberry.argument(description="A river card's slot id.")]
SeenVersion = Annotated[
    Long | None, strawberry.argument(description="Refuse (version_conflict) if it moved on.")
]
CommandId = Annotated[
    str | None, strawberry.argument(description="Idempotency key (8..128 characters).")
]


def _given(**fields: Any) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None}


@strawberry.type
class GmOverrideMutation:
    @strawberry.mutation(
        description="GM: set a member's sleep (`asleepTurns`: own turns still to skip, 0 "
        "wakes) and/or take them out of play or back (`inPlay`). A member who can no "
        "longer act on their own turn passes it."
    )
    async def override_member(
        self,
        info: Info,
        id: strawberry.ID,
        token: str,
        member: str,
        reason: Reason,
        asleep_turns: int | None = None,
        in_play: bool | None = None,
        seen_version: SeenVersion = None,
        command_id: CommandId = None,
    ) -> CommandPayload:
        fields = _given(
            type="OverrideMember",
            member=member,
            reason=reason,
            asleep_turns=asleep_turns,
            in_play=in_play,
        )
        return await send_fields(info, str(id), token, fields, seen_version, command_id)

    @strawberry.mutation(
        description="GM: end the running turn now, as any turn ends (a pending choice or "
        "trap is dropped unresolved); `nextPlayer` (default: the next in initiative order) "
        "takes the next turn and the order continues from them."
    )
    async def override_turn(
        self,
        info: Info,
        id: strawberry.ID,
        token: str,
        reason: Reason,
        next_player: str | None = None,
        seen_version: SeenVersion = None,
        command_id: CommandId = None,
    ) -> CommandPayload:
        fields = _given(type="OverrideTurn", reason=reason, next_player=next_player)
        return await send_fields(info, str(id), token, fields, seen_version, command_id)

    @strawberry.mutation(
        description="GM: turn a face-down river card face up for the table, without "
        "resolving it (one card must stay face down)."
    )
    async def reveal_river_card(
        self,
        info: Info,
        id: strawberry.ID,
        token: str,
        card: RiverCard,
        reason: Reason,
        seen_version: SeenVersion = None,
        command_id: CommandId = None,
    ) -> CommandPayload:
        fields = _given(type="RevealRiverCard", card=card, reason=reason)
        return await send_fields(info, str(id), token, fields, seen_version, command_id)

    @strawberry.mutation(
        description="GM: move a river card `to` discard | game | deck_top | deck_bottom | "
        "deck_shuffled (a face-down card stays unseen); `refill` deals the river back to "
        "three cards."
    )
    async def move_river_card(
        self,
        info: Info,
        id: strawberry.ID,
        token: str,
        card: RiverCard,
        to: RiverDestinationEnum,
        reason: Reason,
        refill: bool = False,
        seen_version: SeenVersion = None,
        command_id: CommandId = None,
    ) -> CommandPayload:
        fields = _given(type="MoveRiverCard", card=card, to=plain(to), refill=refill, reason=reason)
        return await send_fields(info, str(id), token, fields, seen_version, command_id)

    @strawberry.mutation(
        description="GM: set the Right Path count (at the goal the party escapes) and/or "
        "the Monster points (below the encounter threshold)."
    )
    async def override_score(
        self,
        info: Info,
        id: strawberry.ID,
        token: str,
        reason: Reason,
        right_paths: int | None = None,
        monster_points: int | None = None,
        seen_version: SeenVersion = None,
        command_id: CommandId = None,
    ) -> CommandPayload:
        fields = _given(
            type="OverrideScore",
            reason=reason,
            right_paths=right_paths,
            monster_points=monster_points,
        )
        return await send_fields(info, str(id), token, fields, seen_version, command_id)

    @strawberry.mutation(
        description="GM: set the locked actions and/or those out of the game (forge_a_path, "
        "scout_ahead, its_elementary, careful_consideration, boost_morale), and/or whether "
        "the active player has used the turn's action."
    )
    async def override_actions(
        self,
        info: Info,
        id: strawberry.ID,
        token: str,
        reason: Reason,
        locked: list[ActionEnum] | None = None,
        removed: list[ActionEnum] | None = None,
        action_taken: bool | None = None,
        seen_version: SeenVersion = None,
        command_id: CommandId = None,
    ) -> CommandPayload:
        fields = _given(
            type="OverrideActions",
            reason=reason,
            locked=plain(locked),
            removed=plain(removed),
            action_taken=action_taken,
        )
        return await send_fields(info, str(id), token, fields, seen_version, command_id)

    @strawberry.mutation(
        description="GM: hand-pick the pending trap (`row`, 0-based, of the maze's trap "
        "table; its DC follows) and/or set its `dc`."
    )
    async def override_trap(
        self,
        info: Info,
        id: strawberry.ID,
        token: str,
        reason: Reason,
        row: int | None = None,
        dc: int | None = None,
        seen_version: SeenVersion = None,
        command_id: CommandId = None,
    ) -> CommandPayload:
        fields = _given(type="OverrideTrap", reason=reason, row=row, dc=dc)
        return await send_fields(info, str(id), token, fields, seen_version, command_id)

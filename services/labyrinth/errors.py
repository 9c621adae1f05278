"""LabyrinthError, the root of every refusal from the labyrinth card engine, with its codes."""

from __future__ import annotations

from services.errors import DomainError


class LabyrinthError(DomainError):
    """A labyrinth command or definition the caller can fix; `code` says which rule refused it."""

    code = "labyrinth_error"
    http_status = 422


# Stable codes, one per rule that can refuse a command or a definition.
# A definition or profile that does not validate never reaches a rule: it is refused with
# the request (`constraint_violation`, docs/PROTOCOL.md), so no code of its own is here.
INVALID_DEFINITION = "invalid_definition"
NOT_STARTED = "not_started"
ALREADY_STARTED = "already_started"
INITIATIVE_PENDING = "initiative_pending"
INITIATIVE_ALREADY_ROLLED = "initiative_already_rolled"
MAZE_ENDED = "maze_ended"
UNKNOWN_PLAYER = "unknown_player"
NOT_YOUR_TURN = "not_your_turn"
PLAYER_ASLEEP = "player_asleep"
ACTION_ALREADY_TAKEN = "action_already_taken"
ACTION_LOCKED = "action_locked"
ACTION_UNAVAILABLE = "action_unavailable"
UNKNOWN_CARD = "unknown_card"
NOT_FLIPPABLE = "not_flippable"
NO_PENDING_CHOICE = "no_pending_choice"
CHOICE_PENDING = "choice_pending"
TRAP_PENDING = "trap_pending"
NO_PENDING_TRAP = "no_pending_trap"
ENCOUNTER_PENDING = "encounter_pending"
NO_ENCOUNTER = "no_encounter"
MEMBER_OUT_OF_PLAY = "member_out_of_play"
INVALID_ROLL = "invalid_roll"
# GM overrides (docs/RULES.md, "GM overrides").
INVALID_OVERRIDE = "invalid_override"
NO_MEMBER_IN_PLAY = "no_member_in_play"
LAST_FACE_DOWN_CARD = "last_face_down_card"
REASON_NAMES_A_CARD = "reason_names_a_card"

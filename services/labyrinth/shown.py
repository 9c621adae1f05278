"""What a viewer of a labyrinth session is shown, typed: the views and every event.

The JSON comes from the redaction (views.py, redact.py), never from these models: a
model only names the keys a viewer may be shown, and `shown_event`/`shown_view` check
the redacted JSON against it (an undeclared key is an error, so nothing the redaction
hides can appear here by accident, and nothing it shows goes untyped). An event's model
carries the union of the GM's fields and the table's: a field the table is not shown is
None for a player or a spectator (GM only: internal card ids, deck order, trap rows,
the maze's definition; slot ids are null for spectators).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Union

from pydantic import ConfigDict, Discriminator, Tag

from services.dice.shown import RolledDie
from services.labyrinth.events import EVENTS
from services.markers import FreeForm, Identifier, LongInt, Named, Shown, event_type, type_const

CardKind = Annotated[Literal["right_path", "dead_end", "monster", "trap"], Named("CardKind")]
ActionName = Annotated[
    Literal[
        "forge_a_path",
        "scout_ahead",
        "its_elementary",
        "careful_consideration",
        "boost_morale",
        "wake_player",
    ],
    Named("LabyrinthAction"),
]
TrapEffect = Annotated[
    Literal["slowing", "poison_dart", "sleep_dust", "custom"], Named("TrapEffect")
]
Phase = Annotated[
    Literal["not_started", "initiative", "turn", "choice", "trap", "encounter", "escaped", "ended"],
    Named("LabyrinthPhase"),
]
Visibility = Annotated[Literal["everyone", "gm", "whisper"], Named("RollVisibility")]


class LabyrinthRoll(Shown):
    """A roll as it happened: expression, every face in throw order, the total, and each
    die as `/v1/dice/roll` shows it (when the faces replay)."""

    expression: str
    faces: list[LongInt]
    total: LongInt
    dice: list[RolledDie] | None = None


class LabyrinthCard(Shown):
    """A card as this viewer may see it. `card` (the internal id) is the GM's only; `slot`
    (this deal's slot id) is null for spectators; `kind` and `label` are null while the
    card lies face down; `face_up` and `stuck` are given where they apply."""

    card: str | None = None
    slot: str | None = None
    kind: CardKind | None = None
    label: str | None = None
    face_up: bool | None = None
    stuck: bool | None = None


class LabyrinthCardIdentity(Shown):
    """A physical card (GM only): its internal id, kind, label and origin."""

    id: str
    kind: CardKind
    label: str
    origin: Annotated[Literal["deck", "pool"], Named("CardOrigin")]


class LabyrinthProfileStats(Shown):
    """The dice expression a member rolls for each stat."""

    STR: str
    DEX: str
    INT: str
    WIS: str
    CHA: str


class LabyrinthProfile(Shown):
    """A member's check profile (GM only)."""

    stats: LabyrinthProfileStats
    initiative: str
    disarm: str


class LabyrinthMember(Shown):
    """A party member; the check profile is the GM's only."""

    id: str
    name: str
    profile: LabyrinthProfile | None = None


class LabyrinthTrapRow(Shown):
    """A trap table's row (GM only)."""

    low: int
    high: int
    name: str
    dc_offset: int
    effect: TrapEffect
    text: str
    save_dc_offset: int
    damage: str
    sleep_turns: int
    monster_on_top: bool


class LabyrinthVictory(Shown):
    """How the party escapes: `right_paths` Right Paths and/or killing the monster."""

    right_paths: int | None
    kill_monster: bool


class LabyrinthInitiativeRoll(Shown):
    player: str
    roll: LabyrinthRoll


class LabyrinthCombatant(Shown):
    name: str
    player: str | None
    initiative: int


class LabyrinthPoisonSave(Shown):
    player: str
    roll: LabyrinthRoll
    dc: int
    success: bool
    damage: LabyrinthRoll | None


class SessionEvent(Shown):
    """An event of a labyrinth session as one viewer may see it: its version in the
    session and its stored type name (`MazeStarted`, ...)."""

    # GraphQL: the interface `SessionEvent`; each event type `<Type>Event` implements it.
    graphql_interface: ClassVar[bool] = True
    graphql_suffix: ClassVar[str] = "Event"
    model_config = ConfigDict(json_schema_extra=type_const)

    version: LongInt
    type: str


class MazeStarted(SessionEvent):
    """The maze began. The GM sees the definition, the party's profiles, every card and
    the deck's order; the table the maze's name, variant, DC, deck size and victory."""

    definition: FreeForm | None = None
    party: list[LabyrinthMember]
    all_cards: list[LabyrinthCardIdentity] | None = None
    deck: list[str] | None = None
    pool: list[str] | None = None
    name: str | None = None
    variant: str | None = None
    dc: int | None = None
    deck_size: int | None = None
    victory: LabyrinthVictory | None = None


class InitiativeRolled(SessionEvent):
    rolls: list[LabyrinthInitiativeRoll]
    order: list[str]


class ActionsRemoved(SessionEvent):
    rolls: list[LabyrinthRoll]
    removed: list[ActionName]


class TurnStarted(SessionEvent):
    player: str
    round: int


class TurnSkipped(SessionEvent):
    player: str
    asleep_turns_left: int


class DeckReshuffled(SessionEvent):
    """The deck was shuffled: the GM sees the new order, the table how many cards."""

    order: list[str] | None = None
    deck_size: int | None = None


class RiverDealt(SessionEvent):
    """Cards dealt to the river: how many, and each river place (`dealt_cards`, the
    internal ids, the GM's only)."""

    dealt: int
    dealt_cards: list[str] | None = None
    river: list[LabyrinthCard] | None = None
    slots: list[LabyrinthCard] | None = None


class ActionAttempted(SessionEvent):
    player: str
    action: ActionName
    stat: str | None
    roll: LabyrinthRoll | None
    dc: int
    success: bool


class RightPathsForged(SessionEvent):
    card_ids: list[str] | None = None
    right_paths_added: int | None = None


class ScoutRevealed(SessionEvent):
    river_card: LabyrinthCard
    deck_card: LabyrinthCard


class CardsConsidered(SessionEvent):
    cards: list[LabyrinthCard]


class ElementaryDrawn(SessionEvent):
    cards: list[LabyrinthCard]


class ElementaryResolved(SessionEvent):
    bottom: LabyrinthCard
    top: list[str] | None = None
    shuffled_on_top: int | None = None


class DeadEndRemoved(SessionEvent):
    card: LabyrinthCard


class CardRevealed(SessionEvent):
    player: str
    card: LabyrinthCard


class CardChosen(SessionEvent):
    player: str
    card: LabyrinthCard


class RightPathScored(SessionEvent):
    points: int


class DeadEndStuck(SessionEvent):
    card: LabyrinthCard


class DeadEndsCleared(SessionEvent):
    cards: list[LabyrinthCard]
    destination: str


class MonsterCardAdded(SessionEvent):
    """A Monster card came into play: the GM sees its id and the deck's new order."""

    card_id: str | None = None
    kind: str | None = None
    destination: str
    deck: list[str] | None = None


class MonsterPointScored(SessionEvent):
    points: int


class EncounterStarted(SessionEvent):
    monster: str
    table_roll: LabyrinthRoll
    monster_initiative: LabyrinthRoll
    combat_order: list[LabyrinthCombatant]


class EncounterResolved(SessionEvent):
    outcome: Annotated[
        Literal["monster_defeated", "party_fled", "party_defeated"], Named("EncounterOutcome")
    ]
    monster_points: int


class MonsterCardRemoved(SessionEvent):
    card_id: str | None = None
    kind: str | None = None
    zone: str


class TrapRolled(SessionEvent):
    """A trap was revealed and rolled on its table: the GM sees the whole row (`entry`)."""

    card: LabyrinthCard
    roll: LabyrinthRoll
    dc: int
    entry: LabyrinthTrapRow | None = None
    trap: str | None = None
    effect: TrapEffect | None = None
    text: str | None = None


class DisarmAttempted(SessionEvent):
    player: str
    roll: LabyrinthRoll
    dc: int
    success: bool


class TrapSprung(SessionEvent):
    entry: LabyrinthTrapRow | None = None
    trap: str | None = None
    effect: TrapEffect | None = None
    saves: list[LabyrinthPoisonSave]


class PlayerFellAsleep(SessionEvent):
    player: str
    turns: int


class PlayerWoke(SessionEvent):
    player: str
    by: str | None


class DeadEndPlaced(SessionEvent):
    card: LabyrinthCard


class TurnEnded(SessionEvent):
    """A turn ended: how many river cards were discarded (their ids the GM's only)."""

    player: str
    discarded: int
    discarded_cards: list[str] | None = None


class RiverCleared(SessionEvent):
    discarded: int
    discarded_cards: list[str] | None = None


class RoundEnded(SessionEvent):
    round: int


class ActionsUnlocked(SessionEvent):
    actions: list[ActionName]


class MazeEscaped(SessionEvent):
    reason: str


class MazeEnded(SessionEvent):
    reason: str


class DiceRolled(SessionEvent):
    """A roll at the table. A viewer outside its audience sees only who rolled and
    `hidden: true` (label, audience and roll null)."""

    by: str | None
    visibility: Visibility
    label: str | None = None
    to: list[str] | None = None
    roll: LabyrinthRoll | None = None
    hidden: bool | None = None


class MemberOverridden(SessionEvent):
    member: str
    asleep_turns: int
    in_play: bool
    reason: str


class TurnOverridden(SessionEvent):
    player: str
    next_player: str | None
    reason: str


class CardRevealedByGm(SessionEvent):
    card: LabyrinthCard
    reason: str


class RiverCardMovedByGm(SessionEvent):
    card: LabyrinthCard
    face_up: bool | None = None
    destination: str
    reason: str
    deck: list[str] | None = None


class ScoreOverridden(SessionEvent):
    right_paths: int
    monster_points: int
    reason: str


class ActionsOverridden(SessionEvent):
    locked: list[ActionName]
    removed: list[ActionName]
    action_taken: bool
    reason: str


class TrapOverridden(SessionEvent):
    entry: LabyrinthTrapRow | None = None
    trap: str | None = None
    effect: TrapEffect | None = None
    text: str | None = None
    dc: int
    reason: str


EVENT_MODELS: dict[str, type[SessionEvent]] = {
    model.__name__: model for model in SessionEvent.__subclasses__()
}


def shown_event(shown: dict[str, Any]) -> SessionEvent:
    """The typed form of a redacted event (`{"version", "type", ...}`)."""
    return EVENT_MODELS[shown["type"]].model_validate(shown)


# --- views -----------------------------------------------------------------------------


class LabyrinthSummary(Shown):
    name: str
    variant: str
    dc: int


class LabyrinthChoice(Shown):
    """Cards an action revealed, to pick one of (slot ids; empty for spectators)."""

    kind: Annotated[Literal["resolve", "bottom"], Named("ChoiceKind")]
    options: list[str]


class LabyrinthPendingTrap(Shown):
    name: str
    dc: int
    text: str


class LabyrinthActionChecks(Shown):
    """The dice this player rolls for each action against the maze's DC."""

    forge_a_path: str
    scout_ahead: str
    its_elementary: str
    careful_consideration: str
    boost_morale: str


class LabyrinthTableView(Shown):
    """The table as a player (`viewer`, `checks` and slot ids given) or a spectator sees it."""

    viewer: str | None = None
    checks: LabyrinthActionChecks | None = None
    maze: LabyrinthSummary | None
    phase: Phase
    round: int
    turn_order: list[str]
    active: str | None
    party: list[LabyrinthMember]
    asleep: dict[str, int]
    out_of_play: list[str]
    right_paths: int
    monster_points: int
    action_taken: bool
    locked_actions: list[ActionName]
    removed_actions: list[ActionName]
    river: list[LabyrinthCard]
    held: list[LabyrinthCard]
    deck_count: int
    discard_count: int
    removed_count: int
    choice: LabyrinthChoice | None
    trap: LabyrinthPendingTrap | None
    monster: str | None
    combat_order: list[LabyrinthCombatant]
    outcome: str | None


class LabyrinthTrap(Shown):
    card: str
    entry: LabyrinthTrapRow
    dc: int


class LabyrinthGmView(Shown):
    """Everything (the GM's view): zones in order with internal card ids, the pending
    trap's row, every setting; `slots` maps this deal's slot ids to card ids."""

    phase: Phase
    definition: FreeForm | None
    party: list[LabyrinthMember]
    cards: dict[str, LabyrinthCardIdentity]
    deck: list[str]
    river: list[str]
    discard: list[str]
    removed: list[str]
    pool: list[str]
    held: list[str]
    face_up: list[str]
    stuck: list[str]
    slots: dict[str, str]
    initiative: dict[str, int]
    order: list[str]
    turn_index: int
    round: int
    active: str | None
    action_taken: bool
    locked: list[ActionName]
    unavailable: list[ActionName]
    choice: LabyrinthChoice | None
    trap: LabyrinthTrap | None
    monster: str | None
    combat_order: list[LabyrinthCombatant]
    right_paths: int
    monster_points: int
    asleep: dict[str, int]
    out_of_play: list[str]
    pending_slowing: int
    outcome: str | None


def shown_view(view: dict[str, Any], gm: bool) -> LabyrinthTableView | LabyrinthGmView:
    """The typed form of a view (the GM's when `gm`)."""
    return LabyrinthGmView.model_validate(view) if gm else LabyrinthTableView.model_validate(view)


# --- what the session use cases answer ---------------------------------------------------

LabyrinthView = Annotated[LabyrinthTableView | LabyrinthGmView, Named("LabyrinthView")]
TableRole = Annotated[Literal["gm", "player", "spectator"], Named("TableRole")]
# One of the event models, told apart by `type` (JSON Schema: a `oneOf`; GraphQL: the
# interface they implement).
if TYPE_CHECKING:
    AnyEvent = SessionEvent
else:
    AnyEvent = Annotated[
        Union[tuple(Annotated[m, Tag(m.__name__)] for m in EVENT_MODELS.values())],  # noqa: UP007
        Discriminator(event_type),
    ]
Events = list[AnyEvent]


class SessionView(Shown):
    """A session's state for the token's viewer (the GM's view for the GM), and its version."""

    session_id: Identifier
    role: TableRole
    member: str | None
    version: LongInt
    view: LabyrinthView


class CommandResult(Shown):
    """The version after a command, its events and the view, as the sender may see them
    (`duplicate`: a command id seen before, nothing recorded again)."""

    version: LongInt
    duplicate: bool
    events: Events
    view: LabyrinthView


class SessionEventPage(Shown):
    """A viewer's events after a version, and the session's version; `next_after`
    is the next page's `after` (null once read through)."""

    version: LongInt
    events: Events
    next_after: LongInt | None


def shown_look(looked: dict[str, Any]) -> SessionView:
    """The typed form of `look`'s answer."""
    view = shown_view(looked["view"], looked["role"] == "gm")
    return SessionView(**{**looked, "view": view})


def shown_result(result: dict[str, Any], gm: bool) -> CommandResult:
    """The typed form of `send`'s answer (for the GM when `gm`)."""
    events = [shown_event(e) for e in result["events"]]
    view = shown_view(result["view"], gm)
    return CommandResult(version=result["version"], duplicate=result["duplicate"],
                         events=events, view=view)  # fmt: skip


def shown_page(page: dict[str, Any]) -> SessionEventPage:
    """The typed form of `history`'s answer."""
    events = [shown_event(e) for e in page["events"]]
    return SessionEventPage(version=page["version"], events=events, next_after=page["next_after"])


# Every stored event type has its model (checked at import: a new event needs one).
_missing = {r.name for r in EVENTS.registrations} - set(EVENT_MODELS)
if _missing:
    raise TypeError(f"labyrinth events without a shown model: {sorted(_missing)}")

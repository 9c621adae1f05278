"""The market and the hirelings as data: what is sold, for how much, and what it does."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict

from services.markers import Named

Per = Annotated[Literal["item", "day", "month"], Named("MazeRatsPricePer")]


def _no_defaults(schema: dict[str, Any]) -> None:
    for field in schema.get("properties", {}).values():
        field.pop("default", None)


# The API answers these as they are: a default spares the tables below, never a client,
# so every field is required in the contract (and shows no default).
LISTED = ConfigDict(
    frozen=True, json_schema_serialization_defaults_required=True, json_schema_extra=_no_defaults
)


class MazeRatsPrice(BaseModel):
    """A price range in gold, per item, day or month."""

    model_config = LISTED

    low: int
    high: int
    per: Per = "item"


class MazeRatsWare(BaseModel):
    """One line of the market: its price, hands, AC and damage bonuses, examples."""

    model_config = LISTED

    name: str
    category: str
    price: MazeRatsPrice
    hands: int | None = None
    ac_bonus: int = 0
    damage_bonus: int = 0
    examples: tuple[str, ...] = ()


class MazeRatsHireling(BaseModel):
    """A hireling: wage, HP, AC options, gear, Combat Bonus and notes."""

    model_config = LISTED

    name: str
    wage: MazeRatsPrice
    hp: int
    ac: tuple[int, ...]
    gear: tuple[str, ...] = ()
    combat_bonus: int = 0
    notes: tuple[str, ...] = ()


def _p(low: int, high: int | None = None, per: Per = "item") -> MazeRatsPrice:
    return MazeRatsPrice(low=low, high=low if high is None else high, per=per)


# Prices printed "2og", "10og", ... read as "20g", "100g": the "o" is a zero (see docs).
MARKET: tuple[MazeRatsWare, ...] = (
    MazeRatsWare(
        name="Light Weapon",
        category="weapons",
        price=_p(20),
        hands=1,
        examples=("Handaxe", "Dagger", "Mace", "Short Sword", "Throwing Knives", "Sling"),
    ),
    MazeRatsWare(
        name="Heavy Weapon",
        category="weapons",
        price=_p(40),
        hands=2,
        damage_bonus=1,
        examples=("Spear", "Halberd", "Hammer", "Longsword", "Bow", "Crossbow"),
    ),
    MazeRatsWare(name="Shield", category="armor", price=_p(10), hands=1, ac_bonus=1),
    MazeRatsWare(
        name="Light Armor",
        category="armor",
        price=_p(100),
        ac_bonus=1,
        examples=("Padded", "Leather"),
    ),
    MazeRatsWare(
        name="Heavy Armor",
        category="armor",
        price=_p(200),
        ac_bonus=2,
        examples=("Chain", "Plate"),
    ),
    MazeRatsWare(
        name="Common Items",
        category="items",
        price=_p(1, 5),
        examples=(
            "50ft Rope",
            "Chalk",
            "Tinderbox",
            "Torch",
            "Bag of Marbles",
            "Lockpick",
            "Iron Spikes",
            "Rations",
            "Steel Mirror",
            "Candles",
            "10ft Chain",
            "10ft Pole",
            "Steel Wire",
            "Grease",
            "Glue",
            "Net",
            "Sack",
            "Crowbar",
            "Tent",
            "Hatchet",
            "Pickaxe",
            "Saw",
            "Grappling Hook",
            "Shovel",
            "Lantern",
            "Lantern Oil",
            "Bear Trap",
            "Pliers",
        ),
    ),
    MazeRatsWare(
        name="Luxury Items",
        category="items",
        price=_p(20, 100),
        examples=(
            "Book",
            "Glass Mirror",
            "Spyglass",
            "Musical Instrument",
            "Poison",
            "Acid",
            "Antitoxin",
            "Ether",
            "Flashpowder",
            "Smokebomb",
            "Potion",
        ),
    ),
    MazeRatsWare(name="Mule", category="animals", price=_p(20)),
    MazeRatsWare(name="Horse", category="animals", price=_p(100)),
    MazeRatsWare(name="Dog", category="animals", price=_p(5)),
    MazeRatsWare(name="Bloodhound", category="animals", price=_p(100)),
    MazeRatsWare(name="Chicken", category="animals", price=_p(5)),
    MazeRatsWare(name="Falcon", category="animals", price=_p(1_000)),
    MazeRatsWare(name="Cart", category="transport", price=_p(30)),
    MazeRatsWare(name="Wagon", category="transport", price=_p(100)),
    MazeRatsWare(name="Coach", category="transport", price=_p(250)),
    MazeRatsWare(name="Rowboat", category="transport", price=_p(50)),
    MazeRatsWare(name="Fishing boat", category="transport", price=_p(500)),
    MazeRatsWare(name="Caravel", category="transport", price=_p(5_000)),
    MazeRatsWare(name="Warship", category="transport", price=_p(10_000)),
    MazeRatsWare(name="Small House", category="property", price=_p(1_000)),
    MazeRatsWare(name="Tavern", category="property", price=_p(2_000)),
    MazeRatsWare(name="Guildhall", category="property", price=_p(5_000)),
    MazeRatsWare(name="Manor", category="property", price=_p(10_000)),
    MazeRatsWare(name="Fortified Outpost", category="property", price=_p(25_000)),
    MazeRatsWare(name="Country Estate", category="property", price=_p(50_000)),
    MazeRatsWare(name="Castle", category="property", price=_p(200_000)),
    MazeRatsWare(name="Palace", category="property", price=_p(1_000_000)),
    # "usually between 1,000 and 5,000, but may rise higher": the printed range is kept.
    MazeRatsWare(name="Sigil", category="magic", price=_p(1_000, 10_000)),
)

HIRELINGS: tuple[MazeRatsHireling, ...] = (
    MazeRatsHireling(
        name="Domestic Servant",
        wage=_p(10, 100, "month"),
        hp=3,
        ac=(6,),
        notes=("one ability up to +2",),
    ),
    MazeRatsHireling(name="Torchbearer", wage=_p(5, 10, "day"), hp=3, ac=(6,), gear=("Torch",)),
    MazeRatsHireling(name="Guide", wage=_p(10, 20, "day"), hp=5, ac=(6,), gear=("Maps", "Mule")),
    MazeRatsHireling(
        name="Mercenary",
        wage=_p(20, 50, "day"),
        hp=7,
        ac=(7, 8),
        gear=("Short Sword or Bow",),
        combat_bonus=1,
    ),
    MazeRatsHireling(
        name="Specialist",
        wage=_p(50, 100, "day"),
        hp=5,
        ac=(6,),
        gear=("Tools",),
        notes=("one ability up to +2", "appropriate path"),
    ),
    MazeRatsHireling(
        name="Magician",
        wage=_p(100, 200, "day"),
        hp=7,
        ac=(7,),
        notes=("one sigil",),
    ),
)

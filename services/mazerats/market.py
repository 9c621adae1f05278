"""The market and the hirelings as data: what is sold, for how much, and what it does."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Per = Literal["item", "day", "month"]


class Price(BaseModel):
    """A price in gold pieces, a single value (low == high) or a range, per item or time."""

    model_config = ConfigDict(frozen=True)

    low: int
    high: int
    per: Per = "item"


class Ware(BaseModel):
    """One line of the market: a category or named good with its price and game effect."""

    model_config = ConfigDict(frozen=True)

    name: str
    category: str
    price: Price
    hands: int | None = None
    ac_bonus: int = 0
    damage_bonus: int = 0
    examples: tuple[str, ...] = ()


class Hireling(BaseModel):
    """A hireling as the market lists it: wage, HP, AC options, gear, bonus and notes."""

    model_config = ConfigDict(frozen=True)

    name: str
    wage: Price
    hp: int
    ac: tuple[int, ...]
    gear: tuple[str, ...] = ()
    combat_bonus: int = 0
    notes: tuple[str, ...] = ()


def _p(low: int, high: int | None = None, per: Per = "item") -> Price:
    return Price(low=low, high=low if high is None else high, per=per)


# Prices printed "2og", "10og", ... read as "20g", "100g": the "o" is a zero (see docs).
MARKET: tuple[Ware, ...] = (
    Ware(
        name="Light Weapon",
        category="weapons",
        price=_p(20),
        hands=1,
        examples=("Handaxe", "Dagger", "Mace", "Short Sword", "Throwing Knives", "Sling"),
    ),
    Ware(
        name="Heavy Weapon",
        category="weapons",
        price=_p(40),
        hands=2,
        damage_bonus=1,
        examples=("Spear", "Halberd", "Hammer", "Longsword", "Bow", "Crossbow"),
    ),
    Ware(name="Shield", category="armor", price=_p(10), hands=1, ac_bonus=1),
    Ware(
        name="Light Armor",
        category="armor",
        price=_p(100),
        ac_bonus=1,
        examples=("Padded", "Leather"),
    ),
    Ware(
        name="Heavy Armor",
        category="armor",
        price=_p(200),
        ac_bonus=2,
        examples=("Chain", "Plate"),
    ),
    Ware(
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
    Ware(
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
    Ware(name="Mule", category="animals", price=_p(20)),
    Ware(name="Horse", category="animals", price=_p(100)),
    Ware(name="Dog", category="animals", price=_p(5)),
    Ware(name="Bloodhound", category="animals", price=_p(100)),
    Ware(name="Chicken", category="animals", price=_p(5)),
    Ware(name="Falcon", category="animals", price=_p(1_000)),
    Ware(name="Cart", category="transport", price=_p(30)),
    Ware(name="Wagon", category="transport", price=_p(100)),
    Ware(name="Coach", category="transport", price=_p(250)),
    Ware(name="Rowboat", category="transport", price=_p(50)),
    Ware(name="Fishing boat", category="transport", price=_p(500)),
    Ware(name="Caravel", category="transport", price=_p(5_000)),
    Ware(name="Warship", category="transport", price=_p(10_000)),
    Ware(name="Small House", category="property", price=_p(1_000)),
    Ware(name="Tavern", category="property", price=_p(2_000)),
    Ware(name="Guildhall", category="property", price=_p(5_000)),
    Ware(name="Manor", category="property", price=_p(10_000)),
    Ware(name="Fortified Outpost", category="property", price=_p(25_000)),
    Ware(name="Country Estate", category="property", price=_p(50_000)),
    Ware(name="Castle", category="property", price=_p(200_000)),
    Ware(name="Palace", category="property", price=_p(1_000_000)),
    # "usually between 1,000 and 5,000, but may rise higher": the printed range is kept.
    Ware(name="Sigil", category="magic", price=_p(1_000, 10_000)),
)

HIRELINGS: tuple[Hireling, ...] = (
    Hireling(
        name="Domestic Servant",
        wage=_p(10, 100, "month"),
        hp=3,
        ac=(6,),
        notes=("one ability up to +2",),
    ),
    Hireling(name="Torchbearer", wage=_p(5, 10, "day"), hp=3, ac=(6,), gear=("Torch",)),
    Hireling(name="Guide", wage=_p(10, 20, "day"), hp=5, ac=(6,), gear=("Maps", "Mule")),
    Hireling(
        name="Mercenary",
        wage=_p(20, 50, "day"),
        hp=7,
        ac=(7, 8),
        gear=("Short Sword or Bow",),
        combat_bonus=1,
    ),
    Hireling(
        name="Specialist",
        wage=_p(50, 100, "day"),
        hp=5,
        ac=(6,),
        gear=("Tools",),
        notes=("one ability up to +2", "appropriate path"),
    ),
    Hireling(
        name="Magician",
        wage=_p(100, 200, "day"),
        hp=7,
        ac=(7,),
        notes=("one sigil",),
    ),
)

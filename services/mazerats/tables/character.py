"""Character creation tables: ability rows, paths, gear, items, appearance, details."""

from __future__ import annotations

from services.mazerats.tables.d66 import columns_of_six

# "1d Strength Dexterity Will": one row per face.
ABILITY_ROWS: tuple[tuple[int, int, int], ...] = (
    (1, 0, -1),
    (1, -1, 0),
    (0, 1, -1),
    (-1, 1, 0),
    (0, -1, 1),
    (-1, 0, 1),
)

# "1d Path": name and what it covers, one per face.
PATHS: tuple[tuple[str, str], ...] = (
    (
        "Fingersmith",
        "Picking locks, picking pockets, tinkering with machines, sleight of hand, etc.",
    ),
    (
        "Greenwatch",
        "Tracking, trapping, foraging, weather-watching, orienteering, survival, etc.",
    ),
    ("Inksworn", "Languages, lore, arcana, etiquette, deciphering scripts, forgery, etc."),
    ("Roofrat", "Climbing ropes or walls, balancing, contorting, leaping, free running, etc."),
    ("Sawbones", "Alchemy, potion-making, poisoning, dissection, surgery, healing, etc."),
    ("Shadowjack", "Moving silently, blending in, impersonation, hiding in shadows, etc."),
)
PATH_NAMES: tuple[str, ...] = tuple(name for name, _ in PATHS)

LIGHT_WEAPONS: tuple[str, ...] = (
    "Handaxe",
    "Dagger",
    "Mace",
    "Short Sword",
    "Throwing Knives",
    "Sling",
)
HEAVY_WEAPONS: tuple[str, ...] = ("Spear", "Halberd", "Hammer", "Longsword", "Bow", "Crossbow")
# The text's weapon lists do not say which are ranged; these are the ones that shoot or throw.
RANGED_WEAPONS: frozenset[str] = frozenset({"Throwing Knives", "Sling", "Bow", "Crossbow"})

# Printed as two blocks of 6 rows × 3 columns; "3, 4 ... Lantern" is block 1, column 3.
ITEMS: tuple[str, ...] = columns_of_six(
    (
        ("Animal Scent", "Cooking Pot", "Grappling Hook"),
        ("Three Rations", "Crowbar", "Incense"),
        ("Black Grease", "Deck of Cards", "Iron Spikes"),
        ("Bottle of Wine", "Fifty Foot Rope", "Lantern"),
        ("Caltrops", "Fishing Net", "Lantern Oil"),
        ("Chalk", "Glass Marbles", "Large Sack"),
    )
) + columns_of_six(
    (
        ("Love Potion", "Sewing Kit", "Three Bandages"),
        ("Lump of Resin", "Shovel", "Three Lockpicks"),
        ("Lump of Wax", "Waterskin", "Knife"),
        ("Manacles", "Small Tent", "Vial of Acid"),
        ("Tinderbox", "Steel Mirror", "Vial of Poison"),
        ("Roll of Twine", "Ten Foot Pole", "Whistle"),
    )
)

# Printed as one block of 12 rows × 3 columns (no blank line), like the magic tables.
APPEARANCES: tuple[str, ...] = columns_of_six(
    (
        ("Aquiline", "Bullnecked", "Furrowed"),
        ("Athletic", "Chiseled", "Gaunt"),
        ("Barrel-Chested", "Coltish", "Gorgeous"),
        ("Boney", "Corpulent", "Grizzled"),
        ("Brawny", "Craggy", "Haggard"),
        ("Brutish", "Delicate", "Handsome"),
        ("Ill-favored", "Sinewy", "Towering"),
        ("Lanky", "Slender", "Trim"),
        ("Pudgy", "Slumped", "Weathered"),
        ("Rakish", "Solid", "Willowy"),
        ("Rosy", "Square-Jawed", "Wiry"),
        ("Scrawny", "Statuesque", "Wrinkled"),
    )
)

DETAILS: tuple[str, ...] = columns_of_six(
    (
        ("Arctic Furs", "Broken Nose", "Desert Robes"),
        ("Battle Scars", "Bronze Skinned", "Dreadlocks"),
        ("Belts & Pouches", "Burn Scars", "Exotic Accent"),
        ("Body Paint", "Cult Insignia", "Faded Finery"),
        ("Braided Hair", "Dark Skinned", "Flogging Scars"),
        ("Bright Silks", "Deerskins", "Hair Ornaments"),
        ("Haute Couture", "One-Eyed", "Soldier Uniform"),
        ("Hooded Cloak", "Pale Skinned", "Strange Charms"),
        ("Missing Ear", "Perfumed", "Tangled Hair"),
        ("Mohawk", "Piercings", "Tattoos"),
        ("Nine Fingers", "Ritual Scars", "Topknot"),
        ("Oiled Hair", "Shaved Head", "War Paint"),
    )
)

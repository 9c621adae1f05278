"""Sigil magic tables: corporeal and ethereal effects, elements and forms (36 entries each)."""

from __future__ import annotations

from services.mazerats.tables.d66 import columns_of_six

CORPOREAL_EFFECTS: tuple[str, ...] = columns_of_six(
    (
        ("Rending", "Creeping", "Duplicating"),
        ("Hastening", "Crushing", "Animating"),
        ("Attracting", "Greasing", "Enveloping"),
        ("Binding", "Repelling", "Expanding"),
        ("Blossoming", "Transporting", "Levitating"),
        ("Consuming", "Diminishing", "Grasping"),
        ("Hindering", "Petrifying", "Fusing"),
        ("Imprisoning", "Phasing", "Screaming"),
        ("Spawning", "Piercing", "Sealing"),
        ("Illuminating", "Shapeshifting", "Shielding"),
        ("Resurrecting", "Pursuing", "Dividing"),
        ("Opening", "Reflecting", "Transmuting"),
    )
)

CORPOREAL_ELEMENTS: tuple[str, ...] = columns_of_six(
    (
        ("Acid", "Insect", "Clay"),
        ("Vine", "Blood", "Crow"),
        ("Bat", "Bone", "Crystal"),
        ("Venom", "Brimstone", "Flesh"),
        ("Salt", "Water", "Stone"),
        ("Sand", "Worm", "Rat"),
        ("Fungus", "Lava", "Obsidian"),
        ("Glass", "Tar", "Amber"),
        ("Honey", "Thorn", "Brine"),
        ("Ice", "Wine", "Sap"),
        ("Iron", "Serpent", "Milk"),
        ("Oil", "Slime", "Moss"),
    )
)

CORPOREAL_FORMS: tuple[str, ...] = columns_of_six(
    (
        ("Fist", "Assassin", "Crystal"),
        ("Fountain", "Bastion", "Elemental"),
        ("Gate", "Beast", "Eye"),
        ("Golem", "Blade", "Face"),
        ("Hand", "Colossus", "Lock"),
        ("Heart", "Column", "Maze"),
        ("Tentacle", "Wall", "Monolith"),
        ("Throne", "Tunnel", "Mouth"),
        ("Shroud", "Tree", "Road"),
        ("Swarm", "Trap", "Sentinel"),
        ("Steed", "Tower", "Servant"),
        ("Shield", "Tongue", "Web"),
    )
)

# The text prints 35 ethereal effects: its last row has two. The empty 36th slot (6-6)
# is the third column's last; see `MISSING` and docs/RULES.md (Maze Rats).
MISSING = ""
ETHEREAL_EFFECTS: tuple[str, ...] = columns_of_six(
    (
        ("Terrifying", "Soothing", "Blinding"),
        # "Revoltng" in the text; the typo is corrected.
        ("Revolting", "Menacing", "Deafening"),
        ("Nullifying", "Withering", "Silencing"),
        ("Enraging", "Foreseeing", "Enlightening"),
        ("Maddening", "Energizing", "Charming"),
        ("Bewildering", "Emboldening", "Compelling"),
        ("Paralyzing", "Scrying", "Disguising"),
        ("Excruciating", "Wearying", "Summoning"),
        ("Deceiving", "Dispelling", "Banishing"),
        ("Mesmerizing", "Deciphering", "Warding"),
        ("Revealing", "Mindreading", "Intoxicating"),
        ("Communicating", "Concealing", MISSING),
    )
)

# "Plague" is printed twice (rows 2 and 5 of the first column); kept as printed.
ETHEREAL_ELEMENTS: tuple[str, ...] = columns_of_six(
    (
        ("Battle", "Probability", "Fog"),
        ("Plague", "Dusk", "Ash"),
        ("Mutation", "Rot", "Steam"),
        ("Nightmare", "Smoke", "Snow"),
        ("Plague", "Wind", "Rain"),
        ("Time", "Dust", "Harmony"),
        ("Star", "Sun", "Chaos"),
        ("Echo", "Moon", "Stasis"),
        ("Fire", "Void", "Thunder"),
        ("Dream", "Pain", "Lightning"),
        ("Doom", "Soul", "Light"),
        ("Ghost", "Mind", "Shadow"),
    )
)

ETHEREAL_FORMS: tuple[str, ...] = columns_of_six(
    (
        ("Cloud", "Arc", "Bolt"),
        ("Coil", "Aura", "Bubble"),
        ("Cone", "Beacon", "Burst"),
        ("Cube", "Beam", "Call"),
        ("Disk", "Blast", "Cascade"),
        ("Touch", "Blob", "Circle"),
        ("Torrent", "Storm", "Field"),
        ("Portal", "Spray", "Form"),
        ("Word", "Loop", "Gaze"),
        ("Pulse", "Moment", "Grip"),
        ("Pyramid", "Nexus", "Wave"),
        ("Ray", "Shard", "Vortex"),
    )
)

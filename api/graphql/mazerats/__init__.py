"""GraphQL: the Maze Rats queries (checks, probabilities, generators). One type per module."""

from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from api.graphql.mazerats.answer import answer, args
from api.graphql.mazerats.attack import MazeRatsAttack
from api.graphql.mazerats.attack_odds import MazeRatsAttackOdds
from api.graphql.mazerats.character import MazeRatsCharacter
from api.graphql.mazerats.opposed_odds import MazeRatsOpposedOdds
from api.graphql.mazerats.opposed_save import MazeRatsOpposedSave
from api.graphql.mazerats.payloads import (
    AttackOddsPayload,
    AttackPayload,
    CharacterPayload,
    OpposedOddsPayload,
    OpposedSavePayload,
    SaveOddsPayload,
    SavePayload,
    SigilsPayload,
    SpellCastPayload,
    SpellCostPayload,
)
from api.graphql.mazerats.play import MazeRatsGearInput, MazeRatsPlayQuery
from api.graphql.mazerats.save import MazeRatsSave
from api.graphql.mazerats.save_odds import MazeRatsSaveOdds
from api.graphql.mazerats.sigils import MazeRatsSigils
from api.graphql.mazerats.spell_cast import MazeRatsSpellCast
from api.graphql.mazerats.spell_cost import MazeRatsSpellCost
from api.graphql.rolled import with_rolls
from api.rolls import recorded
from services.dice import new_seed, seeded_rng
from services.mazerats import usecases
from services.mazerats.casting import cast_spell
from services.mazerats.combat import attack_odds, roll_attack
from services.mazerats.magic import generate_sigils
from services.mazerats.market import HIRELINGS, MARKET
from services.mazerats.opposed import opposed_odds, roll_opposed
from services.mazerats.play_requests import CastRequest
from services.mazerats.requests import (
    AttackOddsRequest,
    AttackRequest,
    CharacterRequest,
    OpposedOddsRequest,
    OpposedSaveRequest,
    SaveOddsRequest,
    SaveRequest,
    SigilRequest,
)
from services.mazerats.saves import roll_save, save_bonus, save_odds
from services.mazerats.spells import SpellRequest, spell_cost


@strawberry.type
class MazeRatsQuery(MazeRatsPlayQuery):
    @strawberry.field(description="Roll a save: 2d6 + ability (+1 if the path covers it) >= 9.")
    def maze_rats_save(
        self,
        ability: int | None = None,
        path_covers: bool | None = None,
        risk: str | None = None,
        seed: str | None = None,
    ) -> SavePayload:
        def build() -> MazeRatsSave:
            a = SaveRequest(**args(ability=ability, path_covers=path_covers, risk=risk, seed=seed))
            used = a.seed or new_seed()
            rolled, rolls = recorded(roll_save, seeded_rng(used), a.ability, a.path_covers, a.risk)
            return with_rolls(MazeRatsSave.from_domain(rolled, used), rolls)

        return answer(build)

    @strawberry.field(description="The exact chance a save succeeds.")
    def maze_rats_save_odds(
        self, ability: int | None = None, path_covers: bool | None = None
    ) -> SaveOddsPayload:
        def build() -> MazeRatsSaveOdds:
            a = SaveOddsRequest(**args(ability=ability, path_covers=path_covers))
            return MazeRatsSaveOdds.from_domain(
                save_bonus(a.ability, a.path_covers), save_odds(a.ability, a.path_covers)
            )

        return answer(build)

    @strawberry.field(description="Roll an opposed save; ties: 'defender' (default) or 'reroll'.")
    def maze_rats_opposed_save(
        self,
        attacker_bonus: int | None = None,
        defender_bonus: int | None = None,
        ties: str | None = None,
        seed: str | None = None,
    ) -> OpposedSavePayload:
        def build() -> MazeRatsOpposedSave:
            a = OpposedSaveRequest(
                **args(
                    attacker_bonus=attacker_bonus,
                    defender_bonus=defender_bonus,
                    ties=ties,
                    seed=seed,
                )
            )
            used = a.seed or new_seed()
            sides = (a.attacker_bonus, a.defender_bonus, a.ties)
            result, rolls = recorded(roll_opposed, seeded_rng(used), *sides)
            return with_rolls(MazeRatsOpposedSave.from_domain(result, used), rolls)

        return answer(build)

    @strawberry.field(description="Each side's exact chance to win an opposed save.")
    def maze_rats_opposed_save_odds(
        self,
        attacker_bonus: int | None = None,
        defender_bonus: int | None = None,
        ties: str | None = None,
    ) -> OpposedOddsPayload:
        def build() -> MazeRatsOpposedOdds:
            a = OpposedOddsRequest(
                **args(attacker_bonus=attacker_bonus, defender_bonus=defender_bonus, ties=ties)
            )
            odds = opposed_odds(a.attacker_bonus, a.defender_bonus, a.ties)
            return MazeRatsOpposedOdds.from_domain(odds)

        return answer(build)

    @strawberry.field(description="Roll an attack: 2d6 + Combat Bonus must exceed AC.")
    def maze_rats_attack(
        self,
        combat_bonus: int | None = None,
        ac: int | None = None,
        heavy_weapon: bool | None = None,
        ranged: bool | None = None,
        in_close_combat: bool | None = None,
        seed: str | None = None,
        gear: MazeRatsGearInput | None = None,
    ) -> AttackPayload:
        def build() -> MazeRatsAttack:
            a = AttackRequest(
                **args(
                    gear=gear.to_dict() if gear else None,
                    combat_bonus=combat_bonus,
                    ac=ac,
                    heavy_weapon=heavy_weapon,
                    ranged=ranged,
                    in_close_combat=in_close_combat,
                    seed=seed,
                )
            )
            used = a.seed or new_seed()
            result, rolls = recorded(
                roll_attack,
                seeded_rng(used),
                a.combat_bonus,
                a.armor_class,
                a.heavy_weapon,
                a.ranged,
                a.in_close_combat,
            )
            return with_rolls(MazeRatsAttack.from_domain(result, used), rolls)

        return answer(build)

    @strawberry.field(description="The exact chance to hit and the damage distribution.")
    def maze_rats_attack_odds(
        self,
        combat_bonus: int | None = None,
        ac: int | None = None,
        heavy_weapon: bool | None = None,
        gear: MazeRatsGearInput | None = None,
    ) -> AttackOddsPayload:
        def build() -> MazeRatsAttackOdds:
            a = AttackOddsRequest(
                **args(
                    combat_bonus=combat_bonus,
                    ac=ac,
                    heavy_weapon=heavy_weapon,
                    gear=gear.to_dict() if gear else None,
                )
            )
            odds = attack_odds(a.combat_bonus, a.armor_class, a.heavy_weapon)
            return MazeRatsAttackOdds.from_domain(odds)

        return answer(build)

    @strawberry.field(description="Generate a character; the same seed gives the same sheet.")
    def maze_rats_character(
        self,
        seed: str | None = None,
        name: str | None = None,
        gear_package: str | None = None,
        unique_items: bool | None = None,
        ability_row: int | None = None,
        path: str | None = None,
        weapon: str | None = None,
        items: list[str] | None = None,
    ) -> CharacterPayload:
        def build() -> MazeRatsCharacter:
            a = CharacterRequest(**args(seed=seed, name=name, gear_package=gear_package,
                unique_items=unique_items, ability_row=ability_row, path=path, weapon=weapon,
                items=items))  # fmt: skip
            used = a.seed or new_seed()
            return MazeRatsCharacter.from_domain(
                usecases.create_character(a, seeded_rng(used), used)
            )

        return answer(build)

    @strawberry.field(description="Generate the sigils a shop offers: effect/element + form.")
    def maze_rats_sigils(
        self,
        seed: str | None = None,
        count: int | None = None,
        realm: str | None = None,
        part: str | None = None,
        mix_realms: bool | None = None,
    ) -> SigilsPayload:
        def build() -> MazeRatsSigils:
            a = SigilRequest(
                **args(seed=seed, count=count, realm=realm, part=part, mix_realms=mix_realms)
            )
            used = a.seed or new_seed()
            found = generate_sigils(seeded_rng(used), a.count, a.realm, a.part, a.mix_realms)
            return MazeRatsSigils.from_domain(found, used)

        return answer(build)

    @strawberry.field(
        description="The HP cost of a spell; `spell` holds the fields of SpellRequest."
    )
    def maze_rats_spell_cost(self, spell: JSON | None = None) -> SpellCostPayload:
        def build() -> MazeRatsSpellCost:
            return MazeRatsSpellCost.from_domain(
                spell_cost(SpellRequest.model_validate(spell or {}))
            )

        return answer(build)

    @strawberry.field(
        description="Cast a spell: lose HP equal to its cost; a discount risks the WIL save."
    )
    def maze_rats_cast(
        self,
        spell: JSON | None = None,
        hp: int | None = None,
        will: int | None = None,
        path_covers: bool | None = None,
        character: JSON | None = None,
        sigil: str | None = None,
        seed: str | None = None,
    ) -> SpellCastPayload:
        def build() -> MazeRatsSpellCast:
            a = CastRequest.model_validate(args(spell=spell, hp=hp, will=will,
                path_covers=path_covers, character=character, sigil=sigil, seed=seed))  # fmt: skip
            used = a.seed or new_seed()
            cast, rolls = recorded(cast_spell, a, seeded_rng(used))
            return with_rolls(MazeRatsSpellCast.from_domain(cast, used), rolls)

        return answer(build)

    @strawberry.field(description="The market: wares, prices (gold), hands, AC and damage.")
    def maze_rats_market(self) -> JSON:
        return JSON([w.model_dump(mode="json") for w in MARKET])

    @strawberry.field(description="The hirelings: wage, HP, AC options, gear and notes.")
    def maze_rats_hirelings(self) -> JSON:
        return JSON([h.model_dump(mode="json") for h in HIRELINGS])

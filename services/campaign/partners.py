"""Buddy in a campaign: "If one partner dies ... character loses this trait."

A runner's death (in the maze at EndRun, or of an untreated Fatal injury at a tick) is
followed by one `BuddyLost` event naming every runner whose Buddy trait it ends (the
dead partner included), so replay copies the result and never recomputes it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from services.campaign.events import BuddyLost
from services.campaign.model import Runner
from services.campaign.state import CampaignState
from services.maze.validation import bonded_to, drop_buddy


def buddies_lost(state: CampaignState, dead: Iterable[str]) -> list[BuddyLost]:
    """One BuddyLost per runner who just died and had Buddy partners (none otherwise)."""
    runners = list(state.runners)
    out: list[BuddyLost] = []
    for runner_id in dead:
        partner = next((r for r in runners if r.id == runner_id), None)
        if partner is None:
            continue
        name = partner.character.name
        hit = tuple(r.id for r in runners if bonded_to(r.character, name))
        if hit:
            out.append(BuddyLost(partner=runner_id, runners=hit))
            runners = [without_buddy(r) if r.id in hit else r for r in runners]
    return out


def without_buddy(runner: Runner) -> Runner:
    """The runner with Buddy (and its partners) struck from the sheet."""
    return replace(runner, character=drop_buddy(runner.character))

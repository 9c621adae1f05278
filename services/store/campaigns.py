"""The campaign clock: applies due downtimes through the session service, keeps the schedule.

Every downtime `k` is the command `AdvanceDowntime(index=k)` executed with the command id
`downtime-<k>`, so its event id is fixed by the campaign and the index alone: a tick
delivered twice, two workers racing, or a tick racing a GM's manual advance record it
once (the loser's append is a duplicate or loses the version race and then finds the
downtime passed, which decides to nothing). Downtimes are applied one at a time, in order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from services.campaign import AdvanceDowntime, CampaignState, DowntimePassed
from services.campaign import next_due_at as _next_due_at
from services.campaign import target_downtime as _target_downtime
from services.dice import Rng, SystemRng
from services.store.schedule import TickSchedule
from services.store.sessions import Executed, SessionService


def command_id(index: int) -> str:
    """The command id of downtime `index`: the same for every process that applies it."""
    return f"downtime-{index}"


class CampaignClock:
    """Moves one tenant's campaigns through their downtimes and keeps their due times."""

    def __init__(
        self,
        service: SessionService[CampaignState],
        schedule: TickSchedule,
        tenant: str,
        *,
        rng: Callable[[], Rng] = SystemRng,
    ) -> None:
        self.service = service
        self.schedule = schedule
        self.tenant = tenant
        # A fresh generator per call: callers may share one clock between threads.
        self._rng = rng

    def advance(
        self, campaign_id: str, now: float, through: int | None = None
    ) -> list[Executed[CampaignState]]:
        """Apply the due downtimes in order (each once), then reschedule the campaign.

        Scheduled (`through` None): every downtime due at `now` by the cadence. Manual:
        until the downtime counter reaches `through`, i.e. indexes below it (never past
        the season's end). Domain refusals propagate (the campaign is rescheduled
        first). Returns what this call recorded; a downtime another process recorded
        first is not in it.
        """
        loaded = self.service.load(campaign_id)
        state, version = loaded.state, loaded.version
        done: list[Executed[CampaignState]] = []
        try:
            if not state.created:
                if through is not None:  # the domain's campaign_not_found
                    self._tick(campaign_id, 0, now)
                return done
            target = self._target(state, now, through)
            while state.downtime < target:
                index = state.downtime
                executed = self._tick(campaign_id, index, now, scheduled=through is None)
                if executed.events and not executed.duplicate:
                    done.append(executed)
                moved = executed.state.downtime > index
                state, version = executed.state, executed.version
                if not moved:
                    break  # not due any more, or refused without an error: do not spin
        finally:
            self.reschedule(campaign_id, state, version=version)
        return done

    def advance_once(
        self, campaign_id: str, now: float, through: int, *, start: int, client_command_id: str
    ) -> tuple[list[Executed[CampaignState]], bool]:
        """A hand advance a client may retry: (its downtimes, whether this is a retry).

        The first attempt of `client_command_id` claims its target (`start`, the downtime
        counter it saw, to `through`); every attempt, racing or later, advances to that
        claimed target, so a retried `advance {}` never passes a second downtime. Each
        answers the downtimes of the claimed range as recorded, whoever recorded them
        (racing attempts share the work); only the claiming attempt is not a retry.
        """
        stream = self.service.stream(campaign_id)
        claimed, first = self.service.store.claim(stream, client_command_id, f"{start}:{through}")
        start, through = (int(part) for part in claimed.split(":"))
        self.advance(campaign_id, now, through=through)
        found = (self.service.recorded(campaign_id, command_id(k)) for k in range(start, through))
        return [d for d in found if d is not None], not first

    def _target(self, state: CampaignState, now: float, through: int | None) -> int:
        if through is None:
            return _target_downtime(state, now)
        if through > state.downtime:
            # Past the season the first tick refuses (season_over); never beyond it.
            return max(state.downtime + 1, min(through, state.rules.season_downtimes))
        return through

    def _tick(
        self, campaign_id: str, index: int, now: float, *, scheduled: bool = False
    ) -> Executed[CampaignState]:
        return self.service.execute(
            campaign_id,
            AdvanceDowntime(index=index, at=now, scheduled=scheduled),
            self._rng(),
            command_id=command_id(index),
        )

    def reschedule(
        self, campaign_id: str, state: CampaignState, *, version: int | None = None
    ) -> None:
        """Set the campaign's schedule entry to `next_due_at(state)` (removed when None).

        `version` is the stream version `state` was folded to: with it, an older state
        never overwrites the due time a newer one set. Without it the entry is written
        as given.
        """
        due = _next_due_at(state) if state.created else None
        self.schedule.set_due(self.tenant, campaign_id, due, version=version)


def tick_lags(
    service: SessionService[CampaignState], executed: Sequence[Executed[CampaignState]]
) -> list[float]:
    """Seconds each recorded downtime was applied after it fell due (scheduled ones only)."""
    lags = []
    for result in executed:
        for recorded in result.events:
            event = service.aggregate.decode_event(recorded.type, recorded.data)
            if isinstance(event, DowntimePassed) and event.due_at is not None:
                lags.append(max(0.0, event.at - event.due_at))
    return lags

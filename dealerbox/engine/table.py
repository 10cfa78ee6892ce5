"""The engine: ``apply(event) -> [table events]``. Pure and synchronous, driven only by event timestamps.

This first cut follows the table (board health, seats); hands, cards and betting build on it.
"""

from __future__ import annotations

from ..config import Config
from ..tags import TagRegistry, UnknownTag
from . import events as te
from . import inputs as ev
from .state import SeatView, TableState


class Engine:
    def __init__(self, config: Config, registry: TagRegistry) -> None:
        self.config = config
        self.registry = registry
        self.stacks: dict[int, int] = {}
        self.hand_no: int | None = None

    def apply(self, event: ev.EngineInput) -> list[te.TableEvent]:
        t, hand = event.t, self.hand_no
        match event:
            case ev.BoardHello():
                return [te.BoardConnected(t, hand, event.protocol, event.firmware, event.zones)]
            case ev.ReaderFaulted():
                return [te.ReaderHealthChanged(t, hand, event.reader, event.zone, event.code == 0, event.code)]
            case ev.FramesLost():
                return [te.SensorDataLost(t, hand, event.count, event.reason)]
            case ev.ZoneEntered(tag=UnknownTag()):
                return [te.UnknownTagSeen(t, hand, event.zone, event.tag.uid)]
            case ev.DealerInput(action="sit", seat=seat, amount=amount) if seat is not None:
                self.stacks[seat] = amount or self.config.game.buy_in
                return [te.PlayerSeated(t, hand, seat, self.stacks[seat])]
            case ev.DealerInput(action="leave", seat=seat) if seat in self.stacks:
                return [te.PlayerLeft(t, hand, seat, self.stacks.pop(seat))]
        return []

    def snapshot(self) -> TableState:
        seats = tuple(
            SeatView(seat=s, occupied=s in self.stacks, stack=self.stacks.get(s, 0))
            for s in range(1, self.config.table.seats + 1)
        )
        return TableState(hand=self.hand_no, game=self.config.game.variant, seats=seats)

"""The tournament half of the floor link: a tournament table follows its instruction topic
(``dealerbox/<site>/<table>/tournament``: move, break, redraw) and its tournament's retained clock
(``dealerbox/<site>/tournament/<id>/clock``). Each payload is checked (JSON, schema, address, tournament,
duplicate) and handed to the terminal as a logged input, so a replay sees what the table saw:
``DealerInput(action="floor-instruction" | "floor-clock", detail=<compact JSON>, by="floor")``.
A bad payload is counted and said in one log line, never a crash.
"""

from __future__ import annotations

import json
import logging
import queue
from collections import deque
from collections.abc import Callable

from ...engine.inputs import DealerInput
from .parts import LinkCounters, LinkIdentity
from .untrusted import read_payload

log = logging.getLogger("dealerbox.floor")

ACTIONS = {"tournament": "floor-instruction", "clock": "floor-clock"}


class TournamentDesk:
    """Checks what arrives on a tournament table's instruction and clock topics: given who the table is and
    the counters (and refusals); owns which tournament it follows, the inputs it accepted (the
    ``floor_inputs`` queue, or ``on_floor_input``: the terminal's FloorSink points it at ``Terminal.submit``)
    and the ones already seen. ``follow_tournament(id)`` before the link starts."""

    def __init__(self, ident: LinkIdentity, counters: LinkCounters, tournament_table: bool) -> None:
        self.ident, self._counters = ident, counters
        self.tournament_table = tournament_table      # follows its instruction topic
        self.tournament_id: str | None = None         # and this tournament's clock, once known
        self.floor_inputs: queue.Queue[DealerInput] = queue.Queue()
        self.on_floor_input: Callable[[DealerInput], None] = self.floor_inputs.put
        self._floor_topics: tuple[str, ...] | None = None
        self._seen_floor: deque[tuple[str, str, int]] = deque(maxlen=512)
        counters.declare("floor_inputs", "floor_inputs_refused", "floor_inputs_repeated")

    def send_to(self, handler: Callable[[DealerInput], None]) -> None:
        """Where each accepted instruction or clock goes from now on (set before the link starts)."""
        self.on_floor_input = handler

    def follow_tournament(self, tournament_id: str) -> None:
        """Follow ``tournament_id``'s clock and this table's instructions (call before ``start()``)."""
        self.tournament_table = True
        self.tournament_id = tournament_id
        self._floor_topics = None

    def tournament_topics(self) -> tuple[str, ...]:
        """The topics to subscribe on each connection (none for a cash table or a review copy)."""
        if self.ident.review or not self.tournament_table:
            return ()
        if self._floor_topics is None:   # the topics' one spelling lives with the Director (it loads jsonschema)
            from ...tournament.floor import clock_topic, instruction_topic
            self._floor_topics = (instruction_topic(self.ident.site, self.ident.table),) + \
                ((clock_topic(self.ident.site, self.tournament_id),) if self.tournament_id else ())
        return self._floor_topics

    def handle_tournament(self, topic: str, raw: bytes) -> DealerInput | None:
        """Check one message from the instruction or clock topic; an accepted one goes to ``on_floor_input``."""
        kind = "clock" if topic.endswith("/clock") else "tournament"
        data, why = read_payload(raw)
        if why:
            return self._refuse_floor(topic, why)
        from ...tournament.floor import schema_errors   # jsonschema: only a tournament table gets here
        errors = schema_errors(kind, data)
        if errors:
            return self._refuse_floor(topic, f"schema: {errors[0]}")
        if data["site"] != self.ident.site or (kind == "tournament" and data["table"] != self.ident.table):
            where = f"{data['site']}/{data.get('table', '')}".rstrip("/")
            return self._refuse_floor(topic, f"addressed to {where}, this is {self.ident.site}/{self.ident.table}")
        if self.tournament_id and data["tournament"] != self.tournament_id:
            return self._refuse_floor(topic, f"for tournament {data['tournament']}, this table plays "
                                             f"{self.tournament_id} (check [tournament] file)")
        key = (kind, data["boot"], data["seq"])
        if key in self._seen_floor:   # a retained clock again after a reconnect, a QoS 1 redelivery
            self._counters.add("floor_inputs_repeated")
            return None
        self._seen_floor.append(key)
        tap = DealerInput(0.0, ACTIONS[kind], detail=json.dumps(data, separators=(",", ":")), by="floor")
        self._counters.add("floor_inputs")
        if kind == "tournament":
            log.info("floor instruction for %s/%s: %s (plan %s)", self.ident.site, self.ident.table,
                     data["instruction"], data["plan"])
        self.on_floor_input(tap)
        return tap

    def _refuse_floor(self, topic: str, reason: str) -> DealerInput | None:
        self._counters.add("floor_inputs_refused")
        self._counters.refused(f"{topic}: {reason}")
        log.warning("floor message on %s refused: %s", topic, reason)
        return None

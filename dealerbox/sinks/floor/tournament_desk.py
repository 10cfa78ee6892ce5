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
import threading
from collections import deque
from collections.abc import Callable

from ...engine.inputs import DealerInput

log = logging.getLogger("dealerbox.floor")

ACTIONS = {"tournament": "floor-instruction", "clock": "floor-clock"}


class TournamentDesk:
    """Mixed into :class:`FloorLink` (its __init__ calls :meth:`_init_tournament`). ``follow_tournament(id)``
    before ``start()``; each accepted payload goes to ``on_floor_input`` (by default the ``floor_inputs``
    queue; the terminal's FloorSink points it at ``Terminal.submit``)."""

    site: str
    table: str
    review: bool
    counters: dict[str, int]
    refusals: deque[str]
    _lock: threading.Lock
    handle_command: Callable[[str, bytes], object]   # the command desk's

    def _init_tournament(self, tournament_table: bool) -> None:
        self.tournament_table = tournament_table      # follows its instruction topic
        self.tournament_id: str | None = None         # and this tournament's clock, once known
        self.floor_inputs: queue.Queue[DealerInput] = queue.Queue()
        self.on_floor_input: Callable[[DealerInput], None] = self.floor_inputs.put
        self._floor_topics: tuple[str, ...] | None = None
        self._seen_floor: deque[tuple[str, str, int]] = deque(maxlen=512)
        self.counters.update({"floor_inputs": 0, "floor_inputs_refused": 0, "floor_inputs_repeated": 0})

    def follow_tournament(self, tournament_id: str) -> None:
        """Follow ``tournament_id``'s clock and this table's instructions (call before ``start()``)."""
        self.tournament_table = True
        self.tournament_id = tournament_id
        self._floor_topics = None

    def tournament_topics(self) -> tuple[str, ...]:
        """The topics to subscribe on each connection (none for a cash table or a review copy)."""
        if self.review or not self.tournament_table:
            return ()
        if self._floor_topics is None:   # the topics' one spelling lives with the Director (it loads jsonschema)
            from ...tournament.floor import clock_topic, instruction_topic
            self._floor_topics = (instruction_topic(self.site, self.table),) + \
                ((clock_topic(self.site, self.tournament_id),) if self.tournament_id else ())
        return self._floor_topics

    def _on_message(self, client, userdata, message) -> None:
        if message.topic in self.tournament_topics():
            self.handle_tournament(message.topic, message.payload)
        else:
            self.handle_command(message.topic, message.payload)

    def handle_tournament(self, topic: str, raw: bytes) -> DealerInput | None:
        """Check one message from the instruction or clock topic; an accepted one goes to ``on_floor_input``."""
        kind = "clock" if topic.endswith("/clock") else "tournament"
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            return self._refuse_floor(topic, f"malformed JSON ({e})")
        from ...tournament.floor import schema_errors   # jsonschema: only a tournament table gets here
        errors = schema_errors(kind, data)
        if errors:
            return self._refuse_floor(topic, f"schema: {errors[0]}")
        if data["site"] != self.site or (kind == "tournament" and data["table"] != self.table):
            where = f"{data['site']}/{data.get('table', '')}".rstrip("/")
            return self._refuse_floor(topic, f"addressed to {where}, this is {self.site}/{self.table}")
        if self.tournament_id and data["tournament"] != self.tournament_id:
            return self._refuse_floor(topic, f"for tournament {data['tournament']}, this table plays "
                                             f"{self.tournament_id} (check [tournament] file)")
        key = (kind, data["boot"], data["seq"])
        if key in self._seen_floor:   # a retained clock again after a reconnect, a QoS 1 redelivery
            self.counters["floor_inputs_repeated"] += 1
            return None
        self._seen_floor.append(key)
        tap = DealerInput(0.0, ACTIONS[kind], detail=json.dumps(data, separators=(",", ":")), by="floor")
        self.counters["floor_inputs"] += 1
        if kind == "tournament":
            log.info("floor instruction for %s/%s: %s (plan %s)", self.site, self.table, data["instruction"],
                     data["plan"])
        self.on_floor_input(tap)
        return tap

    def _refuse_floor(self, topic: str, reason: str) -> None:
        self.counters["floor_inputs_refused"] += 1
        self.refusals.append(f"{topic}: {reason}")
        log.warning("floor message on %s refused: %s", topic, reason)
        return None

"""The tournament director hosted in the dashboard (``dealerbox dashboard --tournament FILE``): each hosted
:class:`~dealerbox.tournament.floor.TournamentFloor` reads every table's player count from the state topic the
dashboard already files, sends a table the seat that moves where, and runs the clock the supervisors pause,
resume and adjust from the tournament page, on the dashboard's own MQTT connection. The pure decisions are the
same object ``dealerbox tournament`` runs; this is only the seat it is given here.

Threads: states arrive on the filing thread, clock actions and the ten-second tick on the event loop; one lock
per tournament keeps its plans, clock and the order of its publishes together (a paho publish is queued in call
order, so the retained clock the broker keeps is always the newest).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from dataclasses import dataclass, field
from collections.abc import Callable

from ..tournament.clock import ClockView
from ..tournament.floor import TournamentFloor, clock_topic

log = logging.getLogger("dealerbox.dashboard")
CLOCK_EVERY_S = 10.0            # the clock topic's promise: republished at least this often
STEP_S = 60.0                   # +1 min / -1 min on the page
Publish = Callable[[str, dict, bool], object]      # (topic, payload, retained) -> what to wait on, queued in order


@dataclass
class Hosted:
    floor: TournamentFloor
    lock: threading.Lock = field(default_factory=threading.Lock)
    shown: tuple = ()            # what the page last showed of the tables and moves: a push only on change
    heard_retained: bool = False  # the broker handed us the clock a previous run left


class TournamentHost:
    def __init__(self, floors: list[TournamentFloor]) -> None:
        self.hosted = {f.id: Hosted(f) for f in floors}

    def __bool__(self) -> bool:
        return bool(self.hosted)

    def get(self, tournament_id: str) -> Hosted:
        found = self.hosted.get(tournament_id)
        if found is None:
            raise LookupError(f"this dashboard does not run tournament {tournament_id!r}")
        return found

    def clock_topics(self) -> list[str]:
        return [clock_topic(h.floor.director.site, tid) for tid, h in self.hosted.items()]

    # --- what arrives ---------------------------------------------------------------------------------

    def state_seen(self, site: str, table: str, state: dict, now: float, publish: Publish) -> list[str]:
        """On the filing thread: one table's checked state. Sends the plans it makes; the ids of the
        tournaments whose page changed."""
        changed = []
        for tid, h in self.hosted.items():
            if h.floor.director.site != site:
                continue
            with h.lock:
                for topic, payload in h.floor.observe(table, state, now, now):
                    publish(topic, payload, False)
                shown = _shown(h.floor)
                if shown != h.shown:
                    h.shown = shown
                    changed.append(tid)
        return changed

    def clock_readers(self, clock: Callable[[], float]) -> dict[str, Callable[[bytes], None]]:
        """For each hosted clock topic, what to do on paho's thread with the retained clock that arrives."""
        def reader(topic: str) -> Callable[[bytes], None]:
            def take(raw: bytes) -> None:
                refused = self.retained_clock(topic, raw, clock())
                if refused is None:
                    log.info("tournament clock carried on from the retained %s", topic)
            return take
        return {topic: reader(topic) for topic in self.clock_topics()}

    def retained_clock(self, topic: str, raw: bytes, now: float) -> str | None:
        """A clock a previous run left retained, before we sent ours: carry on from it. The reason if not."""
        for h in self.hosted.values():
            if clock_topic(h.floor.director.site, h.floor.id) == topic:
                try:
                    payload = json.loads(raw)
                except (ValueError, RecursionError) as e:    # RecursionError: nested past the parser's depth
                    return f"{topic}: not JSON ({str(e)[:200]})"
                with h.lock:
                    h.heard_retained = True
                    return h.floor.resume_from(payload, now, now)
        return f"{topic}: not a tournament this dashboard runs"

    async def retained_heard(self, within: float = 2.0) -> None:
        """Return once the broker handed over every hosted clock a previous run left, or after ``within``
        seconds (a first start has none to wait for)."""
        for _ in range(int(within / 0.1)):
            if all(h.heard_retained for h in self.hosted.values()):
                return
            await asyncio.sleep(0.1)

    # --- what the floor does ------------------------------------------------------------------------

    def tick(self, now: float, publish: Publish) -> list[object]:
        """Every hosted clock as it stands, retained; what to wait on."""
        sent = []
        for h in self.hosted.values():
            with h.lock:
                sent += [publish(t, p, True) for t, p in h.floor.clock_message(now, now)]
        return sent

    def clock_action(self, tournament_id: str, action: str, now: float, publish: Publish) -> list[object]:
        """pause, resume, plus (a minute more) or minus (a minute less); the new clock published retained."""
        h = self.get(tournament_id)
        with h.lock:
            f = h.floor
            if action == "pause":
                out = f.pause(now, now)
            elif action == "resume":
                out = f.resume(now, now)
            elif action in ("plus", "minus"):
                out = f.adjust(now, now, STEP_S if action == "plus" else -STEP_S)
            else:
                raise ValueError(f"clock: {action!r} is not pause, resume, plus or minus")
            return [publish(t, p, True) for t, p in out]

    def view(self, tournament_id: str, now: float) -> dict:
        """What the tournament page shows (copied under the lock, rendered outside it)."""
        h = self.get(tournament_id)
        with h.lock:
            f, d = h.floor, h.floor.director
            clock: ClockView = f.clock.view(now)
            counts = d.counts()
            expected = list(d.tournament.tables) or sorted(d.tables)
            tables = [{"table": n, "players": counts.get(n), "broken": n in d.broken,
                       "seats": sorted(d.tables[n].occupied) if n in d.tables else []} for n in expected]
            moves = [{"plan": pm.plan, "instruction": pm.instruction, "from_table": pm.move.from_table,
                      "from_seat": pm.move.from_seat, "to_table": pm.move.to_table, "to_seat": pm.move.to_seat,
                      "rule": pm.move.rule, "at": pm.at, "done": pm.done} for pm in reversed(d.history)]
            return {"id": f.id, "name": d.tournament.name, "site": d.site, "level": clock.level,
                    "is_break": clock.is_break, "left": clock.left, "running": clock.running,
                    "current": clock.current, "next": clock.next, "next_is_break": clock.next_is_break,
                    "players_left": d.players_left() if d.tables else None,
                    "tables_left": d.tables_left() if d.tables else None, "tables": tables, "moves": moves,
                    "waiting_for": [n for n in expected if n not in d.tables], "ignored": d.ignored}


def _shown(f: TournamentFloor) -> tuple:
    d = f.director
    return (tuple(sorted(d.counts().items())), tuple(sorted(d.broken)), tuple(pm.done for pm in d.history))

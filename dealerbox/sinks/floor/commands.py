"""Floor commands arriving on ``dealerbox/<site>/<table>/cmd``: each one checked (JSON, schema, address,
duplicates, a finding this table raised) before the runtime sees it."""

from __future__ import annotations

import logging
import queue
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from ...engine.inputs import DealerInput
from . import contract as c
from .parts import LatestState, LinkCounters, LinkIdentity
from .untrusted import read_payload
from ...upkeep.bounded import KnownFindings

log = logging.getLogger("dealerbox.floor")


@dataclass(frozen=True, slots=True)
class FloorCommand:
    """A floor command that passed every check; the runtime turns an ``ack`` into the dealer's ``ack`` input."""
    cmd: str                 # "ack" | "refresh"
    finding: str | None
    sender: str
    boot: str
    seq: int
    at: float

    def as_input(self, t: float) -> DealerInput | None:
        """The dealer input this command stands for (an ``ack`` names who sent it), or None."""
        return DealerInput(t, "ack", ref=self.finding, by=self.sender) if self.cmd == "ack" else None



class CommandDesk:
    """Checks what arrives on ``.../cmd``: given who the table is, the counters (and refusals), the latest state
    (to say the floor asked for it again) and the findings this table raised; owns the commands accepted (the
    ``commands`` queue, or ``on_command``, called on the network thread) and the ones already seen."""

    def __init__(self, ident: LinkIdentity, counters: LinkCounters, latest: LatestState,
                 known_findings: KnownFindings) -> None:
        self.ident, self._counters, self._latest, self.known_findings = ident, counters, latest, known_findings
        self.commands: queue.Queue[FloorCommand] = queue.Queue()
        self.on_command: Callable[[FloorCommand], None] = self.commands.put
        self._seen_cmds: deque[tuple[str, int]] = deque(maxlen=1024)

    def send_to(self, handler: Callable[[FloorCommand], None]) -> None:
        """Where each accepted command goes from now on (set before the link starts)."""
        self.on_command = handler

    def handle_command(self, topic: str, raw: bytes) -> FloorCommand | None:
        """Check one message from the command topic; each accepted command goes to ``on_command`` (by default
        the ``commands`` queue)."""
        data, why = read_payload(raw)
        if why:
            return self._refuse(topic, why)
        errors = c.schema_errors("cmd", data)
        if errors:
            return self._refuse(topic, f"schema: {errors[0]}")
        if data["site"] != self.ident.site or data["table"] != self.ident.table:
            here = f"{self.ident.site}/{self.ident.table}"
            return self._refuse(topic, f"addressed to {data['site']}/{data['table']}, this is {here}")
        if (data["boot"], data["seq"]) in self._seen_cmds:
            return self._refuse(topic, f"duplicate command {data['boot']}#{data['seq']}")
        if data["cmd"] == "ack" and data["finding"] not in self.known_findings:
            return self._refuse(topic, f"unknown finding {data['finding']}")
        self._seen_cmds.append((data["boot"], data["seq"]))
        command = FloorCommand(data["cmd"], data.get("finding"), data["from"], data["boot"], data["seq"], data["at"])
        if command.cmd == "refresh":
            self._latest.floor_asked()
        self._counters.add("commands_accepted")
        log.info("floor command accepted from %s: %s %s", command.sender, command.cmd, command.finding or "")
        self.on_command(command)
        return command

    def _refuse(self, topic: str, reason: str) -> FloorCommand | None:
        self._counters.add("commands_refused")
        self._counters.refused(reason)
        log.warning("floor command on %s refused: %s", topic, reason)
        return None

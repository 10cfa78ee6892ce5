"""What arrives from the floor. Every topic a terminal subscribes to (``.../cmd``, a tournament table's
``.../tournament`` and its tournament's clock, the floor's ``.../receipt``) is untrusted: the inbox is handed who
the table is, the counters, the link's two desks and the receipts, and routes each message to the one that owns its
topic; each desk reads the payload with :func:`read_payload` (size, UTF-8 and nesting capped before any parsing,
then JSON) and checks it against its JSON Schema. A bad payload is refused with a counter and one log line;
whatever else goes wrong with one message is counted (``inbound_errors``) and said, so no payload can stop the
publisher thread it arrives on (issue 30)."""

from __future__ import annotations

import logging

from .commands import CommandDesk
from .parts import LinkCounters, LinkIdentity
from .receipts import Receipts
from .tournament_desk import TournamentDesk

log = logging.getLogger("dealerbox.floor")


class FloorInbox:
    """``subscriptions()`` for each new connection; ``receive(topic, payload)`` on the network thread."""

    def __init__(self, ident: LinkIdentity, counters: LinkCounters, commands: CommandDesk, tournament: TournamentDesk,
                 receipts: Receipts) -> None:
        self.ident, self._counters = ident, counters
        self.commands, self.tournament, self.receipts = commands, tournament, receipts
        counters.declare("inbound_errors")

    def subscriptions(self) -> tuple[str, ...]:
        """The topics to subscribe: commands and receipts (never on a review copy) and a tournament table's own."""
        ident = self.ident
        live = () if ident.review else (ident.topic("cmd"), ident.topic("receipt"))
        return live + self.tournament.tournament_topics()

    def receive(self, topic: str, payload: bytes) -> object:
        """Hand one message to the desk of its topic; never raises (paho would end the network thread)."""
        try:
            if topic in self.tournament.tournament_topics():
                return self.tournament.handle_tournament(topic, payload)
            if topic == self.ident.topic("receipt"):
                return self.receipts.take(payload)
            return self.commands.handle_command(topic, payload)
        except Exception as e:   # a desk's bug or a handler's (on_command): count it, say it, keep the link
            self._counters.add("inbound_errors")
            self._counters.refused(f"{topic}: could not handle ({type(e).__name__})")
            log.error("floor message on %s (%d bytes) could not be handled: %s: %s; the link goes on",
                      topic, len(payload), type(e).__name__, str(e)[:200])
            return None

"""What arrives from the floor: the inbox is handed the link's two desks and routes each message on a
subscribed topic to the one that owns it (the tournament desk for instructions and the clock, the command
desk for ``.../cmd``)."""

from __future__ import annotations

from .commands import CommandDesk
from .tournament_desk import TournamentDesk


class FloorInbox:
    """``subscriptions()`` for each new connection; ``receive(topic, payload)`` on the network thread."""

    def __init__(self, commands: CommandDesk, tournament: TournamentDesk) -> None:
        self.commands, self.tournament = commands, tournament

    def subscriptions(self) -> tuple[str, ...]:
        """The topics to subscribe: commands (never on a review copy) and a tournament table's own."""
        cmd = () if self.commands.ident.review else (self.commands.ident.topic("cmd"),)
        return cmd + self.tournament.tournament_topics()

    def receive(self, topic: str, payload: bytes) -> object:
        if topic in self.tournament.tournament_topics():
            return self.tournament.handle_tournament(topic, payload)
        return self.commands.handle_command(topic, payload)

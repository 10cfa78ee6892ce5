"""The hand history view's content: table events turned into one plain line each, grouped by hand; and
the bounded store of recent events the screen draws from.

Pure: events in, lines out. Hole cards are never in a line unless the event already made them public
(a face-up deal, a hand shown at showdown); ``CardDealt`` and ``CardBurned`` of hidden cards say only that
a card moved.

A hand's result (its outcome, its pots and who won them) is read from the hand's
:class:`dealerbox.history.summary.HandSummary`, the one the PHH export and the floor dashboard's hand page read,
so the three never tell a hand differently.
"""

from __future__ import annotations

import itertools
from collections import deque
from dataclasses import dataclass, field
from collections.abc import Iterable, Iterator

from ...engine import events as te
from ...history.summary import HandBook, HandSummary, pot_line, pot_lines, pot_name  # noqa: F401  (pot_name moved)

POT_NAMES = ("Main pot",)


def seats_text(seats: Iterable[int]) -> str:
    return " ".join(f"S{s}" for s in seats) or "-"


@dataclass(frozen=True, slots=True)
class Line:
    t: float
    text: str
    severity: str | None = None   # findings carry theirs, for the colour of the line


@dataclass(slots=True)
class HandRecord:
    hand: int | None
    outcome: str | None = None      # set once HandEnded arrives
    lines: list[Line] = field(default_factory=list)
    summary: HandSummary | None = None   # the hand's summary once it ended (when its start is still kept)

    @property
    def title(self) -> str:
        name = "Between hands" if self.hand is None else f"Hand {self.hand}"
        return f"{name}: {self.outcome}" if self.outcome else (name if self.hand is None else f"{name} (in play)")

def who_name(sender: str) -> str:
    """A floor sender as the dealer knows them: ``dashboard:sam`` is sam; anything else as it came."""
    return sender.split(":", 1)[1] if sender.startswith("dashboard:") and len(sender) > 10 else sender


def describe(e: te.TableEvent) -> Line | None:
    """One line for the dealer, or None for events too fine-grained to help settle a dispute."""
    match e:
        case te.HandStarted():
            text = f"Started: button S{e.button}, {len(e.seats)} dealt in ({e.game})"
        case te.DealtAround():
            text = f"S{e.seat} dealt around: waits for the big blind (owes {e.owed})"
        case te.CardDealt(face_up=True):
            text = f"S{e.seat} card dealt face up: {e.card}"
        case te.BoardCardDealt():
            text = f"{e.street.capitalize()}: {e.card}"
        case te.ActionTaken():
            text = f"S{e.seat} {e.action}" + (f" {e.amount}" if e.amount else "") + \
                   (f" (total {e.total})" if e.total and e.total != e.amount else "") + f"  [{e.street}]"
        case te.BettingRoundEnded():
            text = f"End of {e.street} betting, pot {e.pot}"
        case te.HandShown():
            text = f"S{e.seat} shows {' '.join(e.cards)}" + (f": {e.rank}" if e.rank else "")
        case te.PotAwarded():
            text = pot_line(e.index, e.pot)
        case te.HandEnded():
            text = f"Hand ended: {e.outcome}"
        case te.FindingRaised():
            return Line(e.t, f"{e.severity.upper()} {e.citation}: {e.ruling}", e.severity)
        case te.FindingAcknowledged():
            text = f"Finding {e.id} acknowledged" + (f" by {who_name(e.by)}" if e.by else "")
        case te.DealerSignedIn():
            text = f"Dealer {e.dealer} signed in ({e.method})"
        case te.DealerSignedOut():
            text = f"Dealer {e.dealer} signed out"
        case te.FloorCalled():
            text = "Floor called" + (f": {e.reason}" if e.reason else "")
        case te.PlayerSeated():
            text = f"S{e.seat} sat down with {e.stack}"
        case te.PlayerLeft():
            text = f"S{e.seat} left with {e.stack}"
        case te.StackChanged():
            text = f"S{e.seat} stack {e.stack} ({e.reason})"
        case te.ButtonMoved():
            text = f"Button to S{e.seat}"
        case te.SensorDataLost():
            return Line(e.t, f"Sensor data lost: {e.count or 'unknown'} frames ({e.reason})", "dealer")
        case te.ReaderHealthChanged(ok=False):
            return Line(e.t, f"Reader {e.reader} ({e.zone}) faulted, code {e.code}", "dealer")
        case _:
            return None
    return Line(e.t, text)


def hand_records(events: Iterable[te.TableEvent], keep: int = 4) -> list[HandRecord]:
    """The last ``keep`` hands (newest first), each with its lines in time order. A hand's pots and outcome
    come from its summary (history.summary), as the export and the dashboard print them."""
    records: dict[int | None, HandRecord] = {}
    book = HandBook()
    for e in events:
        hand = getattr(e, "hand", None)
        record = records.get(hand)
        if record is None:
            record = records[hand] = HandRecord(hand)
        done = book.feed(e)
        if done is not None and not isinstance(e, te.HandEnded) and done.hand in records:
            records[done.hand].summary = done   # a finding raised after the hand's end joins it (HandBook)
        if isinstance(e, te.PotAwarded):
            continue   # said with the hand's end, from its summary
        if isinstance(e, te.HandEnded):
            if done is not None and done.hand == hand:
                record.summary = done
            summary = record.summary
            outcome, pots = (summary.outcome, summary.pots) if summary is not None else (e.outcome, e.pots)
            record.outcome = outcome
            record.lines += [Line(e.t, text) for text in pot_lines(pots)]
            record.lines.append(Line(e.t, f"Hand ended: {outcome}"))
            continue
        line = describe(e)
        if line is not None:
            record.lines.append(line)
    ordered = sorted(records.values(), key=lambda r: -1 if r.hand is None else r.hand, reverse=True)
    return [r for r in ordered if r.lines][:keep]


KEEP_HANDS = 10         # hands kept whole: the history view shows the last 8 (and what came between them)
KEEP_EVENTS = 4000      # and never more events than this, however long one hand runs
KEEP_FLOOR = 16         # floor findings from older hands still waiting for their acknowledgement


class RecentEvents:
    """The table events the screen keeps: the last ``hands`` hands whole, plus every floor finding from
    before them that no FindingAcknowledged has named yet (it stays bannered until it is), at most ``most``
    events in all. Bounded by hands, not by a count alone: a count of 4,000 kept some 30 hands' worth of
    events for a view that shows 8, and read them all on every frame."""

    def __init__(self, hands: int = KEEP_HANDS, most: int = KEEP_EVENTS) -> None:
        self.hands = hands
        self._events: deque[te.TableEvent] = deque(maxlen=most)
        self._starts: deque[int] = deque()   # how many events were kept before each kept HandStarted

    def extend(self, events: Iterable[te.TableEvent]) -> None:
        for e in events:
            if isinstance(e, te.HandStarted):
                self._starts.append(len(self._events))
                if len(self._starts) > self.hands:
                    self._cut()
            if len(self._events) == self._events.maxlen and self._starts:
                self._starts = deque(max(0, s - 1) for s in self._starts)  # the oldest event is about to go
            self._events.append(e)

    def _cut(self) -> None:
        """Drop everything before the oldest hand kept, but its unanswered floor findings."""
        self._starts.popleft()
        cut = self._starts[0]
        old = list(itertools.islice(self._events, cut))
        acked = {e.id for e in self._events if isinstance(e, te.FindingAcknowledged)}
        waiting = [e for e in old if isinstance(e, te.FindingRaised) and e.severity == "floor"
                   and e.id not in acked][-KEEP_FLOOR:]
        kept = waiting + list(itertools.islice(self._events, cut, None))
        self._events = deque(kept, maxlen=self._events.maxlen)
        shift = cut - len(waiting)
        self._starts = deque(s - shift for s in self._starts)

    def __iter__(self) -> Iterator[te.TableEvent]:
        return iter(self._events)

    def __len__(self) -> int:
        return len(self._events)

    def __getitem__(self, index: int) -> te.TableEvent:
        return self._events[index]

"""One summary per hand, built from table events only: the single definition of "what happened in hand N".

The PHH export, the audit, the dealer's hand history on the screen and the floor dashboard's hand view all
read :class:`HandSummary`, so they cannot disagree. It is pure (no I/O, no clock): feed it table events in
order, get a summary each time a hand ends.

>>> from dealerbox.engine import events as e
>>> book = HandBook(table="T01")
>>> _ = book.feed(e.PlayerSeated(0.0, None, 1, 200)); _ = book.feed(e.PlayerSeated(0.0, None, 2, 200))
>>> _ = book.feed(e.HandStarted(1.0, 1, 2, (1, 2), "nlhe", {2: 1, 1: 2}))
>>> done = book.feed(e.HandEnded(9.0, 1, "misdeal", (), {1: 200, 2: 200}))
>>> done.outcome, done.stacks_before
('misdeal', {1: 200, 2: 200})
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine import events as e

STREETS = ("preflop", "flop", "turn", "river")


@dataclass(frozen=True, slots=True)
class Stakes:
    """The table's structure when the hand was played (from the log's config)."""
    small_blind: int = 1
    big_blind: int = 2
    small_bet: int = 2        # limit games
    big_bet: int = 4          # limit games
    ante: int = 0             # dealerbox tables play no antes today; kept so the format can say so
    max_raises: int = 3


@dataclass(frozen=True, slots=True)
class Action:
    street: str
    seat: int
    kind: str                 # the engine's word: "post", "straddle", "check", "bet", "call", "raise", "fold", "all-in"
    amount: int               # chips added by this action
    total: int                # the seat's wager this round after it
    t: float


@dataclass(frozen=True, slots=True)
class Finding:
    id: str
    rule: str
    citation: str
    severity: str
    outcome: str
    ruling: str
    seats: tuple[int, ...]
    t: float


@dataclass(frozen=True, slots=True)
class Showing:
    seat: int
    cards: tuple[str, ...]
    rank: str


@dataclass(frozen=True, slots=True)
class Drawn:
    """In draw ``draw`` (1, 2, 3) of a draw game, ``seat`` was given ``count`` cards (0: it stood pat, tapped)."""
    draw: int
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class PotPart:
    """A part of pot ``index`` as the engine divided it: one board's (``half`` empty; PotSplitByBoard) or one
    half's of a board's (``half`` "high" or "low"; PotSplitByHalf), board 1-based."""
    index: int
    board: int
    half: str
    pot: e.Pot


@dataclass(frozen=True, slots=True)
class HandSummary:
    table: str
    hand: int
    game: str                                   # variant key (engine.variants): "nlhe", "plo", "o8", ...
    stakes: Stakes
    button: int
    seats: tuple[int, ...]                      # dealt in, first left of the button first
    blinds: dict[int, int]                      # seat -> blind owed
    straddles: dict[int, int]                   # seat -> live straddle posted
    stacks_before: dict[int, int]
    actions: tuple[Action, ...]
    board: tuple[str, ...]                      # the cards that played
    hole_cards: dict[int, tuple[str, ...]]      # only when the events were revealed; else empty
    shown: tuple[Showing, ...]
    pots: tuple[e.Pot, ...]
    stacks_after: dict[int, int]
    findings: tuple[Finding, ...]
    outcome: str                                # "complete", "misdeal", "void", or "unfinished" (log ended mid-hand)
    started_t: float
    ended_t: float
    practice: str = ""                          # a house practice this hand: "run it twice", "bomb pot, 2 boards"
    boards: tuple[tuple[str, ...], ...] = ()    # boards 2.. of a hand dealt on more than one
    parts: tuple[PotPart, ...] = ()             # each pot's parts by board and by half, as the award divided it
    draws: tuple[Drawn, ...] = ()               # a draw game's draws: who was given how many cards (never which)

    @property
    def winnings(self) -> dict[int, int]:
        """Seat -> chips won from the pots (every share of every pot)."""
        won: dict[int, int] = {}
        for pot in self.pots:
            for seat, chips in pot.shares.items():
                won[seat] = won.get(seat, 0) + chips
        return won

    @property
    def contributed(self) -> dict[int, int]:
        """Seat -> chips put in (blinds, straddles and every wager)."""
        put: dict[int, int] = {}
        for a in self.actions:
            put[a.seat] = put.get(a.seat, 0) + a.amount
        return put

    @property
    def returned(self) -> dict[int, int]:
        """Seat -> chips handed back uncalled (not in any pot): what the end stacks show beyond the pots."""
        if self.outcome != "complete":
            return {}
        put, won = self.contributed, self.winnings
        back = {s: self.stacks_after.get(s, 0) - self.stacks_before.get(s, 0) + put.get(s, 0) - won.get(s, 0)
                for s in self.seats}
        return {s: n for s, n in back.items() if n}

    @property
    def floor_findings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == "floor")

    @property
    def result(self) -> HandResult:
        """What every view of the hand says first (export, screen, dashboard): see :class:`HandResult`."""
        return HandResult(self.hand, self.outcome, tuple(p.amount for p in self.pots),
                          {s: n for s, n in sorted(self.winnings.items()) if n},
                          tuple(f.rule for f in self.findings))


@dataclass(frozen=True, slots=True)
class HandResult:
    """A hand's outcome in the words all three views use: the PHH export (``hand``, ``_outcome``, ``_pots``,
    ``winnings``, ``_rules``), the dealer's hand history on the screen and the floor dashboard's hand page."""
    hand: int
    outcome: str
    pots: tuple[int, ...]          # each pot's amount, main pot first
    winnings: dict[int, int]       # seat -> chips won, seats that won something, in seat order
    rules: tuple[str, ...]         # the findings' rule ids, in the order raised


def pot_name(index: int) -> str:
    return "Main pot" if index == 0 else f"Side pot {index}"


def pot_line(index: int, pot: e.Pot) -> str:
    """A pot as the screen and the dashboard print a hand's result: ``Main pot 15 to S3``."""
    return f"{pot_name(index)} {pot.amount} to {' '.join(f'S{s}' for s in pot.winners) or '-'}"


def pot_lines(pots: tuple[e.Pot, ...]) -> list[str]:
    return [pot_line(i, p) for i, p in enumerate(pots)]


def part_line(part: PotPart, boards: int) -> str:
    """A pot's part as the dashboard prints it under its pot: ``Board 2: 200 to S1 200`` (a board's),
    ``High half: 4 to S1 4``, ``Board 2, low half: 3 to S3 3`` (a half's, named by board on two boards or more)."""
    where = [f"Board {part.board}"] if boards > 1 else []
    if part.half:
        where.append(f"{part.half} half")
    name = ", ".join(where)
    paid = " ".join(f"S{s} {n}" for s, n in sorted(part.pot.shares.items()))
    return f"{name[:1].upper()}{name[1:]}: {part.pot.amount} to {paid or '-'}"


@dataclass
class _Open:
    started: e.HandStarted
    stacks_before: dict[int, int]
    actions: list[Action] = field(default_factory=list)
    board: list[str] = field(default_factory=list)
    holes: dict[int, list[str]] = field(default_factory=dict)
    shown: list[Showing] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    last_t: float = 0.0
    practice: str = ""
    parts: list[PotPart] = field(default_factory=list)
    draws: list[Drawn] = field(default_factory=list)
    around: set[int] = field(default_factory=set)   # seats the deal passed (DealtAround): not dealt in after all


# The events a summary is built from; every other event only moves the open hand's last time.
READ_EVENTS = (e.HandStarted, e.PlayerSeated, e.PlayerLeft, e.StackChanged, e.FindingRaised, e.ActionTaken,
               e.BoardCardDealt, e.CardDealt, e.HandShown, e.HandEnded, e.RunsAgreed, e.BombPotStarted,
               e.PotSplitByBoard, e.PotSplitByHalf, e.CardsDrawn, e.DealtAround)
_READS: dict[type, bool] = {}   # event type -> whether it is (a subclass of) one of READ_EVENTS


class HandBook:
    """Reads table events in order and hands back a :class:`HandSummary` when a hand ends.

    ``feed(event)`` returns the finished summary or None; ``flush()`` returns the hand a log ended in the
    middle of (outcome "unfinished"), so no hand is silently lost. Stacks are tracked from the events
    themselves (sit, leave, stack changes, each hand's end). Hole cards are kept only with ``reveal=True``.

    A finding can name its hand after the hand's end (the engine rules on a duplicate card once a hand is
    voided): it belongs to that hand all the same. ``feed`` then returns the ended hand again, with the
    finding added; ``hands`` (kept when ``keep=True``, as the batch readers ask) holds each hand once, in its
    final form. A finding that names no hand, or one that is not the last ended, is a stray finding.
    """

    def __init__(self, table: str = "", stakes: Stakes | None = None, reveal: bool = False,
                 keep: bool = False) -> None:
        self.table = table
        self.reveal = reveal   # engine events carry hole cards; a summary holds them only when asked
        self.stakes = stakes or Stakes()
        self.stacks: dict[int, int] = {}
        self.current: _Open | None = None
        self.ended: HandSummary | None = None     # the last hand closed: late findings of it still join it
        self.keep = keep
        self.hands: list[HandSummary] = []        # every hand, in order, when ``keep`` (a live screen keeps none)
        self.stray_findings: list[Finding] = []   # raised outside any hand (between hands, before the first)

    def feed(self, event: e.TableEvent) -> HandSummary | None:
        cur = self.current
        if cur is not None:
            cur.last_t = event.t
        kind = type(event)
        read = _READS.get(kind)
        if read is None:
            read = _READS[kind] = issubclass(kind, READ_EVENTS)
        if not read:   # most events (chips moving, cards burnt or mucked): one look-up, not ten isinstance checks
            return None
        if isinstance(event, e.HandStarted):
            done = self.flush()
            self.current = _Open(event, {s: self.stacks.get(s, 0) for s in event.seats})
            return done
        if isinstance(event, e.PlayerSeated | e.StackChanged):
            self.stacks[event.seat] = event.stack
        elif isinstance(event, e.PlayerLeft):
            self.stacks.pop(event.seat, None)
        elif isinstance(event, e.FindingRaised):
            finding = Finding(event.id, event.rule, event.citation, event.severity, event.outcome, event.ruling,
                              tuple(event.seats), event.t)
            if cur is not None and event.hand == cur.started.hand:
                cur.findings.append(finding)
            elif cur is None and self.ended is not None and event.hand is not None and event.hand == self.ended.hand:
                return self._late(finding)
            else:
                self.stray_findings.append(finding)
        elif cur is None:
            return None
        elif isinstance(event, e.ActionTaken):
            cur.actions.append(Action(event.street, event.seat, event.action, event.amount, event.total, event.t))
        elif isinstance(event, e.BoardCardDealt):
            cur.board.append(event.card)
        elif isinstance(event, e.CardDealt) and self.reveal and event.card is not None:
            cur.holes.setdefault(event.seat, []).append(event.card)
        elif isinstance(event, e.HandShown):
            cur.shown.append(Showing(event.seat, tuple(event.cards), event.rank))
        elif isinstance(event, e.RunsAgreed):
            cur.practice = "run it twice" if event.runs == 2 else f"run it {event.runs} times"
        elif isinstance(event, e.BombPotStarted):
            cur.practice = "bomb pot" + (f", {event.boards} boards" if event.boards > 1 else "")
        elif isinstance(event, e.PotSplitByBoard):
            cur.parts.append(PotPart(event.index, event.board, "", event.pot))
        elif isinstance(event, e.PotSplitByHalf):
            cur.parts.append(PotPart(event.index, event.board, event.half, event.pot))
        elif isinstance(event, e.CardsDrawn):
            cur.draws.append(Drawn(event.draw, event.seat, event.count))
        elif isinstance(event, e.DealtAround):
            cur.around.add(event.seat)
        elif isinstance(event, e.HandEnded):
            self.stacks.update(event.stacks)
            return self._close(event.outcome, tuple(event.pots), dict(event.stacks), tuple(event.board), event.t,
                               tuple(tuple(b) for b in event.boards or ()))
        return None

    def flush(self) -> HandSummary | None:
        """The hand still open (the log ended, or a new hand started without an end): outcome "unfinished"."""
        cur = self.current
        if cur is None:
            return None
        return self._close("unfinished", (), {}, tuple(cur.board), cur.last_t)

    def _late(self, finding: Finding) -> HandSummary:
        """The last ended hand again, with a finding raised after its end."""
        assert self.ended is not None  # the caller checks
        revised = replace(self.ended, findings=(*self.ended.findings, finding))
        self.ended = revised
        if self.keep:
            self.hands[-1] = revised
        return revised

    def _close(self, outcome: str, pots: tuple[e.Pot, ...], stacks: dict[int, int], board: tuple[str, ...],
               t: float, boards: tuple[tuple[str, ...], ...] = ()) -> HandSummary:
        cur = self.current
        assert cur is not None  # callers check
        self.current = None
        s = cur.started
        straddles = {a.seat: a.amount for a in cur.actions if a.kind == "straddle"}
        seats = tuple(x for x in s.seats if x not in cur.around)     # a seat dealt around was not dealt in
        done = HandSummary(
            table=self.table, hand=s.hand or 0, game=s.game, stakes=self.stakes, button=s.button,
            seats=seats, blinds=dict(s.blinds), straddles=straddles,
            stacks_before={x: n for x, n in cur.stacks_before.items() if x not in cur.around},
            actions=tuple(cur.actions), board=board or tuple(cur.board),
            hole_cards={seat: tuple(c) for seat, c in cur.holes.items()}, shown=tuple(cur.shown), pots=pots,
            stacks_after=stacks, findings=tuple(cur.findings), outcome=outcome, started_t=s.t, ended_t=t,
            practice=cur.practice, boards=boards, parts=tuple(cur.parts), draws=tuple(cur.draws))
        self.ended = done
        if self.keep:
            self.hands.append(done)
        return done


def stakes_of(config: dict[str, Any]) -> Stakes:
    """The stakes in a log header's config (``game`` section); defaults where a key is missing."""
    g = config.get("game", {}) if isinstance(config, dict) else {}
    d = Stakes()
    return Stakes(int(g.get("small_blind", d.small_blind)), int(g.get("big_blind", d.big_blind)),
                  int(g.get("small_bet", d.small_bet)), int(g.get("big_bet", d.big_bet)), 0,
                  int(g.get("max_raises", d.max_raises)))


def summarise(events: Iterable[e.TableEvent], table: str = "", stakes: Stakes | None = None,
              reveal: bool = False) -> list[HandSummary]:
    """Every hand in a sequence of table events, the unfinished last one included."""
    book = HandBook(table, stakes, reveal, keep=True)
    for event in events:
        book.feed(event)
    book.flush()
    return book.hands


# The events a HandBook reads, by the name their JSON form carries (``to_dict``: the floor's event topic, the
# dashboard's store, ``replay --jsonl``); everything else in such a stream is skipped.
_READ = {cls.__name__: cls for cls in READ_EVENTS}
_SEAT_KEYED = ("blinds", "stacks")        # JSON object keys are text; the engine's are seat numbers
_SEQUENCES = ("seats", "cards", "board")


def _pot(d: dict[str, Any]) -> e.Pot:
    return e.Pot(int(d["amount"]), tuple(d.get("eligible", ())), tuple(d.get("winners", ())),
                 {int(k): int(v) for k, v in (d.get("shares") or {}).items()})


def events_from_dicts(rows: Iterable[object]) -> list[e.TableEvent]:
    """The table events a :class:`HandBook` reads, rebuilt from their JSON form, so a view that only has the
    JSON (the floor dashboard) summarises a hand with the very code the export uses. A row that does not fit
    its event (a field missing or of the wrong kind) is left out, never guessed at."""
    out: list[e.TableEvent] = []
    for row in rows:
        if not isinstance(row, dict):
            continue
        cls = _READ.get(str(row.get("event")))
        if cls is None:
            continue
        try:
            kwargs = {}
            for f in cls.__dataclass_fields__.values():
                if f.name not in row:
                    continue   # a default (blinds, board) or a missing field the constructor names below
                v = row[f.name]
                if f.name in _SEAT_KEYED:
                    v = {int(k): int(x) for k, x in v.items()}
                elif f.name == "pots":
                    v = tuple(_pot(p) for p in v)
                elif f.name == "pot":
                    v = _pot(v)
                elif f.name in _SEQUENCES and isinstance(v, list):   # a board part's "board" is its number
                    v = tuple(v)
                kwargs[f.name] = v
            out.append(cls(**kwargs))
        except (TypeError, ValueError, KeyError, AttributeError):
            continue
    return out


def summary_of_hand(rows: Iterable[object], table: str, hand: int) -> HandSummary | None:
    """Hand ``hand``'s summary from its events' JSON form (the floor dashboard's stored events), or None when
    they hold no start of that hand."""
    for summary in summarise(events_from_dicts(rows), table):
        if summary.hand == hand:
            return summary
    return None

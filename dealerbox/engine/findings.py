"""Findings are data, never exceptions: the engine records one with its rule id and keeps going."""

from __future__ import annotations

from ..rulebook import OUTCOMES, SEVERITIES
from .catalogue import rule
from .events import FindingAcknowledged, FindingRaised


class FindingLog:
    """Numbers findings (``h12-3``: hand 12, third finding) and fills the citation from the catalogue."""

    def __init__(self) -> None:
        self._count: dict[int | None, int] = {}
        self.raised: list[FindingRaised] = []
        self.settled: set[str] = set()    # findings the table's own remedy put right (a misaward corrected)

    def raise_(self, t: float, hand: int | None, rule_id: str, *, severity: str, outcome: str, ruling: str,
               seats: tuple[int, ...] = (), cards: tuple[str, ...] = ()) -> FindingRaised:
        assert severity in SEVERITIES and outcome in OUTCOMES, (severity, outcome)
        if hand not in self._count and len(self._count) >= 16:
            # hands only go forward: a month of hands must not keep a count per hand (issue 19)
            for old in list(self._count)[:-8]:
                del self._count[old]
        n = self._count[hand] = self._count.get(hand, 0) + 1
        finding = FindingRaised(
            t, hand, id=f"h{hand if hand is not None else 0}-{n}", rule=rule_id, citation=rule(rule_id).citation,
            severity=severity, outcome=outcome, ruling=ruling, seats=tuple(seats), cards=tuple(cards))
        self.raised.append(finding)
        return finding

    def withdraw(self, dropped: list[FindingRaised]) -> None:
        """Findings raised but held back before anyone saw them (engine/stacks.py): no longer raised."""
        self.raised = [f for f in self.raised if f not in dropped]

    def settle(self, t: float, hand: int | None, finding_id: str, by: str) -> FindingAcknowledged:
        """The table carried out the ruling's remedy itself: the finding is acknowledged by ``by``."""
        self.settled.add(finding_id)
        return FindingAcknowledged(t, hand, finding_id, by)

    def listed(self, current_hand: int | None, acknowledged: set[str],
               most: int) -> tuple[list[FindingRaised], int, FindingRaised | None]:
        """What the table's snapshot lists: every finding of ``current_hand`` and the newest ``most`` floor calls of
        earlier hands still open (all of them are kept: they are counted, and the floor may acknowledge any);
        with how many open findings wait for an acknowledgement in all, and the oldest of them."""
        opened = self.open(current_hand, acknowledged)
        earlier = [f for f in opened if f.hand != current_hand]
        kept = {id(f) for f in earlier[len(earlier) - most:]} if most > 0 else set()
        shown = [f for f in opened if f.hand == current_hand or id(f) in kept]
        waiting = [f for f in opened if f.id not in acknowledged]
        return shown, len(waiting), (waiting[0] if waiting else None)

    def open(self, current_hand: int | None, acknowledged: set[str]) -> list[FindingRaised]:
        """Findings still in front of the dealer: this hand's, and any floor call not yet acknowledged.

        Older ones are forgotten here (the recorded log and the floor keep them), so a long session
        neither grows memory nor drags a stale banner into the next hand."""
        settled = self.settled
        self.raised = [f for f in self.raised
                       if f.hand == current_hand or (f.severity == "floor" and f.id not in acknowledged
                                                     and f.id not in settled)]
        if len(settled) > 64:
            kept = {f.id for f in self.raised}
            self.settled = settled = settled & kept
        return self.raised

"""Per-hand state outside the screen stays bounded over a month of hands."""

from dealerbox.engine.findings import FindingLog


def test_finding_numbers_stay_right_while_the_per_hand_counts_stay_bounded():
    log = FindingLog()
    for hand in range(1, 20_001):
        first = log.raise_(0.0, hand, "misdeal.1g", severity="dealer", outcome="misdeal", ruling="r")
        second = log.raise_(0.0, hand, "misdeal.1g", severity="dealer", outcome="misdeal", ruling="r")
        assert (first.id, second.id) == (f"h{hand}-1", f"h{hand}-2")
        log.open(hand, set())
    assert len(log._count) <= 16
    assert len(log.raised) == 2   # only the current hand's findings are kept in front of the dealer


def test_the_floor_link_remembers_a_bounded_number_of_findings_and_the_open_ones_stay():
    from dealerbox.sinks.floor.link import KNOWN_FINDINGS
    from dealerbox.upkeep.bounded import RecentIds

    known = RecentIds(KNOWN_FINDINGS)
    known.add("h1-1")                       # an open floor call, re-added with every state
    for hand in range(2, 20_002):
        known.add(f"h{hand}-1")
        if hand % 1000 == 0:
            known.add("h1-1")
    assert len(known) == KNOWN_FINDINGS
    assert "h1-1" in known and "h20001-1" in known and "h2-1" not in known

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

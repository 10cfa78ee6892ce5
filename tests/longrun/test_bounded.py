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


def test_a_publisher_never_waits_for_the_spoolers_lock_to_delete_acknowledged_rows(tmp_path):
    import time as _time
    from dealerbox.sinks.floor.outbox import Outbox

    spooler, publisher = Outbox(tmp_path / "o.sqlite", "FULL"), Outbox(tmp_path / "o.sqlite", "NORMAL")
    ids = spooler.insert([("t", "event", 1, "b", i, 0, {"i": i}) for i in range(1, 6)])
    spooler.db.execute("BEGIN IMMEDIATE")       # the spooler mid-commit: it holds the write lock
    began = _time.monotonic()
    assert publisher.delete(ids[:2]) == 0       # not waited for (the busy handler would sleep 10 s at most)
    assert _time.monotonic() - began < 0.5
    assert [r.id for r in publisher.after(0, 10)] == ids[2:]   # acknowledged rows are not sent again
    spooler.db.execute("COMMIT")
    assert publisher.delete([ids[2]]) == 3      # the held-back ids go with the next acknowledgement
    assert publisher.pending_deletes == 0
    publisher.delete([ids[3]])
    spooler.db.execute("BEGIN IMMEDIATE")
    assert publisher.delete([ids[4]]) == 0
    spooler.db.execute("COMMIT")
    publisher.close()                           # what is still held back is deleted on the way out
    assert spooler.depth() == 0
    spooler.close()

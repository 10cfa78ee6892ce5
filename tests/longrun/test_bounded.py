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


def _pairs(registry, many: int):
    """``many`` (zone, chip) pairs a board could report: every chip of the house set in every bet zone and the pot."""
    from dealerbox.wire import protocol as p

    chips = [bytes.fromhex(uid) for uid in registry.chip_sets[0].chips]
    zones = [p.zone_id(f"bet{s}") for s in range(1, 11)] + [p.zone_id("pot")]
    return [(zone, uid) for uid in chips for zone in zones][:many]


def test_the_decoder_remembers_the_tags_seen_lately_and_no_more():
    from dealerbox.tags import demo_registry
    from dealerbox.wire import protocol as p
    from dealerbox.wire.decoder import KNOWN_MAX, FrameDecoder

    pairs = _pairs(demo_registry(), 4 * KNOWN_MAX)      # a month of chips reaching new players
    enc, d = p.Encoder(), FrameDecoder()
    first = d.feed(enc.encode(p.TagArrived(*pairs[0])))[0].message
    for zone, uid in pairs[1:]:
        assert d.feed(enc.encode(p.TagArrived(zone, uid)))
        assert d.feed_known(enc.encode(p.TagArrived(*pairs[1]))) is not None   # one pair that keeps coming back
    # 32,768 before: some 8 MB of bodies, emptied when full; now two generations, the older one dropped when the
    # current one fills, so between half the bound and the bound
    assert KNOWN_MAX // 2 <= d.remembered() < KNOWN_MAX
    again = d.feed(enc.encode(p.TagArrived(*pairs[1])))[0].message
    assert again is d.feed_known(enc.encode(p.TagArrived(*pairs[1])))   # used lately: still the one remembered
    old = d.feed(enc.encode(p.TagArrived(*pairs[0])))[0].message
    assert old == first and old is not first           # long unseen: read again, and read the same
    assert d.counters.frames == len(pairs) + len(pairs) - 1 + 3


def test_the_pipeline_keeps_nothing_per_zone_and_tag_pair_only_each_known_tag_once():
    """The decoder's bodies are the one memory of (zone, tag) pairs: the pipeline reads each frame's input from the
    message, and keeps only the tags it looked up (bounded by the registry), however many pairs the board reports."""
    from dealerbox.config import Config
    from dealerbox.engine import inputs as ev
    from dealerbox.pipeline import Pipeline
    from dealerbox.tags import demo_registry
    from dealerbox.wire import protocol as p

    registry = demo_registry()
    pipe = Pipeline(Config(), registry)
    enc = p.Encoder()
    pipe.feed_bytes(0.0, enc.encode(p.Hello(2, 0, (2, 0, 0), tuple(range(0, 32)))))
    pairs = _pairs(registry, 3 * pipe.decoder.remember)
    for i, (zone, uid) in enumerate(pairs):
        frame = pipe.decoder.feed(enc.encode(p.TagArrived(zone, uid)))[0]
        (reading,) = pipe.sensor_events(float(i), frame)
        assert isinstance(reading, ev.ZoneEntered) and reading.tag == registry.lookup(uid) and reading.t == float(i)
    assert pipe.decoder.remember // 2 <= pipe.decoder.remembered() < pipe.decoder.remember
    assert len(pipe._tags) == len({uid for _, uid in pairs}) < len(pairs) // 5   # one per chip, not per pair
    # the first pair, long gone from the decoder, still reads the same
    frame = pipe.decoder.feed(enc.encode(p.TagArrived(*pairs[0])))[0]
    assert pipe.sensor_events(9e3, frame)[0].tag == registry.lookup(pairs[0][1])


def test_the_recorders_hello_watch_keeps_no_tag_bodies_and_still_finds_the_hello(tmp_path):
    import json

    from dealerbox.config import Config
    from dealerbox.pipeline import enrolment_of
    from dealerbox.record.logformat import Header, Rx
    from dealerbox.record.recorder import Recorder
    from dealerbox.tags import demo_registry
    from dealerbox.wire import protocol as p

    registry = demo_registry()
    header = Header(config=Config().to_dict(), enrolment=enrolment_of(registry), created="2025-01-02T03:04:05Z")
    rec = Recorder(tmp_path, header, 200_000, name="watch")
    enc = p.Encoder()
    rec.write(Rx(0.0, enc.encode(p.Hello(2, 0, (2, 3, 4), (0, 1, 31)))))
    for i, pair in enumerate(_pairs(registry, 5000)):
        rec.write(Rx(i * 0.01, enc.encode(p.TagArrived(*pair))))
    rec.close()
    assert len(rec.parts) > 1
    assert json.loads(rec.parts[-1].read_bytes().splitlines()[0])["hello"]["firmware"] == "2.3.4"
    assert len(rec._plan._hello_watch._known) == 0     # it kept a copy of every pair, 4,500 in 720 hands

"""No payload can silence a table (issue 30): every topic a terminal subscribes to (its commands, a tournament
table's instructions and its tournament's clock) refuses a bad payload with a counter and a log line, and the
link stays connected and still takes the next valid command. Against a real mosquitto, with Hypothesis."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealerbox.sinks.floor.link import FloorLink
from dealerbox.sinks.floor.untrusted import MAX_DEPTH, MAX_PAYLOAD, read_payload
from tests.test_floor_contract import _cmd, link_config
from tests.test_floor_security import Raw
from tests.waiting import wait_until
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(180)
TOPICS = ("dealerbox/demo/T01/cmd", "dealerbox/demo/T01/tournament", "dealerbox/demo/tournament/SUN-500/clock")
VALID = json.loads(_cmd(seq=1))    # accepted once at the start: any copy of it after is a duplicate


def start_link(broker, tmp_path) -> FloorLink:
    config = link_config(tmp_path, broker.port)
    config = dataclasses.replace(config, table=dataclasses.replace(config.table, kind="tournament"))
    link = FloorLink(config, reconnect_min=0.05)
    link.follow_tournament("SUN-500")
    link.desk.known_findings.seen("h3-1")
    link.start()
    assert wait_until(lambda: link.health()["connected"], scaled(10))
    return link


def refused(link: FloorLink) -> int:
    h = link.health()
    return h["commands_refused"] + h["floor_inputs_refused"] + h["floor_inputs_repeated"]


def still_takes_a_command(link: FloorLink, floor: Raw, seq: int) -> None:
    """A valid ack after everything else: the link hands it on, on the same connection it had."""
    assert floor.publish(TOPICS[0], _cmd(seq=seq)) == 0
    got = link.commands.get(timeout=scaled(10))
    assert (got.cmd, got.finding, got.seq) == ("ack", "h3-1", seq)
    h = link.health()
    assert h["link"] == "connected" and h["connects"] == 1 and h["inbound_errors"] == 0


scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=16)
# a value no field of a command can take (no string, no number), put in place of one field
wrong = st.none() | st.lists(st.integers(), max_size=2) | st.dictionaries(st.text(max_size=3), st.integers(),
                                                                       max_size=2)
bad_payloads = st.one_of(
    st.binary(max_size=512),                                                        # binary, mostly not UTF-8
    json_values.map(lambda v: json.dumps(v).encode()),                              # valid JSON, wrong shape
    st.builds(lambda k, v: json.dumps(dict(VALID, **{k: v})).encode(), st.sampled_from(sorted(VALID)), wrong),
    st.builds(lambda k: json.dumps({x: y for x, y in VALID.items() if x != k}).encode(),   # a field missing
              st.sampled_from(sorted(VALID))),
    st.integers(MAX_DEPTH + 1, 30_000).map(lambda n: b"[" * n + b"]" * n),           # nested past the cap
    st.integers(MAX_DEPTH + 1, 5_000).map(lambda n: b'{"a":' * n + b"1" + b"}" * n),
    st.integers(MAX_PAYLOAD + 1, MAX_PAYLOAD + 4096).map(lambda n: b" " * n),      # over the size cap
)


def test_every_subscribed_topic_refuses_any_bad_payload_and_the_link_goes_on(broker, tmp_path):
    link = start_link(broker, tmp_path)
    floor = Raw(broker, "floor")
    sent = 0
    try:
        assert floor.publish(TOPICS[0], json.dumps(VALID).encode()) == 0
        assert link.commands.get(timeout=scaled(10)).seq == 1

        @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(topic=st.sampled_from(TOPICS), payload=bad_payloads)
        def send(topic: str, payload: bytes) -> None:
            nonlocal sent
            assert floor.publish(topic, payload) == 0
            sent += 1

        send()
        # the broker keeps one client's messages in order: once this one is through, every bad one was seen
        still_takes_a_command(link, floor, seq=2)
        assert refused(link) == sent and sent > 0
    finally:
        floor.close()
        link.stop(timeout=scaled(1))


@pytest.mark.parametrize("name, payload", [
    ("100,000-deep nesting", b"[" * 100_000 + b"]" * 100_000),
    ("30,000-deep nesting under the size cap", b"[" * 30_000 + b"]" * 30_000),
    ("a 1 MB payload", b'{"kind":"cmd","pad":"' + b"x" * (1 << 20) + b'"}'),
    ("binary", bytes(range(256)) * 4),
])
def test_a_hostile_payload_on_each_topic_is_refused_counted_and_said(broker, tmp_path, caplog, name, payload):
    link = start_link(broker, tmp_path)
    floor = Raw(broker, "floor")
    try:
        for topic in TOPICS:
            assert floor.publish(topic, payload) == 0
        still_takes_a_command(link, floor, seq=1)
        assert refused(link) == len(TOPICS)
        assert sum("refused" in r.message for r in caplog.records if r.name == "dealerbox.floor") >= len(TOPICS)
    finally:
        floor.close()
        link.stop(timeout=scaled(1))


def test_a_handler_that_fails_is_counted_and_the_link_keeps_its_connection(broker, tmp_path, caplog):
    link = start_link(broker, tmp_path)
    floor = Raw(broker, "floor")
    taken = []

    def fails_once(command) -> None:
        if not taken:
            taken.append(None)
            raise RuntimeError("the terminal is busy")
        taken.append(command)

    link.on_command = fails_once
    try:
        assert floor.publish(TOPICS[0], _cmd(seq=1)) == 0
        assert wait_until(lambda: link.health()["inbound_errors"] == 1, scaled(10))
        assert floor.publish(TOPICS[0], _cmd(seq=2)) == 0
        assert wait_until(lambda: len(taken) == 2, scaled(10)) and taken[1].seq == 2
        assert link.health()["connects"] == 1 and link.health()["link"] == "connected"
        assert any("could not be handled: RuntimeError" in r.message for r in caplog.records)
    finally:
        floor.close()
        link.stop(timeout=scaled(1))


def test_the_reader_caps_size_and_depth_before_parsing():
    assert read_payload(b"[" * 100_000 + b"]" * 100_000)[1].startswith("payload of 200000 bytes")
    assert "nested" in read_payload(b"[" * 1000 + b"]" * 1000)[1]
    inside = "[{" * MAX_DEPTH      # brackets in a string do not nest
    assert read_payload(json.dumps({"a": inside}).encode()) == ({"a": inside}, "")
    assert read_payload(b"\xff\xfe")[1].startswith("malformed JSON")
    assert read_payload(b"1" * 5000)[1].startswith("malformed JSON")     # an integer too long to convert

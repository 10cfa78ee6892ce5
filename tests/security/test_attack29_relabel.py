"""Issue 29 attacked again as root on the box would: the table's key, its anchor ledger and its broker account in
hand, long after the floor anchored a log. Real mosquitto, the real dashboard, the real floor link."""

from __future__ import annotations

import json
import time

import paho.mqtt.publish as publish
import pytest

from dealerbox.cli import main
from dealerbox.record.anchor import anchor_topic
from dealerbox.record.signing import anchor_digest, anchor_fields_text, load_signer
from tests.dashboard.conftest import ShiftedClock
from tests.waiting import wait_until

from .witness import floor, link, play, recorder, resign, rx_edit, table_keys
from tests.conftest import scaled

pytestmark = [pytest.mark.timeout(300), pytest.mark.usefixtures("floor_password")]


def test_hands_the_floor_anchored_rewritten_as_the_next_log_of_the_table_do_not_verify_intact(tmp_path, broker,
                                                                                                capsys, anchored):
    rec, (private, public), running = anchored
    store = running.dash.ingest.anchor_store
    heads = len(store.heads("demo", "T01"))
    # root resets the hand count, so the new log numbers its hands 1-4 again, and records the same four
    # hands with other reads through the table's own recorder, ledger and floor link: the next log, next
    # anchors, each signed with the table's key, so the floor keeps them
    (tmp_path / "var" / "hands-T01.json").unlink()
    floor_link = link(tmp_path, broker.port)
    forged = recorder(tmp_path, private, name="T01-night")
    forged.on_anchor = floor_link.submit_anchor
    try:
        play(forged, range(1, 5), salt=7)
        forged.close()
        assert wait_until(lambda: len(store.heads("demo", "T01")) == 2 * heads, scaled(20))
    finally:
        floor_link.stop(timeout=scaled(2))
    header = json.loads(forged.path.read_text().splitlines()[0])
    assert "hands_before" not in header and header["log"]["seq"] > 0      # hands 1-4 again, the next place
    rules = {a.rule for a in running.store.alerts(site="demo", table="T01", open_only=True)}
    code = main(["verify", str(forged.path), "--pubkey", str(public), "--from-floor", running.url,
                 "--floor-user", "vic"])
    out = capsys.readouterr().out
    # hands 1-4 of this table were anchored once already, in another log: a second log of the same hands,
    # anchored later, must not pass as intact evidence without a word (nor reach the floor without an alert)
    assert code == 1 or rules, f"verify exit {code}: {out.strip()}; floor alerts: {sorted(rules)}"


def test_heads_root_re_signs_after_an_hour_offline_reach_the_floor_as_late(tmp_path, broker, capsys):
    private, public = table_keys(tmp_path)
    clock = ShiftedClock()
    running = floor(tmp_path, broker, public, clock)
    store = running.dash.ingest.anchor_store
    floor_link = link(tmp_path, broker.port)
    rec = recorder(tmp_path, private)
    rec.on_anchor = floor_link.submit_anchor
    try:
        play(rec, range(1, 2))
        assert wait_until(lambda: len(store.heads("demo", "T01")) == 1, scaled(10))
        floor_link.stop(timeout=scaled(2))                 # root stops the table's link (or firewalls it)
        play(rec, range(2, 5))                     # three hands the floor never hears of
        rec.close()
        clock.offset = 60 * 60                     # an hour later
        # root rewrites hand 3, re-signs the log, and sends the heads after the floor's last one himself,
        # next in the chain, each dated now: the outbox's honest heads (dated an hour ago) are deleted
        signer = load_signer(private, "T01")
        forged = tmp_path / "forged.jsonl"
        resign(rec.path, signer, rx_edit(3), forged)
        last = store.heads("demo", "T01")[-1]
        sigs = [json.loads(line) for line in forged.read_text().splitlines()]
        sigs = [r for r in sigs if r["k"] == "sig" and r["of"] > last["n"]]
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + clock.offset))
        prev = last
        for s in sigs:
            head = {**prev, "n": s["of"], "head": s["head"], "sig": s["sig"], "a": prev["a"] + 1, "at": now,
                    "prev": anchor_digest(anchor_fields_text(prev))}
            head["asig"] = signer.sign_bytes(anchor_fields_text(head))
            publish.single(anchor_topic("demo", "T01"), json.dumps(head), qos=1, hostname=broker.host,
                           port=broker.port)
            prev = head
        assert wait_until(lambda: len(store.heads("demo", "T01")) == 1 + len(sigs), scaled(10))
        code = main(["verify", str(forged), "--pubkey", str(public), "--from-floor", running.url,
                     "--floor-user", "vic"])
        out = capsys.readouterr().out
        rules = {a.rule for a in running.store.alerts(site="demo", table="T01", open_only=True)}
        # hand 3 was rewritten an hour after it was played: the floor must not file its heads without a word
        assert "evidence.anchor.late" in rules, f"no late alert: {sorted(rules)}; verify exit {code}: {out.strip()}"
    finally:
        running.stop()

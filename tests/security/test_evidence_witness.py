"""Issue 29, tried as root on the box would (the table's key in hand), against a real mosquitto and the real
dashboard: a rewritten, re-signed log saved under a new name; an older signed head re-published by the table's
own account; a link cut while hands are rewritten; a clean stop. Each attack is reproduced and now fails."""

from __future__ import annotations

import json
import secrets

import paho.mqtt.publish as publish
import pytest

from dealerbox.cli import main
from dealerbox.record.anchor import anchor_message, anchor_topic
from dealerbox.record.signing import anchor_digest, anchor_fields_text, anchor_text, load_signer
from dealerbox.sinks.screen.health import HealthMonitor
from tests.dashboard.conftest import ShiftedClock
from tests.waiting import wait_until

from .witness import Cut, anchored_session, floor, link, play, recorder, resign, rx_edit, table_keys
from tests.conftest import scaled

pytestmark = [pytest.mark.timeout(300), pytest.mark.usefixtures("floor_password")]


def _verify(log, public, running) -> int:
    return main(["verify", str(log), "--pubkey", str(public), "--from-floor", running.url, "--floor-user", "vic"])


def test_a_rewritten_re_signed_log_fails_whatever_name_or_identity_it_is_given(tmp_path, broker, capsys):
    rec, (private, public), running = anchored_session(tmp_path, broker)
    signer = load_signer(private, "T01")
    try:
        assert _verify(rec.path, public, running) == 0
        assert "5 anchors found" in capsys.readouterr().out
        # 1. same identity, hand 2 rewritten, re-signed, saved under a new name
        forged = tmp_path / "exhibit-T01.jsonl"
        resign(rec.path, signer, rx_edit(2), forged)
        assert main(["verify", str(forged), "--pubkey", str(public)]) == 0   # the key alone is fooled
        capsys.readouterr()
        assert _verify(forged, public, running) == 1
        assert "differs from the head the floor anchored" in capsys.readouterr().out

        # 2. the same rewrite given a fresh log id (the floor's place for this log says otherwise)
        def fresh_id(recs):
            recs = rx_edit(2)(recs)
            recs[0]["log"] = {**recs[0]["log"], "id": secrets.token_hex(8)}
            return recs
        resign(rec.path, signer, fresh_id, tmp_path / "renamed.jsonl")
        assert _verify(tmp_path / "renamed.jsonl", public, running) == 1
        assert "another recording was put in its place" in capsys.readouterr().out

        # 3. a new id in a place the floor never saw (another session's hands relabelled as T01)
        def elsewhere(recs):
            recs[0]["log"] = {"id": secrets.token_hex(8), "seq": 99}
            return recs
        resign(rec.path, signer, elsewhere, tmp_path / "relabelled.jsonl")
        assert _verify(tmp_path / "relabelled.jsonl", public, running) == 1
        assert "the floor holds no signed head of this log" in capsys.readouterr().out

        # 4. no identity at all (the header as it was before issue 29)
        def anonymous(recs):
            del recs[0]["log"]
            return recs
        resign(rec.path, signer, anonymous, tmp_path / "anonymous.jsonl")
        assert _verify(tmp_path / "anonymous.jsonl", public, running) == 1
        assert "names no identity" in capsys.readouterr().out
    finally:
        running.stop()


def test_the_floor_refuses_a_replayed_old_head_and_a_gap_and_verify_reads_every_head(tmp_path, broker, capsys):
    rec, (private, public), running = anchored_session(tmp_path, broker)
    signer = load_signer(private, "T01")
    store = running.dash.ingest.anchor_store
    try:
        heads = store.heads("demo", "T01")
        topic = anchor_topic("demo", "T01")
        # the table's own account re-publishes the first hand's head, retained (what it signed, unchanged)
        publish.single(topic, json.dumps(heads[0]), qos=1, retain=True, hostname=broker.host, port=broker.port)

        # root re-signs the first head with a fresh place in the chain: a rollback of the table's logs
        last = heads[-1]
        old = {**heads[0], "a": last["a"] + 1, "prev": anchor_digest(anchor_fields_text(last))}
        old["asig"] = signer.sign_bytes(anchor_fields_text(old))
        # and a head that skips a number: a gap
        ahead = {**last, "a": last["a"] + 2, "n": last["n"] + 1, "prev": anchor_digest(anchor_fields_text(last))}
        ahead["sig"] = signer.sign(last["part"], ahead["n"], ahead["head"])
        ahead["asig"] = signer.sign_bytes(anchor_fields_text(ahead))
        for a in (old, ahead):
            publish.single(topic, json.dumps(a), qos=1, hostname=broker.host, port=broker.port)

        def alerts() -> set[str]:
            return {a.rule for a in running.store.alerts(site="demo", table="T01", open_only=True)}
        assert wait_until(lambda: {"evidence.anchor.rollback", "evidence.anchor.gap"} <= alerts(), scaled(10)), alerts()
        assert store.heads("demo", "T01") == heads                  # nothing replaced, nothing added

        # a log with hands 2-4 rewritten and re-signed: the floor serves every head, not the retained one
        resign(rec.path, signer, lambda r: rx_edit(4)(rx_edit(3)(rx_edit(2)(r))), tmp_path / "rewritten.jsonl")
        assert _verify(tmp_path / "rewritten.jsonl", public, running) == 1
        assert "differs from the head the floor anchored" in capsys.readouterr().out
        # the floor's API wants a floor user, not the table's broker account
        assert main(["verify", str(rec.path), "--pubkey", str(public), "--from-floor", running.url,
                     "--floor-user", "nobody"]) == 2
        assert "refused 'nobody'" in capsys.readouterr().err
    finally:
        running.stop()


def test_an_outage_delays_the_heads_but_loses_none_and_the_window_is_shown_then_alerted(tmp_path, broker, capsys):
    private, public = table_keys(tmp_path)
    clock = ShiftedClock()
    running = floor(tmp_path, broker, public, clock)
    path = Cut(broker.port)
    link_clock = ShiftedClock()
    floor_link = link(tmp_path, path.port, window_min=5.0, clock=link_clock)
    rec = recorder(tmp_path, private)
    rec.on_anchor = floor_link.submit_anchor
    store = running.dash.ingest.anchor_store
    try:
        play(rec, range(1, 2))
        assert wait_until(lambda: len(store.heads("demo", "T01")) == 1, scaled(10))
        path.cut()                                   # the firewall rule
        assert wait_until(lambda: not floor_link.health()["connected"], scaled(10))
        play(rec, range(2, 7))                       # five hands while the floor cannot hear
        assert wait_until(lambda: floor_link.health()["unanchored"] == 5, scaled(10))
        link_clock.offset = 6 * 60                   # six minutes on: past the table's five-minute window
        health = {"floor": floor_link.health()}
        assert health["floor"]["oldest_unanchored_s"] >= 6 * 60
        view = HealthMonitor().judge(health, 0.0)
        assert view.floor_level == "bad" and "Evidence not on the floor for 6 min" in view.message
        clock.offset = 6 * 60                        # the floor's time too: the heads arrive late
        path.mend()
        assert wait_until(lambda: len(store.heads("demo", "T01")) == 6, scaled(20))
        assert [h["a"] for h in store.heads("demo", "T01")] == [1, 2, 3, 4, 5, 6]   # all of them, in order
        assert wait_until(lambda: floor_link.health()["unanchored"] == 0, scaled(10))
        rules = {a.rule for a in running.store.alerts(site="demo", table="T01", open_only=True)}
        assert "evidence.anchor.late" in rules and "evidence.anchor.gap" not in rules
        rec.close()
        assert wait_until(lambda: len(store.heads("demo", "T01")) == 7, scaled(10))
    finally:
        floor_link.stop(timeout=scaled(2))
        path.close()
    try:
        # a hand played during the outage, rewritten and re-closed: the heads that came late still prove it
        resign(rec.path, load_signer(private, "T01"), rx_edit(5), tmp_path / "cut.jsonl")
        assert _verify(tmp_path / "cut.jsonl", public, running) == 1
        assert "differs from the head the floor anchored" in capsys.readouterr().out
    finally:
        running.stop()


def test_a_clean_stop_anchors_the_last_hand_and_the_close(tmp_path, broker, capsys):
    from ..test_terminal import _run

    private, public = table_keys(tmp_path)
    running = floor(tmp_path, broker, public)
    cfg = tmp_path / "t.toml"
    cfg.write_text(f'[table]\nid = "T01"\nsite = "demo"\n[record]\nkey = "{private}"\n[simulator]\nseed = 4\n'
                   f'[floor]\nhost = "{broker.host}"\nport = {broker.port}\noutbox = "{tmp_path / "o.sqlite"}"\n')
    try:
        done = _run(["run", "--config", str(cfg), "--jsonl", "--speed", "500", "--hands", "2"], tmp_path)
        assert done.returncode == 0, done.stderr
        log = next((tmp_path / "var" / "logs").glob("*.jsonl"))
        lines = [json.loads(line) for line in log.read_text().splitlines()]
        last_sig = lines[-1]
        assert lines[-2]["k"] == "closed" and last_sig["k"] == "sig"
        store = running.dash.ingest.anchor_store
        assert wait_until(lambda: any(h["n"] == last_sig["of"] for h in store.heads("demo", "T01")), scaled(10))
        assert _verify(log, public, running) == 0
        assert "anchors found" in capsys.readouterr().out
    finally:
        running.stop()


def test_junk_and_unenrolled_anchors_are_refused_and_one_table_s_store_is_capped(tmp_path, broker):
    private, public = table_keys(tmp_path)
    running = floor(tmp_path, broker, public)
    store = running.dash.ingest.anchor_store
    signer = load_signer(private, "T01")
    try:
        def signed(a: int, prev: str, n: int, head: str) -> dict:
            text = anchor_text("demo", "T01", "0123456789abcdef", 1, "0" * 64, 0, n, head, a, prev)
            return anchor_message("demo", {"table": "T01", "log": "0123456789abcdef", "seq": 1, "origin": "0" * 64,
                                           "part": 0, "n": n, "head": head, "sig": signer.sign(0, n, head),
                                           "key": "0" * 16, "t": 1.0, "at": "2026-01-01T00:00:00Z", "a": a,
                                           "prev": prev, "asig": signer.sign_bytes(text)})
        first = signed(1, "0" * 64, 1, "1" * 64)
        junk = [("dealerbox/demo/T01/anchor", json.dumps({**first, "a": i + 2, "asig": "ab" * 64}), 1, False)
                for i in range(1000)]
        publish.multiple(junk, hostname=broker.host, port=broker.port)
        assert wait_until(lambda: running.store.counters().get("invalid", 0) >= 1000, scaled(200))
        assert store.heads("demo", "T01") == []
        forged = [a for a in running.store.alerts(site="demo", table="T01") if a.rule == "evidence.anchor.forged"]
        assert len(forged) == 1                                   # one alert for the flood, not 1000
        # a table nobody enrolled keeps nothing
        publish.single("dealerbox/demo/T09/anchor", json.dumps({**first, "table": "T09"}), qos=1,
                       hostname=broker.host, port=broker.port)
        # the cap: two heads kept, the third refused and raised
        store.cap = 2
        second = signed(2, anchor_digest(anchor_fields_text(first)), 2, "2" * 64)
        third = signed(3, anchor_digest(anchor_fields_text(second)), 3, "3" * 64)
        for a in (first, second, third):
            publish.single("dealerbox/demo/T01/anchor", json.dumps(a), qos=1, hostname=broker.host, port=broker.port)
        assert wait_until(lambda: any(a.rule == "evidence.anchor.full"
                                      for a in running.store.alerts(site="demo", table="T01")), scaled(10))
        assert [h["a"] for h in store.heads("demo", "T01")] == [1, 2]
        assert running.store.anchors("demo", "T09") == []
    finally:
        running.stop()


def test_verify_says_what_it_checked_and_gives_one_verdict_for_a_wrong_key(tmp_path, capsys):
    from dealerbox.record.signing import generate

    private, public = table_keys(tmp_path)
    cfg = tmp_path / "t.toml"
    cfg.write_text(f'[table]\nid = "T01"\n[record]\nkey = "{private}"\n')
    log = tmp_path / "sim" / "s.jsonl"
    assert main(["--config", str(cfg), "simulate", "--hands", "3", "--out", str(log)]) == 0   # signed like run
    capsys.readouterr()
    assert main(["verify", str(log), "--pubkey", str(public)]) == 0
    assert "signatures good" in capsys.readouterr().out
    # a signed log edited and re-chained without the key: the chain alone cannot tell, and says so
    recs = [json.loads(line) for line in log.read_text().splitlines()]
    recs = [r for r in recs if r["k"] != "sig"]
    recs[0] = {k: v for k, v in recs[0].items() if k not in ("signer", "log")} | {"version": 1}
    from dealerbox.record.logformat import GENESIS, chain
    prev = GENESIS
    for i, r in enumerate(recs):
        r["n"], r["h"] = i, None
        r["h"] = chain(prev, {k: v for k, v in r.items() if k != "h"})
        prev = r["h"]
    stripped = tmp_path / "stripped.jsonl"
    stripped.write_text("".join(json.dumps(r) + "\n" for r in recs))
    assert main(["verify", str(stripped)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("intact, unauthenticated:") and "nothing was authenticated (pass --pubkey" in out
    # with the key: one verdict, no pile of follow-on lines
    assert main(["verify", str(stripped), "--pubkey", str(public)]) == 1
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "not signed" in out
    other = generate(tmp_path / "other" / "T02.key")
    assert main(["verify", str(log), "--pubkey", str(other)]) == 1
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "another key" in out


def test_audit_reports_a_log_the_floor_anchored_that_nobody_handed_in(tmp_path, broker, capsys):
    rec, (private, public), running = anchored_session(tmp_path, broker, hands=2)
    floor_link = link(tmp_path, broker.port)
    later = recorder(tmp_path, private, name="T01-later")       # the table's next log: anchored, then "lost"
    later.on_anchor = floor_link.submit_anchor
    store = running.dash.ingest.anchor_store
    try:
        play(later, range(3, 5))
        later.close()
        assert wait_until(lambda: len(store.heads("demo", "T01")) == 6, scaled(20))
    finally:
        floor_link.stop(timeout=scaled(2))
    handed = tmp_path / "handed-in"
    handed.mkdir()
    (handed / rec.path.name).write_bytes(rec.path.read_bytes())
    try:
        code = main(["audit", str(handed), "--out", str(tmp_path / "report"), "--jobs", "1",
                     "--from-floor", running.url, "--floor-user", "vic"])
    finally:
        running.stop()
    err = capsys.readouterr().err
    assert code == 1
    assert f"the floor anchored demo/T01's log 2 (id {later.anchor['log']}, 3 signed heads" in err
    assert "not handed in" in err and rec.anchor["log"] not in err
    rows = (tmp_path / "report" / "not-handed-in.csv").read_text().splitlines()
    assert len(rows) == 2 and later.anchor["log"] in rows[1]


def test_a_place_in_the_sequence_no_anchor_fills_is_a_missing_log_and_verify_names_the_unanchored_end(tmp_path):
    from dealerbox.record.anchor import missing_logs
    from dealerbox.record.verify import verify_log

    private, public = table_keys(tmp_path)
    heads: list[dict] = []
    logs = []
    for name in ("one", "two", "three"):
        rec = recorder(tmp_path, private, name=name)
        rec.on_anchor = lambda a, keep=(name != "two"): keep and heads.append(anchor_message("demo", a))
        play(rec, range(1, 3))
        rec.close()
        logs.append(rec)
    gone = missing_logs(heads, {("demo", "T01", logs[0].anchor["log"])})
    assert [(r["seq"], r["log"]) for r in gone] == [(2, "?"), (3, logs[2].anchor["log"])]
    first_only = [h for h in heads if h["log"] == logs[0].anchor["log"]][:1]
    report = verify_log(logs[0].path, pubkey=(public.read_text().strip()), anchors=first_only)
    assert report.intact and "are not on the floor, so that end is proven by the key alone" in report.summary()

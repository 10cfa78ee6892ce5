"""The floor's acknowledgement is what lets retention delete: a real mosquitto PUBACKs each anchor the floor
link sends from its outbox, the upkeep notes it in floor-confirmed.json, and an old part it covers can then go."""

import os

from dealerbox.config import load
from dealerbox.sinks.floor.link import FloorLink
from dealerbox.upkeep.keeper import Upkeep
from dealerbox.upkeep.retention import CONFIRMED_FILE
from tests.security import test_evidence_signing as signing
from tests.waiting import wait_until
from tests.conftest import scaled

DAY = 86400.0
keys = signing.keys   # the signing tests' key pair fixture, shared (pytest finds it by this name)


def test_an_acknowledged_anchor_frees_the_parts_it_covers(broker, tmp_path, keys):
    heads: list[dict] = []
    rec = signing._signed_log(tmp_path, keys, hands=6, rotate_bytes=2048, on_anchor=heads.append)
    assert rec.part >= 2
    cfg = tmp_path / "t.toml"
    cfg.write_text(f'[table]\nid = "T01"\nsite = "demo"\n[floor]\nhost = "{broker.host}"\nport = {broker.port}\n'
                   f'outbox = "{tmp_path / "o.sqlite"}"\n')
    link = FloorLink(load(cfg), reconnect_min=0.05, reconnect_max=0.3).start()
    logs = tmp_path / "logs"
    later = [0.0]
    upkeep = Upkeep(logs, keep_days=7, wall=lambda: later[0])
    try:
        assert upkeep.retention.sweep().deleted == []   # nothing confirmed yet: nothing goes
        for head in heads:               # every signed head, as the recorder hands them to the link
            link.submit_anchor(head)
        assert wait_until(lambda: link.anchor_acked is not None and link.anchor_acked["a"] == heads[-1]["a"],
                          scaled(10))
    finally:
        link.stop(timeout=scaled(2))
    assert link.anchor_acked["head"] == rec.anchor["head"]
    upkeep.tick(link, None, "test")   # notes the acknowledged anchor, then sweeps
    confirmed = (logs / CONFIRMED_FILE).read_text()
    assert f'"part": {rec.part}' in confirmed
    parts = sorted(logs.glob("T01-test*.jsonl"))
    for p in parts:
        os.utime(p, (1000.0, 1000.0))
    later[0] = 1000.0 + 10 * DAY
    upkeep.retention.sweep()
    # The anchor signs the closing line of the last part: every part is covered, and all go.
    assert not list(logs.glob("T01-test*.jsonl"))

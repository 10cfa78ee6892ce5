"""Issue 29 reviewed from outside: root on the box takes ``record.key`` out of the table's config and restarts it.
The table plays on, its hands reach the floor as events, and it signs nothing, so no head ever reaches the floor:
a log the floor never hears of cannot be missed by ``audit --from-floor``, and the hand count can be put back
afterwards. The floor, which holds the table's enrolled key and sees its hands end, must raise that. The real
terminal (``dealerbox run``), a real mosquitto and the real dashboard; the dashboard's clock moves on."""

from __future__ import annotations

import pytest

from dealerbox.dashboard.anchors import AnchorStore
from dealerbox.record.signing import generate, load_public
from tests.dashboard.conftest import ShiftedClock
from tests.waiting import wait_until

from .witness import floor, table_keys
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(300)


def test_an_enrolled_table_that_ends_hands_and_anchors_none_is_raised_on_the_floor(tmp_path, broker):
    from ..test_terminal import _run

    _, public = table_keys(tmp_path)        # made at set-up and enrolled on the floor; root took it off the config
    clock = ShiftedClock()
    running = floor(tmp_path, broker, public, clock)
    cfg = tmp_path / "t.toml"
    cfg.write_text(f'[table]\nid = "T01"\nsite = "demo"\n[simulator]\nseed = 4\n'
                   f'[floor]\nhost = "{broker.host}"\nport = {broker.port}\noutbox = "{tmp_path / "o.sqlite"}"\n')
    # T02 beside it, honest: its key in its config, every hand signed and anchored
    t02 = tmp_path / "t02"
    t02.mkdir()
    t02_key = t02 / "keys" / "T02.key"
    AnchorStore(running.store).enrol("demo", "T02", load_public(generate(t02_key)))
    (t02 / "t.toml").write_text(cfg.read_text().replace('"T01"', '"T02"').replace("o.sqlite", "o2.sqlite")
                                .replace("[simulator]", f'[record]\nkey = "{t02_key}"\n[simulator]'))
    store = running.dash.ingest.anchor_store
    try:
        done = _run(["run", "--config", str(cfg), "--jsonl", "--speed", "500", "--hands", "3"], tmp_path)
        assert done.returncode == 0, done.stderr
        honest = _run(["run", "--config", str(t02 / "t.toml"), "--jsonl", "--speed", "500", "--hands", "3"], t02)
        assert honest.returncode == 0, honest.stderr
        assert wait_until(lambda: len(running.store.hands("demo", "T01")) >= 3, scaled(20))   # the floor saw the hands
        assert store.heads("demo", "T01") == []                                       # and not one signed head
        assert wait_until(lambda: len(running.store.hands("demo", "T02")) >= 3 and
                          any(h["hands"][1] >= 3 for h in store.heads("demo", "T02")), scaled(20))

        def rules(table: str) -> set[str]:
            return {a.rule for a in running.store.alerts(site="demo", table=table, open_only=True)}
        clock.offset = 11 * 60                  # past the floor's window: still no head for T01's hands
        assert wait_until(lambda: "evidence.anchor.missing" in rules("T01"), scaled(20)), rules("T01")
        assert "evidence.anchor.missing" not in rules("T02")     # the same sweep found T02's hands all signed
    finally:
        running.stop()

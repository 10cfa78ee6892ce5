"""Outside review of issue 30: the hosted tournament's clock topic is read on paho's network thread (the
dashboard subscribes to it to carry on from a retained clock). A payload there that json.loads could not take
as JSON-or-ValueError (nested past the recursion limit) raised out of the paho callback: paho's network thread
died and the dashboard filed nothing more, alerts included, while its pages still said "connected"."""

from __future__ import annotations

import json

import pytest

from dealerbox.commands.dashboard import hosted_tournaments
from dealerbox.dashboard.service import Dashboard
from dealerbox.dashboard.store import Store
from tests.tournament.tables import tournament_file
from tests.waiting import wait_until

from .tables import alert_bytes, send_raw
from .test_review30_hostile import BIG_INT, DEEP
from .test_tournament import CLOCK_TOPIC, SITE, tour  # noqa: F401  (the module's own hosted dashboard)
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(120)
SHAPES = [DEEP, BIG_INT, b"[]", b"null", b'"x"', bytes(range(256)),
          json.dumps({"kind": "clock", "level": "x", "running": "yes", "left_s": [], "boot": 5}).encode()]


@pytest.mark.parametrize("raw", SHAPES, ids=["deep", "big-int", "list", "null", "string", "binary", "wrong-types"])
def test_a_hostile_clock_payload_is_refused_with_a_reason(tmp_path, raw):
    store = Store(f"sqlite:///{tmp_path / 'floor.db'}")
    try:
        dash = Dashboard(store, tournaments=hosted_tournaments([str(tournament_file(tmp_path))], SITE, "dashboard"))
        reason = dash.host.retained_clock(CLOCK_TOPIC, raw, 1_000.0)       # must not raise
        assert isinstance(reason, str) and reason
    finally:
        store.close()


def test_a_nested_payload_on_the_clock_topic_does_not_stop_the_dashboard_filing(tour):  # noqa: F811
    send_raw(tour.broker, CLOCK_TOPIC, DEEP)
    send_raw(tour.broker, f"dealerbox/{SITE}/T09/alert", alert_bytes(SITE, "T09", "h1-1", "after the clock bomb"))
    assert wait_until(lambda: tour.store.alerts(table="T09"), scaled(20)), f"nothing filed: {tour.dash.broker_note}"

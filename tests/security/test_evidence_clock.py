"""Wall-clock stamps come with the clock's state (issue 14): the recorder's health says whether the kernel
considers the clock NTP-synchronised, next to the wall time the anchors carry."""

from __future__ import annotations

import ctypes
import ctypes.util
from datetime import datetime, UTC

from dealerbox.record.clock import TIME_ERROR, clock_status
from dealerbox.record.logformat import Header
from dealerbox.record.recorder import Recorder


def test_the_clock_state_is_the_kernels_answer_and_the_wall_time_is_now():
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    kernel = libc.adjtimex(ctypes.create_string_buffer(512))
    status = clock_status()
    assert status["ntp_synchronised"] is (kernel != TIME_ERROR)
    wall = datetime.strptime(status["wall"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    assert abs((datetime.now(UTC) - wall).total_seconds()) < 5


def test_the_recorder_health_carries_the_clock_state(tmp_path):
    rec = Recorder(tmp_path, Header(config={}, enrolment={}), name="c")
    try:
        assert set(rec.health()["clock"]) == {"wall", "ntp_synchronised"}
    finally:
        rec.close()

"""Fixtures the floor-witness tests (issue 29) share: the floor account's password for ``verify --from-floor``,
and a table whose anchored log the attacks start from."""

from __future__ import annotations

import pytest

from tests.dashboard.conftest import PASSWORD

from .witness import anchored_session


@pytest.fixture
def floor_password(monkeypatch):
    """The floor viewer's password where ``dealerbox verify --from-floor`` reads it (DEALERBOX_FLOOR_PASSWORD)."""
    monkeypatch.setenv("DEALERBOX_FLOOR_PASSWORD", PASSWORD)


@pytest.fixture
def anchored(tmp_path, broker, floor_password):
    """``witness.anchored_session``: (rec, (private, public), running), the floor stopped once the test is done."""
    rec, keys, running = anchored_session(tmp_path, broker)
    yield rec, keys, running
    running.stop()

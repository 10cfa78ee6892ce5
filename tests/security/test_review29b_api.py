"""Issue 29 reviewed from outside: the floor's anchor API (``GET /api/anchors``, HTTP Basic with a dashboard
user's password, what ``verify --from-floor`` reads) is a second door to the dashboard's passwords. A guesser on
the floor network (a technician's laptop, root on a table's box) must be slowed there as at the login form, not
handed an unthrottled password oracle. The real dashboard and a real mosquitto."""

from __future__ import annotations

import httpx
import pytest

from dealerbox.dashboard.auth import FREE_TRIES
from tests.dashboard.conftest import PASSWORD

from .witness import floor, table_keys
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(300)


def test_guessing_a_floor_user_s_password_through_the_anchor_api_is_slowed_like_the_login_form(tmp_path, broker):
    _, public = table_keys(tmp_path)
    running = floor(tmp_path, broker, public)
    url = f"{running.url}/api/anchors"
    try:
        with httpx.Client(timeout=scaled(60)) as web:
            assert web.get(url, params={"site": "demo"}, auth=("vic", PASSWORD)).status_code == 200
            answers = [web.get(url, params={"site": "demo"}, auth=("vic", f"guess-{i:04d}")).status_code
                       for i in range(FREE_TRIES + 8)]
            # each wrong guess doubles the wait after the free tries (up to minutes): the last ones are refused
            # unheard, and so is the right password from the guesser's address until the wait is over
            assert 429 in answers, answers
            assert set(answers) <= {401, 429} and answers[:FREE_TRIES] == [401] * FREE_TRIES, answers
            late = web.get(url, params={"site": "demo"}, auth=("vic", PASSWORD))
            assert late.status_code == 429 and int(late.headers["retry-after"]) > 0, late.status_code
    finally:
        running.stop()

"""People: argon2 password hashes, the role ladder, CSRF tokens bound to the session, and a login rate limit
per client address and per user name (so neither one machine nor one guessed name can try passwords fast)."""

from __future__ import annotations

import hmac
import secrets
import time
from collections import defaultdict, deque
from collections.abc import Callable

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from .store import ROLES, Store

_hasher = PasswordHasher()
LOGIN_TRIES = 5                  # failed logins allowed per window for one name
ADDRESS_TRIES = 30               # and from one address (a floor office shares one NAT address: be generous)
LOGIN_WINDOW_S = 60.0


def hash_password(password: str) -> str:
    if len(password) < 8:
        raise ValueError("password: use at least 8 characters")
    return _hasher.hash(password)


def check_password(store: Store, name: str, password: str) -> str | None:
    """The user's role when the password is right, else None (same work whether or not the name exists)."""
    found = store.user(name)
    stored = found[1] if found else _DUMMY
    try:
        _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return None
    return found[0] if found else None


_DUMMY = _hasher.hash("not a real password: keeps a wrong name as slow as a wrong password")


def may(role: str | None, needed: str) -> bool:
    return role in ROLES and ROLES.index(role) >= ROLES.index(needed)


def new_csrf() -> str:
    return secrets.token_urlsafe(24)


def csrf_ok(session_token: str | None, sent: str | None) -> bool:
    return bool(session_token and sent and hmac.compare_digest(session_token, sent))


class LoginLimit:
    def __init__(self, clock: Callable[[], float] = time.monotonic, tries: int = LOGIN_TRIES,
                 address_tries: int = ADDRESS_TRIES, window: float = LOGIN_WINDOW_S) -> None:
        self.clock, self.tries, self.address_tries, self.window = clock, tries, address_tries, window
        self.failures: dict[str, deque[float]] = defaultdict(deque)

    def blocked(self, *keys: str) -> bool:
        now = self.clock()
        for key in keys:
            q = self.failures[key]
            while q and q[0] < now - self.window:
                q.popleft()
            if len(q) >= (self.address_tries if key.startswith("ip:") else self.tries):
                return True
        return False

    def failed(self, *keys: str) -> None:
        for key in keys:
            self.failures[key].append(self.clock())

"""People: argon2 password hashes, the role ladder, server-side sessions (the cookie holds a random token, the
store its hash and the session's CSRF token; the role is read from the store on every request), where a request
really came from (a configured TLS proxy's X-Forwarded-For and -Proto), and a login rate limit that slows a
guesser without locking the rightful user out."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from .store import ROLES, Store

_hasher = PasswordHasher()
SESSION_COOKIE = "dealerbox_floor"
LOGIN_COOKIE = "dealerbox_login"      # before signing in: binds the login form's CSRF token to this browser
SESSION_TTL_S = 12 * 3600.0
FREE_TRIES = 5                   # wrong passwords for one name from one address before the waits start
SPRAYED_NAME = 20                # failures on one name from anywhere: then a pair that failed gets 1 free try
SPRAYING_ADDRESS = 10            # names one address failed on: beyond this it waits, whichever name it tries
FIRST_WAIT_S = 2.0               # the first wait; each further failure doubles it, up to MAX_WAIT_S
MAX_WAIT_S = 300.0
FORGET_AFTER_S = 3600.0          # failures older than this are forgotten


def _backoff(over: int) -> float:
    return min(MAX_WAIT_S, FIRST_WAIT_S * 2 ** min(over, 20))


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


def token_hash(token: str) -> str:
    """What the store keeps of a session token: a copied database opens no browser session."""
    return hashlib.sha256(token.encode()).hexdigest()


def login_csrf(key: str, login_cookie: str) -> str:
    """The login form's CSRF token, bound to the browser's login cookie (no session exists yet)."""
    return hmac.new(key.encode(), f"login:{login_cookie}".encode(), hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Proxies:
    """The TLS reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (``--trust-proxy``);
    from anyone else those headers are ignored, so a client can neither fake its address nor https."""
    networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()

    @classmethod
    def parse(cls, texts: list[str]) -> Proxies:
        try:
            return cls(tuple(ipaddress.ip_network(t.strip(), strict=False) for t in texts if t.strip()))
        except ValueError as e:
            raise ValueError(f"--trust-proxy: {e}: give an address or a network, e.g. 10.0.0.0/24") from None

    def trusted(self, address: str | None) -> bool:
        try:
            ip = ipaddress.ip_address(address or "")
        except ValueError:
            return False
        return any(ip in n for n in self.networks)

    def client(self, peer: str | None, forwarded_for: str | None) -> str:
        """The client's address: the peer's, or behind a trusted proxy the last hop it did not add itself."""
        where = peer or "?"
        if not self.trusted(peer) or not forwarded_for:
            return where
        for hop in reversed([h.strip() for h in forwarded_for.split(",") if h.strip()]):
            where = hop
            if not self.trusted(hop):
                break
        return where

    def secure(self, scheme: str, peer: str | None, forwarded_proto: str | None) -> bool:
        """True when the browser talks TLS: served over https, or a trusted proxy says it terminated TLS."""
        if scheme in ("https", "wss"):
            return True
        return self.trusted(peer) and (forwarded_proto or "").split(",")[0].strip().lower() == "https"


@dataclass
class _Tries:
    failures: int = 0
    last: float = 0.0


@dataclass
class LoginLimit:
    """Failures count per (name, client address): after FREE_TRIES that pair waits FIRST_WAIT_S, doubling with
    each further failure up to MAX_WAIT_S. The rightful user at another address is never slowed by a guesser,
    and a right password from a pair that has not been failing always gets in. Guessing one name from many
    addresses leaves each failing pair one free try; one address trying many names waits on every name."""
    clock: Callable[[], float] = time.monotonic
    pairs: dict[tuple[str, str], _Tries] = field(default_factory=dict)
    names: dict[str, _Tries] = field(default_factory=dict)
    addresses: dict[str, set[str]] = field(default_factory=dict)

    def wait(self, name: str, address: str) -> float:
        """Seconds this pair must still wait before a try is heard (0: go ahead)."""
        now = self.clock()
        self._forget(now)
        waits = [0.0]
        pair = self.pairs.get((name, address))
        named = self.names.get(name)
        free = 1 if named and named.failures >= SPRAYED_NAME else FREE_TRIES
        if pair and pair.failures >= free:
            waits.append(pair.last + _backoff(pair.failures - free) - now)
        sprayed = self.addresses.get(address, set())
        if len(sprayed) > SPRAYING_ADDRESS:
            last = max(self.pairs[(n, address)].last for n in sprayed if (n, address) in self.pairs)
            waits.append(last + _backoff(len(sprayed) - SPRAYING_ADDRESS - 1) - now)
        return max(waits)

    def failed(self, name: str, address: str) -> None:
        now = self.clock()
        for tries in (self.pairs.setdefault((name, address), _Tries()), self.names.setdefault(name, _Tries())):
            tries.failures += 1
            tries.last = now
        self.addresses.setdefault(address, set()).add(name)

    def succeeded(self, name: str, address: str) -> None:
        self.pairs.pop((name, address), None)

    def _forget(self, now: float) -> None:
        for key in [k for k, t in self.pairs.items() if now - t.last > FORGET_AFTER_S]:
            del self.pairs[key]
            names = self.addresses.get(key[1])
            if names is not None:
                names.discard(key[0])
                if not names:
                    del self.addresses[key[1]]
        for name in [n for n, t in self.names.items() if now - t.last > FORGET_AFTER_S]:
            del self.names[name]

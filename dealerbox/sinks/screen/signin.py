"""Who deals: the dealer signs in on the terminal with their id and PIN, or by holding their badge over a zone.

The PIN is checked here against the argon2 hash in ``audit.dealers`` and goes no further: what reaches the
engine, the log and the floor is a ``sign-in`` dealer input naming the dealer's id and how they proved it
(``ref`` "pin" or "badge"). A badge is a tag enrolled as a ``badge`` marker; ``audit.badges`` says whose.
After ``LOCK_AFTER`` wrong PINs in a row the pad refuses every PIN for ``LOCK_S`` seconds: a four-digit PIN
must not be guessed at the table's pace.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ...config import Config
from ...engine.inputs import DealerInput

log = logging.getLogger("dealerbox")

LOCK_AFTER = 5
LOCK_S = 60.0
_HASHER = PasswordHasher()


class SignInDesk:
    """``pin(dealer, pin)`` / ``badge(uid)`` -> the ``sign-in`` input, or None with ``said`` telling the dealer
    why. ``counters`` count what was granted and refused (never which PIN was tried)."""

    def __init__(self, config: Config, clock: Callable[[], float]) -> None:
        self.dealers = dict(config.audit.dealers)
        self.badges = {uid.lower(): dealer for uid, dealer in config.audit.badges.items()}
        self.clock = clock
        self.said = ""
        self.counters = {"signed_in": 0, "pin_refused": 0, "badge_refused": 0, "locked": 0}
        self._wrong = 0
        self._locked_until = 0.0

    @property
    def enabled(self) -> bool:
        """Sign-in is offered only where the config names dealers (or badges)."""
        return bool(self.dealers or self.badges)

    def pin(self, dealer: str, pin: str) -> DealerInput | None:
        now = self.clock()
        if now < self._locked_until:
            self.counters["locked"] += 1
            self._refuse(f"Too many wrong PINs: try again in {int(self._locked_until - now) + 1} s")
            return None
        stored = self.dealers.get(dealer)
        ok = False
        if stored is None:
            _HASHER.hash(pin)     # as slow as a real check: the time does not tell which ids exist
        else:
            try:
                ok = _HASHER.verify(stored, pin)
            except (VerificationError, InvalidHashError):
                ok = False
        if not ok:
            # the same answer whether the id or the PIN was wrong
            self.counters["pin_refused"] += 1
            self._wrong += 1
            if self._wrong >= LOCK_AFTER:
                self._wrong, self._locked_until = 0, now + LOCK_S
                log.warning("sign-in: %d wrong PINs in a row at the terminal; the pad is locked for %.0f s",
                            LOCK_AFTER, LOCK_S)
            self._refuse("Wrong dealer number or PIN")
            return None
        self._wrong = 0
        return self._grant(dealer, "pin")

    def badge(self, uid: str) -> DealerInput | None:
        dealer = self.badges.get(uid.lower())
        if dealer is None:
            self.counters["badge_refused"] += 1
            log.warning("sign-in: badge %s is enrolled but audit.badges does not say whose it is", uid)
            self._refuse(f"Badge {uid} belongs to nobody in audit.badges")
            return None
        return self._grant(dealer, "badge")

    def _grant(self, dealer: str, method: str) -> DealerInput:
        self.counters["signed_in"] += 1
        self.said = f"Dealer {dealer} signed in"
        return DealerInput(self.clock(), "sign-in", ref=method, by=dealer)

    def _refuse(self, why: str) -> None:
        self.said = why

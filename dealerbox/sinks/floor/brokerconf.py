"""The broker settings end-to-end delivery relies on, read from a mosquitto configuration file (and its
``include_dir``): persistence on, its directory there and writable by the user the broker runs as, a queue
that holds a shift's alerts for an offline dashboard, and the client id bound to the username. What
``dealerbox doctor --mosquitto-conf FILE`` prints on the broker's host; docs/floor-topics.md says why."""

from __future__ import annotations

import grp
import os
import pwd
from dataclasses import dataclass
from pathlib import Path

DEFAULT_USER = "mosquitto"       # mosquitto drops to this user when started as root and no ``user`` is set
QUEUE_MIN = 10_000               # max_queued_messages below this (mosquitto's default is 1,000) drops alerts


@dataclass(frozen=True)
class Setting:
    """One checked setting: ``ok`` True (as it should be), False (a problem), None (worth a look)."""
    ok: bool | None
    text: str


def read_conf(path: Path, seen: set[Path] | None = None) -> list[tuple[str, str, str]]:
    """(option, value, where) for every line of ``path`` and the files its ``include_dir`` names, in order;
    OSError (the file named) when one cannot be read."""
    seen = set() if seen is None else seen
    path = path.resolve()
    if path in seen:
        return []
    seen.add(path)
    out: list[tuple[str, str, str]] = []
    for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        option, _, value = text.partition(" ")
        value = value.strip()
        if option == "include_dir":
            folder = Path(value)
            for child in sorted(folder.glob("*.conf")) if folder.is_dir() else []:
                out += read_conf(child, seen)
            continue
        out.append((option, value, f"{path}:{n}"))
    return out


def _writable_by(folder: Path, user: str) -> bool:
    """Whether ``user`` may create files in ``folder`` by its owner, group and mode bits (root always may)."""
    entry = pwd.getpwnam(user)
    if entry.pw_uid == 0:
        return True
    st = folder.stat()
    groups = {entry.pw_gid} | {g.gr_gid for g in grp.getgrall() if user in g.gr_mem}
    if st.st_uid == entry.pw_uid:
        return st.st_mode & 0o300 == 0o300
    if st.st_gid in groups:
        return st.st_mode & 0o030 == 0o030
    return st.st_mode & 0o003 == 0o003


def check_conf(path: str | Path) -> list[Setting]:
    """Every setting delivery relies on, checked; one Setting naming the file when it cannot be read."""
    try:
        lines = read_conf(Path(path))
    except OSError as e:
        return [Setting(False, f"{path}: cannot read the broker's configuration ({e.strerror or e}); give "
                               f"--mosquitto-conf the file mosquitto is started with")]
    last: dict[str, tuple[str, str]] = {}
    listeners = clientid = 0
    for option, value, where in lines:
        last[option] = (value, where)
        listeners += option == "listener"
        clientid += option == "use_username_as_clientid" and value == "true"
    out: list[Setting] = []
    persistence = last.get("persistence", ("false", f"{path} (not set)"))
    if persistence[0] != "true":
        out.append(Setting(False, f"persistence is {persistence[0]} ({persistence[1]}): a broker restart loses "
                                  f"every queued alert and every floor session; set persistence true"))
    else:
        out.append(Setting(True, f"persistence true ({persistence[1]})"))
    user = last.get("user", (DEFAULT_USER, ""))[0]
    location = last.get("persistence_location")
    if persistence[0] == "true":
        out += _location(location, user)
    queued = last.get("max_queued_messages", ("1000", "default"))
    try:
        depth = int(queued[0])
    except ValueError:
        depth = -1
    if depth != 0 and depth < QUEUE_MIN:
        out.append(Setting(None, f"max_queued_messages {queued[0]} ({queued[1]}): an offline dashboard's queue "
                                 f"drops alerts beyond it (the tables send them again, late); 0 or >= {QUEUE_MIN}"))
    else:
        out.append(Setting(True, f"max_queued_messages {queued[0]}"))
    out += _floor_users(last.get("password_file"), last.get("acl_file"))
    if listeners and clientid < listeners:
        out.append(Setting(None, f"use_username_as_clientid true on {clientid} of {listeners} listener(s): a "
                                 f"client may take another's id (docs/mosquitto/mosquitto.conf)"))
    return out


def _location(location: tuple[str, str] | None, user: str) -> list[Setting]:
    if location is None:
        return [Setting(False, "persistence_location is not set: mosquitto then writes mosquitto.db in whatever "
                               "directory it was started from; set it (e.g. /var/lib/mosquitto/)")]
    folder = Path(location[0])
    if not folder.is_dir():
        return [Setting(False, f"persistence_location {folder} ({location[1]}) does not exist: the broker cannot "
                               f"save its queue; create it, owned by {user}")]
    try:
        writable = _writable_by(folder, user)
    except KeyError:
        return [Setting(False, f"user {user} (the broker's) does not exist on this host; set `user` in the "
                               f"configuration or create the user")]
    if not writable:
        st = folder.stat()
        return [Setting(False, f"persistence_location {folder} is not writable by {user}, the user mosquitto runs "
                               f"as (owner uid {st.st_uid}, mode {st.st_mode & 0o777:o}); chown {user} {folder}")]
    saved = folder / "mosquitto.db"
    if saved.exists() and not os.access(saved, os.R_OK):
        return [Setting(False, f"{saved} cannot be read; check its owner")]
    return [Setting(True, f"persistence_location {folder} exists and {user} may write there")]


def _floor_users(passwords: tuple[str, str] | None, acl: tuple[str, str] | None) -> list[Setting]:
    """Every floor user (a name without a slash: tables are "<site>/<table>") of the password file has ACL lines
    of its own: mosquitto grants such a user's subscriptions and then delivers it nothing, in silence."""
    if passwords is None or acl is None:
        return []
    try:
        users = {line.split(":", 1)[0].strip() for line in Path(passwords[0]).read_text(errors="replace").splitlines()
                 if ":" in line and not line.lstrip().startswith("#")}
        granted: set[str] = set()
        current = None
        for line in Path(acl[0]).read_text(errors="replace").splitlines():
            option, _, value = line.strip().partition(" ")
            if option == "user":
                current = value.strip()
            elif option == "topic" and current is not None:
                granted.add(current)
    except OSError as e:
        return [Setting(None, f"{e.filename}: cannot read it ({e.strerror}) to check each floor user's ACL lines")]
    bare = sorted(u for u in users if u and "/" not in u and u not in granted)
    if not bare:
        return [Setting(True, f"every floor user of {passwords[0]} has ACL lines in {acl[0]}")]
    return [Setting(False, f"{', '.join(bare)}: in {passwords[0]} but no `user` block with topic lines in {acl[0]}; "
                           f"mosquitto accepts their subscriptions and delivers nothing (docs/mosquitto/acl)")]

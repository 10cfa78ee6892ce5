"""``dealerbox tournament``: the floor's tournament director where the dashboard is not built yet. Reads every
table's player count from the retained state topics, publishes balancing and breaking instructions to the
tables concerned, and runs the tournament clock on its retained clock topic.

    dealerbox tournament --tournament docs/tournament.demo.toml --site demo --host 10.0.0.5
    dealerbox tournament --tournament docs/tournament.demo.toml --level 3 --left 420 --paused --for 60
    dealerbox tournament --tournament docs/tournament.demo.toml --tls --ca-file ca.pem --port 8883
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import ssl
import sys
import threading
import time
import uuid
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from ..sinks.floor.contract import check_name, parse_topic
from ..sinks.floor.outbox import OutboxError
from ..sinks.floor.security import read_password
from ..tournament import config as tournament_config
from ..tournament.clock import Clock
from ..tournament.config import Tournament
from ..tournament.floor import Director, TournamentFloor
from .broker_options import add_broker_arguments, tls_settings, tool_username

log = logging.getLogger("dealerbox.tournament")
CLOCK_EVERY_S = 10.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tournament", "-t", required=True, metavar="FILE", help="the tournament's TOML file")
    parser.add_argument("--site", help="site of the tables (default: table.site from the config)")
    add_broker_arguments(parser, "the director's", tool="tournament")
    parser.add_argument("--name", default="tournament", help="this director's name in the instructions it sends")
    parser.add_argument("--level", type=int, default=1, help="start the clock at this level (default 1)")
    parser.add_argument("--left", type=float, metavar="SECONDS", help="time left in that level (default: all of it)")
    parser.add_argument("--paused", action="store_true", help="start with the clock paused")
    parser.add_argument("--for", dest="seconds", type=float, metavar="SECONDS", help="run this long, then exit")


class TournamentDesk:
    """The MQTT shell around a :class:`TournamentFloor`: one client, plans published QoS 1, the clock retained.
    The dashboard hosts the same TournamentFloor on its own connection (dealerbox/dashboard/tournaments.py)."""

    def __init__(self, floor: TournamentFloor, host: str, port: int, *, username: str | None = None,
                 password: str | None = None, tls: tuple[bool, str, str, str] = (False, "", "", "")) -> None:
        self.floor, self.host, self.port = floor, host, port
        self.director = floor.director
        self.lock = threading.Lock()
        self.connected = threading.Event()
        self._unacked: list[mqtt.MQTTMessageInfo] = []
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2,
                                  client_id=f"dealerbox-tournament-{self.director.boot[:8]}",
                                  protocol=mqtt.MQTTv5, reconnect_on_failure=True)
        if username:
            self.client.username_pw_set(username, password)
        use_tls, ca_file, cert_file, key_file = tls
        if use_tls:   # as the floor view does: the broker's certificate is checked against the CA
            for option, path in (("--ca-file", ca_file), ("--cert-file", cert_file), ("--key-file", key_file)):
                if path and not os.path.isfile(path):
                    raise ValueError(f"{option} {path}: no such file; give the floor's certificate files "
                                     f"(or floor.ca_file, floor.cert_file, floor.key_file in the config)")
            try:
                self.client.tls_set(ca_certs=ca_file or None, certfile=cert_file or None, keyfile=key_file or None,
                                    cert_reqs=ssl.CERT_REQUIRED)
            except (ssl.SSLError, OSError) as e:
                raise ValueError(f"--tls: cannot load the certificates ({e}); check --ca-file, --cert-file and "
                                 f"--key-file") from None
        self.client.reconnect_delay_set(0.1, 1.0)  # type: ignore[arg-type]  # paho takes float seconds; its hint says int
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message

    def start(self, timeout: float = 10.0) -> TournamentDesk:
        try:
            self.client.connect(self.host, self.port, keepalive=15)
        except OSError as e:
            raise ConnectionError(f"cannot reach the floor broker {self.host}:{self.port}: {e}") from None
        self.client.loop_start()
        if not self.connected.wait(timeout):
            self.stop()
            raise ConnectionError(f"floor broker {self.host}:{self.port} did not accept us within {timeout}s")
        return self

    def stop(self) -> None:
        # let the last QoS 1 messages reach the broker before the connection closes
        with self.lock:
            pending = list(self._unacked)
        for info in pending:
            if info.rc == mqtt.MQTT_ERR_SUCCESS and not info.is_published():
                try:
                    info.wait_for_publish(2.0)
                except (RuntimeError, ValueError):
                    break
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: object, reason: Any,
                    properties: object) -> None:
        if reason.is_failure:
            log.error("broker %s:%s refused the tournament director: %s", self.host, self.port, reason)
            return
        client.subscribe(f"dealerbox/{self.director.site}/+/state", qos=1)
        self.connected.set()

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        where = parse_topic(msg.topic)
        if where is None or where[2] != "state":
            return
        try:
            state = json.loads(msg.payload)
        except ValueError:
            state = None        # counted by the director as unreadable
        with self.lock:
            out = self.floor.observe(where[1], state, time.monotonic(), time.time())
        for topic, payload in out:
            self._publish(topic, payload, retain=False)

    def _publish(self, topic: str, payload: dict[str, Any], retain: bool) -> None:
        props = Properties(PacketTypes.PUBLISH)
        props.ContentType = "application/json"
        info = self.client.publish(topic, json.dumps(payload, separators=(",", ":")), qos=1, retain=retain,
                                   properties=props)
        with self.lock:         # the clock (main thread) and plans (paho's thread) both publish
            self._unacked = [i for i in self._unacked if not i.is_published()] + [info]
        if payload["kind"] == "tournament":     # the clock ticks every 10 s: not worth a line each
            print(f"{topic} {payload['instruction']} {json.dumps(payload['moves'])}", flush=True)

    def tick(self) -> None:
        """Publish the clock as it stands (retained)."""
        with self.lock:
            out = self.floor.clock_message(time.monotonic(), time.time())
        for topic, payload in out:
            self._publish(topic, payload, retain=True)


def starting_clock(t: Tournament, now: float, level: int = 1, left: float | None = None,
                   paused: bool = False) -> Clock:
    """The clock a floor starts with: level 1 from its start, or ``level`` with ``left`` seconds (ValueError for
    a level outside the schedule)."""
    clock = Clock.start(t, now, running=not paused)
    if level != 1 or left is not None:
        clock = clock.follow(now, level, left if left is not None else t.level(level).seconds, not paused)
    return clock


def run(args: argparse.Namespace) -> int:
    fc = args.cfg.floor
    t = tournament_config.load(args.tournament)     # a TournamentConfigError is printed by the CLI, exit 2
    try:
        site = check_name("--site", args.site or args.cfg.table.site)
        clock = starting_clock(t, time.monotonic(), args.level, args.left, args.paused)
        password = read_password(args.password_file) if args.password_file else None
        desk = TournamentDesk(TournamentFloor(Director(t, site, uuid.uuid4().hex, name=args.name), clock),
                              args.host or fc.host, args.port or fc.port, username=tool_username(args, "tournament"),
                              password=password, tls=tls_settings(args, fc)).start()
    except (ValueError, ConnectionError, OSError, OutboxError) as e:
        print(f"dealerbox tournament: {e}", file=sys.stderr)
        return 2
    print(f"tournament {t.id} ({t.name}) on {desk.host}:{desk.port}, reading dealerbox/{site}/+/state", flush=True)
    end = None if args.seconds is None else time.monotonic() + args.seconds
    try:
        while end is None or time.monotonic() < end:
            desk.tick()
            time.sleep(min(CLOCK_EVERY_S, max(0.0, (end or float("inf")) - time.monotonic())))
    finally:
        desk.stop()
        if desk.director.ignored:
            print(f"{desk.director.ignored} state message(s) could not be read", file=sys.stderr)
    return 0

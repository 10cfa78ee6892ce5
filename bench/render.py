"""Terminal: full-redraw time of the dealer's screen at each supported resolution (SDL dummy driver)."""

from __future__ import annotations

from dealerbox.config import Config

from . import states
from .common import Context, Figure, median, now_ns, percentile

RESOLUTIONS = ((800, 480), (1024, 600), (1280, 800))
TARGET_MS = 8.0


def run(ctx: Context) -> list[Figure]:
    from dealerbox.sinks.screen import Screen
    import pygame

    pygame.init()
    sim = states.simulated_updates(ctx.scale(6, 1))
    scenes = [(states.busy_state(), states.busy_health(), states.busy_events())]
    recent: list = []
    for events, state in sim:  # the screen as it was after each step of real hands
        recent = (recent + list(events))[-50:]
        scenes.append((state, states.busy_health(), list(recent)))
    rounds = ctx.scale(max(1, 600 // len(scenes)), 1)
    out = []
    for size in RESOLUTIONS:
        screen = Screen(Config(), size)
        for scene in scenes[:5]:  # warm up: fonts loaded, first-use caches filled
            screen.render(*scene)
        samples = []
        for _ in range(rounds):
            for scene in scenes:
                t0 = now_ns()
                screen.render(*scene)
                samples.append((now_ns() - t0) / 1e6)
        label = f"{size[0]}x{size[1]}"
        out.append(Figure("render", f"full redraw {label} median", median(samples), "ms"))
        out.append(Figure("render", f"full redraw {label} p99", percentile(samples, 99), "ms", TARGET_MS, "<",
                          note=f"{len(samples)} renders of {len(scenes)} states "
                               f"({'busy state + simulated hands' if sim else 'busy state only: no simulator yet'})"
                          if size == RESOLUTIONS[0] else ""))
    return out

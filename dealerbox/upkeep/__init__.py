"""Upkeep of a terminal left running for weeks: health figures, log retention, the systemd watchdog."""

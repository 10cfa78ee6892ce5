"""Sinks: everything that consumes table events (screen, panel, floor link, recorder). None makes a poker decision."""

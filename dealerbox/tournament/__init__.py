"""Tournament play: the configuration, the level clock and the pure rulings of RULES.md's Tournaments section.

Pure cores only (no I/O but reading the TOML file, no clock, no threads): the engine calls the rulings with
what the sensors saw, the floor command calls the seating plans with every table's count.
"""

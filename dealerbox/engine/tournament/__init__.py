"""A tournament table in the engine: who is dealt in (``entrants``), the chips that play and the chip race
(``chips``), the play rules (``play_rules``), the level clock (``levels``), the button draw and eliminations
(``seats``), the floor's moves (``moves``) and the catalogue's rows (``rows``). The rulings themselves are the
pure functions of ``dealerbox.tournament``, imported only when a tournament is played."""

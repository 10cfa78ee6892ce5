"""The cards as the engine follows them: where each card is (``ledger``), the deal against the sequence
(``deal``), one hand's card state (``hand``), the rulings before they are raised (``misdeal``), cards speaking
at the showdown (``showdown``), and the parts that read card movements (``flow``, ``board``)."""

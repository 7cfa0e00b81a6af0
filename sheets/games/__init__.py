"""Game plugins: game-specific generators that the generic core cannot express.

A game's `content/<game>/game.yaml` names its plugin (`plugin: <module>`) when
it needs one; games with only reference sheets, cards, trackers and tokens need
none.
"""

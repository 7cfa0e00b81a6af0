"""The soldier the Regiment tests share, Joe Kowalski, written as a player writes a character file:
who he is (`JOE_BASE`), then what play has done to him (`JOE_IN_PLAY`: wounds, stress, a condition),
then a campaign's worth (`JOE`: XP, gear and two improvements, the list last so that a test can
append one). Each test module varies these with `str.replace`, so a change to Joe is made once."""

JOE_BASE = """\
playbook: soldier
name: Joe Kowalski
rank: Cpl
profile: Bold
background: Farmer
stat_set: 1
moves: [Battle tested, Stone cold]
loadout: SMG
"""

JOE_IN_PLAY = JOE_BASE + """\
wounds: 3
stress: 1
conditions: [suppressed]
"""

JOE = JOE_IN_PLAY + """\
xp: 2
gear: 1
improvements:
  - +1 guts
  - Fight back
"""

"""Every limit the tool enforces, in one place.

Counts on the command line, numbers in content, YAML shapes and content
expressions all have a documented maximum: beyond it the tool stops with a
clear message before doing any work, instead of running for minutes or
eating gigabytes. The maxima are chosen so that the largest job of every
command finishes in under a minute on a 2-core machine in well under 1 GB
(measured numbers: see the closing note of issue 11 and `benchmarks/`).

This module imports nothing heavy: the CLI reads it to write `--help`.
"""
from __future__ import annotations

# -- command-line counts -----------------------------------------------------
MAX_SOLDIERS = 1_000    # sheets playbook --random --count N (stamped and streamed: 1,000 take ~6 s in ~200 MB)
MAX_MISSIONS_JSON = 10_000  # sheets mission --count N --json (pre-rolls only, no PDF: 1,000 in well under 1 s)
MAX_MISSIONS = 100      # sheets mission --count N (a campaign; laid out on every core, streamed: issue 12 benches 100)
MAX_CAMPAIGNS = 50      # campaign files handled in one command
MAX_TEAMS = 200         # sheets trackers --teams/--units N (rows of a tracker)
MAX_GROUPS = 50         # sheets trackers --soldiers/--groups N (groups of boxes per unit)
MAX_BOXES = 50          # sheets trackers --strength/--boxes N (boxes per group)
MAX_TRACKER_BOXES = 10_000  # units x groups x boxes of one tracker (every box is drawn)
MAX_CARD_COUNT = 100    # a card's `count` (copies of it in its deck)
MAX_COPIES = 50         # --copies N (cards, tokens; kit copies)
MAX_TOKENS = 2_000      # tokens on one token sheet (counts in content x --copies)
MAX_PLAYERS = 12        # --players N
MAX_SEED = 2**32 - 1    # --seed S (0 .. MAX_SEED)
MAX_STEP = 99           # --strike-step and other step numbers
MAX_CARD_DPI = 600      # sheets cards --export png --dpi (a 25-card half-page deck: ~37 s, ~430 MB; 1200 took 2 min, 1 GB)
MAX_CARD_PIXELS = 30_000_000  # one exported card image (a full-page card with bleed at 600 dpi: 29 million)
MAX_BLEED_MM = 10.0     # sheets cards --export png --bleed (print shops ask for 3 mm, 1/8 in)

# -- a campaign file (The Way of the Warrior): every string and count a command writes into it ------------
# Worst case with these maxima (every entry the longest it can be, every man's notes full) stays well under
# MAX_FILE_BYTES: a write that would pass it is refused (campaign_io.save), so no command locks a user out.
MAX_NAME = 60                # characters of a man's name (it is typed in commands and printed on the roster)
MAX_NOTES = 200              # characters of a man's notes (from the team file)
MAX_REASON = 200             # characters of an adjustment's reason
MAX_ENTRY_DICE = 500        # characters of one entry's scripted dice (a mission rolls a few dozen)
MAX_CAMPAIGN_ENTRIES = 1_000  # entries of one campaign file (a mission is two: rolled and debriefed)

# -- scripted dice -------------------------------------------------------------
MAX_DICE = 10_000       # entries in --dice
MAX_DIE_VALUE = 100     # a die result (the largest die the games roll is a d66)

# -- YAML ----------------------------------------------------------------------
MAX_FILE_BYTES = 4_000_000   # one YAML file
MAX_YAML_DEPTH = 50          # nested lists/mappings
MAX_YAML_NODES = 200_000     # values after aliases are expanded (billion laughs)

# -- a user's files ----------------------------------------------------------------
MAX_LOCK_WAIT = 20.0         # seconds a command waits while another changes the same file (then: busy)

# -- numbers in content ---------------------------------------------------------
MAX_NUMBER = 10**12          # any number in content or input files (sizes and counts have tighter bounds)
MAX_CARD_MM = 500.0          # card width / height
# the largest legal content of each kind prints within a minute in well under 1 GB (issue 50; measured by
# tests/library/test_content_limits.py): beyond each bound the work grew with the number unchecked
# (a 60,000-row table: 353 s, 4.2 GB; 100,000 rings: 207 s, 4.8 GB; a ruler ticked every 0.0000001: 6.6 GB)
MAX_FILE_TEXT = 200_000      # characters of text in one content file, every string together (the bundled
                             # largest: 40,197, Down Range's reference; 200,000 lay out as a 30-page
                             # reference in ~47 s and 150 MB at load 5; a 4 MB file of text would take ~15 min)
MAX_TABLE_ROWS = 400         # rows of one table: a reference's table block or a random table (a d66 has 36)
MAX_TABLE_COLUMNS = 12       # cells of a table's header and of each of its rows
MAX_GAUGES = 50              # drawings on one gauge sheet (each gauge times its copies)
MAX_GAUGE_TICKS = 500        # ticks of one ruler ((end - start) / minor; a ruler fits across a page: ~28 cm)
MAX_RINGS = 20               # rings of one circle or sector
MAX_GAUGE_MARKS = 20         # labelled marks of one gauge
MAX_ROLL_COUNT = 30          # the most a count rolls (then: {count}, a stage's count): 999+...+999 rolled 9,990 times
MAX_TRACK_STEPS = 100        # steps of the longest Mission Track a game's tables can roll (the bundled: 71)

# -- expressions in content (tracker summaries) -----------------------------------
MAX_EXPR_SOURCE = 2000       # characters of one expression
MAX_EXPR_OUTPUT = 2000       # characters it may produce
MAX_EXPR_RANGE = 1000        # items all range() calls of one expression may produce together
MAX_EXPR_BITS = 256          # bits of any integer it computes (about 77 digits)
MAX_EXPR_REPEAT = 1000       # length of a string or list made by repetition ("x" * n)
MAX_EXPR_LOOP_DEPTH = 2      # nested {% for %} loops
MAX_EXPR_STEPS = 10_000      # loop iterations of one expression, over every loop and iterable together
MAX_EXPR_SECONDS = 2.0       # wall time of one expression: a backstop behind the counted bounds above


def help_range(low: int, high: int) -> str:
    """' (1-40)' for option help texts."""
    return f" ({low}-{high:,})".replace(",", " ")

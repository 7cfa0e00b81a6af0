"""The reference: a game's reference.yaml and its plug-in's reference pages, as one sheet (`builder.py`)."""
from sheets.kinds.kind import Kind
from sheets.kinds.reference.builder import has_reference, reference_sheet
from sheets.library.kinds import reference

KIND = Kind("reference", "the game's reference sheet", ("reference.html.j2",), "reference",
            content=reference.CONTENT, present=has_reference,
            make=lambda lib, game, options, _: [reference_sheet(game, options.paper)],
            listed=lambda game: "reference", kit_rank=0,
            command="A game's reference sheets (moves, tables, rules summaries).")

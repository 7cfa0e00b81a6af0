"""Gauges: true-scale templates and rulers with a check bar (`builder.py` the sheet; the content is
`sheets.library.kinds.gauges`)."""
from sheets.kinds.gauges.builder import gauge_sheet
from sheets.kinds.kind import Kind
from sheets.library.kinds import gauges

KIND = Kind("gauges", "the game's true-scale templates and rulers", ("gauges.html.j2",), "gauges",
            content=gauges.CONTENT, present=lambda game: game.content["gauges"] is not None,
            make=lambda lib, game, options, _: [gauge_sheet(game, options.paper)],
            listed=lambda game: "gauges", kit_rank=4,
            command="True-scale templates and rulers (blast circles, fans, range rulers) with a check bar.", ink=False)

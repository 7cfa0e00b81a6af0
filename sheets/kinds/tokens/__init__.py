"""Tokens: counters and markers cut from a sheet (`builder.py` the sheet; the content is
`sheets.library.kinds.tokens`)."""
from sheets.kinds.kind import Kind
from sheets.kinds.tokens.builder import token_sheet
from sheets.library.kinds import tokens

KIND = Kind("tokens", "the game's token sheet", ("tokens.html.j2",), "tokens",
            content=tokens.CONTENT, present=lambda game: game.content["tokens"] is not None,
            make=lambda lib, game, options, _: [token_sheet(game, options.paper, large_print=options.large_print)],
            listed=lambda game: "tokens", kit_rank=3)

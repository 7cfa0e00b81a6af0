"""Cards: a card set rendered one card per page, checked for overflow, imposed n-up.

1. Render (`builder.py`). Every card of a set becomes one PDF page of exactly its card
   size plus bleed (`card.html.j2`, one HTML document per set, so WeasyPrint loads the
   fonts once). Backs, when asked for, follow the fronts in the same document.
2. Pre-flight (`impose.py`). A card whose text does not fit runs onto a second page.
   Each card carries an anchor id, which WeasyPrint writes as a named destination, so
   the page each card starts on tells which card ran over; that is an error naming the
   card, never a card silently cut off.
3. Impose (`impose.py`, geometry in `grid.py`). Each card page becomes a Form XObject
   that paper pages place with a `cm` matrix computed from the layout (`CardGrid`),
   then crop marks are drawn as plain PDF paths outside the cut lines. With backs, a
   back page follows each front page, laid out so that duplex printing puts card k's
   back behind card k.

4. Export (`export.py`, `sheets cards GAME --export png`): for a print shop, the same card
   document laid out 1-up with bleed and a safe zone, pre-flighted, and rasterised with
   PDFium into one PNG per card face instead of imposed.

Steps 2 and 3 are the sheet's `finish` step (see sheets/pipeline/sheet.py): they run on
WeasyPrint's PDF in the same worker, are deterministic, and take part in the cache key.
The model (card sets, sizes, layouts, papers) is `model.py`.
"""

"""Every PDF the tool writes, as PDF: objects, streams, structure, fonts, forms, repairs.

`stream` (a PDF written object by object to disk, bounded memory), `tagged` (a stamped file
tagged as it is streamed), `marking` (a stamped page's content marked for the structure tree),
`carried` (a page's tags carried into a form XObject), `finish` (the last pass: structure
tree, /Lang, XMP, print boxes), `ua` (PDF/UA-1 repairs), `spacing` (letter-spaced runs as
words), `fonts` (fonts embedded, subsets tagged by content), `forms` (a fillable sheet's
AcroForm), `merge` (finished PDFs merged with qpdf, structure trees and all).

Knows bytes, objects and pages, not sheets: nothing here renders HTML, lays out or stamps.

May import: `sheets.base`, and third-party packages.
"""

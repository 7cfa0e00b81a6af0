"""The print-and-play kit (`sheets kit`): its plan, build, result, contents page and merge.

`request` answers a kit request: from the up-to-date record (`uptodate`) without loading
the pipeline, or by building (`build`, imported only then). `result` is what a build
made; `assemble` writes the contents page, manifest.json, kit.pdf and the packets.

May import: `sheets.base`, `sheets.library`, `sheets.pipeline`, `sheets.kinds`.
"""

"""The base layer: what every other layer stands on, and which imports nothing above it.

Located errors (`errors`), the limits on what a user may ask for (`limits`), where things
live (`paths`), the one table of papers (`paper`), what every printable takes (`options`:
PrintOptions, KitOptions), atomic writes (`output`), a user's own files (`userfiles`: read only when
they are regular files, bounded; one writer at a time), sheets.toml (`config`), the one injected dice
object (`dice`), number formats, colours, Ctrl-C handling (`interrupts`), the bundled fonts
(`fonts`, the files in `fonts/`) and the installed ones (`fontdirs`), and what WeasyPrint laid out
(`overflow`; its boxes reached in one place, `weasyboxes`).

May import: the standard library and third-party packages only, and other `sheets.base` modules.
"""

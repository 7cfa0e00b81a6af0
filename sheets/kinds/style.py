"""A theme as the CSS every template reads: custom properties on :root (the type scale, headings,
casing, spacing, colours, the title face) and the header band naming the game on every page.

A builder puts `style.of(game)` (or, for the kit's contents page, `style.of_library(library)`)
into its sheet's context; base.html.j2 writes it before the shared stylesheet, and every size,
colour and face there and in the kinds' templates is a `var(--...)` of it. The large-print
edition is the same properties raised to one floor under `html.large-print` (`large_print`
sets the class on a command's sheets, as `ink_save` sets ink-saver), so nothing else changes
between the two but the sizes and the palette.
"""
from __future__ import annotations

from markupsafe import Markup

from sheets.base import colors, fonts
from sheets.library import assets
from sheets.library.kinds.theme import DEFAULT_LOOK, BaseTheme, Neutrals, Theme
from sheets.pipeline import rendering
from sheets.pipeline.sheet import Sheet

#: the CSS family of a game's own title face (a name no installed font has)
OWN_FACE = "Sheets Game Face"

#: large print: the heading scale grows by this much over the floor, so headings stay headings
LARGE_HEADING_STEPS = {"title": 1.6, "section": 1.3, "block": 1.12, "card-title": 1.25}


def _string(text: str) -> str:
    """`text` as a CSS string (quoted, its quotes and backslashes escaped)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def _colours(c: Neutrals, accent: str, frame: str, back: str) -> list[str]:
    return [f"--ink: {c.ink}", f"--paper: {c.paper}", f"--note-ink: {c.note}", f"--footer-ink: {c.footer}",
            f"--soft-ink: {c.soft}", f"--rule-ink: {c.rule}", f"--head-fill: {c.head_fill}",
            f"--on-head-fill: {colors.text_on(c.head_fill)}",
            f"--accent: {accent}", f"--on-accent: {colors.text_on(accent)}",
            f"--frame: {frame}", f"--back: {back}", f"--on-back: {colors.text_on(back)}"]


def _face(theme: Theme | None) -> tuple[str, str]:
    """The title face's CSS family and weight: a bundled face, or the game's own (set as it is drawn)."""
    look = theme.look if theme else DEFAULT_LOOK
    if theme is not None and theme.own_face is not None:
        return OWN_FACE, "normal"
    return fonts.TITLE_FACES[look.title_face]


def _band_min(theme: Theme | None) -> float:
    """The header band's smallest size for the title face (fonts.BAND_MIN_PT; 0: the play size)."""
    if theme is None or theme.own_face is not None:
        return 0.0
    return fonts.BAND_MIN_PT.get(theme.look.title_face, 0.0)


def _root(base: BaseTheme, theme: Theme | None) -> list[str]:
    family, weight = _face(theme)
    look = theme.look if theme else DEFAULT_LOOK
    t, h, s = base.type, base.headings, base.spacing
    props = [f"--play-pt: {t.play.size_pt}pt", f"--play-floor: {t.play.floor_pt}pt",
             f"--note-pt: {t.note.size_pt}pt", f"--note-floor: {t.note.floor_pt}pt",
             f"--footer-pt: {t.footer.size_pt}pt", f"--footer-floor: {t.footer.floor_pt}pt",
             f"--title-pt: {h.title_pt}pt", f"--section-pt: {h.section_pt}pt", f"--block-pt: {h.block_pt}pt",
             f"--card-title-pt: {h.card_title_pt}pt", f"--casing: {base.casing.replace('as-written', 'none')}",
             f"--space-xs: {s.xs_mm}mm", f"--space-s: {s.s_mm}mm", f"--space-m: {s.m_mm}mm", f"--space-l: {s.l_mm}mm",
             f"--hair: {s.hair_pt}pt", f"--rule: {s.rule_pt}pt", f"--heavy: {s.heavy_pt}pt",
             f'--title-face: "{family}", "{fonts.CONDENSED}", "{fonts.SANS}", sans-serif', f"--title-weight: {weight}",
             f"--band-pt: {max(t.play.size_pt, _band_min(theme))}pt"]
    frame, back = (theme.frame, theme.back) if theme else (look.accent, look.accent)
    return props + _colours(base.colours, look.accent, frame, back)


def _large(base: BaseTheme) -> list[str]:
    """The large-print edition's properties: every role at the one floor, headings a step over it,
    black on white (the accent's fills too: the most contrast a page can have)."""
    floor = base.large_print.floor_pt
    props = [f"--{role}-{what}: {floor}pt" for role in ("play", "note", "footer") for what in ("pt", "floor")]
    props.append(f"--band-pt: {floor}pt")
    props += [f"--{name}-pt: {round(floor * step, 2)}pt" for name, step in LARGE_HEADING_STEPS.items()]
    c = base.large_print.colours
    return props + _colours(c, c.ink, c.ink, c.ink)


def css(base: BaseTheme, theme: Theme | None, band: str | None) -> Markup:
    """The theme's CSS: the title face, the properties, the large-print edition, the header band."""
    family, _ = _face(theme)
    if theme is not None and theme.own_face is not None:
        face = f'@font-face {{ font-family: "{OWN_FACE}"; src: url("{assets.uri_of(theme.own_face, "fonts")}"); }}\n'
    else:
        face = fonts.font_face_css(family) if family not in fonts.FAMILIES else ""
    parts = [face,
             ":root { " + "; ".join(_root(base, theme)) + "; }\n",
             "html.large-print { " + "; ".join(_large(base)) + "; }\n"]
    if band:
        # the header band: the game's name in its face over an accent rule, in the top margin
        # (its ink 5.5 mm and more from the paper's edge: printers cannot reach closer; line-height 1,
        # for a hand-lettered face's tall strokes reach above the line box's usual half-leading)
        parts.append("@page { @top-left { content: " + _string(band) + "; font-family: var(--title-face); "
                     "font-weight: var(--title-weight); font-size: var(--band-pt); color: var(--accent); "
                     "width: 100%; vertical-align: bottom; line-height: 1; padding-bottom: 0.8mm; border-bottom: var(--rule) solid var(--accent); } }\n")
    return Markup("".join(parts))


def of(game, band: bool = True) -> dict:
    """The context a game's sheet takes its look from (`theme_css`); `band=False`: no header band
    in the page margin (cards and tokens draw their own)."""
    theme: Theme = game.content["theme"]  # the base theme always loads (a homebrew folder: the bundled one)
    icons = assets.icon_names(game.folder)
    # an icon in running text is set at the text's size, on its baseline (only a game with icons has the rule)
    icon_css = "img.icon { height: 1em; width: auto; vertical-align: -0.15em; }\n" if icons else ""
    return {"theme_css": css(theme.base, theme, theme.band if band else None) + Markup(icon_css),
            **stamp_floors(theme.base),
            # the words the header band prints above every page ("" without one): a page's own head
            # need not name the game again
            "band_title": theme.band if band else "",
            # the game's own templates/ come before the bundled ones; its icons/ may stand in any text
            rendering.OWN_TEMPLATES: assets.own_templates(game.folder),
            rendering.INLINE_ICONS: {name: assets.data_uri(game.folder, "icons", file) for name, file in icons.items()}}


def frame_of(game) -> str:
    """The game's card frame colour (its accent without a theme of its own)."""
    theme: Theme | None = game.content.get("theme")
    return theme.frame if theme else DEFAULT_LOOK.accent


def back_of(game) -> str:
    """The game's card back colour (its accent without a theme of its own)."""
    theme: Theme | None = game.content.get("theme")
    return theme.back if theme else DEFAULT_LOOK.accent


def band_of(game) -> str:
    """The words of the game's header band."""
    theme: Theme | None = game.content.get("theme")
    return theme.band if theme else game.info.title


def of_library(library) -> dict:
    """The kit's own pages (its contents): the base theme, no game's band."""
    return {"theme_css": css(library.theme(), None, None), **stamp_floors(library.theme())}


def stamp_floors(base: BaseTheme) -> dict:
    """The smallest type the stamper may shrink a value to in the large-print edition (base.html.j2
    writes it on <html> as `data-stamp-floor`): its floor, as every laid-out text. A value that
    does not fit at it grows its box or is laid out in full, reflowed at 12 pt as the rest. (On a
    standard page the stamper keeps its own floor, colors.MIN_SHEET_PT: at the play floor the
    fullest Letter fronts would run onto a second page, parting each from its play aid.)"""
    return {"stamp_floor_large_pt": base.large_print.floor_pt}


def large_print(sheets: list[Sheet], on: bool = True) -> list[Sheet]:
    """The large-print edition: the class on <html> that raises every role to its floor; a card
    whose text then runs over its card continues on the next (the finish step's `reflowed`)."""
    if on:
        for sheet in sheets:
            for one in [sheet, *(s for pair in sheet.parts or [] for s in pair if s is not None)]:
                one.context["large_print"] = True
                one.html = None
            reflowed = getattr(sheet.finish, "reflowed", None)
            if reflowed is not None:
                sheet.finish = reflowed()
    return sheets


def made(kind, lib, game, options, which) -> list[Sheet]:
    """A kind's sheets, each with the game's look (`of`) unless its builder gave its own: a new
    kind's template extends base.html.j2, which reads `theme_css`, without its author passing it."""
    sheets = kind.make(lib, game, options, which)
    for sheet in sheets:
        if "theme_css" not in sheet.context:  # a builder that gave its own look keeps it whole
            sheet.context.update(of(game))
    return sheets

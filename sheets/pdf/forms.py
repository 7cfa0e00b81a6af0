"""A fillable sheet's AcroForm made to keep what the player types, in every reader.

WeasyPrint writes one form field per `<input>`, named as the input; this rewrites what
readers disagree on (ISO 32000-1 §12.7):
  - names: an input named `c0.rank.Pfc` becomes the field `Pfc` under `rank` under `c0`
    (a real field tree: no period in a partial name). A name that is a field and also
    the parent of others (`c0.rank` beside `c0.rank.Pfc`) becomes a kid of its own
    group, named by its kind (`c0.rank.text`, `c0.imp.basic.1.box`): a parent never holds a value;
  - text fields: an appearance stream (/AP /N) of the value in the field's font, which
    WeasyPrint embeds whole (not subset) for form fields and lists in the form's /DR; a
    /DA of colour and font only (no `gs`, which a DA may not hold); no /NeedAppearances.
    With `autosize` (a stamped sheet's fields, each one line's box on its printed line), a
    one-line field's /DA size is 0: a filler that writes its own appearance (pypdf, MuPDF,
    PDF.js) fits the text to the field, the sheet's size for a short entry, smaller for a long
    one, never cut; the appearance written here fits it the same way;
  - check boxes: a /Yes appearance (the tick, vector paths: no font to find) and an /Off one
    (nothing), the tick as the caption (/MK /CA) in the same embedded font, for a reader that
    draws its own; no border (/BS /W 0, no /MK /BC), so that a filler that redraws the box
    (MuPDF) draws no frame over the printed one;
  - radio fields (`radios`: a widget's name -> its choice's field and its own choice): the
    boxes of one choice (a rank, a stat set) become the kids of one field with the radio
    flags (ISO 32000-1 12.7.4.2.4: radio, no toggle to off), each kid's on-state named by its
    choice, the field's /V the chosen one: ticking one unticks the others in every filler.
    A choice named as a text field is (`c0.rank`) is the field `choice` under it (`c0.rank.choice`);
  - tooltips (/TU): the input's `title` (the label a player sees); an input without one
    gets its name in words, never the internal name itself;
  - tab order: each page's /Tabs is /S (the fields' order, which is the page's).
"""
from __future__ import annotations

import io
import re

from sheets.pdf.cmap import cmap_codes

KEY = "forms-4"  # joins a fillable sheet's cache key: raise it when this changes its output

_DA_FONT = re.compile(r"/(\S+)\s+([\d.]+)\s+Tf")
_DA_COLOR = re.compile(r"((?:[\d.]+\s+){1,4}(?:rg|g|k))\b")
TICK = "\u2714"  # the caption a reader draws in a ticked box (in the DA font)
PAD = 1.0  # pt between a text field's edge and its text
RADIO = 1 << 15  # /Ff: a radio button field (ISO 32000-1 table 226)
NO_TOGGLE_TO_OFF = 1 << 14  # /Ff: one of a choice stays chosen (clicking it again does nothing)


def _fmt(x: float) -> str:
    s = f"{x:.3f}".rstrip("0").rstrip(".")
    return s if s not in ("-0", "") else "0"


class _Font:
    """What an appearance needs of a Type0 (Identity-H) font: code per character, widths."""

    def __init__(self, font) -> None:
        self.codes: dict[str, int] = {}
        for code, text in (cmap_codes(font.ToUnicode.read_bytes()) if "/ToUnicode" in font else {}).items():
            self.codes.setdefault(text, code)  # a character drawn by several codes: the first
        cid = font.DescendantFonts[0]
        self.default = float(cid.get("/DW", 1000))
        self.widths: dict[int, float] = {}
        w = list(cid.get("/W", []))
        i = 0
        while i < len(w):
            first = int(w[i])
            if i + 1 < len(w) and hasattr(w[i + 1], "__len__") and not isinstance(w[i + 1], (int, float)):
                for j, v in enumerate(w[i + 1]):
                    self.widths[first + j] = float(v)
                i += 2
            else:
                for c in range(first, int(w[i + 1]) + 1):
                    self.widths[c] = float(w[i + 2])
                i += 3
        desc = cid.FontDescriptor
        self.ascent, self.descent = float(desc.get("/Ascent", 800)), float(desc.get("/Descent", -200))
        self.descriptor = desc

    def encode(self, text: str) -> tuple[bytes, float]:
        """Identity-H codes of `text` (characters the font lacks left out), and its width per pt."""
        codes = [self.codes[ch] for ch in text if ch in self.codes]
        return b"".join(c.to_bytes(2, "big") for c in codes), sum(self.widths.get(c, self.default) for c in codes) / 1000


def _true_box(font: _Font) -> None:
    """The font's /FontBBox made its glyphs' box (the embedded TTF's `head`): WeasyPrint writes
    the ascent and descent there, and pypdf sizes an auto-sized entry to the field's height
    over that box's height and centres it by the ascent alone, so that with WeasyPrint's box
    every descender of a short entry fell below the field (clipped)."""
    from fontTools.ttLib import TTFont  # noqa: PLC0415 - the stamper's side only
    import pikepdf  # noqa: PLC0415

    desc = font.descriptor
    if "/FontFile2" not in desc:
        return
    head = TTFont(io.BytesIO(desc.FontFile2.read_bytes()), lazy=True)["head"]
    scale = 1000 / head.unitsPerEm
    desc.FontBBox = pikepdf.Array([round(v * scale) for v in (head.xMin, head.yMin, head.xMax, head.yMax)])


def _human(name: str) -> str:
    """A field's name in words, for a tooltip no template gave: "c0.wounds.6" -> "Wounds 6"."""
    parts = [p for p in name.split(".") if not re.fullmatch(r"c\d+", p)] or [name]
    words = " ".join(parts).replace("_", " ").replace("-", " ")
    return words[:1].upper() + words[1:]


def _tree(names: list[str]) -> list[list[str]]:
    """Each field's partial names, from the root down: no period in any, no value on a parent."""
    parents = {n.rsplit(".", 1)[0] for n in names if "." in n}
    parents |= {p for n in parents for p in _prefixes(n)}
    paths, seen = [], set()
    for name in names:
        path = name.split(".")
        if name in parents:
            path.append("")  # its own kid, named by its kind below
        key = tuple(path)
        n = 2
        while key in seen:  # the same name twice: a second field beside the first
            key = (*path[:-1], f"{path[-1]}{n}")
            n += 1
        seen.add(key)
        paths.append(list(key))
    return paths


def _prefixes(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _text_appearance(pdf, field, fonts: dict, dr_fonts, autosize: bool = False) -> None:
    import pikepdf  # noqa: PLC0415 - the stamper's side only

    da = str(field.get("/DA", ""))
    found = _DA_FONT.search(da)
    color = _DA_COLOR.search(da)
    x0, y0, x1, y1 = (float(v) for v in field.Rect)
    w, h = abs(x1 - x0), abs(y1 - y0)
    font_name = found.group(1) if found else None
    size = float(found.group(2)) if found else 9.0
    colour = color.group(1) if color else "0 g"
    multiline = int(field.get("/Ff", 0)) & 4096
    da_size = 0.0 if autosize and not multiline else size  # 0: auto (ISO 32000-1 12.7.3.3)
    field.DA = pikepdf.String(f"{colour} /{font_name} {_fmt(da_size)} Tf" if font_name else colour)
    field.BS = pikepdf.Dictionary(W=0, S=pikepdf.Name.S)  # no frame: the printed line is the field's
    value = str(field.get("/V", ""))
    body = ""
    resources = pikepdf.Dictionary()
    if font_name and font_name in fonts:
        font = fonts[font_name]
        resources = pikepdf.Dictionary(Font=pikepdf.Dictionary({f"/{font_name}": dr_fonts[f"/{font_name}"]}))
        if value:
            body = _text_body(font, font_name, value, size, colour, w, h, multiline, int(field.get("/Q", 0)))
    stream = pikepdf.Stream(pdf, f"/Tx BMC\n{body}EMC\n".encode())
    stream.Type, stream.Subtype = pikepdf.Name.XObject, pikepdf.Name.Form
    stream.BBox = pikepdf.Array([0, 0, w, h])
    stream.Resources = resources
    field.AP = pikepdf.Dictionary(N=pdf.make_indirect(stream))


def _lines(font: _Font, text: str, size: float, room: float) -> list[str]:
    """`text` broken at spaces (and its own line breaks) into lines no wider than `room`."""
    lines: list[str] = []
    for para in text.splitlines() or [""]:
        line = ""
        for word in para.split(" "):
            trial = f"{line} {word}" if line else word
            if line and font.encode(trial)[1] * size > room:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def _text_body(font: _Font, font_name: str, value: str, size: float, colour: str, w: float, h: float,
               multiline: int, quadding: int) -> str:
    """The appearance's text: one line, its baseline where pypdf puts it (shrunk to fit its width), or,
    for a multiline field, lines from the top; placed left, centred (/Q 1) or right (/Q 2)."""
    room = max(w - 2 * PAD, 1.0)
    asc = font.ascent * size / 1000
    if multiline:
        lines, top = _lines(font, value, size, room), h - PAD - asc
    else:
        per_pt = font.encode(value)[1]
        if per_pt * size > room:  # shrunk to fit, whole: never cut
            size = room / per_pt
            asc = font.ascent * size / 1000
        lines, top = [value], (h - asc) / 2  # the baseline where pypdf puts it (widgets.line_box)
    out, leading = [], size * 1.2
    for i, line in enumerate(lines):
        codes, per_pt = font.encode(line)
        x = PAD + (room - per_pt * size) / (2 if quadding == 1 else 1) if quadding in (1, 2) else PAD
        out.append(f"q BT {colour} /{font_name} {_fmt(size)} Tf {_fmt(x)} {_fmt(top - i * leading)} Td "
                   f"<{codes.hex()}> Tj ET Q\n")
    return "".join(out)


def _box_appearance(pdf, field, caption_da: str | None, state: str = "Yes") -> None:
    """A check box's (or a radio button's) two appearances: `state` (the tick) and /Off."""
    import pikepdf  # noqa: PLC0415

    normal = field.get("/AP", pikepdf.Dictionary()).get("/N", pikepdf.Dictionary())
    on = next((normal[k] for k in normal.keys() if k != "/Off"), None)
    x0, y0, x1, y1 = (float(v) for v in field.Rect)
    off = pikepdf.Stream(pdf, b"")
    off.Type, off.Subtype = pikepdf.Name.XObject, pikepdf.Name.Form
    off.BBox = pikepdf.Array([0, 0, abs(x1 - x0), abs(y1 - y0)])
    states = pikepdf.Dictionary(Off=pdf.make_indirect(off))
    name = pikepdf.Name("/" + state)
    if on is not None:
        states[name] = on
    field.AP = pikepdf.Dictionary(N=states)
    ticked = str(field.get("/AS", "/Off")) != "/Off"
    field.AS = field.V = name if ticked else pikepdf.Name.Off  # a radio button's /V goes to its field
    mk = field.get("/MK", pikepdf.Dictionary())
    mk.CA = pikepdf.String(TICK)
    if "/BC" in mk:
        del mk["/BC"]  # no frame of the widget's own: a filler that redraws the box (MuPDF) strokes none
    field.MK = mk
    field.BS = pikepdf.Dictionary(W=0, S=pikepdf.Name.S)
    if caption_da:
        field.DA = pikepdf.String(caption_da)


def _radio(pdf, kids: list, label: str, caption_da: str | None):
    """One radio field over the widgets of a choice (`kids`: (widget, its choice) in the page's
    order); the widgets become its kids (no name, type or value of their own)."""
    import pikepdf  # noqa: PLC0415

    field = pdf.make_indirect(pikepdf.Dictionary(FT=pikepdf.Name.Btn, Ff=RADIO | NO_TOGGLE_TO_OFF,
                                                 TU=pikepdf.String(label), Kids=pikepdf.Array()))
    chosen = pikepdf.Name.Off
    for widget, choice in kids:
        _box_appearance(pdf, widget, caption_da, choice)
        if widget.AS != pikepdf.Name.Off:
            chosen = widget.AS
        for key in ("/T", "/FT", "/Ff", "/V", "/TU"):
            if key in widget:
                del widget[key]
        widget.Parent = field
        field.Kids.append(widget)
    field.V = chosen
    if caption_da:
        field.DA = pikepdf.String(caption_da)
    return field


def _fields(widgets: list, radios: dict[str, tuple[str, str]]) -> tuple[list, list[str]]:
    """The form's terminal fields, each with its full name: each widget its own field, but the
    boxes of a choice a list (of (widget, choice)), to be one radio field."""
    plain = {str(w.T) for w in widgets if str(w.T) not in radios}
    fields: list = []
    names: list[str] = []
    groups: dict[str, list] = {}
    for widget in widgets:
        name = str(widget.T)
        if name not in radios:
            fields.append(widget)
            names.append(name)
            continue
        group, choice = radios[name]
        if group not in groups:
            groups[group] = []
            fields.append(groups[group])
            taken = group in plain or any(n.startswith(group + ".") for n in plain)
            names.append(f"{group}.choice" if taken else group)
        groups[group].append((widget, choice))
    return fields, names


def _field_tree(pdf, widgets: list, radios: dict[str, tuple[str, str]], caption_da: str | None):
    """The form's /Fields: the terminal fields (`_fields`) under the groups their names make."""
    import pikepdf  # noqa: PLC0415

    fields, names = _fields(widgets, radios)
    nodes: dict[tuple, pikepdf.Dictionary] = {}
    roots = pikepdf.Array()
    for item, name, path in zip(fields, names, _tree(names)):
        if isinstance(item, list):
            tips = [str(w.get("/TU", "")) for w, _ in item]
            label = tips[0].split(":")[0].strip() if tips and ":" in tips[0] else _human(name)
            widget = _radio(pdf, item, label, caption_da)
        else:
            widget = item
        if path[-1] == "":
            path[-1] = "box" if widget.get("/FT") == "/Btn" else "text"
        parent = None
        for depth in range(1, len(path)):
            key = tuple(path[:depth])
            node = nodes.get(key)
            if node is None:
                node = nodes[key] = pdf.make_indirect(pikepdf.Dictionary(T=pikepdf.String(path[depth - 1]),
                                                                           Kids=pikepdf.Array()))
                if parent is None:
                    roots.append(node)
                else:
                    node.Parent = parent
                    parent.Kids.append(node)
            parent = node
        widget.T = pikepdf.String(path[-1])
        if parent is None:
            roots.append(widget)
        else:
            widget.Parent = parent
            parent.Kids.append(widget)
    return roots


def finish_form(pdf_bytes: bytes, radios: dict[str, tuple[str, str]] | None = None, autosize: bool = False) -> bytes:
    """WeasyPrint's fillable PDF with the form rewritten as the module says (deterministic).
    `radios`: a check box's name -> (the name of the choice it is one of, its own choice);
    `autosize`: one-line text fields auto-sized (a stamped sheet's, each one printed line's box)."""
    import pikepdf  # noqa: PLC0415

    radios = radios or {}
    pdf = pikepdf.open(io.BytesIO(pdf_bytes))
    form = pdf.Root.get("/AcroForm")
    if form is None or not len(form.get("/Fields", [])):
        return pdf_bytes
    widgets = list(form.Fields)
    dr_fonts = form.DR.Font if "/DR" in form and "/Font" in form.DR else pikepdf.Dictionary()
    fonts = {str(k)[1:]: _Font(v) for k, v in dr_fonts.items() if v.get("/Subtype") == "/Type0"}
    if autosize:
        for font in fonts.values():
            _true_box(font)
    text_font = next((found.group(1) for w in widgets
                      if "/DA" in w and (found := _DA_FONT.search(str(w.DA)))), None)
    caption_da = f"0 g /{text_font} 0 Tf" if text_font else None
    for widget in widgets:  # tooltips and appearances, while each widget is its own field
        name = str(widget.T)
        if str(widget.get("/TU", name)) == name:
            widget.TU = pikepdf.String(_human(name))
        if widget.get("/FT") == "/Btn":
            if name not in radios:
                _box_appearance(pdf, widget, caption_da)
        else:
            _text_appearance(pdf, widget, fonts, dr_fonts, autosize)
    form.Fields = _field_tree(pdf, widgets, radios, caption_da)
    if "/NeedAppearances" in form:
        del form.NeedAppearances
    if text_font:  # the form's resources: the (whole, embedded) fonts the fields name, and only those
        used = sorted({m.group(1) for w in widgets if (m := _DA_FONT.search(str(w.get("/DA", ""))))})
        form.DA = pikepdf.String(f"0 g /{text_font} 0 Tf")
        form.DR = pikepdf.Dictionary(Font=pikepdf.Dictionary({f"/{k}": dr_fonts[f"/{k}"] for k in used
                                                              if f"/{k}" in dr_fonts}))
    for page in pdf.pages:
        if "/Annots" in page.obj:
            page.obj.Tabs = pikepdf.Name.S
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return out.getvalue()

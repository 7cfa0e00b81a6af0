"""CMYK only, for a print shop's PDF/X-1a (see shop_pdf.py): every colour a page or form sets is
made CMYK through the palette (content/_print/palette.yaml), and everything else in the file is
checked: no RGB or ICC colour space, no RGB image, no transparency, no fill or stroke over the
shop's total ink. What cannot be made right is an error naming it.

A grey (R = G = B) the palette does not list is black ink only (K = 1 - grey): black text is K.
"""
from __future__ import annotations

from sheets.base import interrupts
from sheets.base.errors import SheetsError

with interrupts.held():
    import pikepdf
    from pikepdf import Name, Operator

PALETTE_FILE = "content/_print/palette.yaml"
_SET = {"rg": "k", "RG": "K", "g": "k", "G": "K"}
_DEVICE = {"/DeviceCMYK": 4, "/DeviceGray": 1}
_CMYK = Name.DeviceCMYK


class _Walk:
    """One pass over a file's content streams and resources."""

    def __init__(self, palette: dict, ink_limit: float | None, palette_file: str = PALETTE_FILE):
        self.palette = palette
        self.palette_file = palette_file
        self.limit = ink_limit
        self.seen: set = set()
        self.most = 0.0  # the most ink any colour uses (per cent)
        self.used: set[str] = set()  # colour spaces of the resources a content stream names
        self.forms: list = []  # forms and tiling patterns, converted, checked after every stream is read

    def cmyk(self, values: list[float]) -> list[float]:
        """An RGB (3 values) or grey (1 value) colour as CMYK, through the palette."""
        if len(values) == 1:
            return [0.0, 0.0, 0.0, round(1 - values[0], 4)]
        key = tuple(round(v * 255) for v in values)
        if key in self.palette:
            return list(self.palette[key])
        if max(key) - min(key) <= 1:
            return [0.0, 0.0, 0.0, round(1 - sum(values) / 3, 4)]
        hex_colour = "#{:02x}{:02x}{:02x}".format(*key)
        raise SheetsError(f"colour {hex_colour} is not in {self.palette_file}: add it with its CMYK, for instance "
                          f"`my-colour: {{rgb: \"{hex_colour}\", cmyk: {list(plain_separation(key))}}}` (its plain "
                          f"separation; a theme's, a card's and an icon's colours count as the templates' do)")

    def ink(self, values: list[float], where: str) -> None:
        total = round(sum(values) * 100, 2)
        self.most = max(self.most, total)
        if self.limit is not None and total > self.limit + 0.01:
            raise SheetsError(f"{where}: a colour of {total:g} % total ink; the shop takes at most "
                              f"{self.limit:g} % (make its CMYK in {self.palette_file} lighter)")

    def ops(self, ops: list, where: str) -> list:
        """The operators with every colour CMYK (fill and stroke spaces followed through q/Q)."""
        out = []
        space = {"f": "/DeviceGray", "s": "/DeviceGray"}
        stack = []
        for operands, op in ops:
            name = str(op)
            side = "s" if name in ("CS", "SC", "SCN", "RG", "G", "K") else "f"
            if name == "q":
                stack.append(dict(space))
            elif name == "Q" and stack:
                space = stack.pop()
            elif name in _SET:
                values = self.cmyk([float(v) for v in operands])
                self.ink(values, where)
                space[side] = "/DeviceCMYK"
                out.append((values, Operator(_SET[name])))
                continue
            elif name in ("k", "K"):
                self.ink([float(v) for v in operands], where)
                space[side] = "/DeviceCMYK"
            elif name in ("cs", "CS"):
                self.used.add(str(operands[0]))
                space[side] = self.space(operands[0], where)
                if space[side] in ("/DeviceRGB", "/DeviceGray"):
                    out.append(([_CMYK], op))
                    space[side] = "/DeviceCMYK!" + space[side]
                    continue
            elif name in ("sc", "scn", "SC", "SCN"):
                values = [float(v) for v in operands if not isinstance(v, pikepdf.Name)]
                if space[side].startswith("/DeviceCMYK!"):
                    values = self.cmyk(values)
                    out.append((values, op))
                    self.ink(values, where)
                    continue
                if space[side] == "/DeviceCMYK":
                    self.ink(values, where)
            elif name == "INLINE IMAGE":
                raise SheetsError(f"{where}: an inline image; a PDF/X card takes CMYK images as objects")
            out.append((operands, op))
        return out

    def space(self, name, where: str) -> str:
        """A colour space operand: a device space's name, or a checked resource's."""
        text = str(name)
        if text in ("/DeviceRGB", "/DeviceGray", "/DeviceCMYK", "/Pattern"):
            return text
        return "/Named"

    def check_space(self, value, where: str) -> None:
        """A colour space in the resources: CMYK, grey or a separation/index over them."""
        if isinstance(value, pikepdf.Name):
            if str(value) in ("/DeviceCMYK", "/DeviceGray", "/Pattern"):
                return
            raise SheetsError(f"{where}: colour space {value}; a PDF/X-1a file is CMYK only")
        family = str(value[0])
        if family == "/Indexed":
            return self.check_space(value[1], where)
        if family in ("/Separation", "/DeviceN"):
            return self.check_space(value[2], where)
        if family == "/Pattern" and len(value) == 1:
            return
        raise SheetsError(f"{where}: colour space {family}; a PDF/X-1a file is CMYK only (no RGB or ICC)")

    def resources(self, res, where: str) -> None:
        if res is None:
            return
        spaces = res.get("/ColorSpace", {})
        for key in list(spaces.keys()):
            if key not in self.used:  # WeasyPrint declares Lab spaces on every page, for lab() colours
                del spaces[key]
                continue
            self.check_space(spaces[key], f"{where}, colour space {key}")
        for key, state in res.get("/ExtGState", {}).items():
            for alpha in ("/CA", "/ca"):
                if alpha in state and float(state[alpha]) != 1:
                    raise SheetsError(f"{where}: transparency ({alpha[1:]} {float(state[alpha]):g} in {key}); "
                                      f"a PDF/X-1a file has none")
            if str(state.get("/SMask", "/None")) != "/None":
                raise SheetsError(f"{where}: a soft mask in {key}; a PDF/X-1a file has no transparency")
            if str(state.get("/BM", "/Normal")) not in ("/Normal", "/Compatible"):
                raise SheetsError(f"{where}: blend mode {state.BM} in {key}; a PDF/X-1a file has none")
        for key, shading in res.get("/Shading", {}).items():
            self.check_space(shading.ColorSpace, f"{where}, shading {key}")
        for key, pattern in res.get("/Pattern", {}).items():
            if "/Shading" in pattern:
                self.check_space(pattern.Shading.ColorSpace, f"{where}, pattern {key}")
        for key, xobject in res.get("/XObject", {}).items():
            self.image(xobject, f"{where}, {key}")

    def image(self, xobject, where: str) -> None:
        if xobject.get("/Subtype") == Name.Image:
            if "/SMask" in xobject or "/SMaskInData" in xobject and int(xobject.SMaskInData):
                raise SheetsError(f"{where}: an image with a soft mask; a PDF/X-1a file has no transparency")
            if not xobject.get("/ImageMask", False):
                try:
                    self.check_space(xobject.get("/ColorSpace", Name.DeviceGray), f"{where} (an image)")
                except SheetsError as exc:  # art or an icon in RGB: say what the author can do
                    raise SheetsError(f"{exc}: a card's art (or a PNG icon) is an RGB image; for a print shop's "
                                      "PDF/X-1a save it as a CMYK JPEG in the game's images/ (card: image: NAME.jpg)") from None
            return

    def stream(self, form, where: str) -> None:
        """A form or tiling pattern: its colours made CMYK, then the forms it draws."""
        if "/Group" in form:
            del form["/Group"]  # a transparency group (PDF 1.4): none in PDF/X-1a, and nothing is transparent
        form.write(pikepdf.unparse_content_stream(self.ops(pikepdf.parse_content_stream(form), where)))
        self.forms.append((form, where))
        self.convert(form.get("/Resources"), where)

    def convert(self, res, where: str) -> None:
        """The colours of the forms and tiling patterns `res` names, made CMYK."""
        if res is None:
            return
        for key, xobject in res.get("/XObject", {}).items():
            if xobject.get("/Subtype") == Name.Form and xobject.objgen not in self.seen:
                self.seen.add(xobject.objgen)
                self.stream(xobject, f"{where}, {key}")
        for key, pattern in res.get("/Pattern", {}).items():
            if "/Shading" not in pattern and pattern.objgen not in self.seen:
                self.seen.add(pattern.objgen)
                self.stream(pattern, f"{where}, pattern {key}")


def plain_separation(rgb: tuple[int, ...]) -> tuple[int, int, int, int]:
    """A colour's CMYK per cent by the plain separation the palette's game colours use: K = 1 -
    max(R, G, B), then C, M, Y of what is left (a suggestion for the palette, not a press profile)."""
    r, g, b = (v / 255 for v in rgb)
    k = 1 - max(r, g, b)
    if k >= 1:
        return (0, 0, 0, 100)
    return tuple(round(100 * v) for v in ((1 - r - k) / (1 - k), (1 - g - k) / (1 - k), (1 - b - k) / (1 - k), k))  # type: ignore[return-value]


def to_cmyk(pdf: pikepdf.Pdf, palette: dict, ink_limit: float | None, palette_file: str = PALETTE_FILE) -> float:
    """Make every colour of `pdf` CMYK and check the rest (see the module's doc); the most ink
    any colour uses, in per cent. `palette_file`: where the palette was read, for the messages."""
    walk = _Walk(palette, ink_limit, palette_file)
    done: dict = {}  # a page's content stream -> its CMYK one (a back page copied behind every card)
    for number, page in enumerate(pdf.pages, 1):
        where = f"card page {number}"
        if "/Group" in page.obj:
            del page.obj["/Group"]
        contents = page.obj.get("/Contents")
        key = contents.objgen if isinstance(contents, pikepdf.Stream) and contents.is_indirect else None
        if key is None or key not in done:
            ops = walk.ops(pikepdf.parse_content_stream(page), where)
            made = pdf.make_indirect(pdf.make_stream(pikepdf.unparse_content_stream(ops)))
            if key is not None:
                done[key] = made
        page.obj.Contents = done[key] if key is not None else made
        walk.convert(page.obj.get("/Resources"), where)
    for number, page in enumerate(pdf.pages, 1):
        walk.resources(page.obj.get("/Resources"), f"card page {number}")
    for form, where in walk.forms:
        walk.resources(form.get("/Resources"), where)
    return walk.most

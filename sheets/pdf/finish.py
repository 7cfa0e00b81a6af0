"""The last pass over every PDF the tool writes (pikepdf): tags, language, title, boxes.

- **Structure.** Pages drawn from forms that carry their page's tags (`/WSStruct`, see
  `sheets.pdf.carried`: imposed cards, each card face a form) get a real structure tree: each
  drawing of such a form is one unit of its page, a `Div` whose elements are the form's rebuilt
  with marked-content references into the form (`/Stm`), the form getting `/StructParents`; a
  form drawn again (the same back behind every card, --copies) is an artifact. What the page
  draws itself is marked: text (page footers) as a `Span` of a `P` element, the rest (rules,
  crop marks) as an `Artifact`. Every page then has `/StructParents`. (Stamped files are
  tagged as they are written, by `sheets.pdf.tagged`, with the same structure.)
- **Document.** `/Lang`, a title (`/Title`, XMP `dc:title`) shown by the viewer
  (`/ViewerPreferences /DisplayDocTitle`), XMP metadata with fixed dates (FIXED_EPOCH).
- **Words.** Letter-spaced runs carry their text as `/ActualText` (`sheets.pdf.spacing`).
- **Boxes.** Every page has a `/TrimBox` (its MediaBox, where the page is the sheet).

The same bytes in give the same bytes out.
"""
from __future__ import annotations

import datetime
import io
from xml.sax.saxutils import escape

from sheets.base import interrupts
from sheets.base.paths import FIXED_EPOCH

# pikepdf's C++ module aborts the process (nanobind: "Critical nanobind error") when a Ctrl-C
# lands while it registers its types: imported whole, the Ctrl-C waits until it is done
with interrupts.held():
    import pikepdf
    from pikepdf import Array, Dictionary, Name, Operator
from sheets.pdf.spacing import mark_spacing
from sheets.pdf.ua import repair as ua_repair
from sheets.pdf.ua import tag_widgets

from sheets.pdf.carried import KEPT, KEY

_STRUCT_KEY = Name(KEY)


# -- structure ---------------------------------------------------------------
class _Tree:
    """The structure tree of a file whose pages draw tagged forms."""

    def __init__(self, pdf: pikepdf.Pdf):
        self.pdf = pdf
        self.document = pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name.Document))
        self.kids = Array()
        self.nums = Array()
        self.key = 0
        self.used: set = set()  # forms already adopted (drawn again: a twin, `_twin`)
        self.twins: dict = {}  # form -> its artifact twin

    def _element(self, desc, parent, page, form, owners: dict) -> Dictionary:
        elem = self.pdf.make_indirect(Dictionary(Type=Name.StructElem, S=desc.S, P=parent, Pg=page))
        for key in KEPT:
            if key in desc:
                elem[key] = desc[key]
        kids = Array()
        for kid in desc.get("/K", Array()):
            if isinstance(kid, int):
                kids.append(Dictionary(Type=Name.MCR, MCID=int(kid), Pg=page, Stm=form))
                owners[int(kid)] = elem
            else:
                kids.append(self._element(kid, elem, page, form, owners))
        elem.K = kids
        return elem

    def adopt(self, page: pikepdf.Page, form: pikepdf.Stream, parent) -> list:
        """The form's elements, rebuilt on `page` (the form gets its parent-tree entry)."""
        owners: dict[int, Dictionary] = {}
        elems = [self._element(desc, parent, page.obj, form, owners) for desc in form[_STRUCT_KEY]]
        if owners:
            form.StructParents = self.entry([owners.get(i) for i in range(max(owners) + 1)])
        return elems

    def entry_value(self, elem) -> int:
        """A parent-tree key for one annotation's element."""
        key = self.key
        self.nums.append(key)
        self.nums.append(elem)
        self.key += 1
        return key

    def entry(self, owners: list) -> int:
        key = self.key
        self.nums.append(key)
        self.nums.append(self.pdf.make_indirect(Array([o if o is not None else pikepdf.Object.parse(b"null")
                                                       for o in owners])))
        self.key += 1
        return key

    def finish(self) -> None:
        root = self.pdf.make_indirect(Dictionary(
            Type=Name.StructTreeRoot, K=self.document,
            ParentTree=self.pdf.make_indirect(Dictionary(Nums=self.nums)), ParentTreeNextKey=self.key))
        self.document.P = root
        self.document.K = self.kids
        self.pdf.Root.StructTreeRoot = root
        self.pdf.Root.MarkInfo = Dictionary(Marked=True)


def _tagged_forms(page: pikepdf.Page) -> dict[str, pikepdf.Stream]:
    xobjects = page.obj.get("/Resources", Dictionary()).get("/XObject", Dictionary())
    return {str(name): form for name, form in xobjects.items()
            if isinstance(form, pikepdf.Stream) and _STRUCT_KEY in form}


def _runs(ops: list, forms: dict) -> list[tuple[str, list]]:
    """The page's own operators cut at the top level: ("form", ops) for a `q … Do … Q` group
    (or a bare Do), ("marked", ops) for a group already marked, ("own", ops) for the rest.
    `ops`: (operands, operator) pairs, or pikepdf's instructions as parsed, each run holding them
    as given (read by index: an instruction's operands become Python values only for a Do)."""
    runs: list[tuple[str, list]] = []
    names = [str(item[1]) for item in ops]  # each operator's name, once
    start = depth = 0
    for end, name in enumerate(names, 1):
        if name in _OPENS:
            depth += 1
        elif name in _CLOSES:
            depth -= 1
        if depth > 0:
            continue
        group = ops[start:end]
        kind = ("marked" if names[start] in ("BMC", "BDC")
                else "form" if "Do" in names[start:end] and any(
                    str(o[1]) == "Do" and str(o[0][0]) in forms for o in group) else "own")
        if kind == "own" and runs and runs[-1][0] == "own":
            runs[-1][1].extend(group)
        else:
            runs.append((kind, group))
        start = end
    if start < len(ops):
        runs.append(("own", ops[start:]))
    return runs


_OPENS = frozenset(("q", "BT", "BMC", "BDC"))
_CLOSES = frozenset(("Q", "ET", "EMC"))


def _has_text(ops: list) -> bool:
    return any(str(item[1]) in ("Tj", "TJ", "'", '"') for item in ops)


def _tag_page(tree: _Tree, page: pikepdf.Page) -> None:
    forms = _tagged_forms(page)
    ops = pikepdf.parse_content_stream(page)  # written back as parsed, as `marking` writes a page
    first = len(tree.kids)
    out: list = []
    mcid = 0
    owners: list = []
    for kind, group in _runs(ops, forms):
        if kind == "form":
            names = [str(operands[0]) for operands, op in group if str(op) == "Do"]
            for name in names:
                form = forms.pop(name, None)
                if form is None:
                    continue
                if form.objgen in tree.used:
                    # a unit drawn again (a card: the same back behind every card, --copies): its
                    # tagged drawing came first; this one is an artifact (one twin per form)
                    _draw(page, name, _twin(tree, form))
                    continue
                tree.used.add(form.objgen)
                holder = tree.pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name.Div,
                                                           P=tree.document, Pg=page.obj))
                holder.K = Array(tree.adopt(page, form, holder))
                tree.kids.append(holder)
            out.extend(group)
        elif kind == "marked":
            out.extend(group)
        elif _has_text(group):
            span = tree.pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name.P, P=tree.document, Pg=page.obj,
                                                     K=mcid))
            tree.kids.append(span)
            owners.append(span)
            out.append(([Name.Span, Dictionary(MCID=mcid)], Operator("BDC")))
            out.extend(group)
            out.append(([], Operator("EMC")))
            mcid += 1
        else:
            out.append(([Name.Artifact], Operator("BMC")))
            out.extend(group)
            out.append(([], Operator("EMC")))
    _tag_links(tree, page, first)
    page.obj.Contents = tree.pdf.make_stream(pikepdf.unparse_content_stream(out))
    page.obj.StructParents = tree.entry(owners)
    page.obj.Tabs = Name.S


def _elements(elem, kind: Name):
    if elem.get("/S") == kind:
        yield elem
    for kid in elem.get("/K", Array()) if isinstance(elem.get("/K"), Array) else []:
        if isinstance(kid, Dictionary) and kid.get("/Type") == Name.StructElem:
            yield from _elements(kid, kind)


def _tag_links(tree: _Tree, page: pikepdf.Page, first: int) -> None:
    """Each link annotation joins the page's Link elements in order (the link's text is in
    them); a link without one gets its own element."""
    annots = [a for a in page.obj.get("/Annots", Array()) if a.get("/Subtype") == Name.Link]
    if not annots:
        return
    elems = [e for top in list(tree.kids)[first:] for e in _elements(top, Name.Link)]
    for i, annot in enumerate(annots):
        if i < len(elems):
            elem = elems[i]
        else:
            elem = tree.pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name.Link, P=tree.document,
                                                     Pg=page.obj, K=Array()))
            tree.kids.append(elem)
        annot.StructParent = tree.entry_value(elem)
        annot.P = page.obj
        elem.K.append(Dictionary(Type=Name.OBJR, Obj=annot, Pg=page.obj))


def _twin(tree: _Tree, form: pikepdf.Stream) -> pikepdf.Stream:
    """The form as an artifact: its marked content without MCIDs, all of it inside one
    `/Artifact` sequence (made once per form)."""
    twin = tree.twins.get(form.objgen)
    if twin is None:
        ops = [([operands[0]], Operator("BMC")) if str(op) == "BDC" else (operands, op)
               for operands, op in pikepdf.parse_content_stream(form)]
        data = b"/Artifact BMC\n" + pikepdf.unparse_content_stream(ops) + b"\nEMC\n"
        twin = tree.twins[form.objgen] = tree.pdf.make_stream(data)
        for key, value in form.items():
            if key not in ("/Length", "/Filter", "/DecodeParms", "/StructParents", KEY):
                twin[key] = value
    return twin


def _draw(page: pikepdf.Page, name: str, form: pikepdf.Stream) -> None:
    """Let the page's XObject `name` be `form` (the page's resources copied, not shared)."""
    resources = Dictionary({k: v for k, v in page.obj.Resources.items()})
    xobjects = Dictionary({k: v for k, v in resources.XObject.items()})
    xobjects[name] = form
    resources.XObject = xobjects
    page.obj.Resources = resources


def tag_forms(pdf: pikepdf.Pdf) -> bool:
    """Build the structure tree of a file whose pages draw tagged forms (see above); False
    (nothing changed) when the file has its own tree or no tagged form."""
    if "/StructTreeRoot" in pdf.Root:
        return False
    if not any(_tagged_forms(page) for page in pdf.pages):
        return False
    tree = _Tree(pdf)
    for page in pdf.pages:
        _tag_page(tree, page)
    for page in pdf.pages:  # each form's description, now in the tree, goes
        for form in page.obj.get("/Resources", Dictionary()).get("/XObject", Dictionary()).values():
            if isinstance(form, pikepdf.Stream) and _STRUCT_KEY in form:
                del form[_STRUCT_KEY]
    tree.finish()
    return True


# -- the document ------------------------------------------------------------------
def _xmp(title: str, lang: str, producer: str, extra: str = "") -> bytes:
    """The XMP packet, PDF/UA-1 (pdfuaid:part 1, ISO 14289-1 5); `extra`: more properties
    (namespaces pdfx, pdfxid are declared)."""
    when = datetime.datetime.fromtimestamp(int(FIXED_EPOCH), datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    t, lg, pr = escape(title), escape(lang), escape(producer)
    return (
        '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" '
        'xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" '
        'xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/"'
        + (' xmlns:pdfx="http://ns.adobe.com/pdfx/1.3/" xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/"'
           if extra else '') + '>'
        '<pdfuaid:part>1</pdfuaid:part>'
        f'<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{t}</rdf:li></rdf:Alt></dc:title>'
        f'<dc:language><rdf:Bag><rdf:li>{lg}</rdf:li></rdf:Bag></dc:language>'
        '<dc:creator><rdf:Seq><rdf:li>warsheets</rdf:li></rdf:Seq></dc:creator>'
        '<dc:format>application/pdf</dc:format>'
        f'<xmp:CreateDate>{when}</xmp:CreateDate><xmp:ModifyDate>{when}</xmp:ModifyDate>'
        f'<xmp:MetadataDate>{when}</xmp:MetadataDate><xmp:CreatorTool>warsheets</xmp:CreatorTool>'
        f'<pdf:Producer>{pr}</pdf:Producer>{extra}'
        '</rdf:Description></rdf:RDF></x:xmpmeta>\n<?xpacket end="w"?>').encode("utf-8")


def describe(pdf: pikepdf.Pdf, title: str | None = None, lang: str = "en", *, repair: bool = True) -> None:
    """Language, title (shown by the viewer), XMP metadata and a TrimBox on every page; the
    PDF/UA repairs unless `repair` is off (a merge of files each already repaired)."""
    info = pdf.docinfo
    title = title or str(info.get("/Title", "")) or "warsheets"
    info.Title = pikepdf.String(title)
    if "/Lang" not in pdf.Root:
        pdf.Root.Lang = pikepdf.String(lang)
    prefs = pdf.Root.get("/ViewerPreferences", Dictionary())
    prefs.DisplayDocTitle = True
    pdf.Root.ViewerPreferences = prefs
    pdf.Root.Metadata = pdf.make_stream(_xmp(title, str(pdf.Root.Lang), str(info.get("/Producer", "warsheets"))), Type=Name.Metadata, Subtype=Name.XML)
    if repair:
        ua_repair(pdf)  # header scopes, printable links (PDF/UA-1)
    for page in pdf.pages:
        if "/TrimBox" not in page.obj:
            page.obj.TrimBox = Array(page.obj.get("/CropBox", page.mediabox))


def xmp_packet(title: str, lang: str, producer: str, extra: str = "") -> bytes:
    """The XMP packet `describe` writes, with `extra` properties (a PDF/X file's version keys)."""
    return _xmp(title, lang, producer, extra)


def pdf_date() -> str:
    """FIXED_EPOCH as a PDF date (Info's CreationDate, ModDate), the XMP's dates."""
    when = datetime.datetime.fromtimestamp(int(FIXED_EPOCH), datetime.timezone.utc)
    return when.strftime("D:%Y%m%d%H%M%S+00'00'")


def save(pdf: pikepdf.Pdf) -> bytes:
    buf = io.BytesIO()
    # fix_metadata_version off: pikepdf would rewrite the XMP packet (our bytes, our dates)
    pdf.save(buf, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.generate,
             fix_metadata_version=False)
    return buf.getvalue()


def tag_fields(data: bytes) -> bytes:
    """A tagged file whose form fields were just added: each widget in a `/Form` element
    (PDF/UA-1 7.18.4: `ua.tag_widgets`). An untagged file is returned as it is."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        if "/StructTreeRoot" not in pdf.Root:
            return data
        tag_widgets(pdf)
        return save(pdf)


def finish_pdf(data: bytes, title: str | None = None, lang: str = "en") -> bytes:
    """A finished PDF's bytes: its tagged forms tagged (see tag_forms), described, boxed (see above)."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        mark_spacing(pdf)
        tag_forms(pdf)
        describe(pdf, title, lang)
        return save(pdf)

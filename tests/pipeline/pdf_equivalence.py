"""What a finished PDF *says*, independent of how its objects are numbered and stored.

`summary(path)` reads a file back with pikepdf and returns, in plain Python values:
  - the document: /Lang, /MarkInfo, /ViewerPreferences, the title, the XMP packet;
  - every page: its boxes, its content stream (decoded), its resources' names, the content of
    every form it draws (decoded, with the form's own resources' names), its annotations;
  - the fonts: every font dictionary's name, subtype and the sha256 of its program;
  - the structure tree, as nested (role, attributes, kids), each marked-content reference as
    (page index, form content digest, MCID), each object reference as (page index, annotation rect);
  - the parent tree, as seen from each page and each form: MCID -> the path of its element;
  - the form fields (names and values).
"""
from __future__ import annotations

import hashlib

import pikepdf


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _plain(obj, depth: int = 0):
    """A direct value as plain Python (indirect dictionaries stop the walk: named by type)."""
    if isinstance(obj, pikepdf.Array):
        return [_plain(v, depth + 1) for v in obj]
    if isinstance(obj, pikepdf.Stream):
        return ("stream", _digest(obj.read_bytes()))
    if isinstance(obj, pikepdf.Dictionary):
        if depth > 6:
            return "..."
        return {str(k): _plain(v, depth + 1) for k, v in sorted(obj.items()) if k not in ("/P", "/Pg", "/Parent")}
    if isinstance(obj, (pikepdf.Name, pikepdf.String)):
        return str(obj)
    if isinstance(obj, pikepdf.Object):
        return repr(obj)
    return obj


def _fonts(pdf: pikepdf.Pdf) -> list:
    found = []
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font":
            desc = obj.get("/FontDescriptor")
            if desc is None and "/DescendantFonts" in obj:
                desc = obj.DescendantFonts[0].get("/FontDescriptor")
            program = None
            if desc is not None:
                for key in ("/FontFile", "/FontFile2", "/FontFile3"):
                    if key in desc:
                        program = _digest(desc[key].read_bytes())
            found.append((str(obj.get("/BaseFont", "")), str(obj.get("/Subtype")), program))
    return sorted(found)


def summary(path) -> dict:
    with pikepdf.open(path) as pdf:
        pages = {p.objgen: i for i, p in enumerate(pdf.pages)}
        forms: dict = {}
        out_pages = []
        for i, page in enumerate(pdf.pages):
            res = page.obj.get("/Resources", pikepdf.Dictionary())
            xobjects = res.get("/XObject", pikepdf.Dictionary())
            drawn = {}
            for name, form in xobjects.items():
                drawn[str(name)] = (_digest(form.read_bytes()), sorted(str(k) for k in form.get("/Resources", {}).keys()),
                                    _plain(form.get("/BBox")), "/StructParents" in form)
                forms[form.objgen] = (i, drawn[str(name)][0])
            out_pages.append({
                "media": _plain(page.obj.MediaBox), "trim": _plain(page.obj.get("/TrimBox")),
                "tabs": _plain(page.obj.get("/Tabs")), "content": _digest(page.obj.Contents.read_bytes()),
                "resources": {str(k): sorted(str(n) for n in v.keys()) for k, v in res.items()
                              if isinstance(v, pikepdf.Dictionary)},
                "forms": drawn,
                "annots": [_plain(a) for a in page.obj.get("/Annots", [])],
            })

        def elem(e, path):
            kids = []
            k = e.get("/K")
            for j, kid in enumerate(k if isinstance(k, pikepdf.Array) else [k] if k is not None else []):
                if isinstance(kid, int):
                    kids.append(("mcid", pages.get(e.Pg.objgen), kid))
                elif kid.get("/Type") == "/MCR":
                    kids.append(("mcr", pages.get(kid.Pg.objgen), forms.get(kid.Stm.objgen) if "/Stm" in kid else None,
                                 int(kid.MCID)))
                elif kid.get("/Type") == "/OBJR":
                    kids.append(("objr", pages.get(kid.Pg.objgen), _plain(kid.Obj.get("/Rect"))))
                else:
                    kids.append(elem(kid, path + (j,)))
            attrs = {key: _plain(e[key]) for key in ("/Alt", "/ActualText", "/Lang", "/E", "/T", "/A", "/C", "/ID")
                     if key in e}
            paths[e.objgen] = path
            return (str(e.S), attrs, pages.get(e.Pg.objgen) if "/Pg" in e else None, kids)

        paths: dict = {}
        root = pdf.Root.get("/StructTreeRoot")
        tree = elem(root.K, ()) if root is not None else None
        parents = {}
        if root is not None:
            nums = root.ParentTree.Nums
            entries = {int(nums[i]): nums[i + 1] for i in range(0, len(nums), 2)}
            for i, page in enumerate(pdf.pages):
                owners = entries[int(page.obj.StructParents)]
                parents[("page", i)] = [paths.get(o.objgen) if isinstance(o, pikepdf.Dictionary) else None
                                        for o in owners]
                for name, form in page.obj.Resources.get("/XObject", {}).items():
                    if "/StructParents" in form:
                        parents[("form", i, str(name))] = [
                            paths.get(o.objgen) if isinstance(o, pikepdf.Dictionary) else None
                            for o in entries[int(form.StructParents)]]
                for a in page.obj.get("/Annots", []):
                    if "/StructParent" in a:
                        parents[("annot", i, str(_plain(a.get("/Rect"))))] = paths.get(entries[int(a.StructParent)].objgen)
        fields = [(str(f.get("/T")), _plain(f.get("/V"))) for f in pdf.Root.get("/AcroForm", {}).get("/Fields", [])]
        return {
            "lang": _plain(pdf.Root.get("/Lang")), "mark": _plain(pdf.Root.get("/MarkInfo")),
            "prefs": _plain(pdf.Root.get("/ViewerPreferences")), "title": str(pdf.docinfo.get("/Title")),
            "producer": str(pdf.docinfo.get("/Producer")),
            "xmp": pdf.Root.Metadata.read_bytes() if "/Metadata" in pdf.Root else None,
            "pages": out_pages, "fonts": _fonts(pdf), "tree": tree, "parents": parents, "fields": fields,
            "next_key": int(root.ParentTreeNextKey) if root is not None else None,
        }

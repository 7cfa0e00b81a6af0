"""Rendering rules: autoescape, strict templates with located errors, a sandboxed fetcher."""
import subprocess
import sys

import pytest

from sheets.base.errors import SheetsError
from sheets.pipeline import rendering


def test_help_does_not_import_weasyprint():
    code = "import sys; from sheets.cli import app; print('weasyprint' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_help_lists_the_commands():
    out = subprocess.run([sys.executable, "-m", "sheets", "--help"], capture_output=True, text=True, check=True)
    for command in ("list", "validate", "playbook", "kit", "reference"):
        assert command in out.stdout


@pytest.mark.unit
def test_inline_markup_is_escaped_first():
    assert str(rendering.inline_markup("**Bold** <script> & *it*")) == \
        "<strong>Bold</strong> &lt;script&gt; &amp;<em> it</em>"  # the space goes in the tag (_SPACE_BEFORE_TAG)
    assert str(rendering.inline_markup(None)) == "&#8212;"
    assert str(rendering.inline_markup("Rifle*(P) SMG*(V)")) == "Rifle*(P) SMG*(V)"


@pytest.mark.unit
def test_template_error_names_file_and_line(tmp_path):
    (tmp_path / "broken.html.j2").write_text("<p>ok</p>\n<p>{{ missing_value }}</p>\n")
    with pytest.raises(rendering.TemplateError, match=r"broken.html.j2:2: template error: UndefinedError"):
        rendering.render_html("broken.html.j2", {}, override=tmp_path)


@pytest.mark.unit
def test_template_syntax_error_names_file_and_line(tmp_path):
    (tmp_path / "bad.html.j2").write_text("<p>\n{% if %}\n</p>\n")
    with pytest.raises(rendering.TemplateError, match=r"bad.html.j2:2: template error"):
        rendering.render_html("bad.html.j2", {}, override=tmp_path)


def test_fetcher_refuses_files_outside_the_bundle():
    html = '<html><body><img src="file:///etc/passwd"></body></html>'
    with pytest.raises(SheetsError, match="refused to fetch 'file:///etc/passwd'"):
        rendering.html_to_pdf(html)


def test_fetcher_refuses_the_network():
    html = '<html><head><link rel="stylesheet" href="http://example.com/x.css"></head><body>x</body></html>'
    with pytest.raises(SheetsError, match="refused to fetch 'http://example.com/x.css'"):
        rendering.html_to_pdf(html)


def test_same_html_same_bytes():
    html = "<html><body><p>Same in, same out.</p></body></html>"
    assert rendering.html_to_pdf(html) == rendering.html_to_pdf(html)


def test_no_css_is_dropped_by_weasyprint(regiment):
    """WeasyPrint drops CSS it does not support with a warning; our sheets must not rely on any."""
    from sheets.pipeline.sheet import render_html
    from sheets.games.regiment.sheets import blank_playbook

    before = len(rendering.render_warnings())
    rendering.html_to_pdf(render_html(blank_playbook(regiment, regiment.data.playbook("operator"))))
    assert rendering.render_warnings()[before:] == []


def test_a_bad_option_value_is_exit_code_1_with_a_message():
    out = subprocess.run([sys.executable, "-m", "sheets", "mission", "--paper", "a3"],
                         capture_output=True, text=True)
    assert out.returncode == 1
    assert "Invalid value for '--paper'" in out.stderr and "letter" in out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.unit
def test_inline_markup_of_a_string_is_remembered_and_the_same():
    """Issue 38: the content's strings are marked up once (a batch repeats them); the cached
    result is what marking up again gives, and other values are not cached."""
    text = "**Medic:** heal 1d3 at 5 cm"
    first = rendering.inline_markup(text)
    assert rendering.inline_markup(text) is first
    assert str(first) == str(rendering._marked_up(text))
    assert str(rendering.inline_markup(12)) == "12"
    from markupsafe import Markup
    assert str(rendering.inline_markup(Markup("<b>x</b>"))) == str(rendering._marked_up(Markup("<b>x</b>")))


_SIGNALLED_WHILE_COMPILED_IS_WRITTEN = '''
import os, signal, sys, tempfile
from pathlib import Path
import jinja2
from sheets.pipeline import rendering

class Stopped(Exception):
    pass

def stop(signum, frame):
    raise Stopped()

from sheets.base import output

made = tempfile.mkstemp

def made_then_signalled(*args, **kwargs):
    f = made(*args, **kwargs)
    os.kill(os.getpid(), signal.SIGTERM)  # its handler runs at the next bytecode, unless held
    return f

output.tempfile.mkstemp = made_then_signalled  # the sealed entry's temporary file (output.write_atomic)
bucket = jinja2.bccache.Bucket(jinja2.Environment(), "k", "checksum")
bucket.code = compile("x = 1", "t", "exec")
signal.signal(signal.SIGTERM, stop)
try:
    rendering._Bytecode(sys.argv[1], "jinja-%s.cache").dump_bytecode(bucket)
except Stopped:
    print("stopped")
print(sorted(p.name for p in Path(sys.argv[1]).iterdir()))
'''


def test_a_signal_while_a_compiled_template_is_written_leaves_no_temporary_file(tmp_path):
    """A SIGTERM while a compiled template is written (a temporary file, then a rename: the sealed
    entry, output.write_atomic) leaves no temporary file, and no entry but a whole one (an interrupt
    sweep found one, `jinja-...cache...tmp`: the signal fell just after Jinja made the file).
    In a process of its own: one thread, as the command's (a signal blocked in one thread of
    several is handled by another)."""
    done = subprocess.run([sys.executable, "-c", _SIGNALLED_WHILE_COMPILED_IS_WRITTEN, str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    # stopped once the temporary file's name is known: it is removed (the template is compiled again
    # next time), and whatever is left is a whole, sealed entry
    assert done.stdout.split("\n")[0] == "stopped", (done.stdout, done.stderr)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")], list(tmp_path.iterdir())
    from sheets.base.cachedir import unsealed
    assert all(unsealed(p.read_bytes()) is not None for p in tmp_path.glob("jinja-*.cache"))


#: the fields as they were Jinja macros (templates/_base/macros.html.j2 before issue 38): the
#: functions that replace them (sheets.pipeline.fieldmarkup) must give these bytes
MACROS = '''{% macro box(name, marked=false, fill=false, shape="square", premarked=false, label="") -%}
{% if fill -%}
<input type="checkbox" name="{{ name }}"{% if label %} title="{{ label }}"{% endif %}{% if marked or premarked %} checked{% endif %}>
{%- else -%}
<span class="box{% if shape == 'circle' %} circle{% endif %}{% if marked %} marked{% elif premarked %} premarked{% endif %}" data-field="{{ name }}"{% if label %} data-label="{{ label }}"{% endif %}>{% if marked %}✔{% endif %}</span>
{%- endif %}
{%- endmacro %}
{% macro write(name, value="", width="30mm", fill=false, label="", grow=false) -%}
{% if fill -%}
<input type="text" name="{{ name }}"{% if label %} title="{{ label }}"{% endif %} value="{{ value if value is not none else '' }}" style="width: {{ width }}">
{%- else -%}
<span class="write" style="min-width: {{ width }}" data-field="{{ name }}"{% if label %} data-label="{{ label }}"{% endif %}{% if grow %} data-grow{% endif %}>{{ value if value is not none else '' }}</span>
{%- endif %}
{%- endmacro %}
{% macro mark(name, text, marked=false, fill=false, how="underline", tag="span") -%}
<{{ tag }} class="{{ how }}{% if marked %} marked{% endif %}"{% if not fill %} data-field="{{ name }}" data-mark="{{ how }}"{% endif %}>{{ text }}</{{ tag }}>
{%- endmacro %}'''


@pytest.mark.unit
def test_the_field_functions_give_the_macros_bytes():
    """box, write and mark, as every template imports them, give what the macros gave, for
    values that need escaping, empty and None values, numbers, Markup, and every flag."""
    import itertools

    from markupsafe import Markup

    env = rendering.environment("regiment")
    calls = ('box(k.n, marked=k.a, fill=k.b, shape=k.s, premarked=k.c, label=k.l)',
             'write(k.n, k.v, k.w, fill=k.b, label=k.l, grow=k.a)', 'write(k.n)', 'box(k.n)',
             'mark(k.n, k.v, marked=k.a, fill=k.b, how=k.h, tag=k.t)')
    template = "{% for k in cases %}[" + "][".join("{{ " + c + " }}" for c in calls) + "]{% endfor %}"
    old = env.from_string(MACROS + template)
    new = env.from_string('{% from "macros.html.j2" import box, write, mark %}' + template)
    cases = [dict(n=n, v=v, w=w, l=l, a=a, b=b, c=c, s=s, h=h, t=t)
             for n, v, w, l in [("name", "Ada & <Bob>", "30mm", ""), ('m-"q"', None, "12.5mm", "Ada's \"tip\""),  # noqa: E741 - the template's own names
                                ("x", 7, "100%", "label"), ("y", Markup("<b>bold</b>"), "3em", None),
                                ("z", "", "0", 0)]
             for a, b, c in itertools.product((False, True), repeat=3)
             for s, h, t in [("square", "underline", "span"), ("circle", "shade", "td")]]
    assert new.render(cases=cases) == old.render(cases=cases)
    assert "&amp; &lt;Bob&gt;" in new.render(cases=cases[:1])


class _Changing:
    """A plug-in's value whose text changes between two calls."""

    def __init__(self):
        self.text = "before"

    def __str__(self):
        return self.text


@pytest.mark.unit
def test_the_field_functions_remember_plain_calls_only():
    """A batch's fields are remembered (the same markup for the same plain arguments, as the
    function itself gives it), but a value of any other type is rendered each time: its text
    may have changed since."""
    from markupsafe import Markup

    from sheets.pipeline import fieldmarkup

    for fn, args, kwargs in [(fieldmarkup.box, ("b",), {"marked": True}), (fieldmarkup.write, ("w", 7, "5mm"), {}),
                             (fieldmarkup.write, ("w", 7.0, "5mm"), {}), (fieldmarkup.write, ("w", True), {}),
                             (fieldmarkup.mark, ("m", Markup("<i>x</i>")), {"how": "shade"}),
                             (fieldmarkup.mark, ("m", "<i>x</i>"), {"how": "shade"})]:
        first, again = fn(*args, **kwargs), fn(*args, **kwargs)
        assert first == again == fn.uncached(*args, **kwargs)
    # 7, 7.0 and True are equal keys to a plain cache: each keeps its own text
    assert [str(fieldmarkup.write("w", v)) for v in (1, 1.0, True)] == [
        '<span class="write" style="min-width: 30mm" data-field="w">%s</span>' % t for t in ("1", "1.0", "True")]
    value = _Changing()
    assert ">before<" in fieldmarkup.write("w", value)
    value.text = "after"
    assert ">after<" in fieldmarkup.write("w", value)


@pytest.mark.parametrize(("title", "band", "heading"), [
    ("Down Range — Quick Reference", "Down Range", "Quick Reference"),
    ("Down Range templates (true scale, inches)", "Down Range", "Templates (true scale, inches)"),
    ("The Regiment: GM Moves", "The Regiment", "GM Moves"),
    ("Platoon Rules — Quick Reference", "Platoon Rules (Base Seven)", "Quick Reference"),
    ("Down Ranger tables", "Down Range", "Down Ranger tables"),  # the same letters, another word
    ("Down Range", "Down Range", "Down Range"),  # the game's name alone stays: a heading is never empty
    ("Down Range — Quick Reference", "", "Down Range — Quick Reference"),  # no band, nothing to repeat
])
def test_a_heading_under_the_band_leaves_out_the_game_s_name(title, band, heading):
    from sheets.pipeline.rendering import beneath_band

    assert beneath_band(title, band) == heading


def test_a_style_sheet_parsed_once_lays_out_as_the_document_s_own(regiment):
    """`lay_out` gives WeasyPrint the head's <style> parsed once per process (shared by every
    document of a batch with the same style) instead of in the document: the same cascade, so
    the same PDF, byte for byte, as WeasyPrint parsing the document itself; and a second document
    of that style parses nothing again."""
    from sheets.base import paths
    from sheets.games.regiment.sheets import blank_playbook
    from sheets.pipeline.sheet import render_html

    playbooks = [blank_playbook(regiment, p) for p in list(regiment.data.playbooks.values())[:2]]
    weasyprint, fonts, fetcher_cls, _ = rendering._weasy()
    base = str(paths.templates_dir()) + "/"
    rendering._style_sheet.cache_clear()
    for sheet in playbooks:
        html = render_html(sheet)
        assert html.count("<style") == 1
        own = weasyprint.HTML(string=html, base_url=base, url_fetcher=fetcher_cls()).render(font_config=fonts)
        assert rendering.lay_out(html).write_pdf() == own.write_pdf()
    info = rendering._style_sheet.cache_info()
    assert (info.misses, info.hits) == (1, len(playbooks) - 1)  # one style, parsed once

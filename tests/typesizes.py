"""The printed size of every text run of a PDF, for tests that hold sheets to a smallest type
(issue 31: at least 6 pt for every word a player reads during play)."""
import io

import pypdf

SMALLEST_PT = 6.0


def text_sizes(pdf) -> list[tuple[float, int, str]]:
    """(printed size in pt, page number, text) of every text run of a PDF (a path or bytes)."""
    reader = pypdf.PdfReader(io.BytesIO(pdf) if isinstance(pdf, bytes) else str(pdf))
    runs: list[tuple[float, int, str]] = []
    for number, page in enumerate(reader.pages, 1):
        def visit(text, cm, tm, font_dict, font_size, number=number):
            if text.strip():
                # the text space's y axis in device space: (tm x cm) applied to (0, 1)
                dx, dy = tm[2] * cm[0] + tm[3] * cm[2], tm[2] * cm[1] + tm[3] * cm[3]
                runs.append((round(font_size * (dx * dx + dy * dy) ** 0.5, 2), number, text.strip()))
        page.extract_text(visitor_text=visit)
    return runs


def too_small(pdf) -> list[tuple[float, int, str]]:
    return [r for r in text_sizes(pdf) if r[0] < SMALLEST_PT - 0.01]

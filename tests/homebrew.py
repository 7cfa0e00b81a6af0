"""A homebrew game with a look of its own (issue 49), for the tests that print one: a template
override, a theme with its own face and named colours, card art, an icon, per-card counts and
colours, an image back, and what a person keeps beside a game (a README, a LICENSE, art sources)."""
from __future__ import annotations

import shutil
from pathlib import Path

from PIL import Image

from sheets.base import fonts

ART_RGB = (200, 30, 30)
SHIELD = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M1 1h8v4l-4 4-4-4z" fill="#204080"/></svg>'
FACE = "Vollkorn-Bold.ttf"  # a bundled OFL face, copied in as the game's own
THEME = """accent: "#7a1f1f"
title_face: fonts/brew-face.ttf
colours: {reds: "#a01010", blues: "#103070"}
"""
CARDS = """id: orders
title: "Orders"
size: poker
back: {title: "Brew", image: art.png}
cards:
  - id: advance
    title: "Advance"
    count: 3
    colour: reds
    image: art.png
    icons: [shield]
    stats: [{label: "Move", value: "6\\""}]
    blocks: [{p: "Move, then fire :shield: on :d6-5: or more."}]
  - id: hold
    title: "Hold"
    colour: "#103070"
    blocks: [{p: "Stay put and fire with +1 to hit."}]
"""
#: the override: the bundled card, with its titles in capitals (the bundled one sets them as written)
OVERRIDE = """{% extends "bundled/card.html.j2" %}
{% block style %}{{ super() }}
.card-head h1 { text-transform: uppercase; }
{% endblock %}
"""


#: what a person keeps beside a game, read by nothing (and so never packed)
KEPT_ASIDE = {"README.md": b"# Brew\n", "LICENSE": b"CC-BY 4.0\n", "art/art.kra": b"layers"}


def decorate(game: Path) -> Path:
    """Give a game made by `sheets new game` its own look (the files above) and a person's files."""
    for folder in ("templates", "fonts", "images", "icons"):
        (game / folder).mkdir()
    (game / "templates" / "card.html.j2").write_text(OVERRIDE)
    shutil.copyfile(fonts.path(FACE), game / "fonts" / "brew-face.ttf")
    Image.new("RGB", (60, 40), ART_RGB).save(game / "images" / "art.png")
    (game / "icons" / "shield.svg").write_text(SHIELD)
    (game / "theme.yaml").write_text(THEME)
    (game / "cards" / "orders.yaml").write_text(CARDS)
    for rel, data in KEPT_ASIDE.items():
        (game / rel).parent.mkdir(parents=True, exist_ok=True)
        (game / rel).write_bytes(data)
    return game

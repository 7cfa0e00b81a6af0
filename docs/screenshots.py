"""Take the README's screenshots of the desk: `.venv/bin/python docs/screenshots.py`.

Serves the desk on a scratch workspace, drives Debian's Chromium with Playwright through
each page (a character with its preview, a campaign after a mission, a kit...), and
writes docs/screenshots/*.png (`docs/screenshots.py NAME...` writes only those).
"""
from __future__ import annotations

import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

from sheets.web import create_app

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="desk-shots-") as scratch:
        workspace = Path(scratch)
        shutil.copy(ROOT / "content" / "regiment" / "characters" / "ada-mercer.yaml", workspace / "ada-mercer.yaml")
        shutil.copy(ROOT / "content" / "regiment" / "characters" / "walter-brzezinski.yaml", workspace / "walter.yaml")
        (workspace / "sheets.toml").write_text('# the club printer\npaper = "a4"\nback_offset = "1,-0.5"\n')
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(create_app(workspace), host="127.0.0.1", port=port, log_level="warning"))
        threading.Thread(target=server.run, daemon=True).start()
        while not server.started:
            time.sleep(0.05)
        url = f"http://127.0.0.1:{port}"
        with sync_playwright() as play:
            browser = play.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(60_000)

            def shot(name: str) -> None:
                if sys.argv[1:] and name not in sys.argv[1:]:
                    return
                page.screenshot(path=str(OUT / f"{name}.png"))
                print(f"wrote docs/screenshots/{name}.png")

            page.goto(f"{url}/regiment/character?playbook=soldier")
            page.get_by_label("Name").fill("Hans Weber")
            page.get_by_label("Rank").select_option(label="Corporal (Cpl)")
            page.get_by_label("Profile").select_option("Cool")
            page.get_by_label("Background").select_option("Athlete")
            page.locator("#stat_set_2").check()
            page.get_by_label("Battle tested").check()
            page.get_by_label("Stone cold").check()
            page.get_by_label("SMG", exact=True).check()
            page.get_by_role("button", name="Check and preview").click()
            page.wait_for_function("() => { const i = document.querySelector('#preview'); return i.complete && i.naturalWidth > 0; }")
            page.locator("#preview").scroll_into_view_if_needed()
            shot("character")
            page.goto(f"{url}/regiment/character?file=walter.yaml")
            page.get_by_label("get +1stat (max+3): guts").check()
            page.locator("#bond_name_1").fill("Ada Mercer")
            page.locator("#bond_value_1").fill("-1")
            page.locator("#bond_value_1").dispatch_event("change")
            page.wait_for_function("() => document.querySelector('#preview').src.includes('take=%2B1')")
            page.wait_for_function("() => { const i = document.querySelector('#preview'); return i.complete && i.naturalWidth > 0; }")
            page.evaluate("document.querySelector('#bonds').scrollIntoView()")
            shot("character-improvements")
            page.goto(f"{url}/cards")
            page.get_by_role("button", name="Make the calibration sheet").click()
            page.get_by_label("X", exact=True).fill("0.5")
            page.get_by_label("Y", exact=True).fill("-1")
            page.get_by_role("button", name="Work out the offset").click()
            page.locator("#calibrate").scroll_into_view_if_needed()
            shot("calibration")
            page.goto(f"{url}/wotw/campaign")
            shot("campaign-new")
            page.get_by_label("Nation").select_option("german")
            page.get_by_label("Theatre").select_option("france-1944")
            page.get_by_role("button", name="Next: build the team against the CP budget").click()
            for i, (name, quality, weapon) in enumerate((("Hans Weber", "Veteran", "SMG"), ("Karl Brandt", "Green", "Rifle"),
                                                         ("Otto Lenz", "Green", "LMG"), ("Willi Haas", "Green", "LMG"))):
                page.get_by_label(f"Man {i + 1}: name").fill(name)
                page.get_by_label(f"Man {i + 1}: quality").select_option(quality)
                page.get_by_label(f"Man {i + 1}: weapon").select_option(weapon)
            page.get_by_label("Man 2: medical expertise").check()
            page.get_by_role("button", name="Update the budget").click()
            shot("campaign-team")  # over budget: the rules' refusal, and each man's CP
            page.get_by_label("Man 3: weapon").select_option("Rifle")
            page.get_by_label("Man 4: weapon").select_option("Rifle")
            page.get_by_role("button", name="Start the campaign with this team").click()
            page.get_by_label("Dice seed (empty: roll one)").fill("3")
            page.get_by_role("button", name="Roll the next mission").click()
            shot("campaign-desk")
            page.get_by_label("Dice seed for the XP roll (empty: roll one)").fill("5")
            page.get_by_role("button", name="Debrief").click()
            page.get_by_role("link", name="What each man can afford, with its cost").click()
            page.get_by_role("button", name="Buy: promote to Private for Karl Brandt").click()
            shot("campaign-spend")  # 1 XP left: Hans Weber's skills now say why not
            page.goto(f"{url}/wotw/mission")
            page.get_by_label("Dice seed (empty: roll one)").fill("11")
            page.get_by_role("button", name="Roll the mission").click()
            page.get_by_role("heading", name="Track").scroll_into_view_if_needed()
            shot("mission")
            page.goto(f"{url}/kit")
            page.get_by_label("Games").select_option("regiment")
            page.get_by_label("Dice seed (empty: roll one)").fill("1944")
            page.get_by_role("button", name="Build the kit").click()
            page.get_by_role("heading", name="Kit built: dice seed 1944").wait_for()  # after the progress page
            page.wait_for_function("() => { const i = document.querySelector('img.contact'); return i && i.complete && i.naturalWidth > 0; }")
            page.locator("img.contact").scroll_into_view_if_needed()
            shot("kit")
            page.goto(f"{url}/cards")
            shot("cards")
            page.goto(f"{url}/regiment/squad")
            shot("squad")
            page.goto(url)
            shot("desk")
            browser.close()
        server.should_exit = True
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The Regiment's plugin: loads playbooks and GM data, builds its cards and sheets."""
from __future__ import annotations

from pathlib import Path

from sheets.base.errors import ContentError
from sheets.games.regiment.characters import CharacterFile, resolve_character
from sheets.games.regiment.gm import build_card_sets, tag_id
from sheets.library.blocks import ReferenceDoc
from sheets.games.regiment.models import (
    BasicMoves, BattlePlans, GmMoves, Lists, Playbook, RegimentData, Tags, Vehicles, Weapons,
)
from sheets.games.regiment.squads import SquadFile, is_character, is_squad, read_squad
from sheets.kinds.kind import Kind
from sheets.kinds.print_plugin import PrintHooks
from sheets.library.content import FileLoader
from sheets.library.kinds import ContentKind
from sheets.library.plugins import GamePlugin


def _make_playbooks(_lib, game, options, _which):
    # the sheets need Jinja; the plugin is loaded with the content (`validate`, `list`, `mission --json`)
    from sheets.games.regiment.sheets import kit_playbooks  # noqa: PLC0415

    return kit_playbooks(game, options)


def _make_roster(_lib, game, options, _which):
    from sheets.games.regiment.sheets import kit_roster  # noqa: PLC0415 - Jinja: as above

    return kit_roster(game, options)


class RegimentPlugin(GamePlugin, PrintHooks):
    extra_files = ("characters/*.yaml",)  # examples, read by their own commands and tests

    def kinds(self):
        return [Kind("regiment.playbook", "a Regiment playbook, blank or filled", ("playbook.html.j2",), "playbook",
                     make=_make_playbooks, listed=lambda game: f"playbooks ({', '.join(game.data.playbooks)})"),
                Kind("regiment.roster", "the Regiment's squad roster, blank or filled", ("squad.html.j2",), "roster",
                     make=_make_roster, listed=lambda game: "squad roster (sheets squad FILE; blank in the kit)")]

    def load(self, files: FileLoader):
        before = len(files.problems)
        playbooks: dict[str, Playbook] = {}
        for rel in files.glob("playbooks/*.yaml"):
            pb = files.model(rel, Playbook)
            if pb is not None:
                if pb.id != Path(rel).stem:
                    files.problem(rel, ("id",), f"id {pb.id!r} must equal the file name {Path(rel).stem!r}")
                playbooks[pb.id] = pb
        if not playbooks and len(files.problems) == before:
            files.problem("playbooks", (), "no playbooks found (playbooks/*.yaml)")
        lists = files.model("lists.yaml", Lists)
        basic = files.model("basic_moves.yaml", BasicMoves)
        data = RegimentData(
            playbooks=playbooks, lists=lists, basic_moves=basic,
            weapons=files.model("weapons.yaml", Weapons, required=False),
            tags=files.model("tags.yaml", Tags, required=False),
            vehicles=files.model("vehicles.yaml", Vehicles, required=False),
            battle_plans=files.model("battle_plans.yaml", BattlePlans, required=False),
            gm_moves=files.model("gm_moves.yaml", GmMoves, required=False),
            elements=files.model("elements.yaml", ReferenceDoc, required=False),
        )
        if data.weapons and data.tags:
            self._check_tags(files, data)
        if len(files.problems) > before:
            return None
        return data

    @staticmethod
    def _check_tags(files: FileLoader, data: RegimentData) -> None:
        known = {t.id for t in data.tags.tags}
        armed = [("weapons.yaml", ("categories", c, "weapons", w), weapon)
                 for c, cat in enumerate(data.weapons.categories) for w, weapon in enumerate(cat.weapons)]
        if data.vehicles:
            armed += [("vehicles.yaml", ("vehicles", v, "weapons", w), weapon)
                      for v, vehicle in enumerate(data.vehicles.vehicles) for w, weapon in enumerate(vehicle.weapons)]
        for file, loc, weapon in armed:
            for t, tag in enumerate(weapon.tags):
                if tag_id(tag) not in known:
                    files.problem(file, loc + ("tags", t), f"tag {tag!r} has no definition in tags.yaml")

    def check_user_file(self, game, doc):
        """A character file (it names its `playbook`) or a squad file (its `members`), checked as
        `sheets playbook --character` and `sheets squad` check them; member files too."""
        data = doc.data if isinstance(doc.data, dict) else {}
        try:
            if is_character(data):
                resolve_character(doc, game.data)
            elif is_squad(data):
                read_squad(doc, Path(doc.name).parent, game.data)
            else:
                return None
        except ContentError as exc:
            return exc.problems
        return []

    def file_kinds(self):
        return [
            ContentKind("playbook", Playbook, "playbooks/*.yaml", "a Regiment playbook, playbooks/<id>.yaml"),
            ContentKind("lists", Lists, "lists.yaml", "the Regiment's name, rank and background lists"),
            ContentKind("basic-moves", BasicMoves, "basic_moves.yaml", "the Regiment's basic moves"),
            ContentKind("weapons", Weapons, "weapons.yaml", "the Regiment's weapons"),
            ContentKind("tags", Tags, "tags.yaml", "the Regiment's weapon tags"),
            ContentKind("vehicles", Vehicles, "vehicles.yaml", "the Regiment's vehicles"),
            ContentKind("battle-plans", BattlePlans, "battle_plans.yaml", "the Regiment's battle plans"),
            ContentKind("gm-moves", GmMoves, "gm_moves.yaml", "the Regiment's GM moves"),
            ContentKind("elements", ReferenceDoc, "elements.yaml", "the Regiment's elements of warfare"),
            ContentKind("character", CharacterFile, "characters/*.yaml", "a Regiment character file (sheets playbook -c)"),
            ContentKind("squad", SquadFile, None, "a Regiment squad file (sheets squad)"),
        ]

    def card_sets(self, game):
        return build_card_sets(game.data)

    def reference_sections(self, game):
        # the sheets need Jinja; the plugin is loaded with the content (`validate`, `list`, `mission --json`)
        from sheets.games.regiment.sheets import reference_pages  # noqa: PLC0415

        return reference_pages(game)

    def player_packets(self, game, options):
        from sheets.games.regiment.sheets import player_packets  # noqa: PLC0415 - Jinja: as above

        return player_packets(game, options)


plugin = RegimentPlugin()

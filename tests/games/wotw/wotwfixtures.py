"""What several WotW test files share: a legal German first team (4 men, 5 CP) and the game's data."""
import pytest

TEAM = """\
nation: german
members:
  - {name: Hans Weber, quality: Veteran, weapon: SMG}
  - {name: Karl Brandt, quality: Green, weapon: Rifle, medical: true}
  - {name: Otto Lenz, quality: Green, weapon: Rifle}
  - {name: Willi Haas, quality: Green, weapon: Rifle}
"""


@pytest.fixture(scope="module")
def data(library):
    return library.game("wotw").data

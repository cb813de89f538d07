"""The layout checker's warning for lines and frames near the trim (issue 25, Sheets)."""

from __future__ import annotations

import shutil

from cardgen.model import load_game
from cardgen.render.layout import load_layouts
from cardgen.render.trimlines import near_trim, trim_warnings
from tests.conftest import ROOT

POKER = (63.5, 88.9)


def test_a_frame_inside_the_trim_closer_than_3_mm_is_warned_about():
    assert len(near_trim({"rect": [1.6, 1.6, 60.3, 85.7], "stroke": "gold"}, *POKER)) == 4
    [top] = near_trim({"line": [3.0, 1.0, 60.5, 1.0]}, *POKER)
    assert top.startswith("a line edge 1.0 mm inside the top")
    assert near_trim({"line": [2.0, 10.0, 2.0, 80.0]}, *POKER)          # vertical, near the left cut


def test_what_is_clear_of_the_cut_is_not():
    assert not near_trim({"rect": "bleed", "fill": "ink"}, *POKER)
    assert not near_trim({"rect": [-3.175, -3.175, 69.85, 20.4], "fill": "ink"}, *POKER)[2:]   # bleed edges
    assert not near_trim({"rect": [3.0, 3.0, 57.5, 82.9], "stroke": "gold"}, *POKER)
    assert not near_trim({"rect": [1.0, 1.0, 4.0, 4.0], "fill": "ink"}, *POKER)     # a pip, not a frame
    assert not near_trim({"line": [1.0, 1.0, 20.0, 30.0]}, *POKER)                  # slanted
    assert not near_trim({"rect": "{{ card.box }}"}, *POKER)                       # computed per card


def test_warnings_name_the_file_line_and_element(tmp_path):
    folder = tmp_path / "guild"
    shutil.copytree(ROOT / "tests" / "data" / "lantern-guild", folder,
                    ignore=shutil.ignore_patterns("out"))
    layouts = folder / "layouts.yaml"
    text = layouts.read_text()
    assert "backs:\n  default:\n" in text
    frame = "    - {rect: [2, 2, 53.15, 84.9], stroke: ink}\n"
    layouts.write_text(text.replace("backs:\n  default:\n", "backs:\n  default:\n" + frame, 1))
    warnings = trim_warnings(load_layouts(load_game(folder)))
    line = layouts.read_text().splitlines().index("    - {rect: [2, 2, 53.15, 84.9], stroke: ink}") + 1
    assert {(w.line, w.field) for w in warnings} == {(line, "backs.default[1]")}
    assert str(warnings[0]).startswith(f"{layouts}:{line}: backs.default[1]: a frame edge 2.0 mm inside")


def test_the_bundled_designs_keep_their_frames_clear_of_the_cut():
    """Amiibart's powers and reference cards and Amfibido's sensei had frames 1.6-2.2 mm inside the
    trim; their frames now sit 3 mm or more inside, and no bundled game is warned about."""
    flagged = {g: [str(w) for w in trim_warnings(load_layouts(load_game(g)))]
               for g in ("amiibart", "amfibido", "adapt", "combo-fighter", "dojo-duel")}
    assert flagged == {g: [] for g in flagged}

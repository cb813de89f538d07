"""Rendering over processes (issue 24, items 1 and 2): one set of workers for a whole render, each
game drawn by one process until the last ones are shared, and caches bounded by memory."""

from __future__ import annotations

import shutil

import pytest
from PIL import Image

import cardgen.render as render
from cardgen.errors import ContentError
from cardgen.model import load_game
from cardgen.render import paint_png, render_games
from cardgen.render.claims import CHUNK, Claims, chunk_counts, chunk_items, next_game
from cardgen.render.layout import layout_face, load_layouts
from cardgen.render.memo import BoundedCache, image_bytes
from tests.conftest import ROOT

# Combo Fighter's PNGs: 68 cards, 9 backs (the default, 4 fighters' decks and each of the 4
# character sheets' own), 2 player aids and both sides of its 4 power tokens
COMBO_FIGHTER_PNGS = 84

def test_a_render_of_several_games_starts_one_pool_of_workers(tmp_path, monkeypatch):
    # (a pool a game forked its workers again for each, each warming up on each game: slower than
    # one process when the other core was busy)
    started = []
    real = render.worker_pool

    def counted(*args, **kwargs):
        started.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(render, "worker_pool", counted)
    games = [load_game("dojo-duel"), load_game("combo-fighter")]
    results = render_games(games, tmp_path, jobs=2, use_cache=False)
    assert started == [2]
    assert [len(r.written) for r in results] == [42, COMBO_FIGHTER_PNGS]
    for game in games:
        assert len(list((tmp_path / game.id / "cards").glob("*.png"))) == len(game.cards)


def test_the_same_pictures_from_one_process_and_from_two(tmp_path):
    games = [load_game("dojo-duel"), load_game("combo-fighter")]
    render_games(games, tmp_path / "one", jobs=1, use_cache=False)
    render_games(games, tmp_path / "two", jobs=2, use_cache=False)
    one = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*.png"))
    assert one == sorted(p.relative_to(tmp_path / "two") for p in (tmp_path / "two").rglob("*.png"))
    for rel in one:
        assert _pixels(tmp_path / "one" / rel) == _pixels(tmp_path / "two" / rel), rel


def _pixels(png) -> bytes:
    """A PNG's pixels. (Not its bytes: ISA-L's deflate, given the same rows, now and then encodes
    them otherwise in another process, with the old code as with this one.)"""
    with Image.open(png) as image:
        return image.tobytes()


def test_spawned_workers_draw_the_same_pictures(tmp_path, monkeypatch):
    """As on macOS and Windows, where workers start afresh and load the games themselves."""
    games = [load_game("dojo-duel"), load_game("combo-fighter")]
    render_games(games, tmp_path / "one", jobs=1, use_cache=False)
    monkeypatch.setattr(render, "can_fork", lambda: False)
    monkeypatch.setattr(render, "can_spawn", lambda: True)
    results = render_games(games, tmp_path / "two", jobs=2, use_cache=False, thumbnails=True)
    assert [len(r.written) for r in results] == [42, COMBO_FIGHTER_PNGS]
    for png in (tmp_path / "one").rglob("*.png"):
        assert _pixels(png) == _pixels(tmp_path / "two" / png.relative_to(tmp_path / "one")), png
    assert len(list((tmp_path / "two" / "dojo-duel" / "site" / "img").glob("*.jpg"))) == 40


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_full_disk_in_a_worker_is_raised_by_the_render(tmp_path, monkeypatch, jobs):
    import errno

    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(render, "write_atomic", full)
    with pytest.raises(OSError, match="No space left on device"):
        render_games([load_game("dojo-duel"), load_game("combo-fighter")], tmp_path, jobs=jobs)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_game_whose_layouts_fail_gets_its_error_and_the_others_are_drawn(tmp_path, jobs):
    broken = tmp_path / "broken"
    shutil.copytree(ROOT / "content" / "dojo-duel", broken, ignore=shutil.ignore_patterns("scenarios"))
    (broken / "game.yaml").write_text((broken / "game.yaml").read_text().replace("code: dojo_duel\n", ""))
    layouts = broken / "layouts.yaml"
    layouts.write_text(layouts.read_text().replace("style: flavour, field", "style: flavor, field"))
    games = [load_game(broken), load_game("combo-fighter")]
    failed, drawn = render_games(games, tmp_path / "out", jobs=jobs)
    assert isinstance(failed, ContentError) and "no style 'flavor'" in str(failed)
    assert len(drawn.written) == COMBO_FIGHTER_PNGS and not drawn.errors
    assert not list((tmp_path / "out" / games[0].id).glob("cards/*.png"))


# -- who draws what (cardgen.render.claims) ---------------------------------------------------------

def test_a_process_keeps_to_its_game_then_starts_the_largest_left_then_helps():
    chunks = [3, 10, 6]
    assert next_game([0, 0, 0], chunks, None) == 1           # the largest first
    assert next_game([0, 1, 0], chunks, None) == 2           # a second process: the largest not started
    assert next_game([0, 4, 1], chunks, 2) == 2              # its own game while it has chunks
    assert next_game([0, 4, 6], chunks, 2) == 0              # then a game no one has started
    assert next_game([3, 4, 6], chunks, 0) == 1              # then the one with most left
    assert next_game([3, 10, 6], chunks, 1) is None


def test_claims_hand_out_every_chunk_once():
    claims = Claims(chunk_counts([9, 1, 20]))
    assert claims.chunks == [-(-9 // CHUNK), 1, -(-20 // CHUNK)]
    taken = []
    while (claim := claims.take(taken[-1][0] if taken else None)) is not None:
        taken.append(claim)
    assert sorted(taken) == [(g, c) for g, n in enumerate(claims.chunks) for c in range(n)]
    assert [g for g, _ in taken] == [2] * claims.chunks[2] + [0] * claims.chunks[0] + [1]
    assert [i for c in range(claims.chunks[0]) for i in chunk_items(c, 9)] == list(range(9))


def test_a_game_given_up_is_not_handed_out():
    claims = Claims([5, 2])
    assert claims.take(None) == (0, 0)
    claims.give_up(0)
    assert claims.take(0) == (1, 0)


# -- memory ---------------------------------------------------------------------------------------

def test_the_backgrounds_kept_are_bounded_by_their_bytes():
    # (48 backgrounds of 3.7 MB each were kept per process, where a dozen gave as many hits)
    game = load_game("amiibart")
    layouts = load_layouts(game)
    for card in game.cards.values():                      # (46 backgrounds)
        paint_png.paint_png(layout_face(layouts, card))
    kept = paint_png._LAYERS.values
    assert len(kept) >= 8
    assert sum(image_bytes(image) for image in kept.values()) <= 48 << 20


def test_a_bounded_cache_drops_the_least_recently_used_past_its_bytes():
    cache = BoundedCache(10, len)
    cache.put("a", "xxxx")
    cache.put("b", "xxxx")
    assert cache.get("a") == "xxxx"                     # now the most recently used
    cache.put("c", "xxxx")
    assert cache.get("b") is None and cache.get("a") and cache.get("c") and cache.held == 8
    cache.put("d", "x" * 30)                            # alone over the bound: kept, the rest go
    assert list(cache.values) == ["d"] and cache.held == 30

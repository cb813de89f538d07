"""Sample matches of each variant a game's engine plays, for the build's report: the published
rules are the default, and every variant is also shown on its own beside them."""

from __future__ import annotations

from cardgen.errors import ContentError
from cardgen.sim.report import build_report, variant_row
from cardgen.sim.runner import simulate_tally


def sample_variants(game, engine, *, matches: int, seed: int = 1,
                    jobs: int | None = None) -> tuple[list[dict], list[tuple[str, dict]]]:
    """(rows for the report's "by variant" table, [(variant id, conflict)] found by them).
    A variant the box's sample decks cannot set up (a team game needing more decks, say) gets a
    row saying why instead of figures."""
    rows, found = [], []
    for variant in game.variants.values():
        if not variant.played:
            rows.append(variant_row(variant, None, f"not played by the engine: {variant.why or ''}"))
            continue
        try:
            tally, seconds = simulate_tally(game, matches=matches, seed=seed, engine=engine,
                                          variants=(variant.id,), jobs=jobs)
        except ContentError as exc:
            rows.append(variant_row(variant, None, "not simulated: " + "; ".join(
                i.message for i in exc.issues)))
            continue
        report = build_report(game, tally, seconds, bots=["random"], seed=seed,
                              variants=(variant.id,))
        rows.append(variant_row(variant, report))
        found += [(variant.id, c) for c in report["conflicts"]]
    return rows, found

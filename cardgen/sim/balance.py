"""Which deck or character is out of line, and by how much, at each level of play
(`cardgen balance GAME`), and the one-line verdict the build prints.

A seat is an outlier at a level when its win rate's 95% interval leaves out its fair share (one
in two at 2 players, one in three at 3...): every seat of those matches played by the same bot,
so skill is matched and what is left is the deck. A seat that is even at one level and an outlier
at another, or strong at one and weak at another, makes the game's balance depend on skill, and
the report says so in those words.
"""

from __future__ import annotations

from cardgen.sim.report import build_report

DEFAULT_LEVELS = ("random", "greedy", "search")


def _tables(report: dict) -> list[tuple[int | None, dict]]:
    """(players, {seat: figures}) for each player count the matches had (None: one count)."""
    by_count = report.get("seats_by_players") or {}
    if by_count:
        return [(int(count), rows) for count, rows in by_count.items()]
    return [(None, report.get("seat_figures") or {})]


def _fair_share(report: dict, players: int | None) -> float:
    if players:
        return 1 / players
    setups = report.get("setups") or []
    seats = {len(s["seats"]) for s in setups} or {2}
    return 1 / min(seats)


def standing(figures: dict, fair: float) -> str:
    """"strong", "weak" or "even": whether the interval lies above, below or around the share."""
    lo, hi = figures["ci95"]
    return "strong" if lo > fair else "weak" if hi < fair else "even"


def outliers(report: dict) -> list[dict]:
    """The seats whose 95% interval leaves out their fair share, furthest first."""
    found = []
    for players, rows in _tables(report):
        fair = _fair_share(report, players)
        for name, f in rows.items():
            side = standing(f, fair)
            if side != "even":
                found.append({"seat": name, "players": players, "fair": round(fair, 3), "standing": side,
                              "win_rate": f["win_rate"], "ci95": f["ci95"], "games": f["games"],
                              "distance": round(abs(f["win_rate"] - fair), 3)})
    return sorted(found, key=lambda o: (-o["distance"], o["seat"]))


def outlier_words(o: dict) -> str:
    count = f" at {o['players']} players" if o["players"] else ""
    return (f"{o['seat']}{count} wins {100 * o['win_rate']:.0f}% (95% CI {100 * o['ci95'][0]:.0f}-"
            f"{100 * o['ci95'][1]:.0f}%, {o['games']} matches) against a fair {100 * o['fair']:.0f}%")


def sweep(game, simulate_level, levels, *, matches: int, seed: int, static=(), pool=frozenset(),
          seat_cards=None, variants=()) -> dict:
    """Play `matches` matches at each level (`simulate_level(bot) -> (tally, seconds)`, every seat
    that bot) and find each level's outliers and where the levels disagree."""
    rows = []
    for level in levels:
        tally, seconds = simulate_level(level)
        report = build_report(game, tally, seconds, static=static, bots=[level], seed=seed, pool=pool,
                              seat_cards=seat_cards, variants=variants)
        tables = _tables(report)
        rows.append({"bot": level, "matches": report["matches"], "outliers": outliers(report),
                     "tables": {str(players or ""): seats for players, seats in tables},
                     "fair": {str(players or ""): round(_fair_share(report, players), 3)
                              for players, _ in tables},
                     "first_player": report["first_player"], "conflicts": len(report["conflicts"])})
    return {"game": game.id, "name": game.name, "seed": seed, "matches_per_level": matches,
            "levels": rows, "depends_on_skill": _disagreements(rows),
            "worst": _worst(rows)}


def _disagreements(rows: list[dict]) -> list[dict]:
    """Seats whose standing depends on the level, with their rate at each: strong at one level and
    weak at another, or an outlier at one level whose rate at another is clearly different (the two
    intervals apart). A rate that only crosses an interval's edge is noise, not skill."""
    found = []
    if len(rows) < 2:
        return found
    for table in rows[0]["tables"]:
        seats = sorted(set().union(*(row["tables"].get(table, {}) for row in rows)))
        for seat in seats:
            figures = [(row["bot"], row["tables"].get(table, {}).get(seat), row["fair"].get(table))
                       for row in rows]
            known = [(f, standing(f, fair)) for _, f, fair in figures if f]
            opposite = {"strong", "weak"} <= {side for _, side in known}
            apart = any(_apart(a, b) for a, side_a in known for b, side_b in known
                        if not side_a == side_b == "even")
            if opposite or apart:
                found.append({"seat": seat, "players": int(table) if table else None,
                              "rates": {bot: f["win_rate"] for bot, f, _ in figures if f}})
    return found


def _apart(a: dict, b: dict) -> bool:
    """Two win rates whose 95% intervals do not meet."""
    return a["ci95"][1] < b["ci95"][0] or b["ci95"][1] < a["ci95"][0]


def _worst(rows: list[dict]) -> dict | None:
    """The furthest outlier at the strongest level played (the last one asked for)."""
    if not rows or not rows[-1]["outliers"]:
        return None
    return {"bot": rows[-1]["bot"], **rows[-1]["outliers"][0]}


def format_text(result: dict) -> str:
    lines = [f"{result['name']}: balance at {len(result['levels'])} levels of play, "
             f"{result['matches_per_level']} matches each (every seat the same bot), "
             f"seeds from {result['seed']}"]
    for row in result["levels"]:
        lines += ["", f"  {row['bot']}:"]
        if not row["outliers"]:
            lines.append("    no deck or character outside its fair share (95% intervals)")
        lines += [f"    {'strong' if o['standing'] == 'strong' else 'weak  '}  {outlier_words(o)}"
                  for o in row["outliers"]]
        if row["conflicts"]:
            lines.append(f"    {row['conflicts']} rule conflicts: `cardgen simulate --bots {row['bot']}` "
                         "lists them with their seeds")
    if result["depends_on_skill"]:
        lines += ["", "  balance depends on skill:"]
        for d in result["depends_on_skill"]:
            count = f" at {d['players']} players" if d["players"] else ""
            rates = ", ".join(f"{100 * rate:.0f}% {bot}" for bot, rate in d["rates"].items())
            lines.append(f"    {d['seat']}{count}: {rates}")
    worst = result["worst"]
    lines += ["", "  worst outlier: " + (f"{outlier_words(worst)}, at {worst['bot']}" if worst else
                                         "none at the strongest level played")]
    return "\n".join(lines)

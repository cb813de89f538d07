"""Balance and health figures from many matches: a terminal table, JSON, and an HTML page."""

from __future__ import annotations

import html
import math
from collections import Counter

from cardgen.sim.tally import Tally


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (good at small counts and near 0 or 1)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    denom = 1 + z * z / trials
    return (max(0.0, (centre - spread) / denom), min(1.0, (centre + spread) / denom))


def figures(wins: int, games: int) -> dict:
    """A win rate as a report gives every one: its wins, its sample and its 95% interval."""
    lo, hi = wilson(wins, games)
    return {"wins": wins, "games": games, "win_rate": round(wins / games, 3) if games else None,
            "ci95": [round(lo, 3), round(hi, 3)]}


def _figures_by_name(wins: Counter, games: Counter, names=None) -> dict:
    return {n: figures(wins[n], games[n]) for n in sorted(names if names is not None else games)
            if games[n]}


def percentile(t: Tally, q: float) -> float:
    """The q-quantile of the finished matches' lengths, interpolated between the two nearest."""
    if not t.finished:
        return 0.0
    index = (t.finished - 1) * q
    lo, hi = math.floor(index), math.ceil(index)
    low = t.length_at(lo)
    return low + (t.length_at(hi) - low) * (index - lo)


def _many_seats_note(report: dict) -> str:
    """How the matchups read matches of more than two seats, when there were any."""
    return "In a match of three or more seats, its winner beats each of the others." \
        if report.get("matchups_many_seats") else ""


def rules_played(game, variants=()) -> dict:
    """Which rules the matches played: the published ones, or with these variants on."""
    rows = []
    for name in variants:
        v = game.variants.get(name)        # (None: an engine's own, undeclared in game.yaml)
        rows.append({"id": name, "name": v.name if v else name, "source": v.source if v else "engine"})
    return {"as_published": not variants, "variants": rows}


def rules_words(rules: dict) -> str:
    if rules["as_published"]:
        return "as published (no variant)"
    whose = {"rulebook": "the rulebook's optional rule", "house": "house rule",
             "engine": "engine's own"}
    return "with variant " + "; ".join(f"{v['id']} ({v['name']}, {whose[v['source']]})"
                                       for v in rules["variants"])


def build_report(game, results, seconds: float, *, static=(), bots=(), seed: int = 1,
                 pool: frozenset[str] = frozenset(), seat_cards=None, variants=()) -> dict:
    """The figures of a simulation: `results` is its Tally (runner.simulate_tally), or the list of
    its MatchResults. `pool`: the cards the simulated decks hold; without it, every card of the
    game counts when looking for cards never played. `seat_cards`: by setup label, each seat's
    own cards (both from runner.deck_contents), for the figures of a card "when in the deck".
    `variants`: the ones the matches played."""
    t = results if isinstance(results, Tally) else Tally.of(results)
    lo, hi = wilson(t.first_wins, t.decisive)

    # Matchups by seat name (deck or character): wins of row against column, over the decisive
    # matches both played.
    names = sorted(t.seat_games)
    matrix = {a: {b: (round(t.pair_wins[(a, b)] / t.pair_games[(a, b)], 3) if t.pair_games[(a, b)] else None)
                  for b in names} for a in names}
    seat_rates = {n: round(t.seat_wins[n] / t.seat_games[n], 3) for n in names if t.seat_games[n]}
    balance = round(1 - (max(seat_rates.values()) - min(seat_rates.values())), 3) if seat_rates else None

    # Per card: how often played, and how often its player went on to win.
    matchup_figures = {a: {b: figures(t.pair_wins[(a, b)], t.pair_games[(a, b)]) if t.pair_games[(a, b)]
                           else None for b in names} for a in names}
    counts = sorted({n for n, _ in t.count_games})
    seats_by_players = {str(n): {name: figures(t.count_wins[(n, name)], t.count_games[(n, name)])
                                 for (count, name) in sorted(t.count_games) if count == n}
                        for n in counts} if len(counts) > 1 else {}
    solo = {"players": _figures_by_name(t.solo_wins, t.solo_games),
            "ai": _figures_by_name(t.ai_wins, t.ai_games)} if t.solo_games else None

    # Per card: how often played, and how often its player went on to win (with its interval);
    # where the engine says what each seat held, how often its holder played it and won.
    in_deck = _in_deck_figures(t, seat_cards or {})
    cards = [{"card": c, "plays": t.card_plays[c], "matches": t.card_matches[c],
              "win_rate": round(t.card_wins[c] / t.card_matches[c], 3),
              "ci95": figures(t.card_wins[c], t.card_matches[c])["ci95"],
              "in_deck": in_deck.get(c),
              "play_rate": round(t.card_matches[c] / in_deck[c]["games"], 3) if c in in_deck else None}
             for c in sorted(t.card_plays, key=lambda c: (-t.card_plays[c], c))]
    candidates = pool or set(game.cards)
    never_played = sorted(candidates - set(t.card_plays)) if t.card_plays else []

    conflicts = [c.as_dict() | {"count": 1} for c in static]
    conflicts += [{**c.as_dict(), "count": n} for c, n in t.conflicts.summary()]

    # Per setup (a deck pairing and seating, a box, a player count, a format) and per bot: a deck's
    # overall rate mixes the setups it played in, and with unlike bots the seat a bot held.
    setups = [_setup_row(label, row) for label, row in sorted(t.setups.items())]
    bot_rates = {b: round(t.bot_wins[b] / t.bot_games[b], 3) for b in sorted(t.bot_games)}
    return {
        "game": game.id, "name": game.name, "seed": seed, "bots": list(bots),
        "rules": rules_played(game, variants),
        "matches": t.matches, "finished": t.finished,
        "completion_rate": round(t.finished / t.matches, 4) if t.matches else 0.0,
        "draws": t.draws,
        "first_player": {"wins": t.first_wins, "decisive": t.decisive,
                         "win_rate": round(t.first_wins / t.decisive, 4) if t.decisive else None,
                         "ci95": [round(lo, 4), round(hi, 4)]},
        "length": _length_figures(t),
        "seats": seat_rates, "matchups": matrix, "balance": balance,
        "seat_figures": _figures_by_name(t.seat_wins, t.seat_games, names),
        "matchup_figures": matchup_figures, "seats_by_players": seats_by_players, "solo": solo,
        "setups": setups,
        "bot_win_rates": bot_rates if len(bot_rates) > 1 else {},
        "bot_figures": _figures_by_name(t.bot_wins, t.bot_games) if len(bot_rates) > 1 else {},
        "matchups_many_seats": t.many_seats,
        "cards": cards, "never_played": never_played, "card_count": len(game.cards),
        "pool_count": len(pool) or None,
        "conflicts": conflicts,
        "speed": {"seconds": round(seconds, 2), "actions": t.actions,
                  "matches_per_s": round(t.matches / seconds, 1) if seconds else None,
                  "actions_per_s": round(t.actions / seconds) if seconds else None},
    }


def _in_deck_figures(t: Tally, seat_cards: dict) -> dict[str, dict]:
    """By card, the finished matches a seat held it in its own cards, and how many that seat won:
    each setup's per-seat wins, added over the cards the seat held (no per-match cost)."""
    wins, games = Counter(), Counter()
    for label, held in seat_cards.items():
        row = t.setups.get(label)
        if row is None:
            continue
        for seat, cards in enumerate(held):
            for card in cards:
                games[card] += row["finished"]
                wins[card] += row["wins"][seat]
    return _figures_by_name(wins, games)


def _setup_row(label: str, counts: dict) -> dict:
    finished, decisive = counts["finished"], counts["decisive"]
    return {"setup": label, "seats": list(counts["seats"]), "matches": counts["matches"],
            "finished": finished, "draws": counts["draws"],
            "seat_win_rates": [round(w / finished, 3) if finished else None for w in counts["wins"]],
            "first_player_win_rate": round(counts["first_wins"] / decisive, 3) if decisive else None}


def _length_figures(t: Tally) -> dict:
    """Match length in actions over the finished matches: the figures of the sorted list of them."""
    if not t.finished:
        return {"unit": "actions", "mean": 0, "stdev": 0, "min": 0, "p10": 0.0, "median": 0.0,
                "p90": 0.0, "max": 0, "histogram": []}
    return {"unit": "actions", "mean": round(t.length_mean(), 1), "stdev": round(t.length_stdev(), 1),
            "min": t.length_at(0), "p10": percentile(t, 0.1), "median": percentile(t, 0.5),
            "p90": percentile(t, 0.9), "max": t.length_at(t.finished - 1), "histogram": _histogram(t)}


def _never_played_lines(report: dict, names_shown: int = 8) -> list[str]:
    never, pool, total = report["never_played"], report.get("pool_count"), report["card_count"]
    if not report["cards"] or not (never or pool):
        return []
    if not pool:
        return [f"  never played: {len(never)} of {total} cards "
                "(cards in none of the decks played are counted too)"]
    shown = ", ".join(never[:names_shown]) + (f" and {len(never) - names_shown} more"
                                               if len(never) > names_shown else "")
    lines = [f"  never played: {len(never)} of the {pool} cards in the decks played: {shown}" if never
             else f"  never played: none of the {pool} cards in the decks played"]
    if pool < total:
        lines.append(f"  ({total - pool} of the game's {total} cards are in none of those decks)")
    return lines


def _never_played_html(report: dict) -> str:
    never, pool, total = report["never_played"], report.get("pool_count"), report["card_count"]
    if not report["cards"] or not (never or pool):
        return ""
    names = ", ".join(html.escape(n) for n in never)
    if not pool:
        return f"<p>Never played ({len(never)} of the game's {total} cards, in a deck or not): {names}.</p>"
    outside = (f" {total - pool} of the game's {total} cards are in none of those decks."
               if pool < total else "")
    if not never:
        return f"<p>Every one of the {pool} cards in the decks played was played.{outside}</p>"
    return f"<p>Never played ({len(never)} of the {pool} cards in the decks played): {names}.{outside}</p>"


def _histogram(t: Tally, bins: int = 12) -> list[dict]:
    lo, hi = t.length_at(0), t.length_at(t.finished - 1)
    width = max(1, math.ceil((hi - lo + 1) / bins))
    counts: Counter = Counter()
    for length, n in t.lengths.items():
        counts[(length - lo) // width] += n
    return [{"from": lo + i * width, "to": lo + (i + 1) * width - 1, "count": counts.get(i, 0)}
            for i in range(math.ceil((hi - lo + 1) / width))]


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def format_text(report: dict, top_cards: int = 12) -> str:
    length = report["length"]
    speed = report["speed"]
    lines = [
        f"{report['name']}: {report['matches']} matches, bots {' vs '.join(report['bots'])}, "
        f"seeds {report['seed']}..{report['seed'] + report['matches'] - 1}",
        "",
        f"  rules                {rules_words(report['rules'])}",
        f"  completion rate      {_pct(report['completion_rate'])} ({report['finished']} finished)",
        f"  draws                {report['draws']}",
        f"  first player wins    {_first_player_words(report)}",
        f"  length (actions)     mean {length['mean']}, median {length['median']:g}, "
        f"p10-p90 {length['p10']:g}-{length['p90']:g}, max {length['max']}",
        f"  balance              {report['balance'] if report['balance'] is not None else '-'} "
        "(1 - largest win-rate gap between decks)",
        f"  speed                {speed['matches_per_s']} matches/s, {speed['actions_per_s']} actions/s",
    ]
    lines += _seat_lines(report)
    lines += _matchup_lines(report)
    lines += _setup_lines(report)
    lines += _variant_lines(report)
    if report["cards"]:
        lines += ["", f"  most played cards ({len(report['cards'])} different ones played; "
                      "win rate of the player who played it)"]
        shown = report["cards"][:top_cards]
        width = max(len(c["card"]) for c in shown)
        lines += [f"    {c['card']:{width}} {c['plays']:7} plays  {_pct(c['win_rate']):>6}  "
                  f"(95% CI {_interval(c['ci95'])}, {c['matches']} matches){_in_deck_words(c)}"
                  for c in shown]
    lines += _never_played_lines(report)
    lines += ["", f"  rule conflicts: {len(report['conflicts']) or 'none'}"]
    for c in report["conflicts"]:
        seed = f"seed {c['seed']}" if c["seed"] is not None else "every match"
        lines.append(f"    [{c['kind']}] {c['message']} ({seed}, {c['count']}x"
                     f"{', ' + c['setup'] if c['setup'] else ''})")
    return "\n".join(lines)


def _in_deck_words(card: dict) -> str:
    deck = card["in_deck"]
    if not deck:
        return ""
    return (f"; played in {_pct(card['play_rate'])} of {deck['games']} matches in a deck, deck won "
            f"{_pct(deck['win_rate'])} (95% CI {_interval(deck['ci95'])})")


def _first_player_words(report: dict) -> str:
    fp = report["first_player"]
    if not fp["decisive"] and report.get("solo"):
        return "- (every match was against the game's AI, whose opening is no player's)"
    return (f"{_pct(fp['win_rate'])} of {fp['decisive']} decisive "
            f"(95% CI {_pct(fp['ci95'][0])}-{_pct(fp['ci95'][1])})")


def _interval(ci95) -> str:
    return f"{100 * ci95[0]:.1f}-{_pct(ci95[1])}"


def _figure_words(f: dict) -> str:
    """A win rate for people: `61.0%  (95% CI 55.2-66.5%, 300 matches)`."""
    return f"{_pct(f['win_rate']):>6}  (95% CI {_interval(f['ci95'])}, {f['games']} matches)"


def _figure_table(title: str, rows: dict) -> list[str]:
    if not rows:
        return []
    width = max(map(len, rows))     # (never cut: two names that start alike must not read alike)
    return ["", f"  {title}", *(f"    {name:{width}}  {_figure_words(f)}" for name, f in rows.items())]


def _seat_lines(report: dict) -> list[str]:
    """Win rate by deck or character: by player count when the matches had several; a solo mode's
    players against the game's AI apart (the AI's seats are no deck a player chose)."""
    lines = []
    if report.get("seats_by_players"):
        for count, rows in report["seats_by_players"].items():
            lines += _figure_table(f"win rate by deck / character, {count} players", rows)
    else:
        lines += _figure_table("win rate by deck / character", report.get("seat_figures") or {})
    solo = report.get("solo")
    if solo:
        lines += _figure_table("players against the game's AI (solo mode)", solo["players"])
        lines += _figure_table("the game's AI seats (solo mode)", solo["ai"])
    return lines


def _matchup_lines(report: dict) -> list[str]:
    """Row beats column, with each cell's interval; columns are numbered after the rows so that no
    name is cut to fit a column."""
    names = list(report["matchups"])
    cells = report.get("matchup_figures") or {}
    if len(names) < 2 or not any(f for row in cells.values() for f in row.values()):
        return []
    width = max(len(name) for name in names) + len(str(len(names))) + 3     # "#N name "

    def cell(f):
        if f is None:
            return "-"
        return f"{_pct(f['win_rate'])} ({100 * f['ci95'][0]:.0f}-{100 * f['ci95'][1]:.0f})"

    column = max(len(cell(f)) for row in cells.values() for f in row.values())
    note = _many_seats_note(report)
    lines = ["", "  matchups (row beats column; 95% interval in brackets)", *([f"  {note}"] if note else []),
             "    " + " " * width + " ".join(f"{'#' + str(i):>{column}}" for i in range(1, len(names) + 1))]
    for i, name in enumerate(names, 1):
        lines.append(f"    {'#' + str(i) + ' ' + name:{width}}"
                     + " ".join(f"{cell(cells[name][b]):>{column}}" for b in names))
    return lines


def variant_row(variant, report: dict | None, note: str | None = None) -> dict:
    """One line of a report's "by variant" table: a variant's own sample matches, summed up."""
    row = {"id": variant.id, "name": variant.name, "source": variant.source, "note": note}
    if report is not None:
        row.update({"matches": report["matches"], "seed": report["seed"],
                    "completion_rate": report["completion_rate"], "draws": report["draws"],
                    "first_player_win_rate": report["first_player"]["win_rate"],
                    "mean_length": report["length"]["mean"], "balance": report["balance"],
                    "conflicts": len(report["conflicts"])})
    return row


def _variant_lines(report: dict) -> list[str]:
    rows = report.get("variants") or []
    if not rows:
        return []
    def label(r):
        return f"{r['id']} ({'house' if r['source'] == 'house' else 'rulebook'})"

    width = max(28, *(len(label(r)) for r in rows))
    lines = ["", "  by variant (each on its own, against the published rules above)",
             f"    {'variant':{width}} {'matches':>7} {'done':>7} {'draws':>6} {'first':>7} {'length':>7} "
             f"{'conflicts':>9}"]
    for r in rows:
        name = label(r)
        if r.get("matches") is None:
            lines.append(f"    {name:{width}} {r['note']}")
            continue
        lines.append(f"    {name:{width}} {r['matches']:7} {_pct(r['completion_rate']):>7} "
                     f"{r['draws']:6} {_pct(r['first_player_win_rate']):>7} {r['mean_length']:7} "
                     f"{r['conflicts']:9}")
    return lines


def _variant_html(report: dict) -> str:
    rows = report.get("variants") or []
    if not rows:
        return ""
    e = html.escape

    def cells(r):
        if r.get("matches") is None:
            return f'<td colspan="6">{e(r["note"] or "")}</td>'
        return (f"<td>{r['matches']}</td><td>{_pct(r['completion_rate'])}</td><td>{r['draws']}</td>"
                f"<td>{_pct(r['first_player_win_rate'])}</td><td>{r['mean_length']}</td>"
                f"<td>{r['conflicts']}</td>")

    body = "".join(f"<tr><td>{e(r['id'])} ({e(r['name'])}, {e(r['source'])})</td>{cells(r)}</tr>"
                   for r in rows)
    return ("<h2>By variant</h2><p>Each variant on its own; the figures above play the published "
            "rules.</p><table><tr><th>variant</th><th>matches</th><th>completion</th><th>draws</th>"
            f"<th>first player wins</th><th>mean length</th><th>rule conflicts</th></tr>{body}</table>")


def _setup_lines(report: dict) -> list[str]:
    """The by-setup and by-bot tables of the text report (when there is more than one)."""
    lines = []
    if len(report["setups"]) > 1:
        lines += ["", "  by setup (first player's win rate; each seat's, in seat order)"]
        width = max(len(s["setup"]) for s in report["setups"])
        for s in report["setups"]:
            first = _pct(s["first_player_win_rate"])
            lines.append(f"    {s['setup']:{width}} {s['matches']:6} matches  first {first:>6}  "
                         + " / ".join(_pct(rate) for rate in s["seat_win_rates"]))
    lines += _figure_table("win rate by bot", report.get("bot_figures") or {})
    return lines


def _setup_html(report: dict) -> str:
    e = html.escape
    out = ""
    if len(report["setups"]) > 1:
        def seat_rates(s):
            return ", ".join(f"{e(seat)} {_pct(rate)}"
                             for seat, rate in zip(s["seats"], s["seat_win_rates"], strict=True))

        rows = "".join(f"<tr><td>{e(s['setup'])}</td><td>{s['matches']}</td><td>{s['finished']}</td>"
                       f"<td>{s['draws']}</td><td>{_pct(s['first_player_win_rate'])}</td>"
                       f"<td>{seat_rates(s)}</td></tr>" for s in report["setups"])
        out += ("<h2>By setup</h2><table><tr><th>setup</th><th>matches</th><th>finished</th><th>draws</th>"
                f"<th>first player wins</th><th>win rate by seat</th></tr>{rows}</table>")
    if report.get("bot_figures"):
        out += "<h2>By bot</h2>" + _figure_table_html("Win rate of the seats each bot played",
                                                      report["bot_figures"])
    return out


def _figure_table_html(title: str, rows: dict) -> str:
    if not rows:
        return ""
    e = html.escape
    body = "".join(f"<tr><td>{e(name)}</td><td>{_pct(f['win_rate'])}</td><td>{_interval(f['ci95'])}</td>"
                   f"<td>{f['games']}</td></tr>" for name, f in rows.items())
    return (f"<h3>{e(title)}</h3><table><tr><th></th><th>win rate</th><th>95% interval</th>"
            f"<th>matches</th></tr>{body}</table>")


def _seats_html(report: dict) -> str:
    """The figures _seat_lines prints, as tables."""
    out = ""
    if report.get("seats_by_players"):
        for count, rows in report["seats_by_players"].items():
            out += _figure_table_html(f"{count} players", rows)
    else:
        out += _figure_table_html("All matches", report.get("seat_figures") or {})
    solo = report.get("solo")
    if solo:
        out += _figure_table_html("Players against the game's AI (solo mode)", solo["players"])
        out += _figure_table_html("The game's AI seats (solo mode)", solo["ai"])
    return out


def _win_rate_chart(rates: dict[str, float]) -> str:
    """Win rate by deck or character as horizontal bars, with the even line at 50%."""
    if len(rates) < 2:
        return ""
    e = html.escape
    label_w, bar_w, row_h = max(190, 7 * max(map(len, rates)) + 12), 320, 22   # (names never cut)
    rows = []
    for i, (name, rate) in enumerate(rates.items()):
        y, end = i * row_h, label_w + bar_w * rate
        rows.append(f'<text x="{label_w - 6}" y="{y + 15}" font-size="12" text-anchor="end">'
                    f'{e(name)}</text>'
                    f'<rect x="{label_w}" y="{y + 4}" width="{bar_w * rate:.1f}" height="{row_h - 8}" '
                    f'fill="#4a78b5"><title>{e(name)}: {_pct(rate)}</title></rect>'
                    f'<text x="{end + 4:.1f}" y="{y + 15}" font-size="11">{_pct(rate)}</text>')
    height = len(rates) * row_h
    even = label_w + bar_w / 2
    return (f'<svg width="{label_w + bar_w + 60}" height="{height + 16}" role="img">{"".join(rows)}'
            f'<line x1="{even}" y1="0" x2="{even}" y2="{height}" stroke="#c33" stroke-dasharray="4 3"/>'
            f'<text x="{even}" y="{height + 12}" font-size="10" text-anchor="middle">50%</text></svg>')


def format_html(report: dict) -> str:
    """A self-contained page (inline SVG charts, no scripts, no network)."""
    e = html.escape
    fp = report["first_player"]
    hist = report["length"]["histogram"]
    peak = max((b["count"] for b in hist), default=1) or 1
    bar_w = 34
    bars = "".join(
        f'<rect x="{i * bar_w + 4}" y="{150 - 140 * b["count"] / peak:.1f}" width="{bar_w - 6}" '
        f'height="{140 * b["count"] / peak:.1f}" fill="#4a78b5"><title>{b["from"]}-{b["to"]}: '
        f'{b["count"]}</title></rect>'
        f'<text x="{i * bar_w + 4}" y="166" font-size="9">{b["from"]}</text>'
        for i, b in enumerate(hist))
    svg = f'<svg width="{len(hist) * bar_w + 10}" height="170" role="img">{bars}</svg>'
    names = list(report["matchups"])

    figures_of = report.get("matchup_figures") or {}

    def cell(a, b):
        v, f = report["matchups"][a][b], figures_of.get(a, {}).get(b)
        if v is None:
            return "<td>-</td>"
        shade = int(255 - 120 * abs(v - 0.5) * 2)
        colour = f"rgb({255 if v < 0.5 else shade},{shade},{255 if v > 0.5 else shade})"
        interval = f"<br><small>{_interval(f['ci95'])}, {f['games']}</small>" if f else ""
        return f'<td style="background:{colour}">{_pct(v)}{interval}</td>'

    matchup = "".join(f"<tr><th>{e(a)}</th>" + "".join(cell(a, b) for b in names)
                      + "</tr>" for a in names)
    note = _many_seats_note(report)
    many_seats = f"<p>{e(note)}</p>" if note else ""
    # (a bar per deck over all matches would mix player counts: their tables say it instead)
    chart = "" if report.get("seats_by_players") else _win_rate_chart(report["seats"])
    cards = "".join(f"<tr><td>{e(c['card'])}</td><td>{c['plays']}</td><td>{c['matches']}</td>"
                    f"<td>{_pct(c['win_rate'])}</td><td>{_interval(c['ci95'])}</td>"
                    + (f"<td>{_pct(c['play_rate'])}</td><td>{_pct(c['in_deck']['win_rate'])}<br><small>"
                       f"{_interval(c['in_deck']['ci95'])}, {c['in_deck']['games']}</small></td>"
                       if c["in_deck"] else "<td>-</td><td>-</td>") + "</tr>"
                    for c in report["cards"])
    conflicts = "".join(f"<tr><td>{e(c['kind'])}</td><td>{e(c['message'])}</td><td>{c['seed']}</td>"
                        f"<td>{e(str(c['setup'] or ''))}</td><td>{c['count']}</td></tr>"
                        for c in report["conflicts"]) or '<tr><td colspan="5">none</td></tr>'
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{e(report['name'])}: sample matches</title>
<style>body{{font:14px/1.4 sans-serif;margin:2em;max-width:60em}}
table{{border-collapse:collapse;margin:1em 0}}
td,th{{border:1px solid #ccc;padding:3px 8px;text-align:right}}th,td:first-child{{text-align:left}}
h2{{margin-top:1.6em}}</style>
</head><body>
<h1>{e(report['name'])}: {report['matches']} sample matches</h1>
<p>Rules: {e(rules_words(report['rules']))}.
Bots: {e(' vs '.join(report['bots']))}. Seeds {report['seed']} to {report['seed'] + report['matches'] - 1}.
Completion rate {_pct(report['completion_rate'])}; draws {report['draws']};
first player wins {_pct(fp['win_rate'])} (95% CI {_pct(fp['ci95'][0])} to {_pct(fp['ci95'][1])});
balance {report['balance']}.</p>
<h2>Match length (actions)</h2>{svg}
{f"<h2>Win rate by deck / character</h2>{chart}" if chart else ""}
{_seats_html(report)}
<h2>Matchups (row beats column; 95% interval and matches below each)</h2>{many_seats}
<table><tr><th></th>{''.join(f'<th>{e(n)}</th>' for n in names)}</tr>{matchup}</table>
{_setup_html(report)}
{_variant_html(report)}
<h2>Rule conflicts</h2>
<table><tr><th>kind</th><th>what</th><th>seed</th><th>setup</th><th>count</th></tr>{conflicts}</table>
<h2>Cards</h2>
<p>Win rate: of the player who played the card. When in the deck: how often the card's holder
played it, and how often a seat holding it won (95% interval and matches below).</p>
<table><tr><th>card</th><th>plays</th><th>matches</th><th>win rate</th>
<th>95% interval</th><th>play rate when in the deck</th><th>win rate when in the deck</th></tr>{cards}</table>
{_never_played_html(report)}
</body></html>
"""


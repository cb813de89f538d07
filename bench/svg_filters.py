"""What resvg's slow filter effects cost, against cardgen's estimate of their work (issue 23).

cardgen refuses an SVG whose feMorphology, feTurbulence and feConvolveMatrix effects add up to
more than svg.MAX_FILTER_WORK work units at the size it is drawn (CleanSvg.drawing_problem). Each
row draws one effect over a whole poker card at 300 dpi (825 x 1125 px) in a child process, with
a time limit, and prints the estimate beside the seconds it took: the seconds per 10^9 units
should come out alike from row to row, and the limit's rows in a few seconds.

    PYTHONPATH=. python bench/svg_filters.py [--limit 60]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgen.render.svg import MAX_FILTER_WORK, clean_svg  # noqa: E402

WIDTH, HEIGHT = 825, 1125
EFFECTS = [
    ("feMorphology", 'radius="{}"', [0.5, 1, 2, 3]),
    ("feTurbulence", 'baseFrequency="0.05" numOctaves="{}"', [1, 4, 8, 30]),
    ("feConvolveMatrix", 'order="{0}" kernelMatrix="{0}x{0} ones"', [5, 15, 30, 60]),
]
DRAW = """
import sys, time
sys.path.insert(0, {root!r})
from cardgen.render.svg import clean_svg
import resvg_py
svg = clean_svg(sys.stdin.buffer.read())
t = time.perf_counter()
resvg_py.svg_to_bytes(svg_string=svg.text, width={w}, height={h})
print(time.perf_counter() - t)
"""


def drawing(kind: str, attrs: str) -> bytes:
    if "x" in attrs and " ones" in attrs:      # (resvg skips a convolution without its whole kernel)
        side = int(attrs.split('"')[1])
        attrs = attrs.replace(f"{side}x{side} ones", " ".join(["1"] * side * side))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><filter id="f"><{kind} {attrs}/>'
            f'</filter><rect width="100" height="100" filter="url(#f)"/></svg>').encode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=60.0, help="seconds a draw may take (default: 60)")
    args = parser.parse_args()
    root = str(Path(__file__).resolve().parent.parent)
    print(f"one effect over {WIDTH} x {HEIGHT} px; cardgen's limit {MAX_FILTER_WORK:.1e} units")
    print(f"{'effect':18} {'size':>6} {'units':>9} {'seconds':>9} {'s per 1e9':>10} {'cardgen':>8}")
    for kind, attrs, sizes in EFFECTS:
        for size in sizes:
            svg = clean_svg(drawing(kind, attrs.format(size)))
            scale = max(WIDTH / svg.width, HEIGHT / svg.height)
            units = sum(f.work_per_pixel(scale) for f in svg.filters) * WIDTH * HEIGHT
            verdict = "refuses" if svg.drawing_problem(WIDTH, HEIGHT) else "draws"
            try:
                run = subprocess.run([sys.executable, "-c", DRAW.format(root=root, w=WIDTH, h=HEIGHT)],
                                     input=drawing(kind, attrs.format(size)), capture_output=True,
                                     timeout=args.limit, check=True)
                seconds = float(run.stdout)
                shown, per = f"{seconds:9.2f}", f"{seconds / units * 1e9:10.2f}"
            except subprocess.TimeoutExpired:
                shown, per = f">{args.limit:8.0f}", f"{'-':>10}"
            print(f"{kind:18} {size:>6g} {units:9.2e} {shown} {per} {verdict:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

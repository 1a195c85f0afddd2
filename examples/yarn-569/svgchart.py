"""A small deterministic SVG line chart (python3 standard library only), for the YARN-569
example's combined report (report.py) and the tunables charts in docs/ (sweep.py).

    from svgchart import line_chart
    svg = line_chart("Queue A", [("allocated", [(0, 0), (1, 4.5)]), ("guaranteed", pts)],
                     x_label="seconds", y_label="GB", hlines=[("A's guarantee", 128)])
    open("a.svg", "w").write(svg)

Series are lists of (x, y) points drawn as polylines in palette order (the same ten colours
as Spindle's report.html; an explicit "#rrggbb" can be given as a third tuple member). Flat
runs lose their interior points (the line is the same) and long series are reduced to their
min/max per bucket, so every peak stays visible. Numbers are printed with fixed decimals, so
the same data give byte-identical SVG.
"""
import html
import math

PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
           "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"]
DASHES = ["", "6 3", "2 2", "8 3 2 3"]
W, H = 720, 360
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 34, 46


def _drop_flat(points):
    out = []
    for i, p in enumerate(points):
        if 0 < i < len(points) - 1 and points[i - 1][1] == p[1] == points[i + 1][1]:
            continue
        out.append(p)
    return out


def _minmax(points, limit):
    if len(points) <= limit:
        return points
    first, last, inner = points[0], points[-1], points[1:-1]
    buckets = max(1, (limit - 2) // 2)
    out = [first]
    n = len(inner)
    for b in range(buckets):
        chunk = inner[b * n // buckets:(b + 1) * n // buckets]
        if not chunk:
            continue
        lo = min(range(len(chunk)), key=lambda i: (chunk[i][1], i))
        hi = max(range(len(chunk)), key=lambda i: (chunk[i][1], -i))
        for i in sorted({lo, hi}):
            out.append(chunk[i])
    out.append(last)
    return out


def _nice_step(span, target=5):
    if span <= 0:
        return 1.0
    raw = span / target
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 4, 5, 10):
        if m * mag >= raw:
            return m * mag
    return 10 * mag


def _fmt(v, step):
    decimals = 0
    while abs(step * 10 ** decimals - round(step * 10 ** decimals)) > 1e-9 and decimals < 6:
        decimals += 1
    s = f"{v:.{decimals}f}"
    return "0" if float(s) == 0 else s


def line_chart(title, series, x_label="", y_label="", hlines=(), y_max=None, x_range=None,
               y_clip=None, max_points=1200, legend_cols=3):
    """series: [(name, [(x, y), ...]) or (name, points, colour)]; hlines: [(label, y)];
    y_clip: values above it are drawn at it (a series far above the rest stays readable)."""
    prepared = []
    for i, s in enumerate(series):
        name, pts = s[0], sorted(s[1])
        if x_range:
            pts = [p for p in pts if x_range[0] <= p[0] <= x_range[1]]
        if y_clip is not None:
            pts = [(x, min(y, y_clip)) for x, y in pts]
        colour = s[2] if len(s) > 2 and s[2] else PALETTE[i % len(PALETTE)]
        prepared.append((name, _minmax(_drop_flat(pts), max_points), colour,
                         DASHES[(i // len(PALETTE)) % len(DASHES)]))
    xs = [p[0] for _, pts, _, _ in prepared for p in pts]
    ys = [p[1] for _, pts, _, _ in prepared for p in pts] + [y for _, y in hlines]
    x0, x1 = x_range if x_range else ((min(xs), max(xs)) if xs else (0, 1))
    if x1 <= x0:
        x1 = x0 + 1
    y_top = max(ys + [y_max or 0, 1e-9])
    ystep = _nice_step(y_top)
    y1 = math.ceil(y_top / ystep - 1e-9) * ystep
    xstep = _nice_step(x1 - x0, 6)
    legend_rows = (len(prepared) + len(hlines) + legend_cols - 1) // legend_cols
    height = H + 18 * legend_rows
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM
    sx = lambda x: LEFT + (x - x0) / (x1 - x0) * pw
    sy = lambda y: TOP + ph - y / y1 * ph
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height}" '
           f'viewBox="0 0 {W} {height}" font-family="sans-serif" font-size="11">',
           f'<rect width="{W}" height="{height}" fill="#ffffff"/>',
           f'<text x="{W / 2:.1f}" y="18" text-anchor="middle" font-size="13" '
           f'font-weight="bold">{html.escape(title)}</text>']
    y = 0.0
    while y <= y1 + 1e-9:
        out.append(f'<line x1="{LEFT}" y1="{sy(y):.1f}" x2="{LEFT + pw}" y2="{sy(y):.1f}" '
                   f'stroke="#e4e4e4"/>')
        out.append(f'<text x="{LEFT - 6}" y="{sy(y) + 4:.1f}" text-anchor="end">'
                   f'{_fmt(y, ystep)}</text>')
        y += ystep
    x = math.ceil(x0 / xstep - 1e-9) * xstep
    while x <= x1 + 1e-9:
        out.append(f'<line x1="{sx(x):.1f}" y1="{TOP}" x2="{sx(x):.1f}" y2="{TOP + ph}" '
                   f'stroke="#f0f0f0"/>')
        out.append(f'<text x="{sx(x):.1f}" y="{TOP + ph + 15}" text-anchor="middle">'
                   f'{_fmt(x, xstep)}</text>')
        x += xstep
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" '
               f'stroke="#888"/>')
    out.append(f'<text x="{LEFT + pw / 2:.1f}" y="{TOP + ph + 32}" text-anchor="middle">'
               f'{html.escape(x_label)}</text>')
    out.append(f'<text x="14" y="{TOP + ph / 2:.1f}" text-anchor="middle" '
               f'transform="rotate(-90 14 {TOP + ph / 2:.1f})">{html.escape(y_label)}</text>')
    for label, yv in hlines:
        out.append(f'<line x1="{LEFT}" y1="{sy(yv):.1f}" x2="{LEFT + pw}" y2="{sy(yv):.1f}" '
                   f'stroke="#555" stroke-dasharray="4 4"/>')
    for name, pts, colour, dash in prepared:
        inside = [p for p in pts if x0 <= p[0] <= x1]
        if not inside:
            continue
        d = " ".join(f"{sx(px):.1f},{sy(py):.1f}" for px, py in inside)
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.6"{extra} '
                   f'points="{d}"><title>{html.escape(name)}</title></polyline>')
    entries = [(n, c, d) for n, _, c, d in prepared] + [(l, "#555", "4 4") for l, _ in hlines]
    col_w = (W - LEFT - RIGHT) / legend_cols
    for i, (name, colour, dash) in enumerate(entries):
        lx = LEFT + (i % legend_cols) * col_w
        ly = H + (i // legend_cols) * 18 - 4
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<line x1="{lx:.1f}" y1="{ly - 4}" x2="{lx + 18:.1f}" y2="{ly - 4}" '
                   f'stroke="{colour}" stroke-width="2"{extra}/>')
        out.append(f'<text x="{lx + 24:.1f}" y="{ly}">{html.escape(name)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"

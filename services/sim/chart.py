"""An SVG line chart of escape rate against DC, with its 95% band, written by hand."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

W, H, PAD = 640, 400, 56


def escape_rate_svg(
    points: Sequence[tuple[int, float, float, float]], title: str = "Escape rate by DC"
) -> str:
    """`points` are (dc, rate, ci_low, ci_high); the y axis runs 0..1."""
    if not points:
        raise ValueError("no points to chart")
    dcs = [p[0] for p in points]
    lo, hi = min(dcs), max(dcs)
    span = max(1, hi - lo)

    def x(dc: float) -> float:
        return PAD + (dc - lo) / span * (W - 2 * PAD)

    def y(rate: float) -> float:
        return H - PAD - rate * (H - 2 * PAD)

    line = " ".join(f"{x(d):.1f},{y(r):.1f}" for d, r, _, _ in points)
    band = [f"{x(d):.1f},{y(h):.1f}" for d, _, _, h in points] + [
        f"{x(d):.1f},{y(lw):.1f}" for d, _, lw, _ in reversed(points)
    ]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
        f'viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">',
        f'<rect width="{W}" height="{H}" fill="white"/>',
        f'<text x="{W / 2}" y="24" text-anchor="middle" font-size="16">{escape(title)}</text>',
    ]
    for tick in range(0, 11, 2):
        r = tick / 10
        parts.append(
            f'<line x1="{PAD}" y1="{y(r):.1f}" x2="{W - PAD}" y2="{y(r):.1f}" stroke="#ddd"/>'
            f'<text x="{PAD - 6}" y="{y(r) + 4:.1f}" text-anchor="end">{tick * 10}%</text>'
        )
    for d in dcs:
        parts.append(f'<text x="{x(d):.1f}" y="{H - PAD + 18}" text-anchor="middle">{d}</text>')
    parts += [
        f'<polygon points="{" ".join(band)}" fill="#4a7ab5" fill-opacity="0.2"/>',
        f'<polyline points="{line}" fill="none" stroke="#4a7ab5" stroke-width="2"/>',
        *(
            f'<circle cx="{x(d):.1f}" cy="{y(r):.1f}" r="3" fill="#4a7ab5"/>'
            for d, r, _, _ in points
        ),
        f'<text x="{W / 2}" y="{H - 12}" text-anchor="middle">Maze DC</text>',
        f'<text x="16" y="{H / 2}" transform="rotate(-90 16 {H / 2})" '
        'text-anchor="middle">Escape rate (95% CI)</text>',
        "</svg>",
    ]
    return "\n".join(parts)

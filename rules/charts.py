"""
Charts of exact odds for the website: an `OddsView`'s distribution (successes, hits, net
successes ...) as an SVG bar chart, rendered by the server, with nothing loaded from outside.

Bars are the exact chances (Fractions) scaled to the tallest; each bar carries its percentage
(one decimal) as a tooltip (`<title>`), rounded as every odds figure is (`rules.display.shares`:
the bars sum to 100%, equal chances show equal figures; a chance under 0.05% reads "<0.1%"). Every text is XML-escaped. Coordinates are written
with at most one decimal, so the output is the same on every machine (tests compare it
exactly).

Pure Python, standard library only.
"""

from fractions import Fraction
from xml.sax.saxutils import escape as xml_escape, quoteattr

from .display import shares

MAX_BARS = 60  # a distribution longer than this is cut at the least likely tail


def _n(value):
    text = f"{float(value):.1f}"
    return text[:-2] if text.endswith(".0") else text


def _pct(p):
    value = float(p) * 100
    if 0 < value < 0.05:
        return "<0.1%"
    return f"{value:.1f}%"


def _bar_figure(p, tenths):
    """A bar's tooltip: the figure +odds prints for it (`tenths`), but "<0.1%" for a chance
    under 0.05%, which a tooltip has room to say."""
    if 0 < p < Fraction(1, 2000):
        return "<0.1%"
    return f"{tenths // 10}.{tenths % 10}%"


def odds_svg(distribution, noun=("success", "successes"), title="", width=480, height=220):
    """
    A distribution `((score, probability), ...)` as an SVG bar chart (a string), or "" when
    there is nothing to draw.
    """
    items = [(score, Fraction(p)) for score, p in distribution]
    if not items:
        return ""
    figures = dict(zip((score for score, _ in items), shares([p for _, p in items])))
    if len(items) > MAX_BARS:
        # Keep the likeliest window of MAX_BARS consecutive scores.
        best = max(range(len(items) - MAX_BARS + 1), key=lambda i: sum(p for _, p in items[i:i + MAX_BARS]))
        items = items[best:best + MAX_BARS]
    left, right, top_margin, bottom = 44, 10, 28, 36
    plot_w, plot_h = width - left - right, height - top_margin - bottom
    base = top_margin + plot_h
    top = max(p for _, p in items) or Fraction(1)
    slot = Fraction(plot_w, len(items))
    gap = slot / 5
    label = title or f"chance of each number of {noun[-1]}"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="odds-chart" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label={quoteattr(label)}>',
        f"<title>{xml_escape(label)}</title>",
        f'<text x="{left}" y="16" class="title">{xml_escape(label)}</text>',
        f'<line x1="{left}" y1="{base}" x2="{left + plot_w}" y2="{base}" stroke="#888"/>',
        f'<text x="{left - 4}" y="{top_margin + 4}" text-anchor="end" class="axis">{xml_escape(_pct(top))}</text>',
    ]
    every = max(1, len(items) // 20)  # at most about 20 score labels under the bars
    for index, (score, p) in enumerate(items):
        x = left + slot * index + gap / 2
        bar_h = p * plot_h / top
        parts.append(
            f'<rect x="{_n(x)}" y="{_n(base - bar_h)}" width="{_n(slot - gap)}" height="{_n(bar_h)}" '
            f'fill="#4a7ab5"><title>{score} {xml_escape(noun[0] if score == 1 else noun[-1])}: '
            f"{xml_escape(_bar_figure(p, figures[score]))}</title></rect>"
        )
        if index % every == 0:
            parts.append(f'<text x="{_n(x + (slot - gap) / 2)}" y="{base + 16}" text-anchor="middle" '
                         f'class="axis">{score}</text>')
    parts.append(f'<text x="{_n(left + Fraction(plot_w, 2))}" y="{height - 4}" text-anchor="middle" '
                 f'class="axis">{xml_escape(noun[-1])}</text>')
    parts.append("</svg>")
    return "".join(parts)

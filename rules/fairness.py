r"""
Are the dice fair? A chi-square goodness-of-fit test of recorded faces, in every system.

Input: how often each face came up, per die size, or per (group label, die size) so that
V5's Hunger dice and regular dice are tested apart (a `rules.engine.DiceGroup` has a label
and a number of sides; `tally` and `counts_from_rows` build the counts). Output: a
`FaceTest` per die size (or per label and size) with the expected count per face, the
statistic, its p-value and a verdict in plain words, and charts of it: `text_chart` (80
columns, for `+dice/fairness`) and `svg_chart` (for the web page, nothing loaded from
outside).

The test. With N faces of a fair k-sided die, each face is expected E = N/k times; the
statistic is X^2 = sum over faces of (observed - E)^2 / E = (k/N) * sum(observed^2) - N,
computed exactly (a Fraction). Under fair dice it follows a chi-square distribution with
k - 1 degrees of freedom, and the p-value (the chance that fair dice stray at least this far)
is the upper regularized incomplete gamma function Q((k-1)/2, X^2/2).

The p-value's method. The degrees of freedom are whole numbers, so Q has closed forms with
finitely many terms (Abramowitz & Stegun 26.4.4 and 26.4.5), with y = X^2/2:

- k - 1 = 2m (even):    Q = e^-y * sum_{j=0}^{m-1} y^j / j!
- k - 1 = 2m + 1 (odd): Q = erfc(sqrt(y)) + e^-y * sum_{j=0}^{m-1} y^(j+1/2) / Gamma(j+3/2)

Every term is positive, so nothing cancels; each is computed as exp(-y + p*log(y) -
lgamma(p+1)) so that no power overflows and e^-y may underflow alone. There is no truncated
series or iterated continued fraction: the only errors are floating-point rounding (a few
units in the last place per term, times y for the exponent), about 1e-13 relative for every
p-value that is not below the smallest float; tested against scipy to 1e-9.

**Rulings** (the rules are silent on the numbers):

- Threshold: p >= 0.01 reads "consistent with fair dice"; p < 0.01 reads "unusual: p = ...".
  A fair die reads "unusual" one time in a hundred, so the word is "unusual", never "unfair".
- "not enough rolls to tell" when the expected count per face is below 5 (the usual
  condition for the chi-square approximation), i.e. fewer than 5k dice of a k-sided die;
  "no rolls" when there are none.
- p-values are shown with 2 significant figures, "p < 0.0001" below 0.0001 and "p > 0.99"
  above 0.99 (so a rounding never shows "p = 1" or "p = 0"); an unusual p that would round
  up to the 0.01 threshold is shown as "p < 0.01".
- `tally(..., only_mark="rerolled")` counts only the dice with that mark: the faces a
  Willpower reroll *kept* were chosen because of what they showed, so a record that counts
  a reroll's whole view would make fair dice look biased. Count a roll's first view in full
  and, for a reroll, only its rerolled dice.

Pure Python, standard library only.
"""

import math
from dataclasses import dataclass
from fractions import Fraction
from xml.sax.saxutils import escape as xml_escape, quoteattr

from .display import escape, fit_width
from .errors import DiceError

THRESHOLD = 0.01  # p below this reads "unusual"
MIN_EXPECTED = 5  # expected count per face below this reads "not enough rolls to tell"
MAX_SIDES = 1000

NO_ROLLS, TOO_FEW, CONSISTENT, UNUSUAL = "no_rolls", "too_few", "consistent", "unusual"
VERDICTS = {
    NO_ROLLS: "no rolls",
    TOO_FEW: "not enough rolls to tell",
    CONSISTENT: "consistent with fair dice",
    UNUSUAL: "unusual",
}


# ---------------------------------------------------------------- the p-value


def _term(y, power):
    """y**power * e**-y / Gamma(power + 1), in logs (no overflow, no early underflow)."""
    return math.exp(-y + power * math.log(y) - math.lgamma(power + 1))


def chi_square_sf(statistic, degrees_of_freedom):
    """
    P(chi-square with `degrees_of_freedom` >= statistic): Q(k/2, statistic/2), by the closed
    forms in the module docstring.

    Raises:
        DiceError: degrees of freedom not a whole number >= 1, or a negative statistic.
    """
    k = degrees_of_freedom
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        raise DiceError("Degrees of freedom are a whole number, 1 or more.")
    if statistic < 0:
        raise DiceError("A chi-square statistic is never negative.")
    y = float(statistic) / 2
    if y == 0:
        return 1.0
    if k % 2 == 0:
        return math.fsum(_term(y, j) for j in range(k // 2))
    return math.erfc(math.sqrt(y)) + math.fsum(_term(y, j + 0.5) for j in range(k // 2))


def chi_square(observed):
    """
    The chi-square statistic of face counts against a fair die (every face equally likely),
    exactly: a Fraction (0 when there are no rolls).
    """
    observed = tuple(observed)
    total = sum(observed)
    if total == 0:
        return Fraction(0)
    return Fraction(len(observed) * sum(o * o for o in observed), total) - total


def format_p(p):
    """'p = 0.43', 'p = 0.0031', 'p < 0.0001', 'p > 0.99'."""
    if p < 0.0001:
        return "p < 0.0001"
    if p > 0.99:
        return "p > 0.99"
    shown = f"{p:.2g}"
    if p < THRESHOLD and float(shown) >= THRESHOLD:
        return "p < 0.01"
    return f"p = {shown}"


# ---------------------------------------------------------------- the test


@dataclass(frozen=True)
class FaceTest:
    """
    The fairness test of one die size (and group label).

    Args:
        sides (int): faces of the die.
        label (str): the dice group's label ("Hunger", "Dice"), or "" for all dice.
        observed (tuple of int): how often faces 1..sides came up.
        statistic (Fraction): chi-square.
        p_value (float): its p-value (1.0 with no rolls).
        verdict_key (str): NO_ROLLS, TOO_FEW, CONSISTENT or UNUSUAL.
    """

    sides: int
    label: str
    observed: tuple
    statistic: Fraction
    p_value: float
    verdict_key: str

    @property
    def total(self):
        return sum(self.observed)

    @property
    def expected(self):
        """Expected count of each face for a fair die (a Fraction)."""
        return Fraction(self.total, self.sides)

    @property
    def degrees_of_freedom(self):
        return self.sides - 1

    @property
    def title(self):
        return f"d{self.sides} {self.label}" if self.label else f"d{self.sides}"

    @property
    def verdict(self):
        """'consistent with fair dice', 'unusual: p = 0.003', 'not enough rolls to tell'."""
        if self.verdict_key == UNUSUAL:
            return f"{VERDICTS[UNUSUAL]}: {format_p(self.p_value)}"
        return VERDICTS[self.verdict_key]


def _check_sides(sides):
    if not isinstance(sides, int) or isinstance(sides, bool) or not 2 <= sides <= MAX_SIDES:
        raise DiceError(f"A die has from 2 to {MAX_SIDES} sides, not {sides!r}.")
    return sides


def _whole(value, what):
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise DiceError(f"{what} must be a whole number, 0 or more, not {value!r}.")
    return value


def observed_faces(counts, sides):
    """
    Counts of faces 1..sides, as a tuple, from a mapping face -> count (missing faces: 0).

    Raises:
        DiceError: bad sides, a face outside 1..sides, a count that is not a whole number >= 0.
    """
    _check_sides(sides)
    observed = [0] * sides
    for face, count in counts.items():
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= sides:
            raise DiceError(f"A d{sides} has no face {face!r}.")
        observed[face - 1] = _whole(count, "A count")
    return tuple(observed)


def face_test(counts, sides, label=""):
    """The `FaceTest` of counts (mapping face -> count) of a `sides`-sided die."""
    observed = observed_faces(counts, sides)
    total = sum(observed)
    statistic = chi_square(observed)
    p_value = chi_square_sf(statistic, sides - 1)
    return FaceTest(sides, str(label), observed, statistic, p_value, judge(total, sides, p_value))


def judge(total, sides, p_value):
    """The verdict key of `total` dice of a `sides`-sided die with this p-value (the Rulings)."""
    if total == 0:
        return NO_ROLLS
    if Fraction(total, sides) < MIN_EXPECTED:
        return TOO_FEW
    if p_value >= THRESHOLD:
        return CONSISTENT
    return UNUSUAL


def fairness_report(counts):
    """
    A `FaceTest` per die size, sorted by sides then label.

    Args:
        counts (mapping): sides -> {face: count}, or (label, sides) -> {face: count} (as
            `tally` makes: V5's Hunger and regular dice apart).
    """
    tests = []
    for key, faces in counts.items():
        label, sides = key if isinstance(key, tuple) else ("", key)
        tests.append(face_test(faces, sides, label))
    return tuple(sorted(tests, key=lambda test: (test.sides, test.label)))


# ---------------------------------------------------------------- counting faces


def _group_parts(group):
    """(label, sides, ((face, marks), ...)) of a DiceGroup or of its `RollView.to_dict` form."""
    if isinstance(group, dict):
        dice = tuple((face, frozenset(marks)) for face, marks in group.get("dice", ()))
        return str(group.get("label", "")), group.get("sides", 10), dice
    return group.label, group.sides, tuple((die.face, die.marks) for die in group.dice)


def tally(groups, only_mark=None):
    """
    Face counts keyed by (group label, sides), from dice groups (`rules.engine.DiceGroup`,
    or the dicts of `RollView.to_dict()["groups"]`).

    Args:
        groups (iterable): the groups of any number of rolls.
        only_mark (str, optional): count only dice with this mark (e.g. "rerolled": see the
            module docstring).

    Returns:
        dict: (label, sides) -> {face: count}.

    Raises:
        DiceError: bad sides, or a face outside 1..sides.
    """
    counts = {}
    for group in groups:
        label, sides, dice = _group_parts(group)
        _check_sides(sides)
        faces = counts.setdefault((label, sides), {})
        for face, marks in dice:
            if only_mark is not None and only_mark not in marks:
                continue
            if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= sides:
                raise DiceError(f"A d{sides} has no face {face!r}.")
            faces[face] = faces.get(face, 0) + 1
    return counts


def counts_from_rows(rows):
    """
    Face counts keyed by (label, sides) from aggregated rows `(label, sides, face, count)`
    (what a database GROUP BY gives); rows for the same face add up.
    """
    counts = {}
    for label, sides, face, count in rows:
        faces = counts.setdefault((str(label), _check_sides(sides)), {})
        faces[face] = faces.get(face, 0) + _whole(count, "A count")
    return counts


def by_sides(counts):
    """Counts keyed by (label, sides) merged over labels: sides -> {face: count}."""
    merged = {}
    for (_, sides), faces in counts.items():
        target = merged.setdefault(sides, {})
        for face, count in faces.items():
            target[face] = target.get(face, 0) + count
    return merged


# ---------------------------------------------------------------- charts


def _expected_text(expected):
    if expected.denominator == 1:
        return f"{expected.numerator:,}"
    return f"{float(expected):,.1f}"


def _scaled(value, top, width):
    """round(value * width / top), halves up, exactly."""
    return int(Fraction(value) * width / top + Fraction(1, 2))


def summary_line(test):
    """'chi-square 7.30, 9 degrees of freedom: consistent with fair dice (p = 0.61)'."""
    if test.verdict_key == NO_ROLLS:
        return "no rolls"
    if test.verdict_key == TOO_FEW:
        return f"{test.verdict} (at least {MIN_EXPECTED * test.sides:,} dice are needed)"
    head = f"chi-square {float(test.statistic):.2f}, {test.degrees_of_freedom} degrees of freedom"
    if test.verdict_key == UNUSUAL:
        return f"{head}: {test.verdict}"
    return f"{head}: {test.verdict} ({format_p(test.p_value)})"


def text_chart(test, width=80):
    """
    The test as lines (Evennia markup: the label is escaped, the rest has no markup
    characters): a header, one bar line per face (`#` observed, `:` where the expected count
    ends; `width` columns, with a bar of at least 10) and the verdict. The header and the
    verdict are sentences: the caller wraps them (`rules.display.wrap`).

        d10 Hunger: 4,000 dice, 400 expected per face
         1 ##################################:#     412 (exp. 400)
    """
    title = escape(test.title)
    if test.total == 0:
        return f"{title}: no rolls"
    width = fit_width(width)  # the bars are as wide as the screen: never wider than 250
    expected = test.expected
    lines = [f"{title}: {test.total:,} dice, {_expected_text(expected)} expected per face"]
    face_width = len(str(test.sides))
    count_width = max(len(f"{count:,}") for count in test.observed)
    suffix = f" (exp. {_expected_text(expected)})"
    bar_width = max(10, width - face_width - 2 - count_width - len(suffix))
    top = max(max(test.observed), expected)
    marker = max(_scaled(expected, top, bar_width) - 1, 0)
    for face, count in enumerate(test.observed, start=1):
        filled = _scaled(count, top, bar_width)
        bar = "".join(
            ":" if i == marker else "#" if i < filled else " " for i in range(bar_width)
        )
        lines.append(f"{face:>{face_width}} {bar} {count:>{count_width},}{suffix}")
    lines.append(summary_line(test))
    return "\n".join(lines)


def _n(value):
    """An SVG coordinate: at most one decimal, no trailing '.0'."""
    text = f"{float(value):.1f}"
    return text[:-2] if text.endswith(".0") else text


def svg_chart(test, width=480, height=240):
    """
    The test as an SVG bar chart (a string, `<svg ...>...</svg>`, no external references):
    a bar per face for the observed count, a line across each bar at the expected count,
    face numbers below, the title and verdict above. Every text is XML-escaped.
    """
    left, right, top_margin, bottom = 40, 10, 44, 24
    plot_w = width - left - right
    plot_h = height - top_margin - bottom
    title = f"{test.title}: {test.total:,} dice"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="fairness-chart" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f"aria-label={quoteattr(title + ', ' + test.verdict)}>",
        f"<title>{xml_escape(title)}</title>",
        f'<text x="{left}" y="16" class="title">{xml_escape(title)}</text>',
        f'<text x="{left}" y="34" class="verdict">{xml_escape(summary_line(test))}</text>',
        f'<line x1="{left}" y1="{top_margin + plot_h}" x2="{left + plot_w}" '
        f'y2="{top_margin + plot_h}" stroke="#888"/>',
    ]
    expected = test.expected
    top = max(max(test.observed), expected)
    scale = Fraction(plot_h) / top if top else 0  # no rolls: flat bars
    slot = Fraction(plot_w, test.sides)
    gap = slot / 5
    base = top_margin + plot_h
    parts.append(f'<text x="{left - 4}" y="{top_margin + 4}" text-anchor="end" class="axis">{top:,.0f}</text>')
    for face, count in enumerate(test.observed, start=1):
        x = left + slot * (face - 1) + gap / 2
        bar_h = count * scale
        exp_y = base - expected * scale
        parts.append(
            f'<rect x="{_n(x)}" y="{_n(base - bar_h)}" width="{_n(slot - gap)}" height="{_n(bar_h)}" '
            f'fill="#4a7ab5"><title>face {face}: {count:,} (expected {_expected_text(expected)})</title></rect>'
        )
        parts.append(
            f'<line x1="{_n(x - gap / 4)}" y1="{_n(exp_y)}" x2="{_n(x + slot - gap + gap / 4)}" '
            f'y2="{_n(exp_y)}" stroke="#d04020" stroke-width="2"/>'
        )
        parts.append(
            f'<text x="{_n(x + (slot - gap) / 2)}" y="{base + 16}" text-anchor="middle" class="axis">{face}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)

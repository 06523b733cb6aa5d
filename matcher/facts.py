"""The fact tokens of a text: its figures and dates, each read as a value.

A claim is checked against its evidence by these (:mod:`matcher.consistency`): a figure
or a date is the same when its *value* is, however it is written.

* **Figures**: integers, decimals, amounts with a currency, percentages, durations and
  quantities with a unit ("24 months", "10 mg": the figure is compared, not the unit).
  Digit groups may be separated by ``,`` ``.`` ``'`` or a (thin, no-break) space:
  ``1,650`` = ``1650`` = ``1 650`` = ``1.650`` (German). A separator that may be either a
  thousands separator or a decimal point (``1,650``, ``1.650``) is read both ways, so a
  text reads as a *set* of values; two figures are the same when their sets meet, and a
  changed digit changes every reading. A scale word multiplies ("$1.2 million").
* **Numbers in words** (English): "three", "twenty-four", "one hundred and fifty",
  "a dozen". "one" is a number only where it is not a pronoun ("no one", "one of").
* **Codes**: policy and form numbers that mix letters and digits ("HO-3", "58VA51") or
  join digit groups by hyphens ("58-0123-4567"): compared by their letters and digits.
* **Dates** in every common form: "06/19/2025", "2025-06-19", "19.06.2025", "June 19,
  2025", "19 June 2025", "19th of June 2025", "Jun. 19", "June 2025", and the month names
  of the corpus's languages (German, French, Spanish). A numeric date with slashes or
  hyphens is read **month first** (US) unless its first number is over 12; with dots,
  **day first** (European) unless its second number is over 12. A two-digit year is
  20YY below 70, else 19YY. A date also offers its year and day as figures, so "in 2025"
  is borne out by "06/19/2025".

Values are strings with a kind prefix: ``n:1650`` (a figure), ``c:ho3`` (a code),
``d:2025-06-19`` (a date; ``d:2025-06-`` and ``d:-06-19`` for a date without a day or a
year).

>>> [(f.text, sorted(f.values)) for f in read_facts("The premium is $1,650.00, due 06/19/25.")]
[('$1,650.00', ['n:1650']), ('06/19/25', ['d:2025-06-19'])]
>>> sorted(read_facts("valid for twenty-four months")[0].values)
['n:24']
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Literal

FigureKind = Literal["number", "date"]

# Separators between digit groups: comma, dot, apostrophe (Swiss), and spaces of all
# widths (no-break, thin, narrow no-break, figure space).
_SPACES = " \u00a0\u2009\u202f\u2007"
_GROUP = ",.'" + _SPACES
_CURRENCY = "$€£¥₹"
_MONTHS: dict[str, int] = {}
for _n, _names in enumerate((
        "january jan januar janvier enero jänner janv",
        "february feb februar fevrier février febrero fev fevr fév févr",
        "march mar marz märz mars marzo maerz",
        "april apr avril abril avr",
        "may mai mayo",
        "june jun juni juin junio",
        "july jul juli juillet julio juil",
        "august aug aout août agosto",
        "september sep sept septembre septiembre setiembre",
        "october oct oktober octobre octubre okt",
        "november nov novembre noviembre",
        "december dec dezember decembre décembre diciembre dez dic"), start=1):
    for _name in _names.split():
        _MONTHS[_name] = _n
_MONTH = r"(?P<{g}>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<{g}>[0-3]?\d)(?:st|nd|rd|th|er|\.|º)?"
_YEAR = r"(?P<{g}>\d{{4}})"
# Dates in words: "June 19, 2025", "19 June 2025", "19th of June, 2025", "19 de junio de
# 2025", "19. Juni 2025", "June 2025", "June 19".
_WORD_DATES = [re.compile(p, re.IGNORECASE) for p in (
    r"(?<![\w.])" + _DAY.format(g="d") + r"\s+(?:of\s+|de\s+)?" + _MONTH.format(g="m")
    + r"(?:,?\s+(?:de\s+|del\s+)?" + _YEAR.format(g="y") + r")?(?!\w)",
    r"(?<!\w)" + _MONTH.format(g="m") + r"\s+" + _DAY.format(g="d")
    + r"(?:,?\s+" + _YEAR.format(g="y") + r")?(?![\w/])",
    r"(?<!\w)" + _MONTH.format(g="m") + r",?\s+(?:of\s+|de\s+)?" + _YEAR.format(g="y")
    + r"(?!\w)",
)]
# Numeric dates: 2025-06-19 (year first), 06/19/2025, 19.06.2025, 06/19/25.
_ISO_DATE = re.compile(r"(?<![\w.,/-])(?P<y>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})"
                       r"(?![\w/-]|[.,]\d)")
_NUM_DATE = re.compile(r"(?<![\w.,/-])(?P<a>\d{1,2})(?P<s>[/.-])(?P<b>\d{1,2})(?P=s)"
                       r"(?P<y>\d{4}|\d{2})(?![\w/-]|[.,]\d)")
# A two-digit year below this is 20YY, else 19YY.
TWO_DIGIT_YEAR_PIVOT = 70
# A run of digits and the separators that may stand between its groups; a currency sign
# before it, a percent sign or a scale word after it belong to the figure's text.
_RUN = re.compile(r"(?P<cur>[" + _CURRENCY + r"]\s?)?(?<![\w])(?P<run>\d+(?:[,.']\d+|[" + _SPACES
                  + r"]\d{3}(?!\d))*)(?P<pct>\s?%)?(?:\s(?P<scale>thousand|million|billion|"
                  r"mio|mrd|k)\b)?", re.IGNORECASE)
# A code: letters and digits in one word ("HO-3", "58VA51", "I-9"), or digit groups joined
# by hyphens ("58-0123-4567"). Ordinals ("19th") and a unit glued to a figure ("10mg")
# are figures, not codes.
_CODE = re.compile(r"(?<![\w$€£¥₹,.'])(?=[\w-]*\d)(?:[^\W_]+(?:[-/][^\W_]+)+|"
                   r"[^\W\d_]+\d[^\W_]*|\d+[^\W\d_]+\d[^\W_]*)(?![\w])")
_ORDINAL_OR_UNIT = re.compile(r"\d+(?:st|nd|rd|th|[^\W\d_]{1,3})", re.IGNORECASE)
_HAS_DIGIT = re.compile(r"\d")
_LETTERS = re.compile(r"[^\W\d_]{3,10}")
_DATE_HINT = re.compile(r"\d[-/.]\d{1,2}[-/.]\d")
_DASHES = re.compile("[\u2010\u2011\u2012\u2013\u2014\u2212]")
_SCALES = {"thousand": 1000, "k": 1000, "million": 10**6, "mio": 10**6,
           "billion": 10**9, "mrd": 10**9}

_UNITS = {w: n for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * n for n, w in enumerate(
    "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if w != "_"}
_WORD_SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9}
_NUMBER_WORD = "|".join(sorted([*_UNITS, *_TENS, *_WORD_SCALES, "dozen"], key=len,
                               reverse=True))
_SPELLED = frozenset([*_UNITS, *_TENS, *_WORD_SCALES, "dozen"])
# A run of number words starts with one ("a" only before "dozen" or a scale: "a hundred");
# "and" and "a" may stand inside it ("one hundred and fifty").
_WORDS_RUN = re.compile(r"(?<![\w-])(?:(?:" + _NUMBER_WORD + r")|a(?=[\s-]+(?:dozen|hundred|"
                        r"thousand|million|billion)\b))(?:[\s-]+(?:" + _NUMBER_WORD
                        + r"|and|a)(?![\w]))*(?![\w])", re.IGNORECASE)
# "one" in these company is a pronoun, not a figure: "no one", "each one", "one of".
_PRONOUN_BEFORE = frozenset("no any each every the this that which someone anyone a".split())
_PRONOUN_AFTER = re.compile(r"\s+(?:of|another|or\s+more)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Fact:
    """One figure or date of a text: how it is written, where, and what it reads as.

    ``values`` are its readings (see the module); ``parts`` the readings of its pieces
    where it may also be several figures ("12 500" in a table: 12500, or 12 and 500),
    any of whose all found is as good as the whole.
    """

    kind: FigureKind
    text: str
    start: int
    end: int
    values: frozenset[str]
    parts: tuple[frozenset[str], ...] = ()


def read_facts(text: str) -> list[Fact]:
    """The figures and dates of ``text`` in reading order. Linear in its length.

    >>> [f.text for f in read_facts("Form HO-3 from June 19, 2025: 15% off a dozen")]
    ['HO-3', 'June 19, 2025', '15%', 'a dozen']
    """
    if _DASHES.search(text):
        text = _DASHES.sub("-", text)  # one character for one: offsets stay
    taken = bytearray(len(text))  # 1 where a fact already stands
    facts: list[Fact] = []

    def free(start: int, end: int) -> bool:
        return taken.find(1, start, end) < 0

    def add(fact: Fact) -> None:
        facts.append(fact)
        taken[fact.start:fact.end] = b"\x01" * (fact.end - fact.start)

    # Each pattern only where what it reads can stand: most texts hold few figures.
    digits = _HAS_DIGIT.search(text) is not None
    words = {w.lower() for w in _LETTERS.findall(text)}
    for fact in _dates(text, named=not words.isdisjoint(_MONTHS)) if digits else ():
        if free(fact.start, fact.end):
            add(fact)
    for m in _CODE.finditer(text) if digits else ():
        word = m.group(0)
        if free(*m.span()) and not _ORDINAL_OR_UNIT.fullmatch(word):
            add(_code(word, *m.span()))
    for m in _RUN.finditer(text) if digits else ():
        if free(*m.span("run")):
            for fact in _figures(m):
                add(fact)
    for m in _WORDS_RUN.finditer(text) if not words.isdisjoint(_SPELLED) else ():
        if free(*m.span()):
            spelled = _words_figure(text, m)
            if spelled is not None:
                add(spelled)
    return sorted(facts, key=lambda f: f.start)


def evidence_values(facts: list[Fact]) -> set[str]:
    """Every value the facts of an evidence text offer: their readings, their parts', and
    a date's year and day as figures."""
    out: set[str] = set()
    for f in facts:
        out |= f.values
        for p in f.parts:
            out |= p
        if f.kind == "date":
            for v in f.values:
                y, m, d = v[2:].split("-")
                out.update(f"n:{int(x)}" for x in (y, d) if x)
                if y and d:  # the date without its day, or without its year
                    out.update((f"d:{y}-{m}-", f"d:-{m}-{d}"))
    return out


def compact(text: str) -> str:
    """``text``'s letters and digits only, lower case: where a code is looked for."""
    return "".join(c for c in text.lower() if c.isalnum())


# -- dates -------------------------------------------------------------------------------
def date_value(year: int | None, month: int, day: int | None) -> str | None:
    """The value of a date ("d:2025-06-19"; a missing part left empty), None if no date.

    >>> date_value(2025, 6, 19), date_value(None, 6, 19), date_value(2025, 2, 30)
    ('d:2025-06-19', 'd:-06-19', None)
    """
    if not 1 <= month <= 12:
        return None
    if day is not None:
        days = (31, 29 if year is None or (year % 4 == 0 and (year % 100 != 0 or
                                                              year % 400 == 0)) else 28,
                31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]
        if not 1 <= day <= days:
            return None
    return f"d:{'' if year is None else f'{year:04d}'}-{month:02d}-" + \
        ("" if day is None else f"{day:02d}")


def _year(text: str) -> int:
    y = int(text)
    if len(text) == 2:
        y += 2000 if y < TWO_DIGIT_YEAR_PIVOT else 1900
    return y


def _dates(text: str, *, named: bool) -> list[Fact]:
    """The dates of ``text``; ``named``: whether a month's name stands in it."""
    out: list[Fact] = []
    numeric = _DATE_HINT.search(text) is not None
    for m in _ISO_DATE.finditer(text) if numeric else ():
        v = date_value(int(m["y"]), int(m["m"]), int(m["d"]))
        if v is not None:
            out.append(Fact("date", m.group(0), *m.span(), frozenset({v})))
    for m in _NUM_DATE.finditer(text) if numeric else ():
        a, b, y = int(m["a"]), int(m["b"]), _year(m["y"])
        day_first = (m["s"] == "." and b <= 12) or a > 12
        v = date_value(y, b, a) if day_first else date_value(y, a, b)
        if v is not None:
            out.append(Fact("date", m.group(0), *m.span(), frozenset({v})))
    for m in _word_dates(text) if named else ():
        month = _MONTHS.get(_fold_word(m["m"]))
        groups = m.groupdict()
        day = int(groups["d"]) if groups.get("d") else None
        year = int(groups["y"]) if groups.get("y") else None
        if month is None or (day is None and year is None):
            continue
        if m["m"].lower() in ("may", "mar", "dec", "jan") and m["m"][0].islower() \
                and year is None:
            continue  # "may 5 more" is a verb, not the month
        v = date_value(year, month, day)
        if v is not None:
            out.append(Fact("date", m.group(0).rstrip(",. "), m.start(),
                            m.start() + len(m.group(0).rstrip(",. ")), frozenset({v})))
    # The longest reading of a stretch wins ("June 19, 2025" over "June 19").
    out.sort(key=lambda f: (f.start, -(f.end - f.start)))
    kept: list[Fact] = []
    for f in out:
        if not kept or f.start >= kept[-1].end:
            kept.append(f)
    return kept


def _word_dates(text: str) -> list[re.Match[str]]:
    """The matches of the month-name patterns, tried only at each month's name: a day
    before it ("19 June"), or the name itself ("June 19", "June 2025")."""
    out: list[re.Match[str]] = []
    for w in _LETTERS.finditer(text):
        if w.group(0).lower() not in _MONTHS:
            continue
        pos = w.start()
        lo = max(0, pos - DAY_BEFORE_MONTH)
        for start in (d.start() for d in _HAS_DIGIT.finditer(text, lo, pos)):
            m = _WORD_DATES[0].match(text, start)
            if m is not None:
                out.append(m)
                break
        for pattern in _WORD_DATES[1:]:
            m = pattern.match(text, pos)
            if m is not None:
                out.append(m)
    return out


# At most this many characters stand between a day and its month ("19th of ", "19 de ").
DAY_BEFORE_MONTH = 10


def _fold_word(word: str) -> str:
    w = unicodedata.normalize("NFD", word.lower())
    return "".join(c for c in w if not unicodedata.combining(c))


# -- figures -----------------------------------------------------------------------------
def canonical(number: Decimal) -> str:
    """A figure's value without trailing zeros or exponent ("n:1650", "n:925.18")."""
    text = format(number.normalize(), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "n:" + (text if text not in ("-0", "") else "0")


def run_readings(run: str) -> set[Decimal]:
    """Every value a run of digit groups may be ("1,650" → 1650 or 1.65; "925,18" → 925.18).

    >>> sorted(run_readings("1,650.50")), sorted(run_readings("1.650,5"))
    ([Decimal('1650.50')], [Decimal('1650.5')])
    >>> sorted(run_readings("1,650"))
    [Decimal('1.650'), Decimal('1650')]
    """
    groups = re.split(r"[" + _GROUP + "]", run)
    seps = [c for c in run if c in _GROUP]
    if not seps:
        return {Decimal(run)}
    out: set[Decimal] = set()
    head, tail = groups[:-1], groups[-1]
    # Thousands separators throughout: every group after the first has three digits.
    grouped = len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:])
    if grouped and len(set(seps)) == 1:
        out.add(Decimal("".join(groups)))
    # A decimal point or comma last, thousands separators (not the same mark) before it.
    last = seps[-1]
    if last in ",." and all(s != last for s in seps[:-1]) and len(set(seps[:-1])) <= 1 and \
            (len(head) == 1 or (len(head[0]) <= 3 and all(len(g) == 3 for g in head[1:]))):
        out.add(Decimal("".join(head) + "." + tail))
    return out


def _figures(m: re.Match[str]) -> list[Fact]:
    run = m["run"]
    start = m.start("run")
    text_start = m.start("cur") if m["cur"] else start
    text_end = m.end()
    readings = run_readings(run)
    scale = _SCALES.get((m["scale"] or "").lower(), 1)
    if readings:
        values = frozenset(canonical(r * scale) for r in readings) | (
            frozenset(canonical(r) for r in readings) if scale != 1 else frozenset())
        parts: tuple[frozenset[str], ...] = ()
        if any(c in _SPACES for c in run):
            parts = tuple(frozenset({canonical(Decimal(g))})
                          for g in re.split("[" + _SPACES + "]", run)
                          for g in [g.replace(",", "").replace(".", "")] if g)
        return [Fact("number", m.string[text_start:text_end].rstrip(), text_start,
                     text_end, values, parts)]
    # Not one figure ("1, 2, 3", "2025 12"): each group is a figure of its own.
    out: list[Fact] = []
    for g in re.finditer(r"\d+(?:[.,]\d+)?", run):
        reads = run_readings(g.group(0)) or {Decimal(g.group(0).replace(",", "."))}
        s = text_start if not out else start + g.start()
        out.append(Fact("number", m.string[s:start + g.end()], s, start + g.end(),
                        frozenset(canonical(r) for r in reads)))
    return out


def _code(word: str, start: int, end: int) -> Fact:
    pieces = re.split(r"[-/]", word)
    if pieces[0].isdigit() and all(p.isalpha() for p in pieces[1:]):
        # "24-month", "30-day": a figure with its unit, not a code.
        return Fact("number", word, start, end, frozenset({canonical(Decimal(pieces[0]))}))
    value = "c:" + compact(word)
    parts: tuple[frozenset[str], ...] = ()
    if all(p.isdigit() for p in pieces):  # "10-20", "58-0123-4567": each a figure too
        parts = tuple(frozenset({canonical(Decimal(p))}) for p in pieces)
    return Fact("number", word, start, end, frozenset({value}), parts)


def _words_figure(text: str, m: re.Match[str]) -> Fact | None:
    """The figure a run of number words spells, or None ("a", "and" alone spell none)."""
    raw = m.group(0)
    words = [w.lower() for w in re.split(r"[\s-]+", raw) if w]
    # Trim leading "and"/"a" (unless "a dozen"/"a hundred") and trailing "and"/"a".
    while words and (words[0] == "and" or (words[0] == "a" and (
            len(words) < 2 or words[1] not in ("dozen", *_WORD_SCALES)))):
        words.pop(0)
    while words and words[-1] in ("and", "a"):
        words.pop()
    if not words:
        return None
    total, current, seen = 0, 0, False
    for w in words:
        if w == "a":
            current = max(current, 1)
        elif w in _UNITS:
            current += _UNITS[w]
            seen = True
        elif w in _TENS:
            current += _TENS[w]
            seen = True
        elif w == "dozen":
            current = max(current, 1) * 12
            seen = True
        elif w == "hundred":
            current = max(current, 1) * 100
            seen = True
        elif w in _WORD_SCALES:
            total += max(current, 1) * _WORD_SCALES[w]
            current = 0
            seen = True
    if not seen:
        return None
    # Where the figure's words stand in the text, trimmed as above.
    lead = raw.lower().find(words[0])
    s = m.start() + lead
    tail = raw.lower().rfind(words[-1])
    e = m.start() + tail + len(words[-1])
    if words == ["one"]:
        before = text[:s].split()[-1:] if text[:s].split() else []
        if (before and before[0].lower().strip("\"'(") in _PRONOUN_BEFORE) or \
                _PRONOUN_AFTER.match(text, e):
            return None
    try:
        value = canonical(Decimal(total + current))
    except InvalidOperation:  # pragma: no cover - integers always convert
        return None
    return Fact("number", text[s:e], s, e, frozenset({value}))

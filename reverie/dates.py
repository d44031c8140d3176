"""Time in words: relative dates resolved against an anchor day, and the time a question names.

Two uses (DESIGN §4.6):

- **consolidation** reads a turn against its session's day and writes the absolute dates beside the
  relative ones ("I went yesterday" said on 8 May 2023 → "yesterday (7 May 2023)") into the turn's
  contextual key, so "what happened on 7 May" finds it;
- **retrieval** reads the question against its ``as_of`` (the time it is asked): "last week", "in
  May", "on 7 May 2023", "in 2022" become :class:`Window` s that favour the turns of those days.

English only, rule based, deterministic: the phrases are matched by regular expressions built from
small word tables, and the calendar arithmetic is dateutil's ``relativedelta``. What is not resolved
("recently", "a while ago", "back then") stays as it was said; nothing is ever guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from dateutil.relativedelta import relativedelta

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "a few": 3,
            "couple of": 2, "few": 3}
_SEASONS = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}  # first month, northern
_COUNT = r"(?P<n>\d{1,2}|a couple of|couple of|a few|few|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_UNIT = r"(?P<unit>day|week|month|year)s?"
_WEEKDAY = r"(?P<weekday>" + "|".join(WEEKDAYS) + r")"
_MONTH = r"(?P<month>" + "|".join(MONTHS) + r"|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?"
_PERIOD = r"(?P<period>weekend|week|month|year|spring|summer|fall|autumn|winter)"

_RELATIVE = re.compile("|".join([
    r"(?P<before>the day before yesterday)",
    r"(?P<after>the day after tomorrow)",
    r"(?P<today>today|tonight|this (?:morning|afternoon|evening))",
    r"(?P<yesterday>yesterday|last night)",
    r"(?P<tomorrow>tomorrow)",
    _COUNT + r" " + _UNIT + r" (?P<ago>ago)",
    r"in " + _COUNT.replace("?P<n>", "?P<n2>") + r" " + _UNIT.replace("?P<unit>", "?P<unit2>") + r"(?P<later>)",
    r"(?P<which>last|past|previous|this past|this|next|coming|this coming) " + _PERIOD,
    r"(?P<wd_which>last|this past|this|next|this coming|on) " + _WEEKDAY,
]), re.IGNORECASE)

_ORDINAL = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d{2})"
_EXPLICIT = re.compile("|".join([
    _ORDINAL + r"(?: of)? " + _MONTH + r"(?:,? " + _YEAR + r")?",
    _MONTH.replace("?P<month>", "?P<month2>") + r" " + _ORDINAL.replace("?P<day>", "?P<day2>")
    + r"(?:st|nd|rd|th)?(?:,? " + _YEAR.replace("?P<year>", "?P<year2>") + r")?(?![\d:])",
    _MONTH.replace("?P<month>", "?P<month3>") + r",? " + _YEAR.replace("?P<year>", "?P<year3>"),
    r"(?:in|during|since|of|early|late|mid|mid-|before|after|until|by) " + _MONTH.replace("?P<month>", "?P<month4>")
    + r"(?!,? (?:[0-3]?\d\b|(?:19|20)\d{2}))",
    r"(?:in|during|since|of|year|before|after|until|by) " + _YEAR.replace("?P<year>", "?P<year4>"),
]), re.IGNORECASE)


@dataclass(frozen=True)
class Span:
    """The days ``start`` … ``end`` (inclusive) a phrase means."""

    start: date
    end: date

    def label(self) -> str:
        """``7 May 2023``, ``May 2023``, ``2023``, or ``1–7 May 2023`` for other ranges."""
        s, e = self.start, self.end
        if s == e:
            return f"{s.day} {s:%B %Y}"
        if s.day == 1 and e == s + relativedelta(months=1, days=-1):
            return f"{s:%B %Y}"
        if (s.month, s.day, e.month, e.day) == (1, 1, 12, 31) and s.year == e.year:
            return str(s.year)
        same_month = (s.month, s.year) == (e.month, e.year)
        left = f"{s.day}" if same_month else f"{s.day} {s:%B}" + ("" if s.year == e.year else f" {s.year}")
        return f"{left}–{e.day} {e:%B %Y}"

    def overlaps(self, start: date, end: date) -> bool:
        return self.start <= end and start <= self.end


@dataclass(frozen=True)
class Mention:
    """A relative time phrase at ``text[start:end]`` and the days it means."""

    start: int
    end: int
    phrase: str
    span: Span


@dataclass(frozen=True)
class Window:
    """A time a question names: a span of days, or a month (and day) of any year when it names no year."""

    span: Span | None = None
    month: int | None = None
    day: int | None = None

    def holds(self, start: date, end: date) -> bool:
        """Whether the days ``start`` … ``end`` (one day, or a mention's span) meet this window."""
        if self.span is not None:
            return self.span.overlaps(start, end)
        if end - start >= timedelta(days=31):
            return False  # a vague span (a year, a season) says nothing about one month
        day = start
        while day <= end:
            if day.month == self.month and (self.day is None or day.day == self.day):
                return True
            day += timedelta(days=1)
        return False


def relative_mentions(text: str, anchor: date) -> list[Mention]:
    """The relative time phrases of ``text`` said on ``anchor``, each with the days it means."""
    found = []
    for match in _RELATIVE.finditer(text):
        if not _whole_words(text, match.start(), match.end()):
            continue
        span = _resolve(match, anchor)
        if span is not None:
            found.append(Mention(match.start(), match.end(), match.group(0), span))
    return found


def with_absolute_dates(text: str, anchor: date) -> str:
    """``text`` with each resolved relative phrase followed by its absolute date in parentheses."""
    out, last = [], 0
    for mention in relative_mentions(text, anchor):
        out += [text[last:mention.end], f" ({mention.span.label()})"]
        last = mention.end
    return "".join(out) + text[last:]


def windows(question: str, as_of: date) -> list[Window]:
    """The times ``question`` names: explicit dates, months and years, and relative phrases read
    against ``as_of``. Empty when it names none."""
    found = [Window(span=m.span) for m in relative_mentions(question, as_of)]
    for match in _EXPLICIT.finditer(question):
        if _whole_words(question, match.start(), match.end()):
            window = _explicit(match)
            if window is not None:
                found.append(window)
    return list(dict.fromkeys(found))


# --- resolution --------------------------------------------------------------------------------------
def _whole_words(text: str, start: int, end: int) -> bool:
    return (start == 0 or not text[start - 1].isalnum()) and (end == len(text) or not text[end].isalnum())


def _count(word: str) -> int:
    word = word.lower()
    return int(word) if word.isdigit() else _NUMBERS[word]


def _resolve(match: re.Match[str], anchor: date) -> Span | None:
    g = match.groupdict()
    fixed = {"before": -2, "after": 2, "today": 0, "yesterday": -1, "tomorrow": 1}
    for name, offset in fixed.items():
        if g[name]:
            day = anchor + timedelta(days=offset)
            return Span(day, day)
    if g["ago"] is not None:
        return _shifted(anchor, -_count(g["n"]), g["unit"].lower())
    if g["later"] is not None:
        return _shifted(anchor, _count(g["n2"]), g["unit2"].lower())
    if g["period"]:
        return _period(anchor, g["which"].lower(), g["period"].lower())
    if g["weekday"]:
        return _weekday(anchor, g["wd_which"].lower(), WEEKDAYS.index(g["weekday"].lower()))
    return None


def _shifted(anchor: date, n: int, unit: str) -> Span:
    """The day, week, month or year ``n`` units away from ``anchor`` (a day for days)."""
    if unit == "day":
        day = anchor + timedelta(days=n)
        return Span(day, day)
    if unit == "week":
        return _week(anchor + timedelta(weeks=n))
    if unit == "month":
        return _month(anchor + relativedelta(months=n))
    return _year(anchor.year + n)


def _period(anchor: date, which: str, period: str) -> Span:
    step = {"last": -1, "past": -1, "previous": -1, "this past": -1, "this": 0, "next": 1, "coming": 1,
            "this coming": 1}[which]
    if period == "week":
        return _week(anchor + timedelta(weeks=step))
    if period == "weekend":
        return _weekend(anchor, step)
    if period == "month":
        return _month(anchor + relativedelta(months=step))
    if period == "year":
        return _year(anchor.year + step)
    return _season(anchor, _SEASONS[period], step)


def _weekday(anchor: date, which: str, weekday: int) -> Span:
    """``last``/``on``/``this past`` Friday: the latest one before ``anchor``; ``this``/``next``: the
    first one after it (``this`` may be ``anchor`` itself)."""
    if which in ("last", "on", "this past"):
        back = (anchor.weekday() - weekday) % 7 or 7
        day = anchor - timedelta(days=back)
    else:
        ahead = (weekday - anchor.weekday()) % 7
        day = anchor + timedelta(days=ahead if which == "this" else ahead or 7)
    return Span(day, day)


def _week(day: date) -> Span:
    monday = day - timedelta(days=day.weekday())
    return Span(monday, monday + timedelta(days=6))


def _weekend(anchor: date, step: int) -> Span:
    """The weekend of the week before (-1), of (0) or after (1) ``anchor``'s week."""
    saturday = anchor - timedelta(days=anchor.weekday()) + timedelta(days=5, weeks=step)
    return Span(saturday, saturday + timedelta(days=1))


def _month(day: date) -> Span:
    first = day.replace(day=1)
    return Span(first, first + relativedelta(months=1, days=-1))


def _year(year: int) -> Span:
    return Span(date(year, 1, 1), date(year, 12, 31))


def _season(anchor: date, first_month: int, step: int) -> Span:
    """This year's season (0; a winter that began last December while it lasts), the last one that
    ended before ``anchor`` (-1), or the next one to begin after it (1)."""
    length = relativedelta(months=3)
    starts = [date(anchor.year + k, first_month, 1) for k in (-2, -1, 0, 1)]
    if step < 0:
        start = max(s for s in starts if s + length <= anchor)
    elif step > 0:
        start = min(s for s in starts if s > anchor)
    else:
        start = next((s for s in starts if s <= anchor < s + length), date(anchor.year, first_month, 1))
    return Span(start, start + length - timedelta(days=1))


def _month_number(word: str) -> int:
    word = word.lower().rstrip(".")
    return next(i for i, name in enumerate(MONTHS, start=1) if name.startswith(word[:3]))


def _explicit(match: re.Match[str]) -> Window | None:
    g = match.groupdict()
    month_word = g["month"] or g["month2"] or g["month3"] or g["month4"]
    day_text, year_text = g["day"] or g["day2"], g["year"] or g["year2"] or g["year3"] or g["year4"]
    if month_word is None:
        return Window(span=_year(int(year_text))) if year_text else None
    if month_word.lower().startswith("may") and not (day_text or year_text) and not g["month4"]:
        return None
    month = _month_number(month_word)
    day = int(day_text) if day_text else None
    if day is not None and not 1 <= day <= 31:
        return None
    if year_text is None:
        return Window(month=month, day=day)
    try:
        start = date(int(year_text), month, day or 1)
    except ValueError:
        return None
    return Window(span=Span(start, start) if day else _month(start))

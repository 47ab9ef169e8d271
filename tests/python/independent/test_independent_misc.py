"""Independent checks of calendar_arithmetic, power_roots, base_conversion, number_words,
expression, decimal_arithmetic, count_primes and caesar, from the prompt text alone: our own
computation (Python's datetime, integer roots, our own number-word writer, exact decimals, a
sieve, a shift search that also proves the decryption unique) compared with gauntlet's verdicts."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from fractions import Fraction

import pytest

from ._common import LEVELS, agree, entries

SEEDS = 3
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def body(q):
    return q.split("Think it through")[0]


@pytest.mark.parametrize("level", LEVELS)
def test_calendar_arithmetic(level):
    for data, entry in entries("calendar_arithmetic", level, SEEDS):
        q = body(entry["question"])
        if m := re.search(r"Today is a (\w+)\. What day of the week will it be (\d+) days from today", q):
            want = DAYS[(DAYS.index(m.group(1)) + int(m.group(2))) % 7]
            wrong = DAYS[(DAYS.index(want) + 1) % 7]
            agree(data, entry, want.lower(), True, "weekday in lower case")
        elif m := re.search(r"what date is (\d+) days (after|before) (\d{4}-\d\d-\d\d)", q):
            d0 = dt.date.fromisoformat(m.group(3))
            delta = dt.timedelta(days=int(m.group(1)))
            want = (d0 + delta if m.group(2) == "after" else d0 - delta).isoformat()
            wrong = (dt.date.fromisoformat(want) + dt.timedelta(days=1)).isoformat()
        elif m := re.search(r"How many days are there from (\S+) to (\S+)\?", q):
            n = (dt.date.fromisoformat(m.group(2)) - dt.date.fromisoformat(m.group(1))).days
            want, wrong = str(n), str(n + 1)
        elif m := re.search(r"On what day of the week did \(or will\) (\S+) fall", q):
            want = DAYS[dt.date.fromisoformat(m.group(1)).weekday()]
            wrong = DAYS[(DAYS.index(want) + 1) % 7]
        else:
            raise AssertionError(q)
        agree(data, entry, want, True, "our computation")
        agree(data, entry, wrong, False, "one day off")


@pytest.mark.parametrize("level", LEVELS)
def test_power_roots(level):
    for data, entry in entries("power_roots", level, SEEDS):
        q = body(entry["question"])
        if m := re.search(r"Compute (\d+)\^(\d+) exactly", q):
            want = int(m.group(1)) ** int(m.group(2))
        else:
            m = re.search(r"(\d+) = r\^(\d+) for a non-negative integer r", q)
            n, k = int(m.group(1)), int(m.group(2))
            r = round(n ** (1 / k))
            r = next(x for x in range(max(r - 3, 0), r + 4) if x**k == n)
            want = r
        agree(data, entry, str(want), True, "our computation")
        agree(data, entry, str(want + 1), False, "off by one")


DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def to_base(n, b):
    s = ""
    while True:
        n, d = divmod(n, b)
        s = DIGITS[d] + s
        if n == 0:
            return s


@pytest.mark.parametrize("level", LEVELS)
def test_base_conversion(level):
    for data, entry in entries("base_conversion", level, SEEDS):
        m = re.search(r"Convert the base-(\d+) numeral (\w+) to base (\d+)", entry["question"])
        src, numeral, dst = int(m.group(1)), m.group(2), int(m.group(3))
        v = int(numeral, src)
        want = to_base(v, dst)
        agree(data, entry, want, True, "our conversion")
        agree(data, entry, to_base(v + 1, dst), False, "value + 1")
        if dst != 10:
            agree(data, entry, str(v), str(v) == want, "the decimal value instead of the target base")


ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def words_below_1000(n):
    out = []
    if n >= 100:
        out += [ONES[n // 100], "hundred"]
        n %= 100
    if n >= 20:
        out.append(TENS[n // 10] + (f"-{ONES[n % 10]}" if n % 10 else ""))
    elif n:
        out.append(ONES[n])
    return out


def words(n):
    if n == 0:
        return "zero"
    out = []
    for scale, name in ((10**9, "billion"), (10**6, "million"), (10**3, "thousand"), (1, "")):
        if n >= scale:
            out += words_below_1000(n // scale) + ([name] if name else [])
            n %= scale
    return " ".join(out)


@pytest.mark.parametrize("level", LEVELS)
def test_number_words(level):
    for data, entry in entries("number_words", level, SEEDS):
        q = body(entry["question"])
        if m := re.search(r"Write the number ([\d,]+) in English words", q):
            n = int(m.group(1).replace(",", ""))
            agree(data, entry, words(n), True, "our words")
            agree(data, entry, words(n).upper(), True, "upper case")
            british = re.sub(r"hundred (?!thousand|million|billion)", "hundred and ", words(n), count=1)
            if british != words(n):
                agree(data, entry, british, True, "British `hundred and`")
            agree(data, entry, words(n).replace("-", " "), True, "tens and ones without the hyphen")
            agree(data, entry, words(n + 1), False, "n + 1 in words")
        else:
            text = re.search(r"Write this number with digits: (.*)\.", q).group(1)
            n = next(k for k in [int(entry["answer"])] if words(k) == text)
            agree(data, entry, str(n), True, "our value")
            agree(data, entry, str(n + 1), False, "n + 1")


@pytest.mark.parametrize("name", ["expression", "decimal_arithmetic"])
@pytest.mark.parametrize("level", LEVELS)
def test_expression_values(name, level):
    for data, entry in entries(name, level, SEEDS):
        lines = [
            ln
            for ln in body(entry["question"]).splitlines()
            if re.fullmatch(r"[\d.()+\-*/ ]+", ln.strip()) and re.search(r"\d", ln)
        ]
        assert len(lines) == 1, entry["question"]
        v = eval(re.sub(r"(\d+(?:\.\d+)?)", r"Fraction('\1')", lines[0]), {"Fraction": Fraction, "__builtins__": {}})
        want = str(v.numerator) if v.denominator == 1 else str(Decimal(v.numerator) / Decimal(v.denominator))
        agree(data, entry, want, True, "our exact value")
        agree(data, entry, str(Decimal(want) + 1), False, "value + 1")
        if "." in want and name == "decimal_arithmetic":
            agree(data, entry, want + "0", True, "a trailing zero (docs: any trailing zeros)")


@pytest.mark.parametrize("level", LEVELS)
def test_count_primes(level):
    from .test_independent_numbers import is_prime

    for data, entry in entries("count_primes", level, 2):
        m = re.search(r"satisfy ([\d,]+) <= n <= ([\d,]+)", entry["question"])
        lo, hi = (int(x.replace(",", "")) for x in m.groups())
        if hi - lo > 5000:
            continue
        n = sum(1 for k in range(lo, hi + 1) if is_prime(k))
        agree(data, entry, str(n), True, "our count")
        agree(data, entry, str(n + 1), False, "count + 1")


@pytest.mark.parametrize("level", LEVELS)
def test_caesar(level):
    for data, entry in entries("caesar", level, SEEDS):
        q = entry["question"]
        ct = re.search(r"^Ciphertext: (.*)$", q, re.M).group(1)
        m = re.search(r"Every word of the message is one of: ([A-Z, ]+)\.", q)
        vocab = set(m.group(1).split(", ")) if m else None
        ms = re.search(r"shifted forward by (\d+) positions", q)
        shifts = [int(ms.group(1))] if ms else range(26)

        def dec(k, ct=ct):
            return "".join(chr((ord(ch) - 65 - k) % 26 + 65) if ch.isalpha() else ch for ch in ct)

        cands = [dec(k) for k in shifts if vocab is None or all(w in vocab for w in dec(k).split())]
        assert len(cands) == 1, (level, entry["metadata"]["seed"], cands)
        agree(data, entry, cands[0], True, "our decryption")
        agree(data, entry, cands[0].lower(), True, "lower case (case-insensitive)")
        w = cands[0].split()
        agree(data, entry, " ".join(w[:-1]), False, "last word missing")


# Found by these checks: an exact ~20-digit decimal with a trailing zero was refused (fixed).
def test_decimal_arithmetic_long_trailing_zero():
    import gauntlet

    data = gauntlet.create_dataset("decimal_arithmetic", size=1, seed=7499, level=5)
    entry = data[0]
    line = next(
        ln for ln in entry["question"].splitlines() if re.fullmatch(r"[\d.()+\-*/ ]+", ln.strip()) and "." in ln
    )
    v = eval(re.sub(r"(\d+(?:\.\d+)?)", r"Fraction('\1')", line), {"Fraction": Fraction, "__builtins__": {}})
    exact = str(Decimal(v.numerator) / Decimal(v.denominator))
    assert Fraction(exact) == v and exact == "17832177.3617062992"
    agree(data, entry, exact, True, "our exact value")
    agree(data, entry, exact + "0", True, "the same value with one trailing zero")


@pytest.mark.parametrize("level", LEVELS)
def test_time_intervals(level):
    for data, entry in entries("time_intervals", level, SEEDS):
        q = body(entry["question"])
        if m := re.search(r"How many minutes are there from (\d+):(\d+) to (\d+):(\d+) on the same day", q):
            h1, m1, h2, m2 = map(int, m.groups())
            n = h2 * 60 + m2 - h1 * 60 - m1
            want, wrong = str(n), str(n + 1)
        elif m := re.search(
            r"it is (\d+):(\d+)\. What time will the clock show (\d+) hours and (\d+) minutes later", q
        ):
            h, mi, dh, dm = map(int, m.groups())
            t = (h * 60 + mi + dh * 60 + dm) % (24 * 60)
            want, wrong = f"{t // 60:02d}:{t % 60:02d}", f"{(t + 1) % 1440 // 60:02d}:{(t + 1) % 1440 % 60:02d}"
        elif m := re.search(r"starts at (\d+):(\d+) and ends at the next (\d+):(\d+)", q):
            h1, m1, h2, m2 = map(int, m.groups())
            d = (h2 * 60 + m2 - h1 * 60 - m1) % 1440
            want, wrong = f"{d // 60}:{d % 60:02d}", f"{(d + 1) // 60}:{(d + 1) % 60:02d}"
        elif m := re.search(
            r"it is (\d+):(\d+):(\d+)\. What time will the clock show "
            r"(\d+) hours, (\d+) minutes and (\d+) seconds later",
            q,
        ):
            h, mi, s, dh, dm, ds = map(int, m.groups())
            t = (h * 3600 + mi * 60 + s + dh * 3600 + dm * 60 + ds) % 86400
            want = f"{t // 3600:02d}:{t % 3600 // 60:02d}:{t % 60:02d}"
            u = (t + 1) % 86400
            wrong = f"{u // 3600:02d}:{u % 3600 // 60:02d}:{u % 60:02d}"
        else:
            m = re.search(r"How many seconds elapse from (\S+ \S+) to (\S+ \S+) \(", q)
            a, b = (dt.datetime.fromisoformat(x) for x in m.groups())
            n = int((b - a).total_seconds())
            want, wrong = str(n), str(n + 1)
        agree(data, entry, want, True, "our computation")
        agree(data, entry, wrong, False, "one unit off")

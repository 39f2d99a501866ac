"""Numbers written with Chinese numerals, as a learner types them in an answer: 十八, 一百零一,
两万五, 10.1万, and the digits one by one, 一〇一, as years are written.

Digits, units inside a group of four digits (十, 百, 千), and the groups 万 and 亿 that close
them; 零 holds an empty place. `helpers.exercises.reading` asks here only once a text is no
number Python reads.
"""

from __future__ import annotations

import re
from decimal import Decimal

DIGITS = dict(zip("〇零一二两三四五六七八九", (0, 0, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9), strict=True))
UNITS = {"十": 10, "百": 100, "千": 1000}
GROUPS = {"万": 10**4, "亿": 10**8}
NUMERALS = {*DIGITS, *UNITS, *GROUPS}
TOKEN = re.compile(r"\d+(?:\.\d+)?|\S")


def chinese_number(text: str) -> float | None:
    """The number written with Chinese numerals (十八, 一百零一, 10.1万, 一〇一), or None."""
    sign = -1 if text[:1] in ("-", "负") else 1
    tokens = TOKEN.findall(text[1:] if sign < 0 else text)
    chinese = [token for token in tokens if not token[0].isdecimal()]
    if not chinese or not NUMERALS.issuperset(chinese):
        return None
    if len(tokens) > 1 and all(token in DIGITS and token != "两" for token in tokens):
        # 一〇一 or 二〇二六: the digits one by one, as years are written.
        return sign * float("".join(str(DIGITS[token]) for token in tokens))
    value = grouped_number(tokens)
    return None if value is None else sign * float(value)


def grouped_number(tokens: list[str]) -> Decimal | None:
    """The value of 十八, 三十三, 一百零一, 十万一千, 两万五, 10.1万: digits, each with its unit,
    in groups of four digits closed by 万 or 亿. None for what is no number (三三十, 百百)."""
    total = group = Decimal(0)
    digit: Decimal | None = None  # the digit read, waiting for its unit
    said_digit = False  # a Chinese digit, for the spoken "两万五" (25000) and "一百一" (110)
    place = 0  # the unit or group just read, unless a 零 came after it
    last_unit, last_group = 10**4, 10**12
    for index, token in enumerate(tokens):
        if token in UNITS:
            unit = UNITS[token]
            if unit >= last_unit:
                return None
            group += (Decimal(1) if digit is None else digit) * unit  # 十八: one ten
            digit, last_unit, place = None, unit, unit
        elif token in GROUPS:
            size = GROUPS[token]
            amount = group + (digit or 0)
            if size >= last_group or amount == 0:
                return None
            total += amount * size
            group, digit, last_unit, last_group, place = Decimal(0), None, 10**4, size, size
        elif token in ("〇", "零") and index > 0:
            if digit is not None:
                return None
            place = 0  # 一百零一: 零 holds the empty place, so the 一 after it is one
        else:
            if digit is not None:
                return None  # two digits with no unit between them
            digit = Decimal(DIGITS.get(token, token))
            said_digit = token in DIGITS
    if digit is not None:
        # A last digit right after 百, 千, 万 or 亿 counts in the place below it, as it is said.
        group += digit * (place // 10 if said_digit and place >= 100 else 1)
    return total + group

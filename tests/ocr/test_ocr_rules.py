"""Erasing table rules before OCR: long straight runs of ink go, text stays.

``erase_rules`` takes shortcuts (a run found by doubling, a 3×3 growth by shifted copies);
here it is held to a plain definition written pixel by pixel, on generated pages.
"""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from matcher.ocr.tesseract import (
    RULE_BLOCK_POINTS,
    RULE_INK,
    RULE_MIN_POINTS,
    erase_rules,
)

DPI = 72  # blocks of 2 px, rules of at least 36 px: small images, the same logic


def plain_erase(image: Image.Image, dpi: int) -> Image.Image:
    """By definition: a block (k pixels of one column, or of one row) is solid when all its
    pixels are ink; n solid blocks in a row are a rule, one block more each way is erased,
    and every erased pixel takes its 8 neighbours with it."""
    k = max(1, round(RULE_BLOCK_POINTS * dpi / 72))
    n = max(1, math.ceil(RULE_MIN_POINTS * dpi / 72 / k))
    w, h = image.size
    px = image.load()
    ink = [[px[x, y] < RULE_INK for x in range(w)] for y in range(h)]
    rule = [[False] * w for _ in range(h)]

    def mark(length: int, solid: callable, paint: callable) -> None:  # type: ignore[valid-type]
        blocks = math.ceil(length / k)
        for b in range(blocks - n + 1):
            if all(solid(b + i) for i in range(n)):
                for c in range(max(0, b - 1), min(blocks, b + n + 1)):
                    for p in range(c * k, min(length, (c + 1) * k)):
                        paint(p)

    for x in range(w):
        mark(h, lambda b, x=x: all(ink[y][x] for y in range(b * k, min(h, (b + 1) * k))),
             lambda y, x=x: rule[y].__setitem__(x, True))
    for y in range(h):
        mark(w, lambda b, y=y: all(ink[y][x] for x in range(b * k, min(w, (b + 1) * k))),
             lambda x, y=y: rule[y].__setitem__(x, True))
    out = image.copy()
    po = out.load()
    for y in range(h):
        for x in range(w):
            if any(rule[j][i] for j in range(max(0, y - 1), min(h, y + 2))
                   for i in range(max(0, x - 1), min(w, x + 2))):
                po[x, y] = 255
    return out


def page(seed: int, w: int, h: int) -> Image.Image:
    """A grey page with rules of many lengths (some just under, some just over the limit),
    boxes, short strokes and text-like specks."""
    rng = random.Random(seed)
    image = Image.new("L", (w, h), 255)
    draw = ImageDraw.Draw(image)
    for _ in range(rng.randint(2, 8)):
        x, y, length = rng.randrange(w), rng.randrange(h), rng.randint(20, 60)
        if rng.random() < 0.5:
            draw.line((x, y, x + length, y), fill=rng.choice((0, 90, 150, 200)),
                      width=rng.randint(1, 3))
        else:
            draw.line((x, y, x, y + length), fill=rng.choice((0, 90, 150)), width=1)
    for _ in range(rng.randint(0, 2)):
        x, y = rng.randrange(w // 2), rng.randrange(h // 2)
        draw.rectangle((x, y, x + rng.randint(30, 70), y + rng.randint(10, 50)), outline=0)
    for _ in range(rng.randint(0, 40)):
        x, y = rng.randrange(w), rng.randrange(h)
        draw.text((x, y), rng.choice("AbgX|l"), fill=0)
    return image


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(40, 110), st.integers(40, 110))
def test_erasing_equals_its_plain_definition(seed: int, w: int, h: int) -> None:
    image = page(seed, w, h)
    assert erase_rules(image, dpi=DPI).tobytes() == plain_erase(image, DPI).tobytes()


def test_a_long_rule_goes_and_a_short_stroke_stays() -> None:
    image = Image.new("L", (120, 60), 255)
    draw = ImageDraw.Draw(image)
    draw.line((5, 10, 100, 10), fill=0)  # 96 px: a rule
    draw.line((5, 40, 25, 40), fill=0)  # 21 px: a stroke of a letter
    out = erase_rules(image, dpi=DPI)
    assert out.crop((0, 8, 120, 13)).getextrema()[0] == 255
    assert out.crop((5, 40, 26, 41)).getextrema()[0] == 0

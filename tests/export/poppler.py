"""Poppler as a second PDF engine: pages rendered by ``pdftoppm``, read as RGB pixels."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

DPI = 100


def need(tool: str) -> str:
    found = shutil.which(tool)
    if found is None:
        pytest.skip(f"{tool} (poppler-utils) is not installed; scripts/system-deps test "
                    "installs it")
    return found


@dataclass(frozen=True)
class Picture:
    width: int
    height: int
    rgb: bytes

    def at(self, x: int, y: int) -> tuple[int, int, int]:
        i = (y * self.width + x) * 3
        return self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]


def render(pdf: Path, page: int, out: Path, *, dpi: int = DPI) -> Picture:
    """Page ``page`` (0-based) of ``pdf`` as poppler draws it, annotations included."""
    stem = out.with_suffix("")
    # -cropbox: the page as readers show it (pdftoppm draws the whole MediaBox by default).
    subprocess.run([need("pdftoppm"), "-cropbox", "-f", str(page + 1), "-l", str(page + 1), "-r",
                    str(dpi), "-singlefile", str(pdf), str(stem)], check=True, timeout=120)
    data = stem.with_suffix(".ppm").read_bytes()
    # P6 header: magic, width, height, maxval, each followed by one whitespace byte.
    fields: list[bytes] = []
    pos = 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    assert fields[0] == b"P6" and fields[3] == b"255"
    width, height = int(fields[1]), int(fields[2])
    return Picture(width, height, data[pos + 1:pos + 1 + width * height * 3])


def text(pdf: Path) -> str:
    return subprocess.run([need("pdftotext"), str(pdf), "-"], capture_output=True, text=True,
                          check=True, timeout=120).stdout


def info(pdf: Path) -> dict[str, str]:
    out = subprocess.run([need("pdfinfo"), str(pdf)], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    return {k.strip(): v.strip() for k, _, v in (ln.partition(":") for ln in out.splitlines())}

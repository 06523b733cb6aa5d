"""A ``mimeapps.list`` (freedesktop's default applications) as text: read, set and
remove one default, every other line kept exactly as it was."""

from __future__ import annotations

DEFAULTS_SECTION = "[Default Applications]"


def _section_bounds(lines: list[str], header: str) -> tuple[int, int] | None:
    """Index of ``header`` and of the line after its section's last line, if present."""
    try:
        start = next(i for i, ln in enumerate(lines) if ln.strip() == header)
    except StopIteration:
        return None
    end = next((i for i in range(start + 1, len(lines))
                if lines[i].strip().startswith("[")), len(lines))
    return start, end


def get_default(text: str, mime: str) -> str | None:
    """The value of ``mime`` under ``[Default Applications]`` in a mimeapps.list."""
    lines = text.splitlines()
    bounds = _section_bounds(lines, DEFAULTS_SECTION)
    if bounds is None:
        return None
    for line in lines[bounds[0] + 1:bounds[1]]:
        key, sep, value = line.partition("=")
        if sep and key.strip() == mime:
            return value.strip()
    return None


def set_default(text: str, mime: str, value: str) -> str:
    """``text`` (a mimeapps.list) with ``mime=value`` under ``[Default Applications]``;
    every other line kept as it was."""
    lines = text.splitlines()
    bounds = _section_bounds(lines, DEFAULTS_SECTION)
    entry = f"{mime}={value}"
    if bounds is None:
        if lines and lines[-1].strip():
            lines.append("")
        lines += [DEFAULTS_SECTION, entry]
    else:
        start, end = bounds
        for i in range(start + 1, end):
            if lines[i].partition("=")[0].strip() == mime:
                lines[i] = entry
                break
        else:
            last = end
            while last > start + 1 and not lines[last - 1].strip():
                last -= 1  # after the section's last entry, not after its blank lines
            lines.insert(last, entry)
    return "\n".join(lines) + "\n"


def remove_default(text: str, mime: str, value: str) -> str:
    """``text`` without ``mime=value`` under ``[Default Applications]`` (left alone when
    someone has since chosen another default)."""
    lines = text.splitlines()
    bounds = _section_bounds(lines, DEFAULTS_SECTION)
    if bounds is None:
        return text
    start, end = bounds
    kept = [ln for i, ln in enumerate(lines)
            if not (start < i < end and ln.partition("=")[0].strip() == mime
                    and ln.partition("=")[2].strip() == value)]
    return "\n".join(kept) + "\n" if kept else ""


def has_entries(text: str) -> bool:
    """Does a mimeapps.list say anything (a key, or a comment someone wrote)?"""
    return any(ln.strip() and not ln.strip().startswith("[") for ln in text.splitlines())

"""The placement evaluation's kinds of changed and short quotes, cut from real pages.

* ``changed-digit``, ``inserted-negation``, ``opposite-word`` — a verbatim run of 1–3
  lines with one fact changed (a digit of a figure, a "not" beside a verb, a word for its
  opposite): never ``located``, shown as ``review`` on the source lines;
* ``short-exact`` — 1–4 consecutive words from inside a longer line, unique on the page;
* ``short-repeated`` — 1–4 words that stand two or more times on the page: never
  ``located`` on one copy only;
* ``hyphen-kept`` — a verbatim run whose line-end hyphen the quote keeps (``sub- scription``);
* ``assembled-short`` — 4–6 words from inside each of two distant lines, joined;
* ``swapped-figure`` — a verbatim run of lines, or a table row read left to right, with
  one figure replaced by another figure of the same page and shape (``$9,999.99``, a date,
  a percentage: the next row's premium); ``swapped-words`` — a verbatim run with two of
  its words swapped with each other. Every word stands on the page; both are changed
  quotes (never ``located``).

:class:`ChangedAndShortKinds` is mixed into ``eval_placement.DocCases``, whose helpers
(``_pw``, ``_runs``, ``_run_cases``, ``_case``, ``_pages``, ``doc``) it uses.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from evalcases import (
    Truth,
    change_digit,
    insert_negation,
    is_prose_line,
    opposite_word,
    separate_places,
    split_hyphen_tokens,
    starts_mid_word,
)
from evalswaps import figure_core, figure_shape, swap_figure, swap_words, table_rows

from matcher.normalize import atoms

CHANGED_KINDS = ("changed-digit", "inserted-negation", "opposite-word", "swapped-figure",
                 "swapped-words")
# A table row quoted is cut to this many words (a wide table's first cells).
ROW_WORDS = 12
# A changed quote printed in the document with at most this many words between its own
# is no change: it is a quote with those words dropped (as many as placement steps over
# inside a passage, matcher.diff.MAX_INSIDE_GAP).
CHANGED_PRINTED_GAP = 3
SHORT_MAX_WORDS = 4
SHORT_MIN_CHARS = 4  # letters and digits in a short quote ("of the" is not a citation)
ASSEMBLED_SHORT_WORDS = (4, 6)
PER_PAGE = 2


def _boxes(pw, words: Sequence[int]):  # type: ignore[no-untyped-def]
    return tuple(pw.words[i].rect for i in sorted(words))


def _text(pw, words: Sequence[int]) -> str:  # type: ignore[no-untyped-def]
    return " ".join(pw.words[i].text for i in sorted(words))


def _substantial(texts: Sequence[str]) -> bool:
    """Enough letters or digits to be quoted on purpose, and one word of three or more."""
    quote_atoms = atoms(" ".join(texts))
    return sum(len(a) for a in quote_atoms) >= SHORT_MIN_CHARS and \
        any(len(a) >= 3 for a in quote_atoms)


class ChangedAndShortKinds:
    """Case streams for the kinds above (see the module docstring)."""

    # -- one fact changed

    def _changed(self, kind: str, rng, change) -> Iterator:  # type: ignore[no-untyped-def]
        def make(pw, run, toks, rng):  # type: ignore[no-untyped-def]
            text = " ".join(toks)
            if len(atoms(text)) < 5:
                return None
            changed = change(text, rng)
            if changed is None or self.doc.atoms.stands_spread(  # type: ignore[attr-defined]
                    atoms(changed[0]), CHANGED_PRINTED_GAP):
                # The changed text is printed too, word for word or with a few words
                # between (a quote that dropped them): the document says that.
                return None
            return changed
        return self._run_cases(kind, rng, make)  # type: ignore[attr-defined]

    def _changed_digit(self, rng) -> Iterator:  # type: ignore[no-untyped-def]
        return self._changed("changed-digit", rng, change_digit)

    def _inserted_negation(self, rng) -> Iterator:  # type: ignore[no-untyped-def]
        lang = self.doc.file.lang  # type: ignore[attr-defined]
        return self._changed("inserted-negation", rng,
                             lambda text, r: insert_negation(text, lang, r))

    def _opposite_word(self, rng) -> Iterator:  # type: ignore[no-untyped-def]
        return self._changed("opposite-word", rng, opposite_word)

    def _swapped_words(self, rng) -> Iterator:  # type: ignore[no-untyped-def]
        return self._changed("swapped-words", rng, swap_words)

    def _swapped_figure(self, rng) -> Iterator:  # type: ignore[no-untyped-def]
        """Runs of lines and table rows, each with one figure taken from elsewhere."""
        for page in self._pages(rng):  # type: ignore[attr-defined]
            pw = self._pw(page)  # type: ignore[attr-defined]
            figures = sorted({figure_core(w.text) for w in pw.words if figure_shape(w.text)})
            sources = table_rows(pw)
            sources += self._runs(page, rng)  # type: ignore[attr-defined]
            rng.shuffle(sources)
            made = 0
            for lines in sources:
                words = [w for li in lines for w in pw.lines[li].words][:ROW_WORDS]
                toks = [pw.words[w].text for w in words]
                if len(atoms(" ".join(toks))) < 5:
                    continue
                changed = swap_figure(toks, figures, rng)
                if changed is None or self.doc.atoms.stands_spread(  # type: ignore[attr-defined]
                        atoms(changed[0]), CHANGED_PRINTED_GAP):
                    continue
                truths = (Truth(page, (_boxes(pw, words),)),)
                yield self._case("swapped-figure", page, changed[0], truths,  # type: ignore[attr-defined]
                                 _text(pw, words), f"{len(lines)} line(s): {changed[1]}")
                made += 1
                if made >= PER_PAGE:
                    break

    def _word_part(self, rng) -> Iterator:  # type: ignore[no-untyped-def]
        """A piece of a long word ("optimiz" of "optimization"), in no page as a word:
        not a quote of whole words, never placed (a fabricated quote)."""
        every = {a for texts in self.doc.atoms.texts for a in texts}  # type: ignore[attr-defined]
        for page in self._pages(rng):  # type: ignore[attr-defined]
            pw = self._pw(page)  # type: ignore[attr-defined]
            long = sorted({a for a in pw.atom_texts if a.isalpha() and len(a) >= 7})
            rng.shuffle(long)
            made = 0
            for word in long:
                piece = word[:rng.randint(4, len(word) - 2)]
                if piece in every:
                    continue
                yield self._case("word-part", page, piece, (), "",  # type: ignore[attr-defined]
                                 f"part of {word!r}")
                made += 1
                if made >= PER_PAGE:
                    break

    def _hyphen_kept(self, rng) -> Iterator:  # type: ignore[no-untyped-def]
        def make(pw, run, toks, rng):  # type: ignore[no-untyped-def]
            split = split_hyphen_tokens(pw, run)
            return None if split is None else (split, f"{len(run)} line(s), hyphen kept")
        return self._run_cases("hyphen-kept", rng, make)  # type: ignore[attr-defined]

    # -- short quotes

    def _windows(self, page: int, rng, sizes: Sequence[int], *, inside: bool = True
                 ) -> list[tuple[int, list[int]]]:  # type: ignore[no-untyped-def]
        """``(line, word indices)`` of word windows of the given sizes, shuffled.

        ``inside``: the window is shorter than its line (a name inside a longer line).
        No window starts with the second half of a hyphenated word or ends before one.
        """
        pw = self._pw(page)  # type: ignore[attr-defined]
        out = []
        for li, ln in enumerate(pw.lines):
            if ln.skewed:
                continue  # a watermark is no text to quote
            ws = list(ln.words)
            for n in sizes:
                if len(ws) < n + (1 if inside else 0):
                    continue
                for start in range(len(ws) - n + 1):
                    win = ws[start:start + n]
                    if start == 0 and starts_mid_word(pw, li):
                        continue
                    if not all(atoms(pw.words[w].text) for w in win):
                        continue  # punctuation alone ("/", "…") is no word to quote
                    if pw.words[win[-1]].text.endswith(("-", "\u00ad", "\u2010")):
                        continue
                    out.append((li, win))
        rng.shuffle(out)
        return out

    def _occurrences(self, page: int, texts: Sequence[str]):  # type: ignore[no-untyped-def]
        return self.doc.atoms.occurrences(atoms(" ".join(texts)))  # type: ignore[attr-defined]

    def _short_exact(self, rng) -> Iterator:  # type: ignore[no-untyped-def]
        for page in self._pages(rng):  # type: ignore[attr-defined]
            pw = self._pw(page)  # type: ignore[attr-defined]
            made = 0
            for _, win in self._windows(page, rng, range(1, SHORT_MAX_WORDS + 1)):
                texts = [pw.words[w].text for w in win]
                if not _substantial(texts):
                    continue
                occ = self._occurrences(page, texts)
                if sum(p == page for p, _ in occ) != 1:
                    continue
                truths = [Truth(page, (_boxes(pw, win),))]
                truths += [Truth(p, (_boxes(self._pw(p), sorted(ws)),))  # type: ignore[attr-defined]
                           for p, ws in occ if p != page]
                yield self._case("short-exact", page, " ".join(texts),  # type: ignore[attr-defined]
                                 tuple(truths), _text(pw, win), f"{len(win)} word(s)")
                made += 1
                if made >= PER_PAGE:
                    break

    def _short_repeated(self, rng) -> Iterator:  # type: ignore[no-untyped-def]
        for page in self._pages(rng):  # type: ignore[attr-defined]
            pw = self._pw(page)  # type: ignore[attr-defined]
            made = 0
            seen: set[tuple[str, ...]] = set()
            for _, win in self._windows(page, rng, range(1, SHORT_MAX_WORDS + 1),
                                        inside=False):
                texts = [pw.words[w].text for w in win]
                key = tuple(atoms(" ".join(texts)))
                if key in seen or not _substantial(texts):
                    continue
                seen.add(key)
                occ = self._occurrences(page, texts)
                here = [ws for p, ws in occ if p == page]
                if len(here) < 2:
                    continue
                truths = [Truth(p, (_boxes(self._pw(p), sorted(ws)),))  # type: ignore[attr-defined]
                          for p, ws in occ]
                yield self._case("short-repeated", page, " ".join(texts),  # type: ignore[attr-defined]
                                 tuple(truths), _text(pw, win),
                                 f"{len(win)} word(s), {len(here)} times on the page")
                made += 1
                if made >= PER_PAGE:
                    break

    def _assembled_short(self, rng) -> Iterator:  # type: ignore[no-untyped-def]
        lo, hi = ASSEMBLED_SHORT_WORDS
        for page in self._pages(rng):  # type: ignore[attr-defined]
            pw = self._pw(page)  # type: ignore[attr-defined]
            unique = []
            for li, win in self._windows(page, rng, range(lo, hi + 1)):
                texts = [pw.words[w].text for w in win]
                if not is_prose_line(pw, li) or not _substantial(texts):
                    continue
                if sum(p == page for p, _ in self._occurrences(page, texts)) == 1:
                    unique.append((li, win))
            made = 0
            used: set[int] = set()
            for k, (la, wa) in enumerate(unique):
                if la in used:
                    continue
                partner = next(((lb, wb) for lb, wb in unique[k + 1:]
                                if lb not in used and separate_places(pw, [la], [lb])), None)
                if partner is None:
                    continue
                lb, wb = partner
                used |= {la, lb}
                (la, wa), (lb, wb) = sorted([(la, wa), (lb, wb)])
                quote = _text(pw, wa) + " " + _text(pw, wb)
                truths = [Truth(page, (_boxes(pw, wa), _boxes(pw, wb)))]
                # Both halves on another page too (a form page repeated) is as right.
                occ_a = self._occurrences(page, [pw.words[w].text for w in wa])
                occ_b = self._occurrences(page, [pw.words[w].text for w in wb])
                for p, ws_a in occ_a:
                    for q, ws_b in occ_b:
                        if p == q != page:
                            other = self._pw(p)  # type: ignore[attr-defined]
                            truths.append(Truth(p, (_boxes(other, sorted(ws_a)),
                                                    _boxes(other, sorted(ws_b)))))
                yield self._case("assembled-short", page, quote, tuple(truths),  # type: ignore[attr-defined]
                                 _text(pw, wa) + " | " + _text(pw, wb), f"lines {la} + {lb}")
                made += 1
                if made >= PER_PAGE:
                    break

"""What ``check --fail-on`` can fail on: the states, and the option's text read as them.

Their own module, so that ``citeview check`` reads the option without importing the
review's model (:mod:`.review`, which counts what remains in these states).
"""

from __future__ import annotations

from typing import Literal, get_args

FailState = Literal["undecided", "not_supported", "review", "not_located", "differs"]
FAIL_STATES: tuple[FailState, ...] = get_args(FailState)


def parse_fail_on(text: str) -> list[FailState]:
    """``undecided,review`` as a list of states; ValueError naming one it does not know."""
    states: list[FailState] = []
    for word in (w.strip() for w in text.split(",")):
        state = next((s for s in FAIL_STATES if s == word), None)
        if state is None:
            raise ValueError(f"--fail-on takes any of {','.join(FAIL_STATES)}, not {word!r}")
        states.append(state)
    return states

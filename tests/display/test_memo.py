"""What a screen works out from its model, worked out once (display.memo)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from display.memo import per_story
from display.models import PlayScreen, StationLook


@dataclass(frozen=True)
class Hit:
    player: int


def test_a_story_is_walked_once_whatever_its_time_and_again_when_it_changes() -> None:
    """A demo's clock steps with nothing new to say: the answer is the one worked out for
    the same events told to the same seats (in a tuple made again), and is worked out
    again for another event, other seats, or equal events that are other objects (an
    answer holds the very events of the screen asked).  Fails with ``per_model``: every
    step of the clock is a new model."""
    walked: list[int] = []

    @per_story
    def said(s: PlayScreen[None, None]) -> list[tuple[int, object]]:
        walked.append(s.now_us)
        return list(s.events)

    seats = (StationLook("A", (200, 0, 0)), StationLook("B", (0, 0, 200)))
    events = ((100, Hit(0)), (200, Hit(1)))
    first = PlayScreen(game="g", title="G", seats=seats, view=None, events=events, now_us=300)
    later = replace(first, events=tuple(list(events)), now_us=400)  # the same events, the clock on
    assert said(first) is said(later) and walked == [300]
    newer = replace(first, events=(*events, (500, Hit(0))), now_us=500)
    assert said(newer)[-1][0] == 500 and walked == [300, 500]
    again = replace(first, events=((100, Hit(0)), (200, Hit(1))), now_us=600)  # equal, not the same events
    assert said(again)[0][1] is again.events[0][1] and walked == [300, 500, 600]
    renamed = replace(first, seats=(StationLook("C", (200, 0, 0)), seats[1]), now_us=700)
    said(renamed)
    assert walked == [300, 500, 600, 700]

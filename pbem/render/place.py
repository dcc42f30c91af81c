"""Finding room on a page: boxes already drawn, and the first free one of a drawing's candidates.

Both drawings (svg.py for hex maps, table.py for tables) put labels and marker tokens where they
cover nothing drawn before them. Page boxes are floats: no rule reads a picture.
"""

from __future__ import annotations

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 on the page


class Taken:
    """Boxes already drawn on the page that nothing drawn later may cover (counters, marker tokens,
    labels): a marker or a label goes to the first of its places that covers none of them."""

    def __init__(self) -> None:
        self.boxes: list[Box] = []

    def add(self, box: Box) -> None:
        self.boxes.append(box)

    def free(self, box: Box) -> bool:
        return not any(a[0] < box[2] and box[0] < a[2] and a[1] < box[3] and box[1] < a[3] for a in self.boxes)


def place(candidates: list[Box], *layers: Taken) -> Box:
    """The first candidate clear of every layer; failing that, of all but the last layer, and so on
    (the first layer matters most); failing all, the first candidate."""
    for depth in range(len(layers), 0, -1):
        for box in candidates:
            if all(layer.free(box) for layer in layers[:depth]):
                return box
    return candidates[0]

"""What the progress tests share: a `Progress` that writes down what it was told."""

from __future__ import annotations

from typing import Any


class Recorder:
    """Records `stage` calls, and the advances after each summed: `("advance", 60)`."""

    def __init__(self) -> None:
        self.log: list[tuple[Any, ...]] = []

    def stage(self, name: str, total: int | None = None) -> None:
        self.log.append(("stage", name, total))

    def advance(self, n: int = 1) -> None:
        if self.log and self.log[-1][0] == "advance":
            self.log[-1] = ("advance", self.log[-1][1] + n)
        else:
            self.log.append(("advance", n))

    def stages(self) -> list[str]:
        return [entry[1] for entry in self.log if entry[0] == "stage"]

"""Where the topology view draws its labels, read in the browser: the one measure of overlap
and of labels (or clickable nodes) cut by the canvas edge, shared by the browser tests.

sigma.js draws every label with the 2D context's `fillText` on its canvas of class
`sigma-labels`. `RECORD_LABELS`, added before the page loads
(`context.add_init_script`), wraps `fillText` and `clearRect` (a clear of the whole canvas
starts a new frame) and keeps, per canvas, the last frame's labels: the text, where it is
drawn (the context's transform applied), its measured width, font size, baseline,
alignment, colour and alpha; and every frame finished since the page started, with the
size its canvas had (`every_frame`: a first frame drawn for the wrong width stays seen).
`frames(page)` reads them as boxes in CSS pixels of the canvas; `problems(frame)` counts
the overlapping pairs and the boxes outside the canvas.
Text drawn transparent is skipped (no one sees it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from iptoolkit.support.printable import LABEL_COUNT

__all__ = [
    "RECORD_LABELS",
    "NODE_ROOM_PX",
    "Box",
    "Frame",
    "Problems",
    "Kept",
    "frames",
    "every_frame",
    "hovered_text",
    "kept_characters",
    "read_labels",
    "whole_of",
    "problems",
    "resize_and_wait",
    "view_problems",
]

RECORD_LABELS = r"""
(() => {
  if (window.__iptLabels) return;
  const canvases = [];
  const frames = new Map();
  const hovers = [];  // the text drawn for a hovered node, last first
  const sizes = new Map();  // a canvas's size when its frame's first label was drawn
  const history = [];  // every frame finished, from the page's start (the last 2,000)
  window.__iptLabels = {canvases, frames, hovers, sizes, history};
  // a frame drawn on a hidden canvas is seen if the canvas is shown before the next one
  const hidden = c => getComputedStyle(c).visibility === 'hidden';
  const finish = c => {
    const done = frames.get(c);
    if (done && done.length) {
      const size = sizes.get(c);
      history.push({size: {...size, hidden: size.hidden && hidden(c)}, labels: done});
      if (history.length > 2000) history.shift();
    }
  };
  const proto = CanvasRenderingContext2D.prototype;
  const fill = proto.fillText, clear = proto.clearRect;
  const isLabels = c => c && c.classList && c.classList.contains('sigma-labels');
  const isHovers = c => c && c.classList && c.classList.contains('sigma-hovers');
  proto.clearRect = function (x, y, w, h) {
    const c = this.canvas;
    if (isLabels(c)) {
      if (!frames.has(c)) canvases.push(c);
      finish(c);
      frames.set(c, []);
    }
    return clear.apply(this, arguments);
  };
  proto.fillText = function (text, x, y) {
    const c = this.canvas;
    if (isHovers(c)) hovers.unshift(String(text));
    if (isLabels(c)) {
      if (!frames.has(c)) { canvases.push(c); frames.set(c, []); }
      if (!frames.get(c).length) {
        const r = c.getBoundingClientRect();
        sizes.set(c, {pixelWidth: c.width, pixelHeight: c.height, cssWidth: r.width,
                      cssHeight: r.height, left: r.left, top: r.top, at: Date.now(),
                      hidden: hidden(c)});
      }
      const m = this.getTransform();
      const metrics = this.measureText(text);
      const size = /([\d.]+)px/.exec(this.font);
      frames.get(c).push({
        text: String(text),
        x: m.a * x + m.c * y + m.e,
        y: m.b * x + m.d * y + m.f,
        width: metrics.width * m.a,
        size: (size ? parseFloat(size[1]) : 10) * m.d,
        baseline: this.textBaseline,
        align: this.textAlign,
        fill: String(this.fillStyle),
        alpha: this.globalAlpha,
      });
    }
    return fill.apply(this, arguments);
  };
})();
"""

_READ = """
() => (window.__iptLabels ? window.__iptLabels.canvases : [])
  .filter(c => c.isConnected && c.getBoundingClientRect().width > 0)
  .map(c => {
    const r = c.getBoundingClientRect();
    const views = Array.from(document.querySelectorAll('.ipt-topology'));
    return {pixelWidth: c.width, pixelHeight: c.height, cssWidth: r.width, cssHeight: r.height,
            left: r.left, top: r.top, view: views.indexOf(c.closest('.ipt-topology')),
            labels: window.__iptLabels.frames.get(c) || []};
  })
"""
_EVERY = """
() => {
  const record = window.__iptLabels;
  if (!record) return [];
  const shown = c => c.isConnected && getComputedStyle(c).visibility !== 'hidden';
  const open = record.canvases.filter(c => (record.frames.get(c) || []).length)
    .map(c => ({size: {...record.sizes.get(c), hidden: record.sizes.get(c).hidden && !shown(c)},
                labels: record.frames.get(c)}));
  return record.history.concat(open).filter(f => !f.size.hidden)
    .map(f => ({...f.size, view: -1, labels: f.labels}));
}
"""
_MARK = """
() => document.querySelectorAll('.ipt-topology').forEach(view => {
  view.querySelectorAll('canvas.sigma-labels').forEach(c => { c.__iptOld = true; });
  const probe = view.querySelector('.ipt-canvas-width');
  view.__iptWidth = probe ? probe.getBoundingClientRect().width : -1;
})
"""
_NEW = """
index => {
  const views = [document.querySelectorAll('.ipt-topology')[index]].filter(Boolean);
  const drawn = view => Array.from(view.querySelectorAll('canvas.sigma-labels')).some(
    c => c.isConnected && c.getBoundingClientRect().width > 0);
  const redrawn = view => Array.from(view.querySelectorAll('canvas.sigma-labels')).some(
    c => c.isConnected && !c.__iptOld && c.getBoundingClientRect().width > 0);
  const same = view => {  // a width the view does not report again (see CanvasWidth)
    const probe = view.querySelector('.ipt-canvas-width');
    return probe && Math.abs(probe.getBoundingClientRect().width - view.__iptWidth) < 8;
  };
  return views.length === 1 && views.every(v => redrawn(v) || (same(v) && drawn(v)));
}
"""
_STATE = """
() => Array.from(document.querySelectorAll('.ipt-topology')).map(view => {
  const probe = view.querySelector('.ipt-canvas-width');
  return {marked: view.__iptWidth, probe: probe ? probe.getBoundingClientRect().width : null,
          canvases: Array.from(view.querySelectorAll('canvas.sigma-labels')).map(
            c => ({old: !!c.__iptOld, connected: c.isConnected,
                   width: c.getBoundingClientRect().width}))};
})
"""

NODE_ROOM_PX = 3 + 2 * 11
"""Left of a label's start: sigma's 3 px gap and the widest node it follows (a grouped node
is at most 11 px in radius at the start zoom): a label starting nearer the canvas's left
edge has its node cut."""
_TOLERANCE = 0.5  # px: anti-aliasing, rounding
_TRANSPARENT = re.compile(r"rgba\([^)]*,\s*0(\.0*)?\s*\)$")


@dataclass(frozen=True)
class Box:
    """One label as drawn, in CSS pixels of its canvas."""

    text: str
    left: float
    top: float
    right: float
    bottom: float
    size: float

    def overlaps(self, other: Box) -> bool:
        return (
            min(self.right, other.right) - max(self.left, other.left) > _TOLERANCE
            and min(self.bottom, other.bottom) - max(self.top, other.top) > _TOLERANCE
        )


@dataclass(frozen=True)
class Frame:
    """The labels a canvas drew last, and the canvas's CSS size and place on the page."""

    width: float
    height: float
    left: float
    top: float
    boxes: list[Box]
    view: int = -1
    """Which `.ipt-topology` of the page it belongs to, in document order."""


@dataclass
class Problems:
    """What is wrong in a frame: overlapping pairs, labels cut by the edge, labels whose
    node is cut (left of `NODE_ROOM_PX`), labels smaller than `min_size` px."""

    overlaps: list[tuple[str, str]] = field(default_factory=list)
    cut: list[str] = field(default_factory=list)
    nodes_cut: list[str] = field(default_factory=list)
    small: list[str] = field(default_factory=list)
    labels: int = 0

    def __bool__(self) -> bool:
        return bool(self.overlaps or self.cut or self.nodes_cut or self.small)

    def line(self) -> str:
        return (
            f"{self.labels} labels: {len(self.overlaps)} overlapping pairs, {len(self.cut)} cut,"
            f" {len(self.nodes_cut)} nodes cut, {len(self.small)} too small"
        )


def frames(page: Any) -> list[Frame]:
    """The label frames of every sigma canvas on the page now, top to bottom."""
    return sorted((_frame(canvas) for canvas in page.evaluate(_READ)), key=lambda f: f.top)


def every_frame(page: Any) -> list[Frame]:
    """Every label frame drawn since the page started (the last 2,000) and shown (not on a
    hidden canvas), in the order they were drawn, each at the size its canvas had then: a
    first frame drawn for the wrong width is in it even when a later one replaced it."""
    return [_frame(canvas) for canvas in page.evaluate(_EVERY)]


def _frame(canvas: dict[str, Any]) -> Frame:
    """A frame read in the page: its labels as boxes in CSS pixels of its canvas."""
    scale = canvas["cssWidth"] / max(canvas["pixelWidth"], 1)
    boxes = [
        _box(label, scale)
        for label in canvas["labels"]
        if label["text"].strip() and not _transparent(label)
    ]
    return Frame(
        canvas["cssWidth"], canvas["cssHeight"], canvas["left"], canvas["top"], boxes,
        canvas["view"],
    )  # fmt: skip


def resize_and_wait(page: Any, width: int, height: int, views: int, *, timeout: float) -> None:
    """Make the page `width` x `height` and wait until each of the first `views` topology
    views drew a new canvas (the view reported its width and was laid out again), or kept
    its width, and its labels stopped changing. Each view is scrolled into sight first:
    JupyterLab skips drawing cells out of sight (`content-visibility`), and a view there
    reports its width only when the reader comes back to it."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.evaluate(_MARK)
    page.set_viewport_size({"width": width, "height": height})
    for index in range(views):
        page.locator(".ipt-topology").nth(index).scroll_into_view_if_needed()
        try:
            page.wait_for_function(_NEW, arg=index, timeout=timeout, polling=250)
        except PlaywrightTimeout as exc:
            state = page.evaluate(_STATE)
            raise AssertionError(f"at {width} px view {index} did not draw again: {state}") from exc
    settle(page, timeout=timeout)


def settle(page: Any, *, timeout: float) -> None:
    """Wait until two readings of every canvas's labels, a second apart, agree."""
    waited, before = 0.0, None
    while waited < timeout:
        page.wait_for_timeout(1000)
        waited += 1000
        now = [(f.view, f.width, f.height, [(b.text, b.left, b.top) for b in f.boxes])
               for f in frames(page)]  # fmt: skip
        if now == before:
            return
        before = now
    raise AssertionError("the canvases never stopped redrawing their labels")


def view_problems(page: Any, view: int) -> tuple[Frame, Problems]:
    """The label frame of the topology view number `view` and what is wrong in it."""
    mine = [frame for frame in frames(page) if frame.view == view]
    assert len(mine) == 1, f"view {view}: {len(mine)} label canvases"
    return mine[0], problems(mine[0])


def problems(frame: Frame, *, min_size: float = 11.0) -> Problems:
    """Count what is wrong in `frame` (see `Problems`)."""
    found = Problems(labels=len(frame.boxes))
    boxes = sorted(frame.boxes, key=lambda box: box.left)
    for index, box in enumerate(boxes):
        for other in boxes[index + 1 :]:
            if other.left >= box.right:
                break
            if box.overlaps(other):
                found.overlaps.append((box.text, other.text))
        if (
            box.left < -_TOLERANCE
            or box.top < -_TOLERANCE
            or box.right > frame.width + _TOLERANCE
            or box.bottom > frame.height + _TOLERANCE
        ):
            found.cut.append(box.text)
        elif box.left < NODE_ROOM_PX:
            found.nodes_cut.append(box.text)
        if box.size < min_size - _TOLERANCE:
            found.small.append(box.text)
    return found


def _transparent(label: dict[str, Any]) -> bool:
    fill = str(label["fill"]).replace(" ", "")
    return float(label["alpha"]) <= 0 or fill == "transparent" or bool(_TRANSPARENT.search(fill))


def _box(label: dict[str, Any], scale: float) -> Box:
    """A label's box: its measured width, one font size high (ascent 0.8, descent 0.2 of
    it about an alphabetic baseline), placed as its alignment and baseline say."""
    width, size = label["width"] * scale, label["size"] * scale
    x, y = label["x"] * scale, label["y"] * scale
    align = label["align"]
    if align in ("center",):
        left = x - width / 2
    elif align in ("right", "end"):
        left = x - width
    else:
        left = x
    baseline = label["baseline"]
    if baseline == "top" or baseline == "hanging":
        top = y
    elif baseline == "middle":
        top = y - size / 2
    elif baseline in ("bottom", "ideographic"):
        top = y - size
    else:  # alphabetic
        top = y - 0.8 * size
    return Box(label["text"], left, top, left + width, top + size, size)


def hovered_text(page: Any, frame: Frame, box: Box) -> str | None:
    """The text sigma draws when the pointer rests on the node of `box` (its label drawn in
    `frame`), or None when no hover was drawn. The node is left of its label (sigma's 3 px
    gap and the node's radius): a few points there are tried."""
    middle = frame.top + (box.top + box.bottom) / 2
    for gap in (6, 8, 4, 10, 12):
        page.evaluate("() => { window.__iptLabels.hovers.length = 0; }")
        page.mouse.move(frame.left + box.left - gap, middle)
        page.wait_for_timeout(300)
        drawn = page.evaluate("() => window.__iptLabels.hovers.slice()")
        if drawn:  # the pointer stays: the caller may take a picture
            return str(drawn[-1])
    return None


@dataclass
class Kept:
    """How much of a view's labels is drawn: `drawn` characters ("…" aside) of `whole`
    (every label uncut, drawn or not), and what is `wrong`: a count cut, a label drawn
    that is no cut of any whole label."""

    drawn: int = 0
    whole: int = 0
    wrong: list[str] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.drawn / self.whole if self.whole else 0.0

    def line(self) -> str:
        line = f"{self.share:.0%} of {self.whole:,} label characters kept"
        return line + (f", wrong: {self.wrong[:3]}" if self.wrong else "")


SECOND_LINE_INDENT_PX = 30.0
"""A label's second line starts under its name: right of its first line's start by the
glyph's width at most (and never left of it)."""


def read_labels(boxes: list[Box]) -> list[str]:
    """The labels as a reader reads them: a label wrapped onto two lines (its second drawn
    `LINE_PX` below its first, under its name: `viewmodel/topology_wrap.py`) is one label,
    its lines joined by a space; every other box is a label of its own."""
    from iptoolkit.viewmodel.topology_wrap import LINE_PX

    second: dict[int, int] = {}  # the box of a first line -> the box of its second
    for j, low in enumerate(boxes):
        for i, high in enumerate(boxes):
            below = low.top - high.top
            indent = low.left - high.left
            if abs(below - LINE_PX) <= 1.5 and 0 < indent <= SECOND_LINE_INDENT_PX:
                second.setdefault(i, j)
                break
    seconds = set(second.values())
    return [
        box.text + (" " + boxes[second[i]].text if i in second else "")
        for i, box in enumerate(boxes)
        if i not in seconds
    ]


def kept_characters(drawn: list[str], whole: list[str]) -> Kept:
    """Match each label `drawn` (the recorder's text) to the whole label it was cut from,
    count the characters kept and check that its count, if any, is whole."""
    kept = Kept(whole=sum(len(text) for text in whole))
    left = list(whole)
    for text in drawn:
        match = whole_of(text, left)
        if match is None:
            kept.wrong.append(f"{text!r}: no label it is cut from")
            continue
        left.remove(match)
        kept.drawn += len(text) - text.count("\u2026")
        count = LABEL_COUNT.search(match)
        if count is not None and not text.endswith(f"({count.group(1)})") and text != match:
            kept.wrong.append(f"{text!r}: the count of {match!r} cut")
    return kept


def whole_of(text: str, whole: list[str]) -> str | None:
    """The whole label `text` is drawn from: the same, or one that holds its pieces
    between "…" in order (its beginning first, its end last); the shortest such."""
    if text in whole:
        return text
    pieces = text.split("\u2026")
    found = [label for label in whole if _holds(label, pieces)]
    return min(found, key=len) if found else None


def _holds(label: str, pieces: list[str]) -> bool:
    if not (label.startswith(pieces[0]) and label.endswith(pieces[-1])):
        return False
    at = len(pieces[0])
    for piece in pieces[1:-1]:
        at = label.find(piece, at)
        if at < 0:
            return False
        at += len(piece)
    return at <= len(label) - len(pieces[-1])


def uncut_overview_labels(estate: Any) -> list[str]:
    """The overview's labels whole: `estate` laid out by the Explorer's own code on a
    canvas wide enough for every label (what `kept_characters` counts against)."""
    from iptoolkit.query.graph import build_graph
    from iptoolkit.viewmodel.drill import auto_view
    from iptoolkit.viewmodel.topology_fit import Canvas

    data = auto_view(build_graph(estate), canvas=Canvas.of(6000, 600))
    labels = [str(a["label"]) for _, a in data.graph.nodes(data=True) if a.get("kind") != "port"]
    assert not any("\u2026" in label for label in labels), "cut even on 6,000 px"
    return labels

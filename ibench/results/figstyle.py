"""The one figure style of ibench: every plot is made by :func:`panels` (or any matplotlib
figure drawn under :data:`STYLE`) and written by :func:`save_figure` as ``<name>.png``
(200 dpi) and ``<name>.pdf``.

The style is constrained layout (titles, labels and legends are given room instead of
overlapping), readable fonts, and long titles wrapped to the width of their panel
(:func:`title`). :func:`layout_problems` measures a drawn figure with matplotlib's renderer
extents and names every text that overlaps another or leaves the canvas; the figure test
calls it on every figure kind.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

DPI = 200
FORMATS = ("png", "pdf")
PANEL_SIZE = (4.8, 3.6)  # inches per panel
MAX_COLUMNS = 3  # more panels wrap onto further rows (no 3900 px wide strips)

STYLE: dict[str, Any] = {
    "figure.constrained_layout.use": True,
    "figure.constrained_layout.h_pad": 0.06,
    "figure.constrained_layout.w_pad": 0.06,
    "font.size": 10,
    "axes.titlesize": 10.5,
    "axes.labelsize": 10,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 8,
    "legend.frameon": False,
    "figure.titlesize": 12,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "savefig.dpi": DPI,
    "pdf.fonttype": 42,  # TrueType in the PDF: text stays text for journals
}


def pyplot() -> Any:
    """matplotlib.pyplot on the Agg backend (no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def panels(n: int, *, panel_size: tuple[float, float] = PANEL_SIZE, max_columns: int = MAX_COLUMNS,
           suptitle: str | None = None, sharey: bool = False) -> tuple[Any, list[Any]]:
    """A figure with ``n`` panels (n ≥ 1) in rows of at most ``max_columns``, styled; returns the
    figure and the ``n`` axes in reading order (cells past ``n`` are removed)."""
    if n < 1:
        raise ValueError("a figure needs at least one panel with data")
    plt = pyplot()
    cols = min(n, max_columns)
    rows = -(-n // cols)
    with plt.rc_context(STYLE):
        fig, grid = plt.subplots(rows, cols, figsize=(panel_size[0] * cols, panel_size[1] * rows),
                                 squeeze=False, sharey=sharey)
    axes = [ax for row in grid for ax in row]
    for ax in axes[n:]:
        fig.delaxes(ax)
    if suptitle:
        fig.suptitle(wrap(suptitle, int(panel_size[0] * cols * 11)), fontsize=STYLE["figure.titlesize"])
    return fig, axes[:n]


def wrap(text: str, width: int) -> str:
    """``text`` broken onto lines of at most ``width`` characters (existing breaks kept)."""
    return "\n".join(textwrap.fill(line, max(12, width)) or line for line in text.split("\n"))


def title(ax: Any, text: str) -> None:
    """Set ``ax``'s title wrapped to the panel's width, so neighbouring titles never meet."""
    fig = ax.get_figure()
    inches = ax.get_position().width * fig.get_figwidth()
    ax.set_title(wrap(text, int(inches * 72 / (0.62 * STYLE["axes.titlesize"]))),
                 fontsize=STYLE["axes.titlesize"])


def save_figure(fig: Any, out_dir: Path, name: str) -> list[Path]:
    """Write ``fig`` as ``out_dir/<name>.png`` (200 dpi) and ``out_dir/<name>.pdf``, close it,
    and return the paths written."""
    plt = pyplot()
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    try:
        with plt.rc_context(STYLE):
            for fmt in FORMATS:
                path = out_dir / f"{name}.{fmt}"
                fig.savefig(path, dpi=DPI, format=fmt)
                paths.append(path)
    finally:
        plt.close(fig)
    return paths


def _undrawn_tick_labels(fig: Any) -> set[int]:
    """The ids of tick labels that are not drawn: their tick lies outside the axis's view."""
    undrawn: set[int] = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            eps = (hi - lo) * 1e-9
            for ticks, locs in ((axis.get_major_ticks(), axis.get_majorticklocs()),
                                (axis.get_minor_ticks(), axis.get_minorticklocs())):
                for i, tick in enumerate(ticks):
                    if i >= len(locs) or not lo - eps <= locs[i] <= hi + eps:
                        undrawn.update((id(tick.label1), id(tick.label2)))
    return undrawn


def _texts(fig: Any) -> Iterator[tuple[str, Any]]:
    """Every drawn, non-empty text of the figure with a short description of it."""
    from matplotlib.text import Text

    undrawn = _undrawn_tick_labels(fig)
    for artist in fig.findobj(Text):
        if not artist.get_visible() or not artist.get_text().strip() or id(artist) in undrawn:
            continue
        if artist.axes is not None and not artist.axes.get_visible():
            continue
        yield artist.get_text().replace("\n", " ")[:60], artist


def layout_problems(fig: Any, *, tolerance_px: float = 1.0) -> list[str]:
    """Draw ``fig`` and name every text that leaves the canvas (clipped) or overlaps another
    text (by renderer window extents); empty when the figure is clean."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    width, height = fig.canvas.get_width_height()
    boxes = []
    problems = []
    for label, text in _texts(fig):
        box = text.get_window_extent(renderer)
        if box.width <= 0 or box.height <= 0:
            continue
        if (box.x0 < -tolerance_px or box.y0 < -tolerance_px
                or box.x1 > width + tolerance_px or box.y1 > height + tolerance_px):
            problems.append(f"clipped: {label!r} at {tuple(round(v) for v in box.extents)} "
                            f"outside {width}x{height}")
        boxes.append((label, box))
    for i, (la, a) in enumerate(boxes):
        for lb, b in boxes[i + 1:]:
            dx = min(a.x1, b.x1) - max(a.x0, b.x0)
            dy = min(a.y1, b.y1) - max(a.y0, b.y0)
            if dx > tolerance_px and dy > tolerance_px:
                problems.append(f"overlap: {la!r} and {lb!r}")
    return problems

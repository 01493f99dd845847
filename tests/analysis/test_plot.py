"""--plot: a PNG written and read back: its size, its colours, and the curve where the data says."""

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from matplotlib.image import imread  # noqa: E402

from ruleset_engine.analysis import plot  # noqa: E402
from ruleset_engine.analysis.sweep import sweep  # noqa: E402


def test_a_sweep_drawn_to_png_shows_its_rates_where_the_data_says(tmp_path):
    data = sweep("attack-of-the-vampires", 300, ["vampire_on=1..6"], seed=1).to_json()
    path = tmp_path / "sweep.png"
    fig, ax = plot.write(data, str(path))
    image = imread(str(path))                       # rows × columns × RGBA, floats 0..1
    height, width = image.shape[:2]
    assert (width, height) == (640, 480)
    colours = {tuple(px) for px in (image[:, :, :3] * 255).round().astype(int).reshape(-1, 3)}
    assert len(colours) > 20                        # not blank: text, axes, a line, a band
    line_colour = np.array([0x1F, 0x77, 0xB4]) / 255      # matplotlib's first colour, the curve's
    xs, rates, _, _ = plot.series(data)[0][1:]
    for x, rate in zip(xs, rates):
        px, py = ax.transData.transform((x, 100 * rate))
        row, column = int(round(height - py)), int(round(px))
        patch = image[row - 2: row + 3, column - 2: column + 3, :3]
        distance = np.abs(patch - line_colour).sum(axis=2).min()
        assert distance < 0.1, (x, rate, row, column)
    # And in the corner of the figure, far from the curve, white background.
    assert np.abs(image[3, 3, :3] - 1.0).sum() < 0.01


def test_an_svg_is_written_too(tmp_path):
    data = sweep("attack-of-the-vampires", 20, ["vampire_on=1,2"]).to_json()
    plot.write(data, str(tmp_path / "sweep.svg"))
    assert (tmp_path / "sweep.svg").read_text().lstrip().startswith("<?xml")

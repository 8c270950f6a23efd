"""The paper's baselines (seed 002 Sec. VI): Load Balancing, Tetris, LIF-Line, LIF-Quad.
All place one task at a time through :func:`mlopt.families.harmony.state.run_placement`."""
from mlopt.families.harmony.baselines.lb import run_lb
from mlopt.families.harmony.baselines.lif import run_lif_line, run_lif_quad
from mlopt.families.harmony.baselines.tetris import run_tetris

BASELINES = {"lb": run_lb, "tetris": run_tetris, "lif_line": run_lif_line,
             "lif_quad": run_lif_quad}

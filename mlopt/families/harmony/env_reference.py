"""A plain-Python reference of the Harmony placement environment (:class:`.env.PlacementEnv`).

The fast environment builds the state, the policy's features and the masks with numpy gathers
over precomputed arrays; this one does the same job the obvious way, with Python lists and
loops, so that tests can assert the two agree value for value (observations, features, masks,
rewards, schedules; tests/harmony/test_harmony_env_reference.py) and
``benchmarks/harmony/perf.py`` can time them side by side.

What it shares with the fast environment (DECISION): the two numeric definitions that *are*
the simulated world rather than the environment's bookkeeping: the ground-truth speeds of an
interval (:meth:`SpeedModel.speeds`, tested fact by fact and recomputed independently by the
checker) and the Eq. (1) sum (:func:`.env.interval_reward`, whose numpy summation order the
reference must reproduce for rewards to agree to the last bit). Everything else (rows of the
state, normalizations, masks, task placement, gang rollback, refilling rows from the FIFO
queue, training an interval, freeing resources at completions) is re-implemented here.

Same constructor and interface as :class:`PlacementEnv`; ``state`` is a read-only
:class:`ClusterState` snapshot built on request (for code that reads it: exploration
heuristics, reward models, the schedule).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mlopt.families.harmony.env import FJ_OF, FS_OF, ROLE_NORM, EnvShape, interval_reward
from mlopt.families.harmony.speed import RESOURCES, model_of
from mlopt.families.harmony.state import EPS, ClusterState

if TYPE_CHECKING:  # pragma: no cover
    from mlopt.schedule import Schedule


class ReferencePlacementEnv(EnvShape):
    def __init__(self, workload, **shape):
        super().__init__(workload, **shape)  # sizes and their validation are the env's
        self.sm = model_of(workload)
        self.unit = [float(self.sm.server[k]) for k in range(self.K)]  # one server's capacity
        self.cap = [[float(s.capacity[r]) for r in RESOURCES] for s in workload.servers]
        self.model = [self.sm.index(j.extra["model"]) for j in workload.jobs]
        self.need = [[int(j.extra["workers"]) for j in workload.jobs],
                     [int(j.extra["ps"]) for j in workload.jobs]]
        self.dem = [[[float(j.worker_demand[r]) for r in RESOURCES],
                     [float(j.ps_demand[r]) for r in RESOURCES]] for j in workload.jobs]
        self.arrival = [int(j.arrival) for j in workload.jobs]
        self.epochs = [float(j.epochs) for j in workload.jobs]
        self.reset()

    # ---- episode -----------------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        """Start a new episode on the workload and return the first observation."""
        J = len(self.model)
        self.free = [list(row) for row in self.cap]
        self.x = [[[0] * self.M for _ in range(J)] for _ in (0, 1)]  # role, job, server
        self.placed_at = [0] * J
        self.done_at = [0] * J
        self.progress = [0.0] * J
        self.t = 1
        self.done = False
        self.total_reward = 0.0
        self.slots = [-1] * self.Np
        self._begin_interval()
        return self.observe()

    def _running(self) -> list[bool]:
        return [p > 0 and d == 0 for p, d in zip(self.placed_at, self.done_at)]

    def _begin_interval(self) -> None:
        self.closed_rewards = []
        while True:
            if all(d > 0 for d in self.done_at) or self.t > self.workload.horizon:
                self.done = True
                return
            self.slots = [-1] * self.Np
            waiting = [n for n in range(len(self.model))
                       if self.arrival[n] <= self.t and self.placed_at[n] == 0]
            self.pending = sorted(waiting, key=lambda n: (self.arrival[n], n))  # FIFO
            self._refill()
            if any(n >= 0 for n in self.slots):
                return
            self._close_interval()

    def _refill(self) -> None:
        changed = True
        while changed:
            changed = False
            for i in range(self.Np):
                n = self.slots[i]
                if n >= 0 and not self._can_progress(n):
                    self._rollback(n)
                    self.slots[i] = -1
                    n = -1
                if n < 0 and self.pending:
                    self.slots[i] = self.pending.pop(0)
                    changed = True

    def _fits(self, n: int, role: int, m: int) -> bool:
        d = self.dem[n][role]
        return all(self.free[m][k] >= d[k] - EPS for k in range(self.K))

    def _remaining(self, n: int, role: int) -> int:
        return self.need[role][n] - sum(self.x[role][n])

    def _can_progress(self, n: int) -> bool:
        return any(self._remaining(n, role) > 0 and any(self._fits(n, role, m)
                                                        for m in range(self.M))
                   for role in (0, 1))

    def _release(self, n: int) -> None:
        for role in (0, 1):
            d = self.dem[n][role]
            for m in range(self.M):
                for k in range(self.K):
                    self.free[m][k] += self.x[role][n][m] * d[k]

    def _rollback(self, n: int) -> None:
        self._release(n)
        for role in (0, 1):
            self.x[role][n] = [0] * self.M

    def _close_interval(self) -> float:
        running = self._running()
        xw = [[c if running[n] else 0 for c in self.x[0][n]] for n in range(len(running))]
        xp = [[c if running[n] else 0 for c in self.x[1][n]] for n in range(len(running))]
        J = len(running)
        c = self.sm.speeds(np.array(self.model, int), np.array(self.need[0], int),
                           np.array(xw, int).reshape(J, self.M),
                           np.array(xp, int).reshape(J, self.M)).tolist()
        for n in range(J):
            self.progress[n] += c[n]
        for n in range(J):
            if running[n] and self.progress[n] >= self.epochs[n] - EPS:
                self.done_at[n] = self.t
                self._release(n)
        self.t += 1
        if self.reward_fn is not None:
            c = list(self.reward_fn(self, np.array(running, bool)))
        r = interval_reward(c, self.epochs, running)
        self.closed_rewards.append(r)
        self.total_reward += r
        return r

    # ---- observation and masks ---------------------------------------------------------------
    def rows(self) -> list[int]:
        """Return the job of each state row: new jobs, then running ones newest first, -1 padding."""
        running = self._running()
        run = sorted((n for n in range(len(running)) if running[n]),
                     key=lambda n: -self.placed_at[n])  # most recent first, stable
        rows = list(self.slots) + run[: self.N - self.Np]
        return rows + [-1] * (self.N - len(rows))

    def observe(self) -> np.ndarray:
        """Return the flat state vector (x, r, w, p, v, d) of the current state."""
        N, L, K, M = self.N, self.L, self.K, self.M
        x, r, w, p = [], [], [], []
        d = [[0.0] * (2 * N) for _ in range(self.Mmax)]
        for i, n in enumerate(self.rows()):
            if n < 0:
                x += [0.0] * L
                r += [0.0] * (2 * (1 + K))
                w.append(0.0)
                p.append(0.0)
                continue
            x += [1.0 if l == self.model[n] else 0.0 for l in range(L)]
            for role in (0, 1):
                r.append(self.need[role][n] / ROLE_NORM)
                r += [self.dem[n][role][k] / self.unit[k] for k in range(K)]
            w.append(sum(self.x[0][n]) / ROLE_NORM)
            p.append(sum(self.x[1][n]) / ROLE_NORM)
            for m in range(M):
                d[m][2 * i] = self.x[0][n][m] / ROLE_NORM
                d[m][2 * i + 1] = self.x[1][n][m] / ROLE_NORM
        v = [[self.free[m][k] / self.cap[m][k] for k in range(K)] if m < M else [0.0] * K
             for m in range(self.Mmax)]
        flat = x + r + w + p + [a for row in v for a in row] + [a for row in d for a in row]
        return np.array(flat, np.float32)

    def action_parts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return the job, server and pair feature arrays of the actions."""
        L, K, M, Mmax = self.L, self.K, self.M, self.Mmax
        job = [[0.0] * FJ_OF(L) for _ in range(self.Np)]
        pair = [[[0.0] * 3 for _ in range(Mmax)] for _ in range(self.Np)]
        for i, n in enumerate(self.slots):
            if n < 0:
                continue
            job[i] = ([1.0 if l == self.model[n] else 0.0 for l in range(L)]
                      + [self.need[0][n] / ROLE_NORM, self.need[1][n] / ROLE_NORM]
                      + [self.dem[n][0][k] / self.unit[k] for k in range(K)]
                      + [self.dem[n][1][k] / self.unit[k] for k in range(K)]
                      + [sum(self.x[0][n]) / ROLE_NORM, sum(self.x[1][n]) / ROLE_NORM])
            used = [self.x[0][n][m] + self.x[1][n][m] > 0 for m in range(M)]
            for m in range(M):
                others = sum(used) - used[m]  # servers of the job other than m
                pair[i][m] = [self.x[0][n][m] / ROLE_NORM, self.x[1][n][m] / ROLE_NORM,
                              1.0 if others > 0 else 0.0]
        # a job counts on a server while it runs, or while it is being placed this interval
        running = self._running()
        active = [running[n] or (self.placed_at[n] == 0
                                 and sum(self.x[0][n]) + sum(self.x[1][n]) > 0)
                  for n in range(len(running))]
        server = [[0.0] * FS_OF(L) for _ in range(Mmax)]
        for m in range(M):
            per_model = [[0, 0] for _ in range(L)]
            for n in range(len(active)):
                if active[n]:
                    per_model[self.model[n]][0] += self.x[0][n][m]
                    per_model[self.model[n]][1] += self.x[1][n][m]
            server[m] = ([self.free[m][k] / self.cap[m][k] for k in range(K)]
                         + [per_model[l][0] / ROLE_NORM for l in range(L)]
                         + [per_model[l][1] / ROLE_NORM for l in range(L)] + [1.0])
        return (np.array(job, np.float32), np.array(server, np.float32),
                np.array(pair, np.float32).reshape(self.Np, Mmax, 3))

    def action_mask(self) -> np.ndarray:
        """Return the mask of the valid actions (none once the episode is over)."""
        mask = [False] * self.n_actions
        if not self.done:
            for i, n in enumerate(self.slots):
                if n < 0:
                    continue
                for role in (0, 1):
                    if self._remaining(n, role) > 0:
                        for m in range(self.M):
                            if self._fits(n, role, m):
                                mask[(2 * i + role) * self.Mmax + m] = True
        return np.array(mask, bool)

    def decode(self, action: int) -> tuple[int, int, int]:
        """Return the (row, role, server) of an action index."""
        a = int(action)
        return a // (2 * self.Mmax), (a // self.Mmax) % 2, a % self.Mmax

    def encode(self, row: int, role: int, server: int) -> int:
        """Return the action index of placing a role task of row on server."""
        return (2 * row + role) * self.Mmax + server

    # ---- step --------------------------------------------------------------------------------
    def step(self, action: int) -> tuple[float, bool]:
        """Apply a valid action; return (reward, True) when it closes an interval, else (0.0, False)."""
        if self.done:
            raise RuntimeError("episode is over")
        row, role, m = self.decode(action)
        n = self.slots[row] if 0 <= action < self.n_actions else -1
        if n < 0 or m >= self.M or self._remaining(n, role) <= 0 or not self._fits(n, role, m):
            raise ValueError(f"action {action} is masked")
        self.x[role][n][m] += 1
        for k in range(self.K):
            self.free[m][k] -= self.dem[n][role][k]
        if self._remaining(n, 0) == 0 and self._remaining(n, 1) == 0:
            self.placed_at[n] = self.t  # commit
            self.slots[row] = -1
        self.closed_rewards = []
        self._refill()
        if any(k >= 0 for k in self.slots):
            return 0.0, False
        r = self._close_interval()
        rewards = list(self.closed_rewards)
        self._begin_interval()
        self.closed_rewards = rewards + self.closed_rewards
        return r, True

    # ---- read-only views -----------------------------------------------------------------------
    @property
    def state(self) -> ClusterState:
        """A :class:`ClusterState` snapshot of the current state (changes to it are lost)."""
        st = ClusterState(self.workload)
        J = len(self.model)
        st.free = np.array(self.free, float).reshape(self.M, self.K)
        st.x = np.array(self.x, int).reshape(2, J, self.M)
        st.placed_at = np.array(self.placed_at, int)
        st.done_at = np.array(self.done_at, int)
        st.progress = np.array(self.progress, float)
        st.t = self.t
        return st

    def schedule(self, producer: str, meta: dict | None = None) -> Schedule:
        """Return the schedule of the episode so far."""
        return self.state.schedule(producer, meta)

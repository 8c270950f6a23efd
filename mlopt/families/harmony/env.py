"""The Harmony placement environment (seed 002 Sec. IV): state (x, r, w, p, v, d), the 2 M N'
actions with masks, and the reward of Eq. (1). Plain Python + numpy; the Gymnasium wrapper is
:mod:`.gym_env`, a plain-Python reference that tests hold this one to is :mod:`.env_reference`.

State rows (N = ``max_jobs``, N' = ``max_new_jobs``, L model types, K = 4 resources):

* rows 0..N'-1: the new jobs being placed this interval (FIFO from the queue); rows N'..N-1:
  running jobs, most recently placed first; the rest zero (DECISION: the paper lists both new and
  running jobs and N' < N without fixing the order);
* ``x`` N x L one-hot model; ``r`` N x 2(1+K): [W/3, worker demand / server capacity, P/3, PS
  demand / capacity]; ``w``, ``p``: tasks placed so far / 3; ``v`` M x K free / capacity;
  ``d`` M x 2N: job n's workers and PSs on server m / 3.
  Servers are padded to ``max_servers`` (absent servers: zero rows, always masked), so one
  policy serves clusters of any size up to it.

Actions: a = (2 n + role) * max_servers + m places one worker (role 0) or PS (role 1) of new job
n on server m; the mask allows it iff the job still needs such a task and the task fits.

Dynamics within an interval: inferences repeat until every new job is fully placed or none can
progress. A job whose next task fits nowhere is rolled back at once (gang semantics: it waits
in the queue; its resources go to the others) and the next queued job takes its row. When no
row is left, the interval is trained (ground-truth speeds) and closes with reward
r = sum over running jobs of c_n / e_n (Eq. 1), or a prediction of it (``reward_fn``). Intervals
without any decision are trained through automatically.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mlopt.errors import InputError
from mlopt.families.harmony.speed import RESOURCES, model_of
from mlopt.families.harmony.state import EPS, ClusterState

if TYPE_CHECKING:  # pragma: no cover
    from mlopt.schedule import Schedule

ROLE_NORM = 3.0  # W, P in [1, 3] in the paper's workloads


def interval_reward(c, epochs, running) -> float:
    """Eq. (1): sum over the jobs running in the interval of c_n / e_n (numpy's summation)."""
    c, epochs, running = np.asarray(c, float), np.asarray(epochs, float), np.asarray(running, bool)
    return float((c[running] / epochs[running]).sum())


def FJ_OF(L: int) -> int:  # noqa: N802  job feature width
    """Return the width of a job's action features for L model types."""
    return L + 2 + 2 * len(RESOURCES) + 2


def FS_OF(L: int) -> int:  # noqa: N802  server feature width
    """Return the width of a server's action features for L model types."""
    return len(RESOURCES) + 2 * L + 1


class EnvShape:
    """The sizes every placement environment shares (this one and the plain-Python reference):
    N job rows, N' new-job rows, M_max server slots, L model types, K resources, validated."""

    def __init__(self, workload, *, max_servers: int = 12, max_jobs: int | None = None,
                 max_new_jobs: int | None = None, reward_fn=None):
        self.workload = workload
        self.N = int(max_jobs or workload.extra.get("max_jobs", 12))
        self.Np = int(max_new_jobs or workload.extra.get("max_new_jobs", 5))
        self.Mmax = int(max_servers)
        self.M = len(workload.servers)
        if self.M > self.Mmax:
            raise InputError(f"the policy handles at most {self.Mmax} servers",
                             field="servers", value=self.M)
        if not 0 < self.Np < self.N:
            raise InputError("need 0 < N' < N", field="extra.max_new_jobs", value=self.Np)
        self.reward_fn = reward_fn
        self.L = len(model_of(workload).models)
        self.K = len(RESOURCES)
        self.obs_dim = (self.N * self.L + self.N * 2 * (1 + self.K) + 2 * self.N
                        + self.Mmax * self.K + 2 * self.Mmax * self.N)
        self.n_actions = 2 * self.Mmax * self.Np


class PlacementEnv(EnvShape):
    def __init__(self, workload, **shape):
        super().__init__(workload, **shape)
        self.state = ClusterState(workload)
        self._precompute()
        self.reset()

    def _precompute(self) -> None:
        """Per-job arrays that never change, so observations, features and masks are gathers
        instead of per-job Python loops (same float operations as computing them per job, so
        the values are bit-identical)."""
        jobs, cap = self.state.jobs, self.state.sm.server
        n = len(jobs.ids)
        self._need = np.stack([jobs.workers, jobs.ps])  # 2 x n
        self._dem = np.stack([jobs.dw, jobs.dp], axis=1)  # n x 2 x K
        self._dem_eps = self._dem - EPS  # what free capacity is compared against
        self._onehot = np.eye(self.L)[jobs.model] if n else np.zeros((0, self.L))
        w3, p3 = jobs.workers / ROLE_NORM, jobs.ps / ROLE_NORM
        # r rows of the paper's state: [W/3, worker demand / cap, P/3, PS demand / cap]
        self._r = np.concatenate([w3[:, None], jobs.dw / cap, p3[:, None], jobs.dp / cap],
                                 axis=1).reshape(n, 2 * (1 + self.K))
        # static part of a job's policy features: model one-hot, W/3, P/3, demands / cap
        self._jstatic = np.concatenate([self._onehot, w3[:, None], p3[:, None], jobs.dw / cap,
                                        jobs.dp / cap], axis=1).reshape(n, FJ_OF(self.L) - 2)

    # ---- episode -----------------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        """Start a new episode on the workload and return the first observation."""
        self.state = ClusterState(self.workload)
        self._recount()
        self.done = False
        self.total_reward = 0.0
        self.slots = [-1] * self.Np  # an instance without jobs is over at once
        self._begin_interval()
        return self.observe()

    def _begin_interval(self) -> None:
        """Set up the rows of new jobs; train through intervals with nothing to decide."""
        self.closed_rewards = []
        while True:
            st = self.state
            if st.all_done() or st.t > self.workload.horizon:
                self.done = True
                return
            self.slots = [-1] * self.Np
            self.pending = list(st.queue())
            self._refill()
            if any(n >= 0 for n in self.slots):
                return
            self._close_interval()

    def _refill(self) -> None:
        """Fill empty rows from the queue; drop (roll back) jobs that cannot progress."""
        changed = True
        while changed:
            changed = False
            for i in range(self.Np):
                n = self.slots[i]
                if n >= 0 and not self._can_progress(n):
                    self._per_model[:, :, self.state.jobs.model[n]] -= self.state.x[:, n, :]
                    self.state.rollback(n)
                    self.slots[i] = -1
                    n = -1
                if n < 0 and self.pending:
                    self.slots[i] = int(self.pending.pop(0))
                    changed = True

    def _recount(self) -> None:
        """Tasks of each model type per role and server (2 x M x L, the policy's server
        features), over the running jobs and the partly placed new ones; kept up to date by
        ``step`` and rollbacks, recounted when an interval closes (the state changes only
        through :meth:`step` and :meth:`reset`). Small integers in floats: exact."""
        st = self.state
        act = np.flatnonzero(st.running() | ((st.x.sum(axis=(0, 2)) > 0) & (st.placed_at == 0)))
        self._per_model = st.x[:, act, :].transpose(0, 2, 1).astype(float) @ self._onehot[act]

    def _can_progress(self, n: int) -> bool:
        """Some role of job n still needs a task that fits on some server."""
        st = self.state
        need = self._need[:, n] - st.x[:, n].sum(axis=1) > 0
        fits = (st.free[None] >= self._dem_eps[n][:, None, :]).all(axis=2).any(axis=1)
        return bool((need & fits).any())

    def _close_interval(self) -> float:
        st = self.state
        running = st.running()
        c_true = st.advance()  # trains the interval with the ground truth
        self._recount()  # completed jobs left their servers
        if self.reward_fn is not None:
            c = self.reward_fn(self, running)
        else:
            c = c_true
        r = interval_reward(c, st.jobs.epochs, running)
        self.closed_rewards.append(r)
        self.total_reward += r
        return r

    # ---- observation and masks ---------------------------------------------------------------
    def rows(self) -> list[int]:
        """Job index of each state row (-1: empty)."""
        return self._rows().tolist()

    def _rows(self) -> np.ndarray:
        st = self.state
        run = np.flatnonzero(st.running())
        run = run[np.argsort(-st.placed_at[run], kind="stable")]
        rows = np.full(self.N, -1)
        rows[: self.Np] = self.slots
        k = min(len(run), self.N - self.Np)
        rows[self.Np: self.Np + k] = run[:k]
        return rows

    def observe(self) -> np.ndarray:
        """Return the flat state vector (x, r, w, p, v, d) of the current state."""
        st, N, L, K, Mmax, M = self.state, self.N, self.L, self.K, self.Mmax, self.M
        rows = self._rows()
        i = np.flatnonzero(rows >= 0)
        n = rows[i]
        x = np.zeros((N, L))
        x[i, st.jobs.model[n]] = 1.0
        r = np.zeros((N, 2 * (1 + K)))
        r[i] = self._r[n]
        own = st.x[:, n, :]  # 2 x rows x M
        w = np.zeros(N)
        p = np.zeros(N)
        w[i] = own[0].sum(axis=1) / ROLE_NORM
        p[i] = own[1].sum(axis=1) / ROLE_NORM
        d = np.zeros((Mmax, N, 2))  # column 2 i + role of the paper's M x 2N block
        d[:M, i, :] = own.transpose(2, 1, 0) / ROLE_NORM
        v = np.zeros((Mmax, K))
        v[:M] = st.free / st.cap
        return np.concatenate([x.ravel(), r.ravel(), w, p, v.ravel(), d.ravel()]).astype(
            np.float32)

    # ---- per-action features of the DRL policy ------------------------------------------------
    def action_parts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The state re-arranged per action for a policy that scores every (job, role, server)
        with one shared network (:mod:`.agent`): job features (N' x FJ: model one-hot, W/3, P/3,
        demands / capacity, placed so far), server features (Mmax x FS: free / capacity,
        workers and PSs of each model type on it / 3, exists) and pair features
        (N' x Mmax x 3: the job's own workers and PSs on the server / 3, and whether the job
        already uses another server). Same information as (x, r, w, p, v, d), with d summed per
        model type (what interference depends on)."""
        st, L, Mmax, M = self.state, self.L, self.Mmax, self.M
        slots = np.asarray(self.slots)
        i = np.flatnonzero(slots >= 0)
        n = slots[i]
        own = st.x[:, n, :]  # 2 x rows x M
        job = np.zeros((self.Np, FJ_OF(L)), np.float32)
        job[i, :-2] = self._jstatic[n]
        job[i, -2:] = own.sum(axis=2).T / ROLE_NORM
        pair = np.zeros((self.Np, Mmax, 3), np.float32)
        pair[i, :M, :2] = own.transpose(1, 2, 0) / ROLE_NORM
        used = own.sum(axis=0) > 0  # rows x M
        pair[i, :M, 2] = (used.sum(axis=1, keepdims=True) - used) > 0
        server = np.zeros((Mmax, FS_OF(L)), np.float32)
        server[:M, :self.K] = st.free / st.cap
        server[:M, self.K:self.K + 2 * L] = self._per_model.transpose(1, 0, 2).reshape(
            M, 2 * L) / ROLE_NORM
        server[:M, -1] = 1.0
        return job, server, pair

    def action_mask(self) -> np.ndarray:
        """Valid actions: the row's job still needs a task of the role, and the task fits on the
        server (free >= demand - EPS in every resource, as :meth:`ClusterState.place`)."""
        st = self.state
        mask = np.zeros((self.Np, 2, self.Mmax), dtype=bool)
        if not self.done:
            slots = np.asarray(self.slots)
            i = np.flatnonzero(slots >= 0)
            n = slots[i]
            need = (self._need[:, n] - st.x[:, n, :].sum(axis=2)).T > 0  # rows x 2
            fits = (st.free[None, None] >= self._dem_eps[n][:, :, None, :]).all(axis=3)
            mask[i, :, :self.M] = fits & need[:, :, None]
        return mask.reshape(-1)

    def valid(self, action: int) -> bool:
        """``action_mask()[action]`` for one action, without building the whole mask."""
        if self.done or not 0 <= action < self.n_actions:
            return False
        row, role, m = self.decode(action)
        n = self.slots[row]
        return bool(n >= 0 and m < self.M and self.state.remaining(n, role) > 0
                    and (self.state.free[m] >= self._dem_eps[n, role]).all())

    def decode(self, action: int) -> tuple[int, int, int]:
        """(row of the new job, role, server) of an action index."""
        a = int(action)
        return a // (2 * self.Mmax), (a // self.Mmax) % 2, a % self.Mmax

    def encode(self, row: int, role: int, server: int) -> int:
        """Return the action index of placing a role task of row on server."""
        return (2 * row + role) * self.Mmax + server

    # ---- step --------------------------------------------------------------------------------
    def step(self, action: int) -> tuple[float, bool]:
        """Apply a *valid* action. Returns (reward of the interval it closed or 0, closed?).
        ``self.closed_rewards`` lists every interval reward of the step (the first is the
        interval the action belongs to)."""
        if self.done:
            raise RuntimeError("episode is over")
        if not self.valid(action):
            raise ValueError(f"action {action} is masked")
        row, role, m = self.decode(action)
        st = self.state
        n = self.slots[row]
        st.place(n, role, m)
        self._per_model[role, m, st.jobs.model[n]] += 1
        if st.complete(n):
            st.commit(n)
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

    def schedule(self, producer: str, meta: dict | None = None) -> Schedule:
        """Return the schedule of the episode so far."""
        return self.state.schedule(producer, meta)

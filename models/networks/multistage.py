"""Multistage (banyan) networks of k x k switches: omega, baseline and indirect binary n-cube.

A network connects ``N = k**n`` sources to ``N`` destinations through ``n``
stages of ``N/k`` switches.  Lines are numbered ``0..N-1`` at every stage;
the *output-port center* of stage ``t`` (1-based) on line ``l`` is the
queueing center ``(t-1)*N + l`` of the model (one FIFO output buffer and its
link).  Every source-destination pair has a unique path, given here by digit
manipulation (base ``k``, digit 0 least significant):

``omega`` (Lawrie)
    A perfect k-shuffle (rotate the address left by one digit) precedes each
    stage; stage ``t`` sets the least significant digit to the destination's
    digit ``n-t``.  Output line after stage ``t``:
    ``(src * k**t + dst // k**(n-t)) mod N``.
``baseline`` (Wu & Feng)
    Stage ``t`` sets the least significant digit to destination digit
    ``n-t``; an inverse shuffle inside blocks of ``k**(n-t)`` lines follows.
``cube`` (indirect binary n-cube, Pease)
    Stage ``t`` sets digit ``t-1`` of the line address to the destination's
    digit ``t-1``; no permutation between stages.

The return network carries replies from memories back to processors.  Two
wirings are provided:

``"mirror"`` (default)
    The return network is the mirror image of the forward network and a
    reply retraces its request's path backwards: at return stage ``t`` it
    leaves on the line its request entered forward stage ``t`` on.  This is
    the wiring under which replies "tend to be spaced apart by collisions of
    the corresponding requests" (Willick & Eager, Sec. 3.3).
``"same"``
    The return network is a second copy of the forward topology with the
    memories as sources (stage 1 next to the memories).

Return stages are labelled as in the paper's tables: ``R1`` is the stage
next to the processors, ``Rn`` the stage next to the memories; a reply
visits ``Rn, ..., R1`` under the mirror wiring.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..core.validate import require, require_choice

TOPOLOGIES = ("omega", "baseline", "cube")
RETURN_WIRINGS = ("mirror", "same")


def _digits(x: np.ndarray, k: int, n: int) -> np.ndarray:
    """Base-k digits of ``x`` (shape ``x.shape + (n,)``), digit 0 least significant."""
    return (x[..., None] // (k ** np.arange(n))) % k


def _number(digits: np.ndarray, k: int) -> np.ndarray:
    n = digits.shape[-1]
    return (digits * (k ** np.arange(n))).sum(axis=-1)


def forward_paths(topology: str, k: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Lines and input ports of every source-destination path.

    Returns
    -------
    out_line : int array, shape (N, N, n)
        ``out_line[src, dst, t]`` is the output line of stage ``t+1``.
    in_port : int array, shape (N, N, n)
        ``in_port[src, dst, t]`` is the input port (``0..k-1``) of the stage
        ``t+1`` switch on which the packet arrives.
    """
    require_choice("topology", topology, TOPOLOGIES)
    k = require("k", k, 2, unit="switch radix, ports", integer=True)
    n = require("n", n, 1, unit="number of stages", integer=True)
    N = k**n
    src = np.arange(N)[:, None] * np.ones((1, N), dtype=np.int64)
    dst = np.ones((N, 1), dtype=np.int64) * np.arange(N)[None, :]
    sd = _digits(src, k, n)  # (N, N, n)
    dd = _digits(dst, k, n)
    out_line = np.empty((N, N, n), dtype=np.int64)
    in_port = np.empty((N, N, n), dtype=np.int64)
    if topology == "omega":
        line = src.copy()
        for t in range(n):
            shuffled = (line * k) % N + line // k ** (n - 1)  # rotate left one digit
            in_port[:, :, t] = shuffled % k
            line = shuffled - shuffled % k + dd[:, :, n - 1 - t]
            out_line[:, :, t] = line
    elif topology == "baseline":
        line = src.copy()
        for t in range(n):
            in_port[:, :, t] = line % k
            line = line - line % k + dd[:, :, n - 1 - t]
            out_line[:, :, t] = line
            # inverse shuffle within blocks of k**(n-t) lines: rotate the low n-t digits right
            block = k ** (n - t)
            low = line % block
            rotated = low // k + (low % k) * (block // k)
            line = line - low + rotated
    else:  # cube
        line = src.copy()
        for t in range(n):
            digit = (line // k**t) % k
            in_port[:, :, t] = digit
            line = line + (dd[:, :, t] - digit) * k**t
            out_line[:, :, t] = line
    # After the last stage every path must end at its destination (the
    # baseline's last inverse shuffle is over one-line blocks, the identity).
    if not np.array_equal(out_line[:, :, n - 1], dst):
        raise AssertionError(f"{topology}: paths do not end at their destinations")
    return out_line, in_port


def switch_of(topology: str, k: int, n: int, stage: int, line: np.ndarray) -> np.ndarray:
    """Index (``0..N/k-1``) of the stage-``stage`` (1-based) switch owning output ``line``.

    In all three topologies a switch's ``k`` output lines differ only in the
    digit the stage sets: the least significant one (omega, baseline) or
    digit ``stage-1`` (cube).
    """
    line = np.asarray(line)
    if topology in ("omega", "baseline"):
        return line // k
    low = line % k ** (stage - 1)
    high = line // k**stage
    return high * k ** (stage - 1) + low


@dataclass(frozen=True)
class MultistageNetwork:
    """A forward and a return multistage network between N processors and N memories.

    Parameters
    ----------
    topology : {"omega", "baseline", "cube"}
    k : int
        Switch radix (k x k switches), >= 2.
    n : int
        Number of stages; ``N = k**n`` processors and memory modules.
    return_wiring : {"mirror", "same"}
        How replies travel back (module docstring).

    Centers are numbered: forward stage ``t`` line ``l`` -> ``(t-1)*N + l``;
    return stage ``t`` line ``l`` -> ``(n + t - 1)*N + l``; memory ``j`` ->
    ``2*n*N + j``.
    """

    topology: str
    k: int
    n: int
    return_wiring: str = "mirror"

    def __post_init__(self):
        require_choice("topology", self.topology, TOPOLOGIES)
        require("k", self.k, 2, unit="switch radix, ports", integer=True)
        require("n", self.n, 1, unit="number of stages", integer=True)
        require_choice("return_wiring", self.return_wiring, RETURN_WIRINGS)
        require("N = k**n", self.k**self.n, 2, 4096, unit="processors and memory modules", integer=True)

    @property
    def N(self) -> int:
        """Number of processors (= memory modules)."""
        return self.k**self.n

    @property
    def n_centers(self) -> int:
        """Switch output-port centers (2nN) plus memory centers (N)."""
        return 2 * self.n * self.N + self.N

    def memory_center(self, j):
        return 2 * self.n * self.N + np.asarray(j)

    @cached_property
    def _paths(self):
        k, n, N = self.k, self.n, self.N
        out_f, in_f = forward_paths(self.topology, k, n)
        if self.return_wiring == "mirror":
            # Reply (mem d -> proc p) retraces p->d: at return stage t it leaves
            # on the line its request entered forward stage t on; it arrives on
            # the input that the request left on (digit set by forward stage t).
            entered = np.concatenate([np.arange(N)[:, None, None] * np.ones((1, N, 1), dtype=np.int64), out_f[:, :, :-1]], axis=2)
            if self.topology == "omega":
                # the line entering stage t is the shuffled line, not the previous output
                entered = (entered * k) % N + entered // k ** (n - 1)
            elif self.topology == "baseline":
                prev = entered.copy()
                for t in range(1, n):
                    block = k ** (n - t + 1)
                    low = prev[:, :, t] % block
                    prev[:, :, t] = prev[:, :, t] - low + low // k + (low % k) * (block // k)
                entered = prev
            ret_line_pd = entered  # indexed [p, d, t]
            ret_in_pd = out_f % k if self.topology != "cube" else (out_f // (k ** np.arange(n))) % k
            # transpose to [d, p, t]
            ret_line = np.transpose(ret_line_pd, (1, 0, 2))
            ret_in = np.transpose(ret_in_pd, (1, 0, 2))
            # visiting order: Rn first ... R1 last
            order = np.arange(n)[::-1]
        else:
            ret_line, ret_in = forward_paths(self.topology, k, n)  # [d, p, stage from memory side]
            # stage from the memory side s -> return stage label n - s
            ret_line = ret_line[:, :, ::-1]
            ret_in = ret_in[:, :, ::-1]
            order = np.arange(n)[::-1]
        return out_f, in_f, ret_line, ret_in, order

    def forward_route(self) -> tuple[np.ndarray, np.ndarray]:
        """Centers and input ports of each request path, in visiting order.

        Returns ``centers[p, d, t]`` (forward stage ``t+1`` center) and
        ``ports[p, d, t]`` (input port at that switch), shape ``(N, N, n)``.
        """
        out_f, in_f, *_ = self._paths
        return out_f + self.N * np.arange(self.n), in_f

    def return_route(self) -> tuple[np.ndarray, np.ndarray]:
        """Centers and input ports of each reply path ``d -> p``, in visiting order.

        Returns ``centers[d, p, i]`` and ``ports[d, p, i]``, shape ``(N, N, n)``,
        where ``i = 0`` is the stage next to the memories (``Rn``).
        """
        _, _, ret_line, ret_in, order = self._paths
        labels = order  # return stage index (0-based label t-1) visited at position i
        centers = ret_line[:, :, labels] + self.N * (self.n + labels)
        return centers, ret_in[:, :, labels]

    def center_names(self) -> list[str]:
        """Readable names: ``F<t>:<line>``, ``R<t>:<line>``, ``MM:<j>``."""
        names = [f"F{t + 1}:{l}" for t in range(self.n) for l in range(self.N)]
        names += [f"R{t + 1}:{l}" for t in range(self.n) for l in range(self.N)]
        names += [f"MM:{j}" for j in range(self.N)]
        return names

    def center_stage(self) -> np.ndarray:
        """Stage label of each center: 1..n forward, -(1..n) return, 0 memory."""
        fwd = np.repeat(np.arange(1, self.n + 1), self.N)
        ret = -np.repeat(np.arange(1, self.n + 1), self.N)
        return np.concatenate([fwd, ret, np.zeros(self.N, dtype=np.int64)])

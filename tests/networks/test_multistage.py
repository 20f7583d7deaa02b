"""Brute-force checks of the multistage topologies against explicit switch wiring."""

import itertools

import numpy as np
import pytest

from models.networks.multistage import MultistageNetwork
from models.min_mva.visits import center_switch


def _digits(x, k, n):
    return [(x // k**i) % k for i in range(n)]  # least significant first


def _num(d, k):
    return sum(v * k**i for i, v in enumerate(d))


def _input_perm(topology, k, n, t, line):
    """Line entering the stage-t switch column, given the line leaving stage t-1 (or the processor)."""
    N = k**n
    if topology == "omega":  # perfect k-shuffle before every stage: rotate the digits left
        d = _digits(line, k, n)
        return _num([d[-1]] + d[:-1], k)
    if topology == "baseline":
        if t == 1:
            return line
        # recursive baseline: output o of switch s of a block of size B feeds sub-block o, input s
        B = N // k ** (t - 2)
        base, off = divmod(line, B)
        s, o = divmod(off, k)
        return base * B + o * (B // k) + s
    return line  # cube


def _switch_ports(topology, k, n, t, line):
    """(switch id, port) of an input line at stage t, and the k output lines of that switch."""
    if topology == "cube":  # stage t joins lines differing in digit t-1
        d = _digits(line, k, n)
        port = d[t - 1]
        outs = []
        for o in range(k):
            dd = list(d)
            dd[t - 1] = o
            outs.append(_num(dd, k))
        return tuple(d[: t - 1] + d[t:]), port, outs
    s, port = divmod(line, k)
    return s, port, [s * k + o for o in range(k)]


def _all_paths(topology, k, n, p):
    """Every path from processor p through the explicit switches: list of [(entered, port, out)]*n."""
    paths = [[]]
    lines = [p]
    for t in range(1, n + 1):
        new_paths, new_lines = [], []
        for path, line in zip(paths, lines):
            ent = _input_perm(topology, k, n, t, line)
            _, port, outs = _switch_ports(topology, k, n, t, ent)
            for out in outs:
                new_paths.append(path + [(ent, port, out)])
                new_lines.append(out)
        paths, lines = new_paths, new_lines
    return paths, lines


@pytest.mark.parametrize("topology", ["omega", "baseline", "cube"])
@pytest.mark.parametrize("k,n", [(2, 3), (3, 2), (2, 4)])
def test_forward_route_is_the_unique_explicit_path(topology, k, n):
    net = MultistageNetwork(topology, k, n)
    N = net.N
    fc, fp = net.forward_route()
    for p in range(N):
        paths, ends = _all_paths(topology, k, n, p)
        for d in range(N):
            hits = [path for path, e in zip(paths, ends) if e == d]
            assert len(hits) == 1, "banyan: exactly one path per pair"
            path = hits[0]
            for t, (ent, port, out) in enumerate(path):
                assert fc[p, d, t] == t * N + out
                assert fp[p, d, t] == port


@pytest.mark.parametrize("topology", ["omega", "baseline", "cube"])
@pytest.mark.parametrize("k,n", [(2, 3), (3, 2)])
def test_mirror_return_retraces_request(topology, k, n):
    net = MultistageNetwork(topology, k, n, "mirror")
    N = net.N
    rc, rp = net.return_route()
    sw = center_switch(net)
    fsw = center_switch(net)
    for p in range(N):
        paths, ends = _all_paths(topology, k, n, p)
        for path, d in zip(paths, ends):
            # visiting order R_n ... R_1
            for i in range(n):
                t = n - i  # label
                ent, port, out = path[t - 1]
                c = rc[d, p, i]
                assert c // N == n + t - 1
                assert c % N == ent  # leaves on the line the request entered stage t on
                out_port = _switch_ports(topology, k, n, t, out)[1] if topology == "cube" else out % k
                assert rp[d, p, i] == out_port  # arrives on the request's output port
                assert sw[c] - n * (N // k) == fsw[(t - 1) * N + out]  # the mirror of the same switch
            # the last return line leads back to processor p
            last = rc[d, p, n - 1] % N
            back = [q for q in range(N) if _input_perm(topology, k, n, 1, q) == last]
            assert back == [p]


@pytest.mark.parametrize("topology", ["omega", "baseline", "cube"])
def test_same_wiring_return_reaches_processor(topology):
    net = MultistageNetwork(topology, 2, 3, "same")
    rc, rp = net.return_route()
    N = net.N
    for d, p in itertools.product(range(N), range(N)):
        assert rc[d, p, -1] // N == net.n  # R1 last
        assert rc[d, p, -1] % N == p
        assert rc[d, p, 0] // N == 2 * net.n - 1  # Rn first


def test_center_switch_contains_arrival_ports():
    """Every switch receives on exactly k distinct input ports and drives k output centers."""
    for topology, wiring in itertools.product(["omega", "baseline", "cube"], ["mirror", "same"]):
        net = MultistageNetwork(topology, 3, 2, wiring)
        sw = center_switch(net)
        counts = np.bincount(sw[sw >= 0])
        assert np.all(counts == net.k)
        fc, fp = net.forward_route()
        rc, rp = net.return_route()
        for c, prt in ((fc, fp), (rc, rp)):
            seen = {}
            for s_id, port, src in zip(sw[c.ravel()], prt.ravel(), np.arange(c.size)):
                seen.setdefault(s_id, set()).add(port)
            assert all(v == set(range(net.k)) for v in seen.values())

"""LSTM-1997 / LSTM-2000 / LSTM-2002 memory-cell blocks (one module, switched by the config).

n_blocks blocks of block_size cells; block k has one input gate, one output gate and
(2000/2002) one forget gate shared by its cells. Recurrent sources
r(t−1) = [y_ig, y_og, y_fg, y_c](t−1) (or only y_c if ``gates_as_sources`` is off), zero at
t = 0; xr(t) = [x(t), r(t−1)] (the concatenated input). For block k, cell j:

    y_ig_k(t) = σ(W_ig_k·xr(t) + u_ig_k ⊙ s_k(t−1) + b_ig_k)          # peephole term: lstm2002
    y_fg_k(t) = σ(W_fg_k·xr(t) + u_fg_k ⊙ s_k(t−1) + b_fg_k)          # lstm2000/2002 (else 1)
    s_kj(t)   = y_fg_k(t) s_kj(t−1) + y_ig_k(t) g(W_c_kj·xr(t) + b_c_kj)   # the CEC
    y_og_k(t) = σ(W_og_k·xr(t) + u_og_k ⊙ s_k(t) + b_og_k)            # (≡ 1 without output gate)
    y_c_kj(t) = y_og_k(t) h(s_kj(t))

Shapes (XR = n_in + size of r): W_ig, W_og, W_fg (..., n_blocks, XR); W_c (..., n_cells, XR);
b_ig, b_og, b_fg (..., n_blocks); b_c (..., n_cells); u_ig, u_fg, u_og (..., n_blocks,
block_size); state s (..., B, n_cells), r (..., B, size of r).

``truncated=True`` gives the 1997 truncated gradient: no error flows into r(t−1) (so
none reaches earlier gate or cell activations) nor through the peepholes into s; error
reaches the past only along s(t−1) → s(t), scaled by y_fg(t).
"""

from __future__ import annotations

import numpy as np

from .. import activations
from ..activations import sigmoid
from .base import outer_sum, stack_records, time_batch_sum


class MemoryCell:
    flow_states = {"s": "ds", "y_c": "dyc"}
    CACHE = ("xr", "s_prev")

    def __init__(self, cfg) -> None:
        self.cfg = cfg
        self.nb, self.bs, self.nc = cfg.n_blocks, cfg.block_size, cfg.n_cells
        self.og = cfg.output_gate
        self.fg = cfg.has_forget_gate
        self.peep = cfg.has_peepholes
        self.g, self.gprime = activations.get(cfg.cell_input)
        self.h, self.hprime = activations.get(cfg.cell_output)
        # rows of the packed net-input matrix, in this order
        self.gates = ["ig"] + (["og"] if self.og else []) + (["fg"] if self.fg else [])
        sizes = [(name, self.nb) for name in self.gates] + [("c", self.nc)]
        self.rows, start = {}, 0
        for name, n in sizes:
            self.rows[name] = slice(start, start + n)
            start += n
        self.n_rows = start
        # recurrent source vector r = [y_ig, y_og, y_fg, y_c] (gates only if gates_as_sources)
        src = ([f"y_{g}" for g in self.gates] if cfg.gates_as_sources else []) + ["y_c"]
        self.sources = src
        self.n_r = sum(self.nc if s == "y_c" else self.nb for s in src)
        self.n_xr = cfg.n_in + self.n_r
        self.recurrent = tuple(f"W_{n}" for n in self.gates + ["c"])

    def shapes(self) -> dict[str, tuple]:
        s = {}
        for name in self.gates:
            s[f"W_{name}"] = (self.nb, self.n_xr)
            s[f"b_{name}"] = (self.nb,)
        s["W_c"], s["b_c"] = (self.nc, self.n_xr), (self.nc,)
        if self.peep:
            for name in ("ig", "fg", "og"):
                if name in self.gates:
                    s[f"u_{name}"] = (self.nb, self.bs)
        return s

    def prepare(self, p: dict) -> dict:
        order = self.gates + ["c"]
        W = np.concatenate([p[f"W_{n}"] for n in order], axis=-2)  # (..., rows, XR)
        Wt = np.swapaxes(W, -1, -2)
        n_in = self.cfg.n_in
        P = {
            "W": W,
            "Wxt": np.ascontiguousarray(Wt[..., :n_in, :]),
            "Wrt": np.ascontiguousarray(Wt[..., n_in:, :]),
            "b": np.concatenate([p[f"b_{n}"] for n in order], axis=-1)[..., None, :],
        }
        for name in ("ig", "fg", "og"):
            if f"u_{name}" in p:
                P[f"u_{name}"] = p[f"u_{name}"][..., None, :, :]  # (..., 1, nb, bs)
        return P

    def zero_state(self, lead: tuple) -> dict:
        return {"s": np.zeros(lead + (self.nc,)), "r": np.zeros(lead + (self.n_r,))}

    def _blocks(self, a: np.ndarray) -> np.ndarray:
        return a.reshape(a.shape[:-1] + (self.nb, self.bs))

    def project_inputs(self, P: dict, xs: np.ndarray) -> np.ndarray:
        """The x(t) part of every net input plus bias, for every t at once."""
        return xs @ P["Wxt"] + P["b"]

    def step(self, P: dict, state: dict, x: np.ndarray, xp: np.ndarray | None = None):
        R = self.rows
        s_prev = state["s"]
        lead = state["r"].shape[:-1]
        xr = np.concatenate(
            [x if x.shape[:-1] == lead else np.broadcast_to(x, lead + x.shape[-1:]), state["r"]], axis=-1
        )
        net = (self.project_inputs(P, x) if xp is None else xp) + state["r"] @ P["Wrt"]
        sp4 = self._blocks(s_prev)
        rec = {"x": x, "xr": xr, "s_prev": s_prev}
        net_ig = net[..., R["ig"]]  # y_ig(t)
        if self.peep:
            net_ig = net_ig + (sp4 * P["u_ig"]).sum(-1)
        y_ig = sigmoid(net_ig)
        rec.update(net_ig=net_ig, y_ig=y_ig)
        if self.fg:  # y_fg(t), and what the carousel keeps of s(t−1)
            net_fg = net[..., R["fg"]]
            if self.peep:
                net_fg = net_fg + (sp4 * P["u_fg"]).sum(-1)
            y_fg = sigmoid(net_fg)
            kept = y_fg[..., None] * sp4
            rec.update(net_fg=net_fg, y_fg=y_fg)
        else:
            kept = sp4  # CEC: self-weight 1
        net_c = net[..., R["c"]]  # s(t) = y_fg s(t−1) + y_ig g(net_c)
        gc = self.g(net_c)
        s4 = kept + y_ig[..., None] * self._blocks(gc)
        s = s4.reshape(s_prev.shape)
        hs = self.h(s)
        if self.og:
            net_og = net[..., R["og"]]
            if self.peep:
                net_og = net_og + (s4 * P["u_og"]).sum(-1)
            y_og = sigmoid(net_og)
            y_c = (y_og[..., None] * self._blocks(hs)).reshape(s.shape)
            rec.update(net_og=net_og, y_og=y_og)
        else:
            y_c = hs
        rec.update(net_c=net_c, g=gc, s=s, h=hs, y_c=y_c)
        r = np.concatenate([rec[name] for name in self.sources], axis=-1) if len(self.sources) > 1 else y_c
        hidden = (
            np.concatenate([np.broadcast_to(x, y_c.shape[:-1] + x.shape[-1:]), y_c], -1)
            if self.cfg.input_to_output
            else y_c
        )
        return {"s": s, "r": r}, hidden, rec

    def backward_step(self, P, rec, dstate, dhidden, truncated=False):
        nb = self.nb
        if self.cfg.input_to_output:
            dhidden = dhidden[..., self.cfg.n_in :]  # x is not part of the state
        dr = dstate["r"]
        d_src, start = {}, 0
        for name in self.sources:  # split dL/dr(t) by source
            n = self.nc if name == "y_c" else nb
            d_src[name] = None if truncated else dr[..., start : start + n]
            start += n
        dyc = dhidden if d_src["y_c"] is None else dhidden + d_src["y_c"]  # total dL/dy_c(t)
        s, hs = rec["s"], rec["h"]
        delta = {"dyc": dyc}
        dnet = np.empty(dyc.shape[:-1] + (self.n_rows,))
        if self.og:
            y_og = rec["y_og"]
            ds4 = self._blocks(dyc * self.hprime(s, hs)) * y_og[..., None]  # y_c = y_og h(s)
            dy_og = (self._blocks(dyc) * self._blocks(hs)).sum(-1)
            if d_src.get("y_og") is not None:
                dy_og = dy_og + d_src["y_og"]
            dnet_og = dy_og * y_og * (1.0 - y_og)
            dnet[..., self.rows["og"]] = dnet_og
            if self.peep and not truncated:
                ds4 = ds4 + dnet_og[..., None] * P["u_og"]  # peephole s(t) -> og
        else:
            ds4 = self._blocks(dyc * self.hprime(s, hs))
        ds4 = ds4 + self._blocks(dstate["s"])  # total dL/ds(t)
        delta["ds"] = ds4.reshape(s.shape)
        gc, y_ig = rec["g"], rec["y_ig"]
        dy_ig = (ds4 * self._blocks(gc)).sum(-1)  # s += y_ig g
        if d_src.get("y_ig") is not None:
            dy_ig = dy_ig + d_src["y_ig"]
        dnet_ig = dy_ig * y_ig * (1.0 - y_ig)
        dnet[..., self.rows["ig"]] = dnet_ig
        dnet[..., self.rows["c"]] = (ds4 * y_ig[..., None]).reshape(s.shape) * self.gprime(rec["net_c"], gc)
        sp4 = self._blocks(rec["s_prev"])
        if self.fg:
            y_fg = rec["y_fg"]
            dy_fg = (ds4 * sp4).sum(-1)  # s += y_fg s(t−1)
            if d_src.get("y_fg") is not None:
                dy_fg = dy_fg + d_src["y_fg"]
            dnet_fg = dy_fg * y_fg * (1.0 - y_fg)
            dnet[..., self.rows["fg"]] = dnet_fg
            ds_prev4 = ds4 * y_fg[..., None]
        else:
            ds_prev4 = ds4  # CEC: ∂s(t)/∂s(t−1) = 1
        if self.peep and not truncated:  # peepholes s(t−1) -> ig, fg
            ds_prev4 = ds_prev4 + dnet_ig[..., None] * P["u_ig"]
            if self.fg:
                ds_prev4 = ds_prev4 + dnet_fg[..., None] * P["u_fg"]
        delta["dnet"] = dnet
        ds_prev = ds_prev4.reshape(s.shape)
        if truncated:
            dr_prev = np.zeros_like(dstate["r"])
        else:
            dr_prev = (dnet @ P["W"])[..., self.cfg.n_in :]  # xr(t) = [x(t), r(t−1)]
        return {"s": ds_prev, "r": dr_prev}, delta

    def param_grads(self, P, recs, deltas) -> dict:
        dnet = stack_records(deltas, "dnet")
        gW = outer_sum(dnet, stack_records(recs, "xr"))
        gb = time_batch_sum(dnet)
        grads = {}
        for name in self.gates + ["c"]:
            grads[f"W_{name}"] = gW[..., self.rows[name], :]
            grads[f"b_{name}"] = gb[..., self.rows[name]]
        if self.peep:
            for name, src in (("ig", "s_prev"), ("fg", "s_prev"), ("og", "s")):
                if name in self.gates:
                    d = dnet[..., self.rows[name]][..., None]  # (T, ..., B, nb, 1)
                    grads[f"u_{name}"] = (d * self._blocks(stack_records(recs, src))).sum(0).sum(-3)
        return grads

    def local_factor(self, P, rec) -> dict:
        """∂s(t)/∂s(t−1) along the CEC: 1 (lstm1997) or y_fg(t) (with a forget gate), per cell."""
        f = np.repeat(rec["y_fg"], self.bs, axis=-1) if self.fg else np.ones_like(rec["s"])
        return {"s": f}

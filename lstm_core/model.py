"""A network = a cell + an output layer, with its parameters and configuration.

    y(t) = f_out(W_out · hidden(t) + b_out)
where hidden(t) is the cell's output vector (h, or the cell outputs y_c of the LSTM-1997
family, optionally preceded by x(t) when ``input_to_output`` is set).
Shapes: W_out (..., n_out, n_hidden_out), b_out (..., n_out).

A ``Model`` either holds one network (parameters without a population axis) or a
population of K independent networks (every parameter has a leading axis K), made with
``stack``. All math is written with leading ``...`` axes, so both run the same code.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import activations
from .cells import make_cell
from .config import ModelConfig, Spec
from .errors import CoreError

Array = np.ndarray
_STRUCTURE_FREE = ("seed", "bias", "init", "init_range", "recurrent_scale")


def _resolve_spec(spec: Spec, shape: tuple, name: str, cfg: ModelConfig, rng: np.random.Generator) -> Array:
    """Turn an initialisation spec into an array of ``shape`` (see config docstring)."""
    rows = shape[0]
    if spec.random:
        return spec.draw(shape, rng)
    values = np.asarray(spec.values(rows), dtype=float)
    per_block = cfg.record.bias_unit == "block" and rows == cfg.n_cells and len(values) == cfg.n_blocks
    if per_block:  # a per-block list for a per-cell vector
        values = np.repeat(values, cfg.block_size)
    elif len(values) != rows:
        said = {"name": name, "n": len(values), "variant": cfg.variant, "rows": rows}
        if cfg.record.bias_unit == "block":  # a variant's bias_unit is "block" or "unit"
            raise CoreError(
                "{name}: got {n} values but this {variant} network needs {rows} (one per block)", **said
            )
        raise CoreError(
            "{name}: got {n} values but this {variant} network needs {rows} (one per unit)", **said
        )
    return np.broadcast_to(values.reshape((rows,) + (1,) * (len(shape) - 1)), shape).copy()


def init_params(cfg: ModelConfig, cell) -> dict[str, Array]:
    """Random init in [−init_range, init_range] from ``cfg.seed``, then the bias/init overrides.

    Every parameter is drawn first (in a fixed order) and overrides are applied afterwards,
    so two configs that differ only in their biases share every other weight — a fair
    comparison for bias sweeps.
    """
    rng = np.random.default_rng(cfg.seed)
    shapes = dict(cell.shapes())
    n_hid = cfg.hidden_size + (cfg.n_in if cfg.input_to_output else 0)
    shapes["W_out"], shapes["b_out"] = (cfg.n_out, n_hid), (cfg.n_out,)
    r = cfg.init_range
    params = {name: rng.uniform(-r, r, size=shape) for name, shape in shapes.items()}
    if cfg.recurrent_scale is not None and cfg.record.recurrent_scale:
        for name in cell.recurrent:
            q, rr = np.linalg.qr(rng.standard_normal(shapes[name]))
            params[name] = cfg.recurrent_scale * q * np.sign(np.diag(rr))  # all singular values = scale
    gate_map = cfg.record.gate_biases
    overrides = [(gate_map[g], f"bias[{g!r}]", s) for g, s in cfg.bias]
    overrides += [(p, f"init[{p!r}]", s) for p, s in cfg.init]
    for pname, label, spec in overrides:
        if pname not in params:
            raise CoreError(
                "{name}: this {variant} network has no parameter {parameter}; its parameters are {valid}",
                name=label,
                variant=cfg.variant,
                parameter=repr(pname),
                valid=sorted(params),
            )
        params[pname] = _resolve_spec(spec, shapes[pname], label, cfg, rng)
    for pname, mask in connection_masks(cfg, shapes).items():
        params[pname] = params[pname] * mask  # absent connections are exactly 0
    return params


def connection_masks(cfg: ModelConfig, shapes: dict[str, tuple]) -> dict[str, Array]:
    """parameter name -> 0/1 array of its shape (0 = an absent connection, ``cfg.absent``);
    only parameters with an absent entry are listed. The trainer multiplies their gradients by
    it, so an absent connection stays exactly 0."""
    masks: dict[str, Array] = {}
    for name in cfg.absent:
        if name == "recurrent":
            for pname, shape in shapes.items():
                if pname.startswith("W_") and pname != "W_out":
                    m = masks.setdefault(pname, np.ones(shape))
                    m[..., cfg.n_in :] = 0.0  # z(t) = [x(t), r(t−1)]: the r part
        elif name in shapes:
            masks[name] = np.zeros(shapes[name])
        else:
            raise CoreError(
                "absent: this {variant} network has no parameter {parameter}; its parameters are {valid}",
                variant=cfg.variant,
                parameter=repr(name),
                valid=sorted(shapes),
            )
    return masks


@dataclass
class Model:
    # the output layer's per-step record that only the backward pass reads (its input; the cell's own
    # are ``cell.CACHE``)
    CACHE = ("hidden",)

    config: ModelConfig
    params: dict[str, Array]
    cell: object = field(repr=False)
    members: tuple[ModelConfig, ...] | None = None  # set for a population (K = len(members))

    @property
    def K(self) -> int | None:
        return None if self.members is None else len(self.members)

    @property
    def lead(self) -> tuple:
        return () if self.members is None else (len(self.members),)

    def initial_state(self, batch: int = 1) -> dict[str, Array]:
        if not isinstance(batch, (int, np.integer)) or batch < 1:
            raise CoreError("batch must be a positive whole number, got {value}", value=repr(batch))
        return self.cell.zero_state(self.lead + (int(batch),))

    def check_inputs(self, xs: Array, time_axis: bool = True) -> Array:
        """Validate and broadcast inputs to (T?, ..., B, n_in); ValueError names the problem."""
        xs = np.asarray(xs, dtype=float)
        n_in = self.config.n_in
        base = 3 if time_axis else 2
        what = "(T, B, n_in)" if time_axis else "(B, n_in)"
        if xs.ndim not in (base, base + (self.K is not None)) or xs.shape[-1] != n_in:
            if self.K:
                raise CoreError(
                    "inputs must have shape {shape} or with a population axis K before B with n_in = {n_in}; "
                    "got {got}",
                    shape=what,
                    n_in=n_in,
                    got=xs.shape,
                )
            raise CoreError(
                "inputs must have shape {shape} with n_in = {n_in}; got {got}",
                shape=what,
                n_in=n_in,
                got=xs.shape,
            )
        if time_axis and xs.shape[0] == 0:
            raise CoreError("the input sequence is empty (T = 0); give at least one timestep")
        if xs.shape[-2] == 0:
            raise CoreError("the batch is empty (B = 0); give at least one sequence")
        if not np.isfinite(xs).all():
            raise CoreError("inputs contain NaN or infinity; every input value must be a finite number")
        if self.K is not None:
            if xs.ndim == base:  # shared by all members
                xs = np.expand_dims(xs, -3)
            if xs.shape[-3] not in (1, self.K):
                raise CoreError(
                    "population axis of the inputs is {axis} but the model has K = {K}",
                    axis=xs.shape[-3],
                    K=self.K,
                )
            xs = np.broadcast_to(xs, xs.shape[:-3] + (self.K,) + xs.shape[-2:])
        return xs

    def output(self, hidden: Array) -> tuple[Array, Array]:
        """(net_out, y) of the output layer for hidden (..., B, n)."""
        net = hidden @ np.swapaxes(self.params["W_out"], -1, -2) + self.params["b_out"][..., None, :]
        act = self.config.output_activation
        y = activations.softmax(net) if act == "softmax" else activations.get(act)[0](net)
        return net, y

    def step(self, state: dict, x: Array) -> tuple[dict, Array, dict]:
        """One timestep: (state(t−1), x(t)) -> (state(t), y(t), named internals of step t)."""
        x = self.check_inputs(x, time_axis=False)
        with np.errstate(over="ignore", invalid="ignore"):
            state, hidden, rec = self.cell.step(self.cell.prepare(self.params), state, x)
            rec["net_out"], rec["y"] = self.output(hidden)
        return state, rec["y"], rec

    def member(self, k: int) -> Model:
        """Network k of a population, as a standalone model (copies of its parameters)."""
        if self.members is None:
            raise CoreError("this model is a single network, not a population")
        return Model(self.members[k], {n: p[k].copy() for n, p in self.params.items()}, self.cell)

    def copy(self) -> Model:
        return Model(self.config, {n: p.copy() for n, p in self.params.items()}, self.cell, self.members)

    def n_parameters(self) -> int:
        return int(sum(p[0].size if self.K else p.size for p in self.params.values()))

    def masks(self) -> dict[str, Array]:
        """0/1 masks of the parameters with absent connections (see ``connection_masks``)."""
        return connection_masks(
            self.config, {n: p.shape[1:] if self.K else p.shape for n, p in self.params.items()}
        )

    def n_trainable(self) -> int:
        """Weights the training can change: all minus the absent connections (the papers' weight count)."""
        masks = self.masks()
        return int(
            sum(
                masks[n].sum() if n in masks else (p[0].size if self.K else p.size)
                for n, p in self.params.items()
            )
        )


def build(variant: str | ModelConfig, n_in: int | None = None, n_out: int | None = None, **settings) -> Model:
    """Build one network: ``build("lstm1997", n_in=7, n_out=7, n_blocks=4, block_size=2, seed=0)``.

    Accepts a ``ModelConfig`` (or its dict) instead of the settings.
    """
    if isinstance(variant, dict):
        cfg = ModelConfig.from_dict(variant)
    elif isinstance(variant, ModelConfig):
        cfg = variant
    else:
        if n_in is None or n_out is None:
            raise CoreError("build needs n_in and n_out (the sizes of the input and output vectors)")
        cfg = ModelConfig(variant=variant, n_in=n_in, n_out=n_out, **settings)
    cell = make_cell(cfg)
    return Model(cfg, init_params(cfg, cell), cell)


def stack(models: list[Model]) -> Model:
    """K single networks of the same structure -> one population model (leading axis K)."""
    if not models:
        raise CoreError("stack needs at least one model")
    first = models[0].config
    key = lambda c: {k: v for k, v in c.to_dict().items() if k not in _STRUCTURE_FREE}
    for m in models:
        if m.members is not None:
            raise CoreError("stack takes single networks, not populations")
        if key(m.config) != key(first):
            raise CoreError(
                "all members of a population must share variant, sizes and options; only seed, biases, "
                "init overrides, init_range and recurrent_scale may differ"
            )
    params = {n: np.stack([m.params[n] for m in models]) for n in models[0].params}
    return Model(first, params, models[0].cell, tuple(m.config for m in models))


def build_population(configs: list[ModelConfig | dict]) -> Model:
    """Build K networks from K configs (e.g. a bias grid × seeds) as one population."""
    return stack([build(c if isinstance(c, ModelConfig) else ModelConfig.from_dict(c)) for c in configs])

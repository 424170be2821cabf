"""The Theory page's argument: why gradients vanish in a plain recurrent network, and how the
constant error carousel (and local feedback) keeps them.

(markdown, latex or "") pairs in reading order; the markdown is English marked with ``N_``, the
words inside the LaTeX are translated by ``app.theory.content.text_in_latex`` where drawn.
"""

from __future__ import annotations

from app.i18n import N_

# (markdown, latex or "") pairs, in reading order: VANISHING (the page draws σ' after it), then
# CEC_AND_FIXES. Equation numbers refer to the 1997 paper
# (Hochreiter & Schmidhuber, Neural Computation 9(8)); w_uv is the weight from unit v to unit u.
VANISHING: list[tuple[str, str]] = [
    (
        N_(
            r"**1. Error flowing back q steps (1997, eqs. 3.1–3.2).** Let $\vartheta_u(t)$ be the error at "
            r"unit $u$'s net input at time $t$. One step back it is scaled by $f'\cdot w$; $q$ steps back by "
            r"a sum, over all paths $l_0 = u, l_1, \dots, l_q = v$, of products of $q$ such factors:"
        ),
        r"""\frac{\partial \vartheta_v(t-q)}{\partial \vartheta_u(t)} =
\begin{cases} f'_v\big(\mathrm{net}_v(t-1)\big)\, w_{uv} & q = 1 \\[4pt]
\displaystyle\sum_{l_1=1}^{n}\cdots\sum_{l_{q-1}=1}^{n}\ \prod_{m=1}^{q} f'_{l_m}\big(\mathrm{net}_{l_m}(t-m)\big)\,
w_{l_{m-1} l_m} & q > 1 \end{cases}""",
    ),
    (
        N_(
            r"**2. Explode or vanish.** If every factor has $|f'\cdot w| > 1$ the product grows "
            r"exponentially in $q$ (the weights oscillate; learning is unstable). If every factor has "
            r"$|f'\cdot w| < 1$ it decays exponentially: error from $q$ steps ago is lost in the gradient."
        ),
        r"""\big|f'_{l_m}(\mathrm{net}_{l_m})\,w_{l_{m-1}l_m}\big| > 1\ \forall m \Rightarrow \text{explodes},
\qquad \big|f'_{l_m}(\mathrm{net}_{l_m})\,w_{l_{m-1}l_m}\big| < 1\ \forall m \Rightarrow \text{vanishes}""",
    ),
    (
        N_(
            r"**3. With the logistic σ it vanishes whenever |w| < 4.** $\sigma'$ peaks at $x = 0$ with "
            r"value $\tfrac14$ (figure below), so small weights always give factors below 1. Large weights "
            r"do not rescue it: $|w| \to \infty$ drives $|\mathrm{net}| \to \infty$ and "
            r"$\sigma'(\mathrm{net}) \to 0$ faster than $w$ grows."
        ),
        r"""\sigma'(x) = \sigma(x)\big(1-\sigma(x)\big) \le \tfrac14
\quad\Longrightarrow\quad |w| < 4 \ \Rightarrow\ \big|w\,\sigma'(\mathrm{net})\big| < 4\cdot\tfrac14 = 1""",
    ),
    (
        N_(
            r"The same bound for the other squashing functions (their maxima are computed by lstm_core "
            r"in the figure): $\tanh' \le 1$, so $|w| < 1$ decays; the 1997 $g' \le 1$ and $h' \le \tfrac12$."
        ),
        "",
    ),
]
CEC_AND_FIXES: list[tuple[str, str]] = [
    (
        N_(
            r"**4. The constant error carousel.** A single unit $j$ with only a self-connection $w_{jj}$ "
            r"keeps its error constant only if the factor is exactly 1. Integrating shows $f_j$ must be "
            r"linear, and its activation then stays constant too: take $f_j$ = identity and $w_{jj} = 1$. "
            r"In the cell this is $s(t) = s(t-1) + \dots$, so $\partial s(t)/\partial s(t-1) = 1$."
        ),
        r"""\begin{aligned}
\vartheta_j(t) &= f'_j\big(\mathrm{net}_j(t)\big)\,\vartheta_j(t+1)\,w_{jj} \\
f'_j\big(\mathrm{net}_j(t)\big)\,w_{jj} = 1 \ &\Rightarrow\ y_j(t+1) = f_j\big(w_{jj}\,y_j(t)\big) = y_j(t)
\end{aligned}""",
    ),
    (
        N_(
            r"**5. The 1997 truncation.** The paper cuts every error path except the carousel: the "
            r"derivatives of the gates' and cell inputs' net inputs with respect to the recurrent sources "
            r"$r(t-1)$ are set to 0. Error reaching a cell then flows back only along $s$ and is carried "
            r"unchanged; the gradient becomes local in space and time (RTRL with eligibility traces). "
            r"With a forget gate (2000) the carousel factor becomes $y_{\mathrm{fg}}(t)$: a learned decay."
        ),
        r"""\begin{aligned}
\frac{\partial\,\mathrm{net}_{\mathrm{ig},k}(t)}{\partial r(t-1)} \approx_{tr}
\frac{\partial\,\mathrm{net}_{\mathrm{og},k}(t)}{\partial r(t-1)} \approx_{tr}
\frac{\partial\,\mathrm{net}_{c,kj}(t)}{\partial r(t-1)} &\approx_{tr} 0 \\
\Longrightarrow\quad \frac{\partial s_{kj}(t)}{\partial s_{kj}(t-q)} &\approx_{tr} 1
\qquad \Big(\text{2000: } \prod_{m=0}^{q-1} y_{\mathrm{fg},k}(t-m)\Big)
\end{aligned}""",
    ),
    (
        N_(
            r"**6. Local feedback (Frasconi et al. 1992).** With $f(a) = \tanh(a/2)$, $M = \max f' = \tfrac12$. "
            r"A net-input feedback unit carries error back by exactly $u_j$ per step, an activation "
            r"feedback unit by $v_j f'(\cdot)$, at most $|v_j| M$. So the network *forgets* "
            r"($\partial y(t)/\partial x(t-q) \to 0$) when $|u_j| < 1$ and $|v_j| < 1/M = 2$. To *latch* "
            r"information (keep the sign of a net input for ever) the self-loop weights need $|w| > 2$."
        ),
        r"""\begin{aligned}
\left|\frac{\partial \hat h_j(t)}{\partial \hat h_j(t-q)}\right| = |u_j|^{q},\qquad
\left|\frac{\partial \bar h_j(t)}{\partial \bar h_j(t-q)}\right| &\le \big(|v_j|\,M\big)^{q} \\
|u_j| < 1,\ |v_j| < \tfrac1M = 2 \ &\Rightarrow\ \text{forgetting} \\
|w| > 2 \ &\Rightarrow\ \text{latching}
\end{aligned}""",
    ),
]

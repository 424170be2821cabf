"""Live PyTorch: the committed parity fixture is what today's PyTorch computes.

Run by ``make test-torch`` (which installs torch==2.13.0, the local CPU wheel); ``make test``
deselects these (``-m "not torch_live"``, reported as deselected), so a user's install needs no
torch. When selected and torch is missing they FAIL, never skip.
"""

import numpy as np
import pytest
from torch_fixtures import KINDS, SEEDS, load, parity_case, round_trip_case

pytestmark = pytest.mark.torch_live
CASES = load()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_fixture_matches_live_pytorch(kind, seed):
    live, committed = parity_case(kind, seed), CASES[f"parity.{kind}.{seed}"]
    assert set(live) == set(committed)
    for k in live:
        np.testing.assert_allclose(live[k], committed[k], rtol=0, atol=1e-12, err_msg=k)


@pytest.mark.parametrize("kind", KINDS)
def test_round_trip_fixture_matches_live_pytorch(kind):
    live, committed = round_trip_case(kind), CASES[f"round_trip.{kind}"]
    for k in live:
        np.testing.assert_allclose(live[k], committed[k], rtol=0, atol=1e-12, err_msg=k)

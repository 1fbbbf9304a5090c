"""Seed 003's DAG-RNN ownership network at play: inputs (features.py, influence.py), the
forward pass and its file (network.py), the model the engine opens with its propensity
statistics and the 1-ply move ranker (model.py). Training: :mod:`mcgo.train.ownership_train`
(JAX), :mod:`mcgo.train.ownership_data`, :mod:`mcgo.train.ownership_commands`."""

"""Seed 003's DAG-RNN ownership network: inputs (features.py, influence.py), network
(network.py), training (train.py)."""

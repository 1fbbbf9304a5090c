"""The learned models at play: loading their shipped files (``weights/``) and inference,
NumPy and Numba only. Nothing here trains; the training of each lives in :mod:`mcgo.train`.

* :mod:`.move_features`, :mod:`.movemodel`: the move model (Coulom 2007), the tree's prior;
* :mod:`.ownership`: seed 003's DAG-RNN (inputs, forward pass, the ownership model);
* :mod:`.patterns3`, :mod:`.seedstats`: the seed papers' located 3x3 patterns and their
  statistics (the DAG-RNN's propensity input, the ECFG's weights);
* :mod:`.cfg`, :mod:`.cfg_scorer`: seed 000's common fate graph and its move scorer;
* :mod:`.ecfg`, :mod:`.ecfg_evaluator`: seed 002's enriched CFG and its outcome evaluator;
* :mod:`.td_net`: seed 004's 7x7 TD net; :mod:`.corner`: seed 004's corner life-and-death net.
"""

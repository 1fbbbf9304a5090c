"""Front ends beside GTP, never imported by the engine: ``mcgo play`` (:mod:`.terminal`),
``mcgo solve`` (:mod:`.solve`), ``mcgo bench`` (:mod:`.bench`) and the pictures of
``mcgo influence`` and ``mcgo ownership`` (:mod:`.casebase_picture`,
:mod:`.ownership_picture`; matplotlib)."""

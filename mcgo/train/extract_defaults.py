"""The defaults of ``mcgo learn extract``, in a module of their own: the command
(:mod:`.extract`, light, built into ``mcgo --help``) shows them and the work
(:mod:`.extraction`, which loads the board) uses them, and the work need not import its
command."""

DEFAULT_PLAYOUTS = 2000     # as final_status_list (mcgo.judge.status.STATUS_PLAYOUTS)
DEFAULT_MIN_MOVES = 20      # shorter records are mostly aborted games

# SPDX-License-Identifier: GPL-3.0-or-later
"""Measuring strength: matches between GTP engines and regression suites (``.tst`` files).

* :mod:`mcgo.match.runner`: :class:`Match` plays games between two engines, ``--jobs`` at a
  time on local threads, with a referee, and resumes an interrupted match (``mcgo match``);
* :mod:`mcgo.match.cluster`: the same games as Ray tasks (``--ray auto|ADDRESS``), streamed
  back to the same results files; a game whose worker died is retried once;
* :mod:`mcgo.match.opponents`: engines by short name (``gnugo``, ``gnugo:LEVEL``, ``pachi``
  with its lag reserve, ``mcgo``, ``mcgo:ARGS``) as well as by command;
* :mod:`mcgo.match.plot`: the running win rate with its Wilson band (``--plot``);
* :mod:`mcgo.match.engines`: a player's seat (an :class:`~mcgo.gtp.controller.EngineProcess`
  whose troubles become an :class:`EngineFault` that loses the game);
* :mod:`mcgo.match.scoring`: who won a finished game (referee, engines, Tromp-Taylor);
* :mod:`mcgo.match.results`: results files (JSON, CSV), the summary with its Wilson interval
  and Elo difference (from :mod:`mcgo.stats`, shared with the search);
* :mod:`mcgo.match.archive`: a match's games in one ``games.zip`` beside its results, added
  game by game, and read back (older folders' loose ``games/*.sgf`` too);
* :mod:`mcgo.match.settings`: sizes, komi, time controls and the default commands;
* :mod:`mcgo.match.regress`: the GNU Go / Fuego ``.tst`` regression runner (``mcgo regress``);
* :mod:`mcgo.match.commands`: the two click commands.

>>> from mcgo.match import MatchSettings
>>> MatchSettings(size=9, move_time=2).time_settings_command()
'time_settings 0 2 1'
"""

# Public names and the module each lives in. They are imported on first use, so that the
# ``mcgo`` command builds its ``--help`` without loading the board (and Numba with it).
_EXPORTS = {
    "Match": "runner", "play_game": "runner", "colours_of_game": "runner", "GameSetup": "runner",
    "resolve_engine": "opponents", "EngineSpec": "opponents", "write_plot": "plot",
    "EngineFault": "engines", "Seat": "engines",
    "parse_score": "scoring", "score_game": "scoring",
    "MatchError": "results", "summarize": "results", "format_summary": "results",
    "write_results": "results", "load_results": "results",
    "MatchSettings": "settings", "DEFAULT_REFEREE": "settings",
    "run_file": "regress", "run_files": "regress", "read_tst": "regress",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    if name in _EXPORTS:
        import importlib
        module = importlib.import_module(f".{_EXPORTS[name]}", __name__)
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))

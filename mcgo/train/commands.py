"""``mcgo learn``: datasets from game records, models, and their evaluation.

Each subcommand lives in the module of its concern and is registered here by one line.
"""

import click


@click.group()
def learn():
    """Learn from game records and problems: datasets, statistics, move models, the
    ownership network, the policy net, the CFG move scorer."""


def register():
    """Attach the subcommands (their modules import their heavy parts lazily)."""
    from .cfg_train import cfg_command, cfg_games_command
    from .ecfg_train import ecfg_command, evaluate_outcome_command
    from .td_go import roundrobin_command, td_command
    from .td_outcome import td_outcome_command
    from .corner_train import corner_command, corner_patterns_command
    from .evaluate import evaluate_command, moves_command
    from .extract import extract_command
    from .patterns_command import patterns
    from .ownership_commands import ownership_command
    from .policy_net_commands import policy_net_command
    from .value_commands import selfplay_command, value_net_command

    for command in (extract_command, patterns, moves_command, evaluate_command,
                    ownership_command, cfg_command, cfg_games_command, ecfg_command,
                    evaluate_outcome_command, td_command, td_outcome_command, roundrobin_command,
                    corner_patterns_command, corner_command, policy_net_command,
                    value_net_command, selfplay_command):
        learn.add_command(command)


register()

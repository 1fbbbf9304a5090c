"""``mcgo learn``: datasets from game records, models, and their evaluation.

Each subcommand lives in the module of its concern and is registered here by one line.
"""

import click


@click.group()
def learn():
    """Learn from game records: datasets, statistics, move models."""


def register():
    """Attach the subcommands (their modules import their heavy parts lazily)."""
    # One line per subcommand module:
    from . import evaluate; evaluate.register(learn)  # noqa: E702 (mcgo learn moves, evaluate)


register()

"""The ``mcgo`` command: a click group that each part of the engine adds its command to."""

import click

from . import __version__


@click.group()
@click.version_option(__version__, prog_name="mcgo")
def main():
    """mcgo: a Monte Carlo UCT Go engine with case-based opening play."""


if __name__ == "__main__":
    main()

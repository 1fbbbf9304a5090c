"""Command-line value types every ``mcgo`` command shares: numbers that must be finite (click's
own ranges let ``nan`` and ``inf`` through), and output files whose folder must exist, checked
when the command line is read, before any long work starts.

>>> import click
>>> Number(0, min_open=True).convert("2.5", None, None)
2.5
>>> Number(0, min_open=True).convert("nan", None, None)
Traceback (most recent call last):
...
click.exceptions.BadParameter: 'nan' is not a finite number.
"""

import math
import os
import pathlib

import click


class Number(click.FloatRange):
    """A finite float, optionally within a range (the arguments of :class:`click.FloatRange`)."""

    name = "number"

    def _describe_range(self):
        if self.min is None and self.max is None:
            return "finite"
        return super()._describe_range()

    def convert(self, value, param, ctx):
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return super().convert(number, param, ctx)


FINITE = Number()


class NumberOrAuto(Number):
    """:class:`Number`, or the word ``auto`` (the measured setting), returned as is.

    >>> NumberOrAuto(0).convert("auto", None, None)
    'auto'
    >>> NumberOrAuto(0).convert("10", None, None)
    10.0
    """

    name = "number|auto"

    def convert(self, value, param, ctx):
        if value == "auto":
            return value
        try:
            float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is neither a number nor 'auto'.", param, ctx)
        return super().convert(value, param, ctx)


class OutputFile(click.Path):
    """A file to write: not a folder, in a folder that exists and may be written."""

    def __init__(self):
        super().__init__(dir_okay=False)

    def convert(self, value, param, ctx):
        path = super().convert(value, param, ctx)
        folder = pathlib.Path(path).parent
        if not folder.is_dir():
            self.fail(f"{path!r}: there is no folder {str(folder)!r}.", param, ctx)
        if not os.access(folder, os.W_OK):
            self.fail(f"{path!r}: the folder {str(folder)!r} cannot be written.", param, ctx)
        if pathlib.Path(path).is_dir():
            self.fail(f"{path!r} is a folder.", param, ctx)
        return path

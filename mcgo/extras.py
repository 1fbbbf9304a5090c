"""The optional extras and the one error for a missing one.

Playing needs only the core (numba, numpy, sgfmill, click). Pictures, training, clusters and
tuning need an extra, installed with ``pip install 'mcgo-engine[NAME]'``; asking for one of
those without it gives :class:`MissingExtra`, whose message says what to install (``mcgo``
prints it as one line and exits with status 2).

>>> install_hint("plot")
"pip install 'mcgo-engine[plot]'"
>>> require("plot", "a picture")   # matplotlib is installed here
"""

import importlib

DISTRIBUTION = "mcgo-engine"   # the name on the package index; the command and import are mcgo
EXTRAS = {
    "plot": ("matplotlib",),
    "train": ("jax", "optax", "sklearn"),
    "cluster": ("ray",),
    "tune": ("optuna",),
}


class MissingExtra(ImportError):
    """An optional extra that is not installed; the message says how to install it."""


def install_hint(extra):
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def require(extra, what):
    """Import the modules of ``extra`` or raise :class:`MissingExtra` naming ``what`` needed
    them (``"mcgo influence"``, ``"--plot"``)."""
    for module in EXTRAS[extra]:
        try:
            importlib.import_module(module)
        except ImportError:
            raise MissingExtra(f"{what} needs {module}, from the {extra} extra: "
                               f"{install_hint(extra)}") from None
